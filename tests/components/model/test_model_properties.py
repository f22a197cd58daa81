"""Property-based: random valid environments load, and the derived model's totals are consistent."""

from __future__ import annotations

import json
from datetime import timedelta
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gkecap.components.gke import calendar_window
from gkecap.components.catalog import (
    CAPACITY_MODELS, calendar_tpu_zones, gpu_machine, supported_capacity_models, tpu_slice, tpu_topologies,
)
from gkecap.components.model import derive
from gkecap.components.spec import SpecError, load_environment
from testkit.spec_data import NOW

GPU_TYPES = ["a2-highgpu-8g", "a3-highgpu-8g", "a3-megagpu-8g", "g2-standard-12", "g2-standard-48", "a4-highgpu-8g"]
TPU_TYPES = [
    "ct6e-standard-4t",
    "ct6e-standard-1t",
    "ct5lp-hightpu-4t",
    "ct5p-hightpu-4t",
    "ct4p-hightpu-4t",
    "tpu7x-standard-4t",
]
ZONES = ["us-east5-a", "us-east5-b", "us-east5-c"]
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def gpu_pool(draw, name):
    machine = draw(st.sampled_from(GPU_TYPES))
    capacity = draw(
        st.sampled_from([m for m in CAPACITY_MODELS if m in supported_capacity_models(machine) and m != "calendar"])
    )
    pool = {"name": name, "machineType": machine, "capacity": capacity, "maxNodes": draw(st.integers(1, 20))}
    if capacity in ("flex-start", "queued"):
        if draw(st.booleans()):
            pool["maxRunDuration"] = draw(st.integers(1, 604800))
    elif draw(st.booleans()):
        pool["minNodes"] = draw(st.integers(0, pool["maxNodes"]))
    if capacity == "reservation":
        pool["reservation"] = f"{name}-res"
    if draw(st.booleans()):
        pool["zones"] = draw(st.lists(st.sampled_from(ZONES), min_size=1, max_size=3, unique=True))
    return pool


@st.composite
def tpu_pool(draw, name):
    machine = draw(st.sampled_from(TPU_TYPES))
    capacity = draw(
        st.sampled_from([m for m in CAPACITY_MODELS if m in supported_capacity_models(machine) and m != "calendar"])
    )
    topology = draw(st.sampled_from(tpu_topologies(machine)[:10]))
    pool = {
        "name": name,
        "machineType": machine,
        "capacity": capacity,
        "tpuTopology": topology,
        "slices": draw(st.integers(1, 4)),
    }
    if capacity == "reservation":
        pool["reservation"] = f"{name}-res"
    if tpu_slice(machine, topology).multi_host:
        pool["zones"] = [draw(st.sampled_from(ZONES))]
    return pool


@st.composite
def calendar_pair(draw, name):
    """A calendar reservation and the pool consuming (part of) it."""
    start = NOW + timedelta(days=draw(st.integers(1, 59)), hours=1)
    reservation = {
        "name": f"{name}-cal",
        "zone": draw(st.sampled_from(ZONES)),
        "start": start.isoformat(),
        "days": draw(st.integers(1, 90)),
    }
    if draw(st.booleans()):
        count = draw(st.integers(1, 80))
        reservation.update(machineType="a3-highgpu-8g", count=count)
        pool = {
            "name": name,
            "machineType": "a3-highgpu-8g",
            "capacity": "calendar",
            "reservation": reservation["name"],
        }
        if draw(st.booleans()):
            pool["maxNodes"] = draw(st.integers(1, count))
    else:
        topology = draw(st.sampled_from(["2x2", "2x4", "4x4", "4x8", "8x8"]))
        chips = tpu_slice("ct6e-standard-4t", topology).chips
        count = draw(st.sampled_from([c for c in calendar_window.TPU_CHIP_COUNTS if c >= chips]))
        # v6e is offered in calendar mode only in some zones (catalog.calendar_tpu_zones).
        zone = draw(st.sampled_from([z for z in ZONES if z in calendar_tpu_zones("v6e")]))
        reservation.update(machineType="ct6e-standard-4t", count=count, zone=zone)
        pool = {
            "name": name,
            "machineType": "ct6e-standard-4t",
            "capacity": "calendar",
            "tpuTopology": topology,
            "reservation": reservation["name"],
            "slices": draw(st.integers(1, count // chips)),
        }
    return reservation, pool


def capacity_of(pool, reservations):
    if "tpuTopology" in pool:
        return pool["slices"] * tpu_slice(pool["machineType"], pool["tpuTopology"]).chips
    nodes = pool.get("maxNodes") or reservations[pool["reservation"]]["count"]
    return nodes * gpu_machine(pool["machineType"]).gpus_per_vm


@st.composite
def environments(draw):
    pools, reservations = [], []
    for index in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["gpu", "tpu", "calendar"]))
        name = f"p{index}"
        if kind == "gpu":
            pools.append(draw(gpu_pool(name)))
        elif kind == "tpu":
            pools.append(draw(tpu_pool(name)))
        else:
            reservation, pool = draw(calendar_pair(name))
            reservations.append(reservation)
            pools.append(pool)
    by_name = {r["name"]: r for r in reservations}
    cohorts = []
    for index in range(draw(st.integers(0, 3))):
        cohort = {"name": f"c{index}"}
        if index and draw(st.booleans()):
            cohort["parent"] = f"c{draw(st.integers(0, index - 1))}"  # only earlier cohorts: no cycles
        cohorts.append(cohort)
    teams = [{"name": f"t{i}", "quota": {}} for i in range(draw(st.integers(0, 8)))]
    for team in teams:
        if cohorts and draw(st.booleans()):
            team["cohort"] = draw(st.sampled_from(cohorts))["name"]
    for pool in pools:
        capacity = capacity_of(pool, by_name)
        remaining = capacity
        for team in teams:
            if not draw(st.booleans()):
                continue
            if pool["capacity"] in ("flex-start", "queued"):
                quota = draw(st.integers(0, capacity))  # may over-commit: a warning
            else:
                quota = draw(st.integers(0, remaining))
                remaining -= quota
            team["quota"][pool["name"]] = quota
            if "cohort" in team and draw(st.booleans()):
                team.setdefault("lendingLimit", {})[pool["name"]] = draw(st.integers(0, quota))
                team.setdefault("borrowingLimit", {})[pool["name"]] = draw(st.integers(0, capacity))
    env = {
        "region": "us-east5",
        "cluster": {"name": "prop"},
        "nodePools": pools,
        "reservations": reservations,
        "cohorts": cohorts,
        "teams": teams,
    }
    env["kueue"] = {"fairSharing": draw(st.booleans())}
    return env


