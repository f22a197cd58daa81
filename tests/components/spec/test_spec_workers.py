"""`workers:` in the environment file (MultiKueue, issue 24): the shape, the cross-worker rules, and each worker
checked as the single-cluster environment it is, its problems placed under `workers[i]`."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from gkecap.components.spec import SpecError, load_environment, load_stack_file
from gkecap.components.spec.workers import worker_data, worker_environments

ROOT = Path(__file__).resolve().parents[3]
GLOBAL = yaml.safe_load((ROOT / "stacks" / "Pulumi.global.yaml").read_text())["config"]["gkecap:environment"]


def _paths(data: dict) -> dict[str, str]:
    with pytest.raises(SpecError) as caught:
        load_environment(data, project="acme-ml-global")
    return {issue.path: issue.message for issue in caught.value.issues}


def _global() -> dict:
    return copy.deepcopy(GLOBAL)


def test_the_bundled_global_stack_loads_with_its_workers() -> None:
    spec = load_stack_file(ROOT / "stacks" / "Pulumi.global.yaml")
    assert [w.name for w in spec.workers] == ["east", "central"]
    assert [w.cluster.location for w in spec.workers] == ["us-east5", "us-central1"]
    assert spec.node_pools == []


def test_a_single_cluster_file_has_no_workers() -> None:
    spec = load_stack_file(ROOT / "stacks" / "Pulumi.dev.yaml")
    assert spec.workers == [] and worker_environments(spec) == []


def test_a_worker_pool_error_is_placed_under_its_worker() -> None:
    data = _global()
    data["workers"][1]["nodePools"][0]["tpuTopology"] = "4x3"
    assert "workers[1].nodePools[0].tpuTopology" in _paths(data)


def test_a_worker_shape_error_names_the_worker_field() -> None:
    data = _global()
    data["workers"][0]["nodePools"][0]["maxNodes"] = "many"
    assert "workers[0].nodePools[0].maxNodes" in _paths(data)


def test_a_worker_zone_is_judged_against_the_workers_region() -> None:
    data = _global()
    data["workers"][1]["nodePools"][0]["zones"] = ["us-east5-b"]  # the manager's region, not the worker's
    assert any(path.startswith("workers[1].nodePools[0].zones") for path in _paths(data))


def test_pool_names_are_unique_across_workers() -> None:
    data = _global()
    data["workers"][1]["nodePools"][0]["name"] = "h100-dws"
    assert "also a pool of worker 'east'" in _paths(data)["workers[1].nodePools[0].name"]


def test_worker_names_are_unique() -> None:
    data = _global()
    data["workers"][1]["name"] = "east"
    assert "workers[1].name" in _paths(data)


def test_a_worker_cannot_be_the_manager_cluster() -> None:
    data = _global()
    data["workers"][0]["cluster"]["name"] = "ml-global"
    assert "the manager" in _paths(data)["workers[0].cluster.name"]


def test_a_quota_must_name_a_pool_of_some_worker() -> None:
    data = _global()
    data["teams"][0]["quota"]["a100-spot"] = 8
    assert "not a pool of any worker" in _paths(data)["teams[0].quota.a100-spot"]


def test_the_manager_holds_no_pools() -> None:
    data = _global()
    data["nodePools"] = [data["workers"][0]["nodePools"][0]]
    assert "nodePools" in _paths(data)


def test_a_worker_gets_every_team_with_only_its_pools_quota() -> None:
    sub = worker_data(GLOBAL, 1)
    assert [t["name"] for t in sub["teams"]] == ["llm", "vision", "jax"]
    assert sub["teams"][0]["quota"] == {"h100-flex": 16}
    assert sub["teams"][2]["quota"] == {"v6e-4x4": 32}
    assert sub["region"] == "us-central1" and sub["cluster"]["name"] == "ml-central"


def test_multikueue_settings_default_to_kueues_defaults() -> None:
    spec = load_stack_file(ROOT / "stacks" / "Pulumi.dev.yaml")
    settings = spec.kueue.multi_kueue
    assert (settings.dispatcher, settings.worker_lost_timeout, settings.gc_interval) == ("AllAtOnce", "15m0s", "1m0s")


def test_a_worker_lost_timeout_must_be_a_go_duration() -> None:
    data = _global()
    data["kueue"]["multiKueue"]["workerLostTimeout"] = "15 minutes"
    assert "kueue.multiKueue.workerLostTimeout" in _paths(data)


def _tas(data: dict) -> dict:
    """Topology-aware scheduling on, with east's queued pool on a3-highgpu-8g (nodes with GKE's topology labels)."""
    data["kueue"]["topologyAwareScheduling"] = True
    data["workers"][0]["nodePools"][0].update(machineType="a3-highgpu-8g", maxNodes=2)
    return data


def test_topology_aware_scheduling_needs_a_capable_pool_on_some_worker_not_on_each() -> None:
    spec = load_environment(_tas(_global()), project="acme-ml-global")  # central's flex-start and TPU pools: none
    assert spec.kueue.topology_aware_scheduling


def test_topology_aware_scheduling_without_a_capable_pool_on_any_worker_is_one_error_naming_every_pool() -> None:
    data = _global()
    data["kueue"]["topologyAwareScheduling"] = True
    message = _paths(data)["kueue.topologyAwareScheduling"]
    assert all(f"{pool}:" in message for pool in ("h100-dws", "v6e-4x4", "h100-flex"))


def test_topology_aware_scheduling_with_workers_needs_kueue_0_15() -> None:
    data = _tas(_global())
    data["kueue"].update(version="v0.14.8", apiVersion="v1beta1")
    assert "v0.15.0" in _paths(data)["kueue.version"]


def test_a_worker_without_an_integration_the_manager_dispatches_is_refused() -> None:
    data = _global()
    data["kueue"]["frameworks"] = ["batch/job", "jobset.x-k8s.io/jobset"]
    data["workers"][1]["kueue"] = {"frameworks": ["batch/job"]}
    message = _paths(data)["workers[1].kueue.frameworks"]
    assert "jobset.x-k8s.io/jobset" in message and "batch/job," not in message


def test_a_worker_may_run_more_integrations_and_its_own_kueue_release() -> None:
    data = _global()
    data["kueue"]["frameworks"] = ["batch/job", "jobset.x-k8s.io/jobset"]
    data["workers"][1]["kueue"] = {"version": "v0.18.6", "frameworks": ["batch/job", "jobset.x-k8s.io/jobset", "pod"]}
    east, central = worker_environments(load_environment(data, project="acme-ml-global"))
    assert (east.kueue.version, central.kueue.version) == ("v0.19.2", "v0.18.6")
    assert central.kueue.frameworks == ["batch/job", "jobset.x-k8s.io/jobset", "pod"]
    assert central.kueue.fair_sharing is True  # the rest of `kueue` is the environment's


def test_an_integration_a_manager_cannot_dispatch_is_not_required_on_workers() -> None:
    data = _global()  # deployment has no MultiKueue adapter (pkg/controller/jobs/deployment, v0.19.2)
    data["kueue"]["frameworks"] = ["batch/job", "deployment", "pod"]
    data["workers"][0]["kueue"] = {"frameworks": ["batch/job", "pod"]}
    data["workers"][1]["kueue"] = {"frameworks": ["batch/job", "pod"]}
    assert load_environment(data, project="acme-ml-global").workers[1].kueue.frameworks == ["batch/job", "pod"]


def test_a_workers_own_kueue_error_is_placed_under_the_worker() -> None:
    data = _global()
    data["workers"][0]["kueue"] = {"frameworks": ["batch/job", "jobset.x-k8s.io/jobset", "not-a-framework"]}
    assert "workers[0].kueue.frameworks[2]" in _paths(data)


def test_dispatch_settings_belong_to_the_manager() -> None:
    data = _global()
    data["workers"][0]["kueue"] = {"multiKueue": {"dispatcher": "Incremental"}}
    assert "workers[0].kueue.multiKueue" in _paths(data)


def test_pods_of_a_pod_based_integration_need_pod_on_the_worker() -> None:
    # From v0.15 deployment enables `pod` implicitly (ImplicitlyEnabledFrameworkNames), and the pods are what
    # MultiKueue dispatches (the pod integration's MultiKueueAdapter); a worker without pod cannot start them.
    data = _global()
    data["kueue"]["frameworks"] = ["batch/job", "deployment"]
    data["workers"][0]["kueue"] = {"frameworks": ["batch/job"]}
    assert "pod" in _paths(data)["workers[0].kueue.frameworks"]
