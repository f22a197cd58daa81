"""Flavor-scan progress between scheduling cycles (issue 21 item 7): Kueue v0.19's LastAssignment and its
FlavorFungibilityPreserveScanProgress gate, against the Kueue tests that define them (kubernetes-sigs/kueue v0.19.2).
"""

from __future__ import annotations

import pytest
from testkit.kueue_sim import build_cluster, cq, wl
from testkit.spec_data import NOW

from gkecap.components.model import derive
from gkecap.components.spec import load_environment
from gkecap.simulate.environment import preserves_scan_progress
from gkecap.simulate.flavor_assigner import FIT, PREEMPT, assign_flavors
from gkecap.simulate.scan_progress import ScanProgress, outdated
from gkecap.simulate.scheduler import Scheduler

# --- pkg/scheduler/scheduler_test.go TestLastAssignmentOutdated ------------------------------------------------
# (name, gate, current cycle, recorded cycle, recorded generation, current generation, recorded shape, current
# shape, want); None is SchedulingHashUnknown (the Go tests leave the hash empty).
OUTDATED_CASES = [
    ("Cluster queue allocatableResourceIncreasedGen increased", False, 5, 1, 0, 1, None, None, True),
    ("AllocatableResourceGeneration not increased", False, 5, 1, 0, 0, None, None, False),
    ("assignment from the immediately preceding cycle survives a generation bump", True, 5, 4, 0, 1, None, None,
     False),
    ("assignment from the current cycle survives a generation bump", True, 5, 5, 0, 1, None, None, False),
    ("assignment older than one cycle falls back to the generation check", True, 5, 3, 0, 1, None, None, True),
    ("a changed scheduling shape starts the scan over even in the preceding cycle", True, 5, 4, 0, 0, ("a",), ("b",),
     True),
    ("an unchanged scheduling shape keeps the preceding cycle's assignment", True, 5, 4, 0, 1, ("a",), ("a",), False),
    ("an unknown hash is not treated as a shape change", True, 5, 4, 0, 1, None, ("b",), False),
    ("without the gate a changed scheduling shape is ignored", False, 5, 4, 0, 0, ("a",), ("b",), False),
    ("without the gate the preceding cycle gets no special treatment", False, 5, 4, 0, 1, None, None, True),
]


@pytest.mark.parametrize("case", OUTDATED_CASES, ids=lambda c: c[0])
def test_when_recorded_progress_is_outdated(case):
    _, gate, cycle, last_cycle, last_generation, generation, last_shape, shape, want = case
    last = ScanProgress(({"cpu": 0},), last_cycle, last_generation, last_shape)
    assert outdated(last, generation, cycle, shape, preserve=gate) is want


# --- pkg/scheduler/flavorassigner/flavorassigner_test.go TestFlavorScanRecordsLastTriedFlavorIdx -----------------
# Its quota-only cases: ClusterQueue "cq" with `nominal` on flavor-1 and flavor-2, a sibling in the cohort lending
# `spare` on each; one pod requesting `request` cpu. The Go test's usage and preemption oracle are spelled here as
# admitted workloads: lower-priority ones are candidates (withinClusterQueue LowerPriority), equal ones are not.

def _bookmark_cluster(nominal: str, spare: str, when_can_borrow: str, when_can_preempt: str):
    groups = [{"flavor-1": {"cpu": nominal}, "flavor-2": {"cpu": nominal}}]
    return build_cluster([
        cq("cq", "cohort", groups, within="LowerPriority", when_can_borrow=when_can_borrow,
           when_can_preempt=when_can_preempt, preference="PreemptionOverBorrowing"),
        cq("sibling", "cohort", [{"flavor-1": {"cpu": spare}, "flavor-2": {"cpu": spare}}]),
    ])


BOOKMARK_CASES = [
    # name, nominal, spare, request, whenCanBorrow, whenCanPreempt, usage priority (None: no usage), mode, tried
    ("fits only by borrowing: bookmark says start over", "1", "20", "2", "TryNextFlavor", "TryNextFlavor", None,
     FIT, -1),
    ("fits only by borrowing, but WhenCanBorrow is MayStopSearch: bookmark names the first flavor", "1", "20", "2",
     "MayStopSearch", "TryNextFlavor", None, FIT, 0),
    ("needs preemption and candidates exist: bookmark names the first flavor", "2", "0", "2", "MayStopSearch",
     "MayStopSearch", -1, PREEMPT, 0),
    ("needs preemption but no candidates: bookmark says start over whatever the policy", "2", "0", "2",
     "MayStopSearch", "MayStopSearch", 0, PREEMPT, -1),
]


@pytest.mark.parametrize("case", BOOKMARK_CASES, ids=lambda c: c[0])
def test_scan_records_where_it_stopped(case):
    _, nominal, spare, request, borrow, preempt, usage_priority, mode, tried = case
    cluster = _bookmark_cluster(nominal, spare, borrow, preempt)
    if usage_priority is not None:
        for flavor in ("flavor-1", "flavor-2"):
            cluster.add_workload(wl(f"user-{flavor}", "cq", {"cpu": "2"}, priority=usage_priority,
                                    flavors={"cpu": flavor}))
    assignment = assign_flavors(cluster, wl("wl", "cq", {"cpu": request}, creation=0.0), 0.0)
    assert (assignment.mode, assignment.tried[0]["cpu"]) == (mode, tried)


