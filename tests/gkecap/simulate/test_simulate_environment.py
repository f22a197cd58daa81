"""The environment-derived simulation: queues come from the emitted Kueue objects, and quota, preemption,
admission checks, node capacity and calendar windows decide who runs when."""

from __future__ import annotations

import pytest
from testkit.spec_data import NOW, dev, prod

from gkecap.components.kubernetes_objects.build import kueue_objects
from gkecap.components.model import derive
from gkecap.components.spec import load_environment
from gkecap.simulate import WorkloadsFileError, simulate_environment
from gkecap.simulate.environment import cluster_from_objects
from gkecap.simulate.workloads_file import WorkloadsFile

START = "2026-12-01T00:00:00Z"  # before prod()'s dec-run window (2026-12-07 .. 2026-12-21)


def _simulate(environment: dict, workloads: list[dict], capacity: list[dict] | None = None):
    spec = load_environment(environment, now=NOW)
    model = derive(spec)
    document = WorkloadsFile.model_validate({"start": START, "workloads": workloads, "capacity": capacity or []})
    return simulate_environment(model, kueue_objects(model), document)


def _events(result, kind: str) -> list:
    return [e for e in result.events if e.event == kind]


def _outcome(result, name: str):
    return next(w for w in result.workloads if w.name == name)


def test_queues_are_the_emitted_cluster_queues():
    model = derive(load_environment(prod(), now=NOW))
    cluster = cluster_from_objects(kueue_objects(model), fair_sharing=True)
    team_a = cluster.queues["team-a"]
    quota = team_a.quota(("h100-dws", "nvidia.com/gpu"))
    assert (quota.nominal, quota.borrowing_limit, quota.lending_limit) == (4, 12, 4)
    assert team_a.parent is cluster.cohorts["research"] and team_a.weight == 2.0
    assert team_a.admission_checks == {"h100-dws": ("h100-dws-provisioning",)}


def test_a_team_borrows_idle_quota_and_the_owner_reclaims_it():
    result = _simulate(prod(), [
        {"name": "d-1", "team": "team-d", "accelerators": 8, "pool": "h100-dws", "duration": "4h"},
        {"name": "d-2", "team": "team-d", "accelerators": 8, "pool": "h100-dws", "duration": "4h"},
        {"name": "b-1", "team": "team-b", "accelerators": 2, "pool": "h100-dws", "submit": "1h", "duration": "1h"},
    ])
    borrowing = [e for e in _events(result, "admitted") if e.borrowed][0]
    assert borrowing.time == 0 and borrowing.borrowed == 8
    [preempted] = _events(result, "preempted")
    assert preempted.time == 3600 and preempted.reason.startswith("InCohortReclamation by b-1")


def test_a_preempted_workload_starts_over():
    result = _simulate(prod(), [
        {"name": "d-1", "team": "team-d", "accelerators": 8, "pool": "h100-dws", "duration": "4h"},
        {"name": "d-2", "team": "team-d", "accelerators": 8, "pool": "h100-dws", "duration": "4h"},
        {"name": "b-1", "team": "team-b", "accelerators": 2, "pool": "h100-dws", "submit": "1h", "duration": "1h"},
    ])
    victim = _outcome(result, _events(result, "preempted")[0].workload)
    readmitted = [e.time for e in _events(result, "admitted") if e.workload == victim.name][-1]
    # The victim's pods terminate for 30 s (its quota held meanwhile), so b-1 is admitted at 1h 30s and holds a whole
    # VM until 2h 30s; the victim joins d-2's shape among the inadmissible (hashToBulkMoveReason) and competes again
    # at Kueue's batched requeue 1 s after b-1's release (gkecap.simulate.timing); its 4h count again from its restart.
    assert victim.preemptions == 1 and readmitted == 7231 and victim.finished == 7231 + 4 * 3600


def test_a_queued_workload_holds_its_quota_while_it_waits_for_whole_vms():
    result = _simulate(prod(), [
        {"name": "d-1", "team": "team-d", "accelerators": 8, "pool": "h100-dws", "duration": "2h"},
        {"name": "a-1", "team": "team-a", "accelerators": 4, "pool": "h100-dws", "duration": "2h"},
        {"name": "c-1", "team": "team-c", "accelerators": 2, "pool": "h100-dws", "submit": "1m", "duration": "1h"},
    ])
    c1 = _outcome(result, "c-1")
    # Quota is free (team-c: 2), but both 8-GPU VMs are taken: the ProvisioningRequest waits until one is free.
    assert c1.admitted == 7200 and c1.wait_seconds == 7200 - 60
    assert result.usage["team-c"]["GPUs"][1] == (60.0, 2, 0)  # its quota is reserved from its submission


def test_a_request_the_pool_can_never_provision_is_deactivated_after_the_retry_limit():
    result = _simulate(
        prod(), [{"name": "d-big", "team": "team-d", "pods": 2, "accelerators": 8, "pool": "h100-dws", "duration": "1h"}],
        capacity=[{"pool": "h100-dws", "from": "0s", "until": "1d", "nodes": 1}])
    [deactivated] = _events(result, "deactivated")
    # backoffLimitCount 3, base 60 s doubling: attempts at 0, 60, 180 and 420 s.
    assert deactivated.time == 420 and "failed 4 times" in deactivated.reason
    assert _outcome(result, "d-big").admitted is None