@SETTINGS
@given(env=environments())
def test_random_valid_environments_load_and_derive(env):
    model = derive(load_environment(env, now=NOW))
    assert [p.name for p in model.pools] == [p["name"] for p in env["nodePools"]]


@SETTINGS
@given(env=environments())
def test_node_pools_add_up_to_the_pool(env):
    model = derive(load_environment(env, now=NOW))
    for pool in model.pools:
        assert sum(n.max_accelerators for n in pool.node_pools) == pool.capacity_accelerators
        assert sum(n.autoscaling.total_max_node_count for n in pool.node_pools) == pool.max_nodes
        assert pool.capacity_accelerators == pool.max_nodes * pool.accelerators_per_node
        if pool.kind == "tpu":
            assert pool.capacity_accelerators == pool.slices * pool.chips_per_slice
            if pool.multi_host:
                assert len(pool.node_pools) == pool.slices
                assert {n.autoscaling.total_max_node_count for n in pool.node_pools} == {pool.vms_per_slice}
                assert {n.placement.type for n in pool.node_pools} == {"COMPACT"}
            else:
                assert [n.autoscaling.total_max_node_count for n in pool.node_pools] == [pool.slices]


@SETTINGS
@given(env=environments())
def test_gke_node_pool_names_are_unique_and_fit(env):
    model = derive(load_environment(env, now=NOW))
    names = [n.name for p in model.pools for n in p.node_pools]
    assert len(names) == len(set(names))
    assert all(len(name) <= 40 for name in names)


@SETTINGS
@given(env=environments())
def test_totals_match_the_quotas(env):
    spec = load_environment(env, now=NOW)
    model = derive(spec)
    for name, totals in model.totals.items():
        expected = sum(t["quota"].get(name, 0) for t in env["teams"]) + sum(
            c.get("quota", {}).get(name, 0) for c in env["cohorts"]
        )
        assert totals.quota_total == expected
        assert totals.overcommitted == (expected > totals.capacity)
        warned = any(w.startswith(f"teams: quotas for pool '{name}' ") for w in spec.warnings)
        assert warned == totals.overcommitted
        if totals.overcommitted:
            assert model.pool(name).capacity in ("flex-start", "queued")


@SETTINGS
@given(env=environments())
def test_cohort_shares_add_up_to_one(env):
    model = derive(load_environment(env, now=NOW))
    per_cohort_pool: dict[tuple[str, str], float] = {}
    for team in model.teams:
        for pool, share in team.cohort_share.items():
            key = (team.cohort, pool)
            per_cohort_pool[key] = per_cohort_pool.get(key, 0.0) + share
    for (cohort, pool), total in per_cohort_pool.items():
        quota = sum(t.quotas.get(pool, 0) for t in model.teams if t.cohort == cohort)
        assert math.isclose(total, 1.0) if quota else total == 0.0


@SETTINGS
@given(env=environments())
def test_flavor_order_is_by_capacity_model(env):
    model = derive(load_environment(env, now=NOW))
    ranks = [CAPACITY_MODELS.index(model.pool(name).capacity) for name in model.flavor_order]
    assert ranks == sorted(ranks)
    assert sorted(model.flavor_order) == sorted(p.name for p in model.pools)
    json.dumps(model.to_dict())


@SETTINGS
@given(env=environments(), data=st.data())
def test_a_typo_in_any_pool_is_reported_at_its_path(env, data):
    index = data.draw(st.integers(0, len(env["nodePools"]) - 1))
    env["nodePools"][index]["maxNodez"] = 1
    with pytest.raises(SpecError) as err:
        load_environment(env, now=NOW)
    assert f"nodePools[{index}].maxNodez" in [issue.path for issue in err.value.issues]
