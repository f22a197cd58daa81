"""Topology-aware scheduling in the simulator (issue 21 item 4/7): where Kueue's TAS places a pod set that asks for
a topology level, and a workload that needs one domain waits rather than spreading. Kueue v0.19.2:
pkg/cache/scheduler/tas_cache_test.go TestFindTopologyAssignments and
pkg/scheduler/scheduler_preserve_flavor_scan_progress_test.go TestScheduleForPreserveFlavorScanProgress."""

from __future__ import annotations

from pathlib import Path

import pytest
from testkit.kueue_sim import build_cluster, cq, wl
from testkit.spec_data import NOW

from gkecap.components.kubernetes_objects.build import kueue_objects
from gkecap.components.model import derive
from gkecap.components.spec import load_environment
from gkecap.simulate import WorkloadsFileError, load_workloads_file, simulate_environment
from gkecap.simulate.cluster import Flavor
from gkecap.simulate.scheduler import Scheduler
from gkecap.simulate.topology import place
from gkecap.simulate.workloads_file import WorkloadsFile

HOUR = 3600

# --- TestFindTopologyAssignments over its defaultNodes with two levels (block, rack) -------------------------------
# The leaves are the racks, holding their nodes' cpu together: b1/r1 1, b1/r2 3 (three nodes), b2/r1 1, b2/r2 2.
RACKS = [("b1", "r1"), ("b1", "r2"), ("b2", "r1"), ("b2", "r2")]
RACK_CPU = [1, 3, 1, 2]
BLOCK, RACK = 0, 1

PLACEMENT_CASES = [
    # (case, level, required, pods, cpu per pod, want {rack: pods} or None)
    ("rack required; single Pod fits in a rack; BestFit", RACK, True, 1, 1, {("b1", "r1"): 1}),
    ("rack required; multiple Pods fit in a rack; BestFit", RACK, True, 3, 1, {("b1", "r2"): 3}),
    ("rack required; multiple Pods fit in some racks; BestFit", RACK, True, 2, 1, {("b2", "r2"): 2}),
    ("rack required; too many pods to fit in any rack; BestFit", RACK, True, 4, 1, None),
    ("block required; single Pod fits in a block and a single rack; BestFit", BLOCK, True, 1, 1, {("b2", "r1"): 1}),
    ("block required; Pods fit in a block spread across two racks; BestFit", BLOCK, True, 4, 1,
     {("b1", "r1"): 1, ("b1", "r2"): 3}),
    ("block required; single Pod which cannot be split; BestFit", BLOCK, True, 1, 4, None),
    ("block required; too many Pods to fit requested; BestFit", BLOCK, True, 5, 1, None),
    ("rack preferred; but only block can accommodate the workload; BestFit", RACK, False, 4, 1,
     {("b1", "r1"): 1, ("b1", "r2"): 3}),
    ("rack preferred; but only multiple blocks can accommodate the workload; BestFit", RACK, False, 6, 1,
     {("b1", "r1"): 1, ("b1", "r2"): 3, ("b2", "r2"): 2}),
    ("block preferred; but only multiple blocks can accommodate the workload; BestFit", BLOCK, False, 6, 1,
     {("b1", "r1"): 1, ("b1", "r2"): 3, ("b2", "r2"): 2}),
    ("block preferred; but the workload cannot be accommodate in entire topology; BestFit", BLOCK, False, 10, 1,
     None),
]


