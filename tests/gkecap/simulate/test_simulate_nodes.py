"""Pods on nodes after Kueue admits them: shared nodes (kube-scheduler's fit), MIG units, the cluster autoscaler's
delays, whole TPU slices, waitForPodsReady evictions, waits to start against waits to admission, units per kind
and idle capacity (issue 21, items 1-4)."""

from __future__ import annotations

import pytest
from rich.console import Console
from testkit.spec_data import NOW, prod

from gkecap.components.kubernetes_objects.build import kueue_objects
from gkecap.components.model import derive
from gkecap.components.spec import load_environment
from gkecap.simulate import simulate_environment
from gkecap.simulate.nodes import DEFAULT_PROVISIONING_SECONDS, DEFAULT_SCALE_DOWN_SECONDS, Delays, PoolNodes
from gkecap.simulate.output import pool_rows, render_text, team_rows, to_document
from gkecap.simulate.workloads_file import WorkloadsFile

START = "2026-12-01T00:00:00Z"
HOUR = 3600


def shared() -> dict:
    """Two 8-GPU on-demand nodes kept up (minNodes 2) shared 4/2/2/8 by four teams in a cohort (the Run:AI
    story's split), one A100 with seven 1g.10gb MIG partitions, and an autoscaled on-demand L4 pool from zero."""
    return {
        "region": "us-east5",
        "cluster": {"name": "ml-shared"},
        "kueue": {"version": "v0.19.2", "fairSharing": False},
        "nodePools": [
            {"name": "h100", "machineType": "a3-highgpu-8g", "capacity": "on-demand", "minNodes": 2, "maxNodes": 2},
            {"name": "mig", "machineType": "a2-ultragpu-1g", "capacity": "on-demand", "minNodes": 1, "maxNodes": 1,
             "gpuPartitionSize": "1g.10gb"},
            {"name": "l4", "machineType": "g2-standard-24", "capacity": "on-demand", "maxNodes": 2},
        ],
        "cohorts": [{"name": "research"}],
        "teams": [
            {"name": "team-a", "cohort": "research", "quota": {"h100": 4, "mig": 7, "l4": 2}},
            {"name": "team-b", "cohort": "research", "quota": {"h100": 2, "l4": 2}},
            {"name": "team-c", "cohort": "research", "quota": {"h100": 2}},
            {"name": "team-d", "cohort": "research", "quota": {"h100": 8}},
        ],
    }


def _simulate(environment: dict, workloads: list[dict], **extra):
    model = derive(load_environment(environment, now=NOW))
    document = WorkloadsFile.model_validate({"start": START, "workloads": workloads, **extra})
    return simulate_environment(model, kueue_objects(model), document)


def _outcome(result, name: str):
    return next(w for w in result.workloads if w.name == name)


def test_eight_one_gpu_jobs_share_two_eight_gpu_nodes():
    result = _simulate(shared(), [{"name": "job", "team": "team-d", "accelerators": 1, "pool": "h100",
                                   "duration": "1h", "count": 8}])
    assert [(w.started, w.finished) for w in result.workloads] == [(0, HOUR)] * 8


def test_seven_mig_notebooks_start_together_on_one_gpu():
    result = _simulate(shared(), [{"name": "nb", "team": "team-a", "accelerators": 1, "pool": "mig",
                                   "duration": "2h", "count": 7}])
    assert {w.started for w in result.workloads} == {0} and {w.unit for w in result.workloads} == {
        "GPU units (MIG 1g.10gb)"}


def test_an_eighth_mig_notebook_waits_for_a_partition():
    result = _simulate(shared(), [{"name": "nb", "team": "team-a", "accelerators": 1, "pool": "mig",
                                   "duration": "2h", "count": 7},
                                  {"name": "late", "team": "team-b", "accelerators": 1, "pool": "mig",
                                   "submit": "1m", "duration": "1h"}])
    # team-b has no MIG quota of its own and borrows in the cohort only what is unused: none until 2h, and Kueue
    # puts it back in its queue 1 s after that release (the batched requeue, gkecap.simulate.timing).
    assert _outcome(result, "late").started == 2 * HOUR + 1


RUNAI = [
    # team-a bursts to all 16 GPUs (4 of its own, 12 borrowed), then d and b reclaim their quota.
    {"name": "a", "team": "team-a", "accelerators": 2, "pool": "h100", "duration": "6h", "count": 8},
    {"name": "d", "team": "team-d", "pods": 4, "accelerators": 2, "pool": "h100", "submit": "1h", "duration": "2h"},
    {"name": "b", "team": "team-b", "accelerators": 2, "pool": "h100", "submit": "2h", "duration": "2h"},
]


