"""What a workload of the workloads file asks for beyond its accelerators (issue 21 item 7): `minPods` (Kueue's
partial admission) and per-pod `cpu` and `memory` (workloads that request more than one resource), simulated over
the Kueue objects gkecap emits."""

from __future__ import annotations

from pathlib import Path

import pytest
from testkit.spec_data import NOW

from gkecap.components.kubernetes_objects.build import kueue_objects
from gkecap.components.model import derive
from gkecap.components.spec import load_environment
from gkecap.simulate import WorkloadsFileError, load_workloads_file, simulate_environment
from gkecap.simulate.output import to_document
from gkecap.simulate.workloads_file import WorkloadsFile

HOUR = 3600


def _environment(nodes: int, quota: int) -> dict:
    """One team on `nodes` on-demand a3-highgpu-8g nodes kept up (8 GPUs, 208 vCPUs, 1872 GiB each)."""
    return {
        "region": "us-east5",
        "cluster": {"name": "ml-requests"},
        "kueue": {"version": "v0.19.2"},
        "nodePools": [{"name": "h100", "machineType": "a3-highgpu-8g", "capacity": "on-demand",
                       "minNodes": nodes, "maxNodes": nodes}],
        "teams": [{"name": "team-a", "quota": {"h100": quota}}],
    }


def _simulate(environment: dict, workloads: list[dict]):
    model = derive(load_environment(environment, now=NOW))
    document = WorkloadsFile.model_validate({"start": "2026-12-01T00:00:00Z", "workloads": workloads})
    return simulate_environment(model, kueue_objects(model), document)


def _outcomes(result) -> dict:
    return {w.name: w for w in result.workloads}


# --- partial admission ----------------------------------------------------------------------------------------

PARTIAL = [
    {"name": "blocker", "team": "team-a", "accelerators": 4, "duration": "4h"},
    {"name": "elastic", "team": "team-a", "pods": 8, "minPods": 2, "accelerators": 1, "duration": "1h"},
]


def test_a_workload_with_min_pods_runs_with_the_pods_the_quota_holds():
    # Kueue v0.19.2 TestSchedule "partial admission single variable pod set" (pkg/scheduler/scheduler_test.go),
    # through the emitted ClusterQueue: 8 of 8 GPUs minus the blocker's 4 leave room for 4 of its 8 pods.
    elastic = _outcomes(_simulate(_environment(1, 8), PARTIAL))["elastic"]
    assert (elastic.admitted_pods, elastic.started, elastic.finished) == (4, 0, HOUR)


def test_without_min_pods_the_workload_waits_for_all_of_them():
    workloads = [PARTIAL[0], {k: v for k, v in PARTIAL[1].items() if k != "minPods"}]
    elastic = _outcomes(_simulate(_environment(1, 8), workloads))["elastic"]
    # It waits for quota among the inadmissible: Kueue requeues them 1 s after the release (gkecap.simulate.timing).
    assert (elastic.admitted_pods, elastic.started) == (8, 4 * HOUR + 1)


def test_the_json_reports_the_admitted_pods():
    document = to_document(_simulate(_environment(1, 8), PARTIAL))
    rows = {w["name"]: w for w in document["workloads"]}
    assert (rows["elastic"]["minPods"], rows["elastic"]["admittedPods"], "admittedPods" in rows["blocker"]) == (
        2, 4, False)


def test_a_partial_admission_is_a_notable_event():
    result = _simulate(_environment(1, 8), PARTIAL)
    [admitted] = [e for e in result.events if e.event == "admitted" and e.workload == "elastic"]
    assert admitted.reason == "partial admission: 4 of 8 pods"


# --- cpu and memory beside the accelerators -------------------------------------------------------------------
# The emitted ClusterQueue covers cpu and memory pro rata of the machine (gkecap.components.kubernetes_objects.queues):
# 16 GPUs of a3-highgpu-8g come with 416 cpu. Kueue checks every requested resource of the flavor
# (flavorassigner.go fitsResourceQuota per resource @ v0.19.2; TestAssignFlavors "multiple resources fit" style).

def _cpu_jobs(count: int, cpu: str) -> list[dict]:
    return [{"name": f"job-{i}", "team": "team-a", "accelerators": 1, "cpu": cpu, "duration": "1h"}
            for i in range(count)]


def test_cpu_quota_holds_a_workload_back_while_gpus_are_free():
    # 5 x 100 cpu > 416 cpu of quota, 5 of 16 GPUs: the fifth waits for cpu quota.
    outcomes = _outcomes(_simulate(_environment(2, 16), _cpu_jobs(5, "100")))
    # It waits for quota among the inadmissible: Kueue requeues them 1 s after the release (gkecap.simulate.timing).
    assert sorted(w.admitted for w in outcomes.values()) == [0, 0, 0, 0, HOUR + 1]


def test_pods_fit_a_node_by_cpu_as_well_as_gpus():
    # 3 x 120 cpu fit the quota (416), but a node holds one such pod (208 cpu): the third waits for a node.
    outcomes = _outcomes(_simulate(_environment(2, 16), _cpu_jobs(3, "120")))
    assert (sorted(w.admitted for w in outcomes.values()), sorted(w.started for w in outcomes.values())) == (
        [0, 0, 0], [0, 0, HOUR])


def test_memory_counts_against_its_own_quota():
    # 2 x 1000Gi > 1872Gi of memory quota for 8 GPUs of a3-highgpu-8g (two nodes would hold them): the second waits.
    workloads = [{"name": f"big-{i}", "team": "team-a", "accelerators": 1, "memory": "1000Gi", "duration": "1h"}
                 for i in range(2)]
    outcomes = _outcomes(_simulate(_environment(2, 8), workloads))
    # It waits for quota among the inadmissible: Kueue requeues them 1 s after the release (gkecap.simulate.timing).
    assert sorted(w.admitted for w in outcomes.values()) == [0, HOUR + 1]


# --- bad input --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("entry, path, words", [
    ({"cpu": "300"}, "workloads[0].cpu", "does not fit on one node of any pool of the team (at most 208 cpu)"),
    ({"memory": "2Ti"}, "workloads[0].memory", "at most 1872Gi"),
])
def test_requests_larger_than_a_node_are_refused(entry, path, words):
    with pytest.raises(WorkloadsFileError) as caught:
        _simulate(_environment(1, 8), [{"name": "w", "team": "team-a", "accelerators": 1, "duration": "1h", **entry}])
    assert f"{path}: " in str(caught.value) and words in str(caught.value)


@pytest.mark.parametrize("entry, path, words", [
    ("pods: 4, minPods: 5", "workloads[0].minPods", "5 is more than its 4 pods"),
    ("pods: 4, minPods: 0", "workloads[0].minPods", "at least 1"),
    ("cpu: 2x", "workloads[0].cpu", "not a Kubernetes quantity"),
    ("memory: -1Gi", "workloads[0].memory", "not above zero"),
    ("cpu: true", "workloads[0].cpu", "not a Kubernetes quantity"),
])
def test_bad_requests_are_named_in_the_file(tmp_path: Path, entry, path, words):
    file = tmp_path / "workloads.yaml"
    file.write_text(f"workloads:\n  - {{name: w, team: team-a, accelerators: 1, duration: 1h, {entry}}}\n")
    with pytest.raises(WorkloadsFileError) as caught:
        load_workloads_file(file)
    assert f"{path}: " in str(caught.value) and words in str(caught.value)
