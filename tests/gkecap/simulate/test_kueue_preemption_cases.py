"""The simulator picks the same preemption targets as Kueue's own TestPreemption and TestFairPreemptions cases
(v0.19.2), for the same ClusterQueues, Cohorts, admitted workloads and incoming workload with its flavor assignment."""

from __future__ import annotations

import pytest
from testkit.kueue_fair_preemption_cases import FAIR_PREEMPTION_CASES
from testkit.kueue_hierarchical_preemption_cases import HIERARCHICAL_PREEMPTION_CASES
from testkit.kueue_preemption_cases import PREEMPTION_CASES
from testkit.kueue_sim import PreemptionCase, build_cluster

from gkecap.simulate.preemption import PreemptionContext, get_targets

NOW = 0.0


def _usage(cluster) -> dict:
    """Usage of every queue and cohort, zero entries dropped (Kueue's snapshot comparison ignores them too)."""
    nodes = list(cluster.queues.values()) + list(cluster.cohorts.values())
    return {n.name: {fr: v for fr, v in n.usage.items() if v} for n in nodes}


def _targets(case: PreemptionCase):
    cluster = build_cluster(case.queues, case.cohorts, fair_sharing=case.fair_sharing, strategies=case.strategies)
    for workload in case.admitted:
        cluster.add_workload(workload)
    before = _usage(cluster)
    incoming = case.incoming
    incoming.cluster_queue = case.target
    usage: dict = {}
    needs = set()
    for pod_set, flavors in zip(incoming.pod_sets, case.assignment):
        for resource, total in pod_set.total().items():
            flavor, mode = flavors[resource]
            usage[(flavor, resource)] = usage.get((flavor, resource), 0) + total
            if mode == "Preempt":
                needs.add((flavor, resource))
    targets = get_targets(PreemptionContext(cluster, incoming, usage, needs, NOW))
    after = _usage(cluster)
    return {t.workload.name: t.reason for t in targets}, before, after


@pytest.mark.parametrize("case", PREEMPTION_CASES + FAIR_PREEMPTION_CASES + HIERARCHICAL_PREEMPTION_CASES,
                         ids=lambda c: c.id)
def test_same_targets_as_kueue(case: PreemptionCase):
    got, _, _ = _targets(case)
    # A reason of None: Kueue's case checks the target but records no reason for it (an eviction under way).
    assert {name: None if case.want.get(name, "") is None else reason for name, reason in got.items()} == case.want


@pytest.mark.parametrize("case", PREEMPTION_CASES[:4] + FAIR_PREEMPTION_CASES[:4], ids=lambda c: c.id)
def test_choosing_targets_leaves_the_snapshot_as_it_was(case: PreemptionCase):
    # Kueue's test also diffs the snapshot: simulating removals must be undone.
    _, before, after = _targets(case)
    assert before == after


def test_enough_cases_are_transcribed():
    assert len(PREEMPTION_CASES) >= 30 and len(FAIR_PREEMPTION_CASES) >= 30
    assert len(HIERARCHICAL_PREEMPTION_CASES) == 15  # every case of TestHierarchicalPreemptions
