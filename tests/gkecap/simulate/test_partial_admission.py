"""Partial admission (issue 21 item 7): a pod set's `minCount` lets Kueue admit fewer pods when all of them do not
fit. Kueue v0.19.2 TestSchedule's partial-admission cases (pkg/scheduler/scheduler_test.go), over TestSchedule's
ClusterQueues, and PodSetReducer's search (pkg/scheduler/flavorassigner/podset_reducer.go)."""

from __future__ import annotations

import pytest
from testkit.kueue_schedule_cases import SCHEDULE_QUEUES
from testkit.kueue_sim import build_cluster, wl

from gkecap.simulate.cluster import PodSet
from gkecap.simulate.partial_admission import counts_at, search
from gkecap.simulate.scheduler import Scheduler


def _cycle(admitted, pending):
    cluster = build_cluster(SCHEDULE_QUEUES)
    for workload in admitted:
        cluster.add_workload(workload)
    scheduler = Scheduler(cluster)
    for workload in pending:
        scheduler.submit(workload)
    result = scheduler.cycle(0.0)
    return cluster, {t.workload.name for t, _ in result.preempted}


def test_single_variable_pod_set_admits_as_many_pods_as_the_quota_holds():
    # "partial admission single variable pod set": 50 pods of 2 cpu, minCount 20, on sales' 50 cpu: 25 admitted.
    new = wl("sales/new", "sales", pod_sets=[("one", 50, {"cpu": "2"}, 20)])
    cluster, _ = _cycle([], [new])
    assert (new.flavors, new.counts, cluster.queues["sales"].usage) == (
        [{"cpu": "default"}], [25], {("default", "cpu"): 50_000})


def test_preemption_for_every_pod_comes_before_partial_admission():
    # "partial admission single variable pod set, preempt first": 20 GPUs fit model-a's 20 by preempting "old",
    # so Kueue preempts for all of them and admits nothing yet.
    new = wl("eng-beta/new", "eng-beta", pod_sets=[("one", 20, {"example.com/gpu": "1"}, 10)], priority=4)
    old = wl("eng-beta/old", "eng-beta", pod_sets=[("one", 10, {"example.com/gpu": "1"})], priority=-4,
             flavors={"example.com/gpu": "model-a"})
    _, preempted = _cycle([old], [new])
    assert (preempted, new.flavors) == ({"eng-beta/old"}, None)


def test_partial_admission_may_preempt():
    # "partial admission single variable pod set, preempt with partial admission": 30 GPUs never fit model-a's 20;
    # 20 of them do by preempting "old": Kueue preempts it for the reduced count.
    new = wl("eng-beta/new", "eng-beta", pod_sets=[("one", 30, {"example.com/gpu": "1"}, 10)], priority=4)
    old = wl("eng-beta/old", "eng-beta", pod_sets=[("one", 10, {"example.com/gpu": "1"})], priority=-4,
             flavors={"example.com/gpu": "model-a"})
    _, preempted = _cycle([old], [new])
    assert (preempted, new.flavors) == ({"eng-beta/old"}, None)


def test_every_variable_pod_set_gives_up_its_share():
    # "partial admission multiple variable pod sets": 20 + 30 (min 10) + 15 (min 5) cpu on sales' 50: 20, 20, 10.
    new = wl("sales/new", "sales", pod_sets=[("one", 20, {"cpu": "1"}), ("two", 30, {"cpu": "1"}, 10),
                                             ("three", 15, {"cpu": "1"}, 5)])
    _cycle([], [new])
    assert new.counts == [20, 20, 10]


def test_without_min_count_nothing_is_reduced():
    # The same workload without minCount (as "partial admission disabled", where Kueue drops minCount): pending.
    new = wl("sales/new", "sales", pod_sets=[("one", 20, {"cpu": "1"}), ("two", 30, {"cpu": "1"}),
                                             ("three", 15, {"cpu": "1"})])
    _cycle([], [new])
    assert new.flavors is None


def test_an_admitted_partial_workload_holds_only_its_pods_and_gives_them_back():
    from gkecap.simulate.scheduler import evict

    new = wl("sales/new", "sales", pod_sets=[("one", 50, {"cpu": "2"}, 20)])
    cluster, _ = _cycle([], [new])
    evict(cluster, new)
    assert (new.counts, cluster.queues["sales"].usage.get(("default", "cpu"), 0)) == (None, 0)


@pytest.mark.parametrize("index, want", [(0, [20, 30, 15]), (15, [20, 20, 10]), (30, [20, 10, 5])])
def test_search_index_scales_every_delta(index, want):
    # fillPodSetSizesForSearchIndex: count - delta x index / totalDelta, integer division.
    pod_sets = [PodSet("one", 20, {}), PodSet("two", 30, {}, min_count=10), PodSet("three", 15, {}, min_count=5)]
    assert counts_at(pod_sets, index, 30) == want


def test_search_tries_indices_as_go_sort_search():
    # sort.Search over [0, totalDelta]: the midpoints 15, 23, 27, 25, 24 for 50 pods, minCount 20, 25 fitting.
    tried = []
    result = search([PodSet("one", 50, {}, min_count=20)],
                    lambda counts: tried.append(counts[0]) or (counts[0] if counts[0] <= 25 else None))
    assert (tried, result) == ([35, 27, 23, 25, 26], 25)