@pytest.mark.parametrize("case", PLACEMENT_CASES, ids=lambda c: c[0])
def test_placement_follows_kueues_best_fit(case):
    _, level, required, pods, cpu, want = case
    placed = place(RACKS, [c // cpu for c in RACK_CPU], pods, level, required)
    assert (None if placed is None else {RACKS[i]: n for i, n in placed.items()}) == want


def test_block_preferred_spreads_over_the_fewest_blocks():
    # "block preferred; Pods fit in 2 blocks; BestFit": blocks of 2, 1 and 4 cpu, 5 pods of 1 cpu: b2 1, b3 4.
    placed = place([("b1",), ("b2",), ("b3",)], [2, 1, 4], 5, 0, False)
    assert placed == {1: 1, 2: 4}


# --- TestScheduleForPreserveFlavorScanProgress ------------------------------------------------------------------
# Two TAS flavors of one node (2 cpu) each, quota 4 cpu on each. The blocker fills flavor-1's node; "pending" needs
# a whole node (hostname required). Quota accepts flavor-1 (the scan stops there), its topology does not, and no
# one can be preempted (same priority): with the gate the next cycle resumes at flavor-2; without it, while the
# queue's generation keeps advancing ("churn"), every cycle starts over at flavor-1.

def _node_room(cluster, name: str, assignment) -> str | None:
    if name != "pending":
        return None
    flavor = assignment.flavors()[0]["cpu"]
    used = sum(w.usage().get((flavor, "cpu"), 0) for q in cluster.queues.values() for w in q.workloads.values())
    return "" if 2000 - used >= 2000 else f"no node of {flavor} has 2 cpu free"


@pytest.mark.parametrize("gate, churn, want", [
    (False, True, None), (True, True, "tas-flavor-2"), (False, False, "tas-flavor-2"), (True, False, "tas-flavor-2"),
], ids=["gate disabled", "gate enabled", "no generation churn, gate disabled", "no generation churn, gate enabled"])
def test_a_workload_whose_topology_fails_on_the_first_flavor_reaches_the_next(gate, churn, want):
    cluster = build_cluster([cq("tas-cq", None, [{"tas-flavor-1": {"cpu": "4"}, "tas-flavor-2": {"cpu": "4"}}],
                                within="LowerPriority", reclaim="Any")],
                            flavors=[Flavor("tas-flavor-1", {"tas-flavor": "f1"}),
                                     Flavor("tas-flavor-2", {"tas-flavor": "f2"})], fair_sharing=True)
    scheduler = Scheduler(cluster, preserve_scan_progress=gate)
    scheduler.topology_fits = lambda w, assignment: _node_room(cluster, w.name, assignment)
    blocker = wl("blocker", "tas-cq", {"cpu": "2"}, priority=10, creation=-60.0, node_selector={"tas-flavor": "f1"})
    pending = wl("pending", "tas-cq", {"cpu": "2"}, priority=10, creation=0.0)
    scheduler.submit(blocker)
    scheduler.submit(pending)
    for _ in range(4):  # preserveProgressCycles
        scheduler.cycle(0.0)
        if churn:
            cluster.queues["tas-cq"].allocatable_generation += 1
    assert (blocker.flavors, pending.flavors and pending.flavors[0]["cpu"]) == ([{"cpu": "tas-flavor-1"}], want)


# --- through the environment ------------------------------------------------------------------------------------

def _environment() -> dict:
    """Four reserved a3-highgpu-8g nodes with TAS on."""
    return {
        "region": "us-east5",
        "cluster": {"name": "ml-tas"},
        "kueue": {"version": "v0.19.2", "topologyAwareScheduling": True},
        "nodePools": [{"name": "h100", "machineType": "a3-highgpu-8g", "capacity": "reservation",
                       "reservation": "h100-res", "maxNodes": 4, "zones": ["us-east5-a"]}],
        "teams": [{"name": "team-a", "quota": {"h100": 32}}],
    }


def _simulate(workloads: list[dict], layout: list[dict] | None = None):
    model = derive(load_environment(_environment(), now=NOW))
    document = WorkloadsFile.model_validate({"start": "2026-12-01T00:00:00Z", "workloads": workloads,
                                             "layout": layout or []})
    return simulate_environment(model, kueue_objects(model), document)


# Nodes 0-1 form block 0 and nodes 2-3 block 1. Three one-node fillers take nodes 0, 1 and 2; at 1 h node 0 frees
# (block 0) beside node 3 (block 1). A two-node job asking for one block waits until node 2 frees at 2 h.
FILLERS = [{"name": f"filler-{i}", "team": "team-a", "accelerators": 8, "duration": f"{hours}h"}
           for i, hours in enumerate((1, 3, 2))]
LAYOUT = [{"pool": "h100", "nodesPerBlock": 2, "nodesPerSubblock": 2}]


def _job(**topology) -> dict:
    return {"name": "job", "team": "team-a", "pods": 2, "accelerators": 8, "duration": "1h",
            **({"topology": topology} if topology else {})}


def _job_outcome(result):
    return next(w for w in result.workloads if w.name == "job")


def test_a_workload_that_needs_one_block_waits_rather_than_spreading():
    job = _job_outcome(_simulate(FILLERS + [_job(required="block")], LAYOUT))
    # Requeued with the others 1 s after the node frees: TAS room, like quota, goes through Kueue's batched requeue.
    assert (job.admitted, job.started) == (2 * HOUR + 1, 2 * HOUR + 1)


def test_without_a_topology_request_the_pods_spread():
    job = _job_outcome(_simulate(FILLERS + [_job()], LAYOUT))
    # It waits for quota among the inadmissible: Kueue requeues them 1 s after the release (gkecap.simulate.timing).
    assert job.started == HOUR + 1


def test_a_preferred_level_spreads_when_no_block_has_room():
    job = _job_outcome(_simulate(FILLERS + [_job(preferred="block")], LAYOUT))
    assert job.started == HOUR + 1


def test_without_a_layout_every_node_is_in_one_block():
    job = _job_outcome(_simulate(FILLERS + [_job(required="block")]))
    assert job.started == HOUR + 1


@pytest.mark.parametrize("text, path, words", [
    ("topology: {required: rack}", "workloads[0].topology.required", "not a level of gke-default's topology"),
    ("topology: {required: block, preferred: host}", "workloads[0].topology", "one of `required` or `preferred`"),
])
def test_bad_topology_requests_are_named(tmp_path: Path, text, path, words):
    file = tmp_path / "workloads.yaml"
    file.write_text(f"workloads:\n  - {{name: w, team: team-a, accelerators: 1, duration: 1h, {text}}}\n")
    with pytest.raises(WorkloadsFileError) as caught:
        load_workloads_file(file)
    assert f"{path}: " in str(caught.value) and words in str(caught.value)


def test_a_layout_whose_subblocks_straddle_blocks_is_refused(tmp_path: Path):
    file = tmp_path / "workloads.yaml"
    file.write_text("workloads:\n  - {name: w, team: team-a, accelerators: 1, duration: 1h}\n"
                    "layout:\n  - {pool: h100, nodesPerBlock: 4, nodesPerSubblock: 3}\n")
    with pytest.raises(WorkloadsFileError) as caught:
        load_workloads_file(file)
    assert "layout[0].nodesPerSubblock: 3 does not divide nodesPerBlock (4)" in str(caught.value)


def test_a_topology_request_on_a_pool_without_topology_is_refused():
    environment = _environment()
    environment["kueue"]["topologyAwareScheduling"] = False
    model = derive(load_environment(environment, now=NOW))
    document = WorkloadsFile.model_validate({"workloads": [_job(required="block")]})
    with pytest.raises(WorkloadsFileError) as caught:
        simulate_environment(model, kueue_objects(model), document)
    assert "workloads[0].topology: h100: a topology request needs topology-aware pools" in str(caught.value)