def _runai_environment() -> dict:
    environment = shared()
    for team in environment["teams"]:
        team["preemption"] = {"reclaimWithinCohort": "Any"}
    return environment


@pytest.mark.parametrize("pod_start", [0, 90])
def test_reclaiming_jobs_start_when_admitted(pod_start: int):
    result = _simulate(_runai_environment(), RUNAI, delays={"podStart": pod_start})
    d, b = _outcome(result, "d"), _outcome(result, "b")
    # Each is admitted once its victims' pods have terminated (the default 30 s grace, gkecap.simulate.timing) and
    # starts when admitted, plus the pod start delay.
    assert (d.admitted, d.started) == (HOUR + 30, HOUR + 30 + pod_start)
    assert (b.admitted, b.started) == (2 * HOUR + 30, 2 * HOUR + 30 + pod_start)


def test_team_table_reports_wait_to_start_apart_from_wait_to_admission():
    result = _simulate(shared(), [
        {"name": "l4-job", "team": "team-b", "accelerators": 2, "pool": "l4", "duration": "1h"}])
    [row] = [r for r in team_rows(result) if r["name"] == "team-b"]
    # Admitted at once (quota is free); its pods wait for the node the autoscaler adds.
    assert row["waitToAdmission"]["max"] == 0
    assert row["waitToStart"] == {"mean": 240, "p50": 240, "p95": 240, "max": 240, "count": 1}


def test_terminal_summary_shows_the_waits_users_see():
    result = _simulate(shared(), [
        {"name": "l4-job", "team": "team-b", "accelerators": 2, "pool": "l4", "duration": "1h"}])
    console = Console(width=200, record=True)
    render_text(result, console, source="shared")
    text = console.export_text()
    assert "Wait to start (every pod running): mean 00:04:00" in text and "wait to admission: mean 00:00:00" in text


def test_the_autoscaler_adds_nodes_after_the_provisioning_delay_and_removes_empty_ones():
    result = _simulate(shared(), [
        {"name": "l4-job", "team": "team-a", "pods": 2, "accelerators": 2, "pool": "l4", "duration": "1h"}])
    job = _outcome(result, "l4-job")
    assert job.started == DEFAULT_PROVISIONING_SECONDS  # two 2-GPU pods on one new 2-GPU node each
    steps = [(t, ready) for t, ready, _, _ in result.pool_nodes["l4"]]
    end = DEFAULT_PROVISIONING_SECONDS + HOUR
    assert steps[0] == (0, 0) and (DEFAULT_PROVISIONING_SECONDS, 2) in steps
    assert steps[-1] == (end + DEFAULT_SCALE_DOWN_SECONDS, 0)


def test_delays_are_overridable_in_the_workloads_file():
    result = _simulate(shared(), [{"name": "l4-job", "team": "team-a", "accelerators": 2, "pool": "l4",
                                   "duration": "1h"}], delays={"provisioning": "10m", "scaleDown": "1m"})
    assert _outcome(result, "l4-job").started == 600
    assert result.pool_nodes["l4"][-1][:2] == (600 + HOUR + 60, 0)


def test_the_autoscaler_stops_at_max_nodes():
    result = _simulate(shared(), [{"name": "j", "team": "team-a", "accelerators": 2, "pool": "l4", "duration": "1h",
                                   "count": 2},
                                  {"name": "k", "team": "team-b", "accelerators": 2, "pool": "l4", "duration": "1h"}])
    # 2 + 2 quota, 2 nodes of 2 GPUs at most: the third job waits for a free node... and its quota.
    assert max(ready for _, ready, _, _ in result.pool_nodes["l4"]) == 2


def test_a_multi_host_slice_serves_one_workload():
    environment = prod()
    result = _simulate(environment, [
        {"name": "t1", "team": "team-d", "pods": 1, "accelerators": 4, "pool": "v6e-16", "duration": "1h"},
        {"name": "t2", "team": "team-d", "pods": 1, "accelerators": 4, "pool": "v6e-16", "duration": "1h"},
    ])
    # Each 4-chip pod takes a whole 4x4 slice (4 VMs): two slices come up together.
    assert {w.started for w in result.workloads} == {DEFAULT_PROVISIONING_SECONDS}
    assert max(ready for _, ready, _, _ in result.pool_nodes["v6e-16"]) == 8


