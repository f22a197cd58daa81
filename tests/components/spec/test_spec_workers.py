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