def test_each_resource_group_records_its_own_stop():
    # TestAssignFlavors "multiple resource groups, fits": cpu goes through both flavors of its group (-1), memory
    # stops at the first flavor of its group, which fits (0).
    cluster = build_cluster([cq("test-clusterqueue", None, [
        {"one": {"cpu": "2"}, "two": {"cpu": "4"}},
        {"b_one": {"memory": "1Gi"}, "b_two": {"memory": "5Gi"}},
    ])])
    assignment = assign_flavors(cluster, wl("wl", "test-clusterqueue", {"cpu": "3", "memory": "10Mi"}), 0.0)
    assert assignment.flavors() == [{"cpu": "two", "memory": "b_one"}]
    assert assignment.tried == [{"cpu": -1, "memory": 0}]


def test_a_scan_resumes_after_the_recorded_flavor():
    # NextFlavorToTryForPodSetResource (pkg/workload/workload.go @ v0.19.2): recorded index + 1. Resuming after
    # flavor-1, where the workload would fit, assigns flavor-2.
    cluster = _bookmark_cluster("4", "0", "MayStopSearch", "TryNextFlavor")
    workload = wl("wl", "cq", {"cpu": "2"})
    assert assign_flavors(cluster, workload, 0.0).flavors() == [{"cpu": "flavor-1"}]
    assert assign_flavors(cluster, workload, 0.0, resume=({"cpu": 0},)).flavors() == [{"cpu": "flavor-2"}]


def test_a_resumed_scan_does_not_go_back_to_earlier_flavors():
    # findFlavorForPodSets starts its loop at the resumed index: flavor-1, where the workload fits, is not looked
    # at again; flavor-2 is full (its user has the same priority: no candidates).
    cluster = _bookmark_cluster("2", "0", "MayStopSearch", "TryNextFlavor")
    cluster.add_workload(wl("user", "cq", {"cpu": "2"}, flavors={"cpu": "flavor-2"}))
    assignment = assign_flavors(cluster, wl("wl", "cq", {"cpu": "2"}), 0.0, resume=({"cpu": 0},))
    assert (assignment.mode, assignment.flavors()) == (PREEMPT, [{"cpu": "flavor-2"}])


# --- the scheduler: pkg/scheduler/scheduler_test.go TestEntryMarkSkipped, across cycles --------------------------
# Two reclaimers aim at the same borrowing victim in flavor-1: "first" (older) preempts it, "second" is skipped
# ("overlapping preemption targets"), its scan having stopped at flavor-1 (whenCanPreempt MayStopSearch, index 0).
# With the gate the skipped workload keeps that progress and resumes at flavor-2, where it fits; without it, it
# starts over, aims at the same victim again and is skipped again, cycle after cycle (the gate's description in
# pkg/features/kube_features.go @ v0.19.2: "leaving the scan to restart from the first flavor indefinitely").

def _contended(gate: bool):
    cluster = build_cluster([
        cq("borrower", "cohort", [{"flavor-1": {"cpu": "0"}}]),
        cq("owner-a", "cohort", [{"flavor-1": {"cpu": "2"}}], reclaim="Any"),
        cq("owner-b", "cohort", [{"flavor-1": {"cpu": "2"}, "flavor-2": {"cpu": "2"}}], reclaim="Any",
           when_can_preempt="MayStopSearch"),
    ])
    cluster.add_workload(wl("victim", "borrower", {"cpu": "4"}, flavors={"cpu": "flavor-1"}))
    scheduler = Scheduler(cluster, preserve_scan_progress=gate)
    scheduler.submit(wl("first", "owner-a", {"cpu": "2"}, creation=1.0))
    second = wl("second", "owner-b", {"cpu": "2"}, creation=2.0)
    scheduler.submit(second)
    return scheduler, second


@pytest.mark.parametrize("gate, kept", [(False, False), (True, True)],
                         ids=["without the gate the assignment is discarded so every flavor is retried",
                              "with the gate the assignment is kept so the scan resumes"])
def test_a_skipped_workload_keeps_its_progress_only_with_the_gate(gate, kept):
    scheduler, _ = _contended(gate)
    result = scheduler.cycle(0.0)
    assert {t.workload.name for t, _ in result.preempted} == {"victim"}
    progress = scheduler.scan_progress("second")
    assert (progress is not None and progress.tried[0]["cpu"] == 0) is kept


@pytest.mark.parametrize("gate, flavors", [(True, [{"cpu": "flavor-2"}]), (False, None)], ids=["gate on", "gate off"])
def test_a_skipped_workload_resumes_at_its_next_flavor_instead_of_preempting_again(gate, flavors):
    scheduler, second = _contended(gate)
    for _ in range(4):  # the victim keeps its quota: its pods are still terminating
        scheduler.cycle(0.0)
    assert second.flavors == flavors


def test_an_admitted_workload_leaves_no_progress():
    scheduler, second = _contended(True)
    scheduler.cycle(0.0)
    scheduler.cycle(0.0)
    assert second.flavors is not None and scheduler.scan_progress("second") is None


# --- which Kueue keeps progress ----------------------------------------------------------------------------------

def _model(version: str):
    return derive(load_environment({
        "region": "us-east5", "cluster": {"name": "ml"}, "kueue": {"version": version},
        "nodePools": [{"name": "h100", "machineType": "a3-highgpu-8g", "capacity": "on-demand", "maxNodes": 1}],
        "teams": [{"name": "team-a", "quota": {"h100": 8}}],
    }, now=NOW))


@pytest.mark.parametrize("version, kept", [("v0.19.2", True), ("v0.18.2", False)])
def test_the_environments_kueue_decides_whether_progress_is_kept(version, kept):
    # pkg/features/kube_features.go: FlavorFungibilityPreserveScanProgress is declared from v0.19 (beta, on).
    assert preserves_scan_progress(_model(version)) is kept
