"""Environments and helpers for the Kueue builder tests (plain dicts, as `gkecap:environment` holds them)."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

from gkecap.components.catalog import CAPACITY_MODELS, gpu_machine, supported_capacity_models, tpu_slice, tpu_topologies
from gkecap.components.kubernetes_objects.build import kueue_objects
from gkecap.components.model import CapacityModel, derive
from gkecap.components.spec import load_environment
from testkit.spec_data import NOW

PROJECT = "acme-ml-prod"


def load(env: dict[str, Any]):
    return load_environment(env, project=PROJECT, now=NOW)


def model_of(env: dict[str, Any]) -> CapacityModel:
    return derive(load(env))


def objects_of(env: dict[str, Any]) -> list[dict]:
    return kueue_objects(model_of(env))


def with_kueue(env: dict[str, Any], **kueue: Any) -> dict[str, Any]:
    env = copy.deepcopy(env)
    env.setdefault("kueue", {}).update(kueue)
    return env


def find(objects: list[dict], kind: str, name: str, namespace: str | None = None) -> dict:
    found = [o for o in objects if o["kind"] == kind and o["metadata"]["name"] == name
             and o["metadata"].get("namespace") == namespace]
    assert len(found) == 1, f"expected one {kind} {namespace or ''}/{name}, got {len(found)}"
    return found[0]


def of_kind(objects: list[dict], kind: str) -> list[dict]:
    return [o for o in objects if o["kind"] == kind]


def flavor_resources(cluster_queue: dict, flavor: str) -> dict[str, dict]:
    """{resource: {nominalQuota, borrowingLimit?, lendingLimit?}} of one flavor of a ClusterQueue."""
    for group in cluster_queue["spec"]["resourceGroups"]:
        for item in group["flavors"]:
            if item["name"] == flavor:
                return {r["name"]: {k: v for k, v in r.items() if k != "name"} for r in item["resources"]}
    raise AssertionError(f"flavor {flavor} not in {cluster_queue['metadata']['name']}")


def over_quota() -> dict[str, Any]:
    """SEED_NOTES Run:AI scenario: 16 GPUs (two 8-GPU nodes), teams a/b/c/d with 4/2/2/8 in one cohort."""
    return copy.deepcopy(
        {
            "region": "us-east5",
            "cluster": {"name": "ml-shared"},
            "nodePools": [
                {"name": "h100", "machineType": "a3-highgpu-8g", "capacity": "on-demand", "maxNodes": 2,
                 "zones": ["us-east5-a"]},
            ],
            "cohorts": [{"name": "gpu-share"}],
            "teams": [
                {"name": "team-a", "cohort": "gpu-share", "quota": {"h100": 4}},
                {"name": "team-b", "cohort": "gpu-share", "quota": {"h100": 2}},
                {"name": "team-c", "cohort": "gpu-share", "quota": {"h100": 2}},
                {"name": "team-d", "cohort": "gpu-share", "quota": {"h100": 8}},
            ],
        }
    )


# --- random valid environments (hypothesis) ------------------------------------------------------------------

GPU_TYPES = ["a3-highgpu-8g", "a3-megagpu-8g", "g2-standard-12", "a2-highgpu-1g", "a4-highgpu-8g"]
# Of those, the ones whose VMs get Compute Engine topology labels ("View Compute Engine instance topology",
# Limitations: A4, A3 Mega, A3 High with 8 GPUs ...): only they can take topology-aware scheduling, on capacity whose
# nodes exist before admission or are made for it.
TOPOLOGY_LABELLED = {"a3-highgpu-8g", "a3-megagpu-8g", "a4-highgpu-8g"}
TPU_TYPES = ["ct6e-standard-4t", "ct6e-standard-1t", "ct5lp-hightpu-4t", "ct5p-hightpu-4t"]
ZONES = ["us-east5-a", "us-east5-b"]
EMAILS = ["ana@acme.example", "ml@acme.example", "runner@acme-ml-prod.iam.gserviceaccount.com"]


@st.composite
def _pool(draw: st.DrawFn, name: str) -> dict[str, Any]:
    if draw(st.booleans()):
        machine = draw(st.sampled_from(GPU_TYPES))
        models = [m for m in CAPACITY_MODELS if m in supported_capacity_models(machine) and m != "calendar"]
        pool = {"name": name, "machineType": machine, "capacity": draw(st.sampled_from(models)),
                "maxNodes": draw(st.integers(1, 8))}
    else:
        machine = draw(st.sampled_from(TPU_TYPES))
        models = [m for m in CAPACITY_MODELS if m in supported_capacity_models(machine) and m != "calendar"]
        topology = draw(st.sampled_from(tpu_topologies(machine)[:6]))
        pool = {"name": name, "machineType": machine, "capacity": draw(st.sampled_from(models)),
                "tpuTopology": topology, "slices": draw(st.integers(1, 3))}
        if tpu_slice(machine, topology).multi_host:
            pool["zones"] = [draw(st.sampled_from(ZONES))]
    if pool["capacity"] == "reservation":
        pool["reservation"] = f"{name}-res"
    if pool["capacity"] in ("flex-start", "queued") and draw(st.booleans()):
        pool["maxRunDuration"] = draw(st.integers(600, 604800))
    return pool


def _capacity(pool: dict[str, Any]) -> int:
    if "tpuTopology" in pool:
        return pool["slices"] * tpu_slice(pool["machineType"], pool["tpuTopology"]).chips
    return pool["maxNodes"] * gpu_machine(pool["machineType"]).gpus_per_vm


@st.composite
def environments(draw: st.DrawFn) -> dict[str, Any]:
    """Valid environments with every Kueue feature: cohort trees with shared quota, borrowing and lending
    limits, weights, several namespaces, members, preemption, priority classes, both API versions, TAS."""
    pools = [draw(_pool(f"p{i}")) for i in range(draw(st.integers(1, 4)))]
    cohorts: list[dict[str, Any]] = []
    for index in range(draw(st.integers(0, 3))):
        cohort: dict[str, Any] = {"name": f"c{index}"}
        if index and draw(st.booleans()):
            cohort["parent"] = f"c{draw(st.integers(0, index - 1))}"
        if draw(st.booleans()):
            cohort["weight"] = draw(st.sampled_from([0.5, 1, 3]))
        cohorts.append(cohort)
    teams: list[dict[str, Any]] = []
    for index in range(draw(st.integers(0, 5))):
        team: dict[str, Any] = {"name": f"t{index}", "quota": {}}
        if cohorts and draw(st.booleans()):
            team["cohort"] = draw(st.sampled_from(cohorts))["name"]
        if draw(st.booleans()):
            team["namespaces"] = [f"t{index}-{suffix}" for suffix in draw(
                st.lists(st.sampled_from(["train", "serve", "dev"]), min_size=1, max_size=3, unique=True))]
        team["members"] = [f"{kind}:{email}" for kind, email in draw(st.lists(
            st.tuples(st.sampled_from(["user", "group", "serviceAccount"]), st.sampled_from(EMAILS)), max_size=3))]
        if draw(st.booleans()):
            team["weight"] = draw(st.sampled_from([0.25, 1, 2, 10]))
        reclaim = draw(st.sampled_from([None, "Never", "LowerPriority", "Any"]))
        if reclaim is not None:
            team["preemption"] = {"reclaimWithinCohort": reclaim,
                                  "withinClusterQueue": draw(st.sampled_from(["Never", "LowerPriority"]))}
        teams.append(team)
    holders = teams + [c for c in cohorts if draw(st.booleans())]
    for pool in pools:
        capacity = remaining = _capacity(pool)
        for holder in holders:
            if not draw(st.booleans()):
                continue
            flex = pool["capacity"] in ("flex-start", "queued")
            quota = draw(st.integers(0, capacity if flex else remaining))
            remaining -= 0 if flex else quota
            holder.setdefault("quota", {})[pool["name"]] = quota
            if holder in teams and "cohort" in holder and draw(st.booleans()):
                holder.setdefault("lendingLimit", {})[pool["name"]] = draw(st.integers(0, quota))
                holder.setdefault("borrowingLimit", {})[pool["name"]] = draw(st.integers(0, capacity))
    api_version = draw(st.sampled_from(["v1beta1", "v1beta2"]))
    env: dict[str, Any] = {
        "region": "us-east5",
        "cluster": {"name": "prop"},
        "kueue": {
            "version": "v0.19.2" if api_version == "v1beta2" else "v0.14.8",
            "apiVersion": api_version,
            "fairSharing": draw(st.booleans()),
            "topologyAwareScheduling": draw(st.booleans()) and any(
                p["machineType"] in TOPOLOGY_LABELLED and p["capacity"] in ("reservation", "queued") for p in pools),
        },
        "nodePools": pools,
        "cohorts": cohorts,
        "teams": teams,
    }
    if draw(st.booleans()):
        env["priorityClasses"] = [{"name": "batch", "value": draw(st.integers(-1000, 1000))},
                                  {"name": "urgent", "value": 100000, "description": "on call"}]
    return env
