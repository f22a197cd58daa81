"""One scheduling cycle of the simulator admits what Kueue's own TestSchedule cases admit (v0.19.2), with the same
flavors, and leaves the rest pending."""

from __future__ import annotations

import pytest
from testkit.kueue_schedule_cases import SCHEDULE_CASES
from testkit.kueue_sim import ScheduleCase, build_cluster

from gkecap.simulate.scheduler import Scheduler


def _flavors(workload) -> object:
    flavors = workload.flavors
    return flavors[0] if len(flavors) == 1 else flavors


@pytest.mark.parametrize("case", SCHEDULE_CASES, ids=lambda c: c.id)
def test_same_admissions_as_kueue(case: ScheduleCase):
    cluster = build_cluster(case.queues, case.cohorts, case.flavors, fair_sharing=case.fair_sharing)
    for workload in case.admitted:
        cluster.add_workload(workload)
    scheduler = Scheduler(cluster)
    for workload in case.pending:
        scheduler.submit(workload)
    preempted = set()
    for _ in range(case.cycles):
        preempted |= {target.workload.name for target, _ in scheduler.cycle(0.0).preempted}
    admitted = {w.name: _flavors(w) for q in cluster.queues.values() for w in q.workloads.values()}
    assert admitted == case.want_admitted
    left = {w.name for w in case.pending} - set(case.want_admitted)
    assert {w.name for w in case.pending if w.flavors is None} == left
    assert preempted == case.want_preempted  # issued this cycle; the victims still hold their quota
