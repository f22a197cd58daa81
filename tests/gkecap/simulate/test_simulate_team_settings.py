"""What Kueue users set on a ClusterQueue reaches the simulation through the environment file (issue 21 item 7):
a team's `flavorFungibility` and a fair-sharing weight of 0, each against the Kueue case it follows."""

from __future__ import annotations

from testkit.spec_data import NOW

from gkecap.components.kubernetes_objects.build import kueue_objects
from gkecap.components.model import derive
from gkecap.components.spec import load_environment
from gkecap.simulate import simulate_environment
from gkecap.simulate.workloads_file import WorkloadsFile

HOUR = 3600


def _environment(**team_settings) -> dict:
    """One team on two 8-GPU on-demand pools kept up (flavors in file order), preempting lower priorities."""
    return {
        "region": "us-east5",
        "cluster": {"name": "ml-fungible"},
        "kueue": {"version": "v0.19.2", "fairSharing": False},
        "nodePools": [
            {"name": "first", "machineType": "a3-highgpu-8g", "capacity": "on-demand", "minNodes": 1, "maxNodes": 1},
            {"name": "second", "machineType": "a3-highgpu-8g", "capacity": "on-demand", "minNodes": 1, "maxNodes": 1},
        ],
        "teams": [{"name": "team-a", "quota": {"first": 8, "second": 8},
                   "preemption": {"withinClusterQueue": "LowerPriority"}, **team_settings}],
    }


def _simulate(environment: dict, workloads: list[dict]):
    model = derive(load_environment(environment, now=NOW))
    document = WorkloadsFile.model_validate({"start": "2026-12-01T00:00:00Z", "workloads": workloads})
    return simulate_environment(model, kueue_objects(model), document)


WORKLOADS = [
    {"name": "blocker", "team": "team-a", "accelerators": 8, "priority": "low", "duration": "4h"},
    {"name": "urgent", "team": "team-a", "accelerators": 8, "priority": "high", "submit": "10m", "duration": "1h"},
]


def _urgent(result):
    return next(w for w in result.workloads if w.name == "urgent")


def test_by_default_a_workload_tries_the_next_flavor_before_preempting():
    # Kueue v0.19.2 TestSchedule "admit to second flavor when first needs preemption; WhenCanPreempt:
    # TryNextFlavor" (pkg/scheduler/scheduler_test.go): the default whenCanPreempt.
    result = _simulate(_environment(), WORKLOADS)
    assert _urgent(result).pool == "second" and not [e for e in result.events if e.event == "preempted"]


def test_when_can_preempt_may_stop_search_preempts_in_the_first_flavor():
    # flavorassigner.go shouldTryNextFlavor @ v0.19.2: with whenCanPreempt MayStopSearch a flavor where
    # preemption finds candidates ends the search; TestSchedule "prefer first preemption flavor when second flavor
    # also requires cq preemption" preempts in the first flavor likewise.
    result = _simulate(_environment(flavorFungibility={"whenCanPreempt": "MayStopSearch"}), WORKLOADS)
    [preempted] = [e for e in result.events if e.event == "preempted"]
    assert preempted.workload == "blocker" and _urgent(result).pool == "first"


def _fair(weight_of_z: float) -> dict:
    """A lender with 8 idle GPUs and two teams without quota that can only borrow them, fair sharing on."""
    pool = {"name": "h100", "machineType": "a3-highgpu-8g", "capacity": "on-demand", "minNodes": 1, "maxNodes": 1}
    return {
        "region": "us-east5",
        "cluster": {"name": "ml-weights"},
        "kueue": {"version": "v0.19.2", "fairSharing": True},
        "nodePools": [pool],
        "cohorts": [{"name": "all"}],
        "teams": [
            {"name": "lender", "cohort": "all", "quota": {"h100": 8}},
            {"name": "team-z", "cohort": "all", "quota": {"h100": 0}, "weight": weight_of_z},
            {"name": "team-w", "cohort": "all", "quota": {"h100": 0}},
        ],
    }


BORROWERS = [
    {"name": "z-job", "team": "team-z", "accelerators": 8, "duration": "1h"},
    {"name": "w-job", "team": "team-w", "accelerators": 8, "duration": "1h"},
]


def _started(result) -> dict[str, float]:
    return {w.name: w.started for w in result.workloads}


def test_a_team_with_weight_zero_borrows_last():
    # Kueue v0.19.2 TestDominantResourceShare "above nominal with zero weight" (pkg/cache/scheduler/
    # fair_sharing_test.go): a borrowing queue of weight 0 has the largest share, so the fair-sharing tournament
    # admits the other borrower first. The second starts 1 s after the first's release (Kueue's batched requeue of
    # inadmissible workloads, gkecap.simulate.timing).
    assert _started(_simulate(_fair(0), BORROWERS)) == {"z-job": HOUR + 1, "w-job": 0}


def test_with_equal_weights_the_earlier_borrower_goes_first():
    assert _started(_simulate(_fair(1), BORROWERS)) == {"z-job": 0, "w-job": HOUR + 1}