def test_capacity_entries_limit_what_a_flex_start_pool_obtains():
    result = _simulate(dev(), [
        {"name": "v-1", "team": "vision", "accelerators": 2, "pool": "l4-flex", "duration": "1h"},
        {"name": "n-1", "team": "nlp", "accelerators": 2, "pool": "l4-flex", "duration": "1h"},
    ], capacity=[{"pool": "l4-flex", "from": "0s", "until": "30m", "nodes": 1},
                 {"pool": "l4-flex", "from": "30m", "until": "1d", "nodes": 2}])
    # The autoscaler asks for a node at once and for the second when the pool can obtain it; each is ready after
    # the default provisioning delay (4 minutes, gkecap.simulate.nodes).
    assert sorted(w.started for w in result.workloads) == [240, 1800 + 240]
    assert all(w.admitted == 0 for w in result.workloads)  # no admission check: quota is the admission


def test_a_calendar_pool_runs_only_inside_a_submitted_reservation_window():
    environment = prod()
    environment["reservations"][0]["submit"] = True
    environment["kueue"] = {**environment.get("kueue", {}), "waitForPodsReady": {"timeout": "10m"}}
    result = _simulate(environment, [
        {"name": "d-cal", "team": "team-d", "pods": 4, "accelerators": 8, "pool": "h100-dec", "duration": "30d"}])
    [run] = result.runs
    # Until the window opens (6 days after the start) waitForPodsReady evicts it every time its pods wait 10 minutes;
    # it runs from its first admission inside the window until the window ends 14 days later.
    window = 6 * 86400
    readmitted = min(e.time for e in _events(result, "admitted") if e.time >= window)
    assert window <= readmitted < window + 3600 and (run.start, run.end) == (readmitted, 20 * 86400)
    assert not any(window <= e.time < 20 * 86400 for e in _events(result, "evicted"))
    [evicted] = _events(result, "preempted")
    assert evicted.time == 20 * 86400 and "window ended" in evicted.reason


def test_a_draft_reservation_provides_no_nodes():
    result = _simulate(prod(), [
        {"name": "d-cal", "team": "team-d", "accelerators": 8, "pool": "h100-dec", "duration": "1h"}])
    assert result.runs == [] and _outcome(result, "d-cal").finished is None


def test_higher_priority_preempts_within_the_queue():
    environment = prod()
    for team in environment["teams"]:
        team["preemption"] = {"withinClusterQueue": "LowerPriority"}
    result = _simulate(environment, [
        {"name": "d-tpu", "team": "team-d", "accelerators": 4, "pods": 4, "pool": "v6e-16", "duration": "1d"},
        {"name": "low", "team": "team-b", "accelerators": 4, "pods": 4, "pool": "v6e-16", "priority": "low",
         "duration": "2h"},
        {"name": "high", "team": "team-b", "accelerators": 4, "pods": 4, "pool": "v6e-16", "priority": "high",
         "submit": "10m", "duration": "1h"},
    ])
    [preempted] = _events(result, "preempted")
    assert preempted.workload == "low" and preempted.reason.startswith("InClusterQueue by high")


@pytest.mark.parametrize(("workload", "path", "words"), [
    ({"name": "x", "team": "nobody", "accelerators": 1, "duration": "1h"}, "workloads[0].team", "teams: team-a"),
    ({"name": "x", "team": "team-b", "accelerators": 1, "pool": "h100-nope", "duration": "1h"}, "workloads[0].pool",
     "not a pool of the environment; allowed: h100-dec, h100-dws"),
    ({"name": "x", "team": "team-a", "accelerators": 1, "pool": "h100-dws", "priority": "urgent", "duration": "1h"},
     "workloads[0].priority", "allowed: low, high"),
    ({"name": "x", "team": "team-a", "accelerators": 16, "pool": "h100-dws", "duration": "1h"},
     "workloads[0].accelerators", "at most 8 per node"),
    ({"name": "x", "team": "team-d", "accelerators": 4, "duration": "1h"}, "workloads[0].pool", "name the pool"),
])
def test_bad_workloads_are_reported_at_their_path(workload: dict, path: str, words: str):
    with pytest.raises(WorkloadsFileError) as caught:
        _simulate(prod(), [workload])
    [issue] = caught.value.issues
    assert issue.path == path and words in issue.message


def test_capacity_is_only_for_pools_obtained_on_demand():
    with pytest.raises(WorkloadsFileError) as caught:
        _simulate(prod(), [{"name": "x", "team": "team-a", "accelerators": 1, "pool": "l4-spot", "duration": "1h"}],
                  capacity=[{"pool": "l4-spot", "from": "0s", "until": "1h", "nodes": 1}])
    assert [i.path for i in caught.value.issues] == ["capacity[0].pool"]
