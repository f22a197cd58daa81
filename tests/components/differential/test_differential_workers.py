"""Differential (issue 24): a single-cluster environment planned as today, and the same cluster planned as one
MultiKueue worker under a manager, register the same worker-side resources: node pools, Kueue install, Kueue
objects (children of the worker's `<worker>-kueue-objects` against `kueue-objects`), with the same inputs.

Both plans run the real program (`stacks/`) through the offline engine, as `gkecap plan --config` does."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from gkecap.plan import plan

ROOT = Path(__file__).resolve().parents[3]
GLOBAL = ROOT / "stacks" / "Pulumi.global.yaml"
WORKER = "east"


def _single_cluster_file(tmp_path: Path) -> Path:
    """The east worker as a one-cluster file: its region, cluster and pools, the teams' quotas on its pools."""
    document = yaml.safe_load(GLOBAL.read_text())
    environment = document["config"]["gkecap:environment"]
    east = next(w for w in environment.pop("workers") if w["name"] == WORKER)
    environment.update(region=east["region"], cluster=east["cluster"], nodePools=east["nodePools"])
    environment["kueue"].pop("multiKueue")  # the manager's dispatch setting
    for team in environment["teams"]:
        team["quota"] = {pool: q for pool, q in team["quota"].items() if pool in {p["name"] for p in east["nodePools"]}}
    path = tmp_path / "Pulumi.east.yaml"
    path.write_text(yaml.safe_dump(document, sort_keys=False))
    return path


def _cluster_side(result, prefix: str, environment: str) -> dict[tuple[str, str], dict]:
    """(type, name without the worker's prefix) -> inputs, of the cluster's node pools, Kueue and Kueue objects."""
    by_urn = {r.urn: r for r in result.resources}

    def in_environment(record) -> bool:  # a descendant of the Environment `environment`
        while record is not None:
            if record.type == "gkecap:index:Environment":
                return record.name == environment
            record = by_urn.get(record.parent) if record.parent else None
        return False

    side = {}
    for record in result.resources:
        if record.type.startswith(("pulumi:", "gkecap:index:Environment")) or not in_environment(record):
            continue
        if record.name.startswith("ml-") or "multikueue" in record.name:
            continue  # the cluster and its node account (named after it), and the manager's identity on the worker
        name = record.name[len(prefix):] if prefix and record.name.startswith(prefix) else record.name
        side[(record.type, name)] = record.inputs
    return side


@pytest.fixture(scope="module")
def plans(tmp_path_factory):
    single = plan(config_file=_single_cluster_file(tmp_path_factory.mktemp("east")), no_policies=True)
    manager = plan(config_file=GLOBAL, no_policies=True)
    return single, manager


def test_a_cluster_planned_alone_and_as_a_worker_registers_the_same_resources(plans) -> None:
    single, manager = plans
    alone = _cluster_side(single, "", single.stack)
    as_worker = _cluster_side(manager, f"{WORKER}-", f"{manager.stack}-{WORKER}")
    assert alone and alone.keys() == as_worker.keys()
    kinds = {kind for kind, _ in alone}
    assert {"gcp:container/nodePool:NodePool", "kubernetes:helm.sh/v4:Chart",
            "kubernetes:kueue.x-k8s.io/v1beta2:ClusterQueue", "kubernetes:kueue.x-k8s.io/v1beta2:ResourceFlavor",
            "kubernetes:kueue.x-k8s.io/v1beta2:ProvisioningRequestConfig"} <= kinds


def test_each_worker_side_resource_has_the_same_inputs(plans) -> None:
    single, manager = plans
    alone = _cluster_side(single, "", single.stack)
    as_worker = _cluster_side(manager, f"{WORKER}-", f"{manager.stack}-{WORKER}")
    different = [key for key in alone if alone[key] != as_worker.get(key)]
    assert different == []