def _with_pods_ready(environment: dict, timeout: str = "10m") -> dict:
    environment["kueue"] = {**environment.get("kueue", {}), "waitForPodsReady": {"timeout": timeout}}
    return environment


def test_pods_ready_timeout_evicts_a_workload_whose_nodes_cannot_be_obtained():
    result = _simulate(_with_pods_ready(prod()), [
        {"name": "t", "team": "team-d", "pods": 4, "accelerators": 4, "pool": "v6e-16", "duration": "1h"}],
        capacity=[{"pool": "v6e-16", "from": "0s", "until": "1h", "nodes": 0},
                  {"pool": "v6e-16", "from": "1h", "until": "2d", "nodes": 4}])
    evictions = [e for e in result.events if e.event == "evicted"]
    # waitForPodsReady of 10 minutes, with Kueue's default back-off (60 s doubling).
    assert [e.time for e in evictions[:3]] == [600, 600 + 60 + 600, 600 + 60 + 600 + 120 + 600]
    assert "PodsReadyTimeout" in evictions[0].reason and _outcome(result, "t").evictions == len(evictions)
    assert _outcome(result, "t").started is not None and _outcome(result, "t").started >= HOUR


def test_without_wait_for_pods_ready_a_calendar_environment_waits_without_eviction():
    # It is cluster-wide, so a calendar pool does not switch it on (issue 22 item 4).
    result = _simulate(prod(), [
        {"name": "t", "team": "team-d", "pods": 4, "accelerators": 4, "pool": "v6e-16", "duration": "1h"}],
        capacity=[{"pool": "v6e-16", "from": "0s", "until": "1h", "nodes": 0},
                  {"pool": "v6e-16", "from": "1h", "until": "2d", "nodes": 4}])
    assert result.pods_ready is None and not [e for e in result.events if e.event == "evicted"]


def test_without_calendar_pools_pods_wait_without_eviction():
    result = _simulate(shared(), [{"name": "j", "team": "team-a", "accelerators": 2, "pool": "l4", "duration": "1h"}],
                       delays={"provisioning": "1h"})
    assert result.pods_ready is None and not [e for e in result.events if e.event == "evicted"]


def test_units_of_different_kinds_are_never_added_up():
    result = _simulate(prod(), [{"name": "t", "team": "team-d", "pods": 4, "accelerators": 4, "pool": "v6e-16",
                                 "duration": "1h"}])
    [row] = [r for r in to_document(result)["teams"] if r["name"] == "team-d"]
    assert row["quota"] == {"GPUs": 8 + 32 + 2, "TPU chips": 16}
    assert row["peakUsage"] == {"GPUs": 0, "TPU chips": 16}


def test_idle_capacity_of_a_calendar_window():
    environment = prod()
    environment["reservations"][0]["submit"] = True
    result = _simulate(environment, [
        {"name": "cal", "team": "team-d", "pods": 4, "accelerators": 8, "pool": "h100-dec", "submit": "6d",
         "duration": "7d"}])
    [row] = [r for r in pool_rows(result) if r["name"] == "h100-dec"]
    # 8 VMs from day 6; the job holds 4 of them for 7 days; the scenario ends with it at day 13.
    assert row["reservedNodeHours"] == 8 * 7 * 24 and row["usedNodeHours"] == 4 * 7 * 24
    assert row["idleReservedNodeHours"] == 4 * 7 * 24 and row["idleNodeHours"] == 4 * 7 * 24


def test_first_fit_in_node_order():
    nodes = PoolNodes("p", 8, 1, lambda t: 2, autoscaled=False, min_nodes=0, delays=Delays())
    nodes.admit("big", 1, 6, (0, 0.0, 0))
    nodes.admit("small", 1, 2, (0, 0.0, 1))
    nodes.admit("other", 1, 6, (0, 0.0, 2))
    assert nodes.schedule(0.0) == ["big", "small", "other"]
    assert [n.free for n in nodes.nodes] == [0, 2]


def test_a_pod_that_does_not_fit_does_not_block_the_next():
    nodes = PoolNodes("p", 8, 1, lambda t: 1, autoscaled=False, min_nodes=0, delays=Delays())
    nodes.admit("first", 1, 6, (0, 0.0, 0))
    nodes.admit("too-big", 1, 4, (0, 0.0, 1))
    nodes.admit("fits", 1, 2, (0, 0.0, 2))
    assert nodes.schedule(0.0) == ["first", "fits"]
