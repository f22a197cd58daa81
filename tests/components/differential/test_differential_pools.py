"""Differential property for node pools (see testkit.differential): whatever the spec accepts, AcceleratorNodePool
and Environment accept; whatever AcceleratorNodePool rejects, the spec rejects first at the pool's YAML fields."""

from __future__ import annotations

from typing import Any

import pulumi
import pytest
from hypothesis import event, given, settings

from gkecap.components import reservation as reservation_module
from gkecap.components.environment import Environment
from gkecap.components.model import derive
from gkecap.components.node_pool import AcceleratorNodePool, pool_args
from gkecap.components.spec import NodePoolSpec, SpecError, load_environment
from testkit.differential import (
    CLUSTER,
    FIRST,
    FUTURE_RESERVATION,
    NODE_POOL,
    POOLS,
    PROJECT,
    REGION,
    SA,
    SHARED_FIXTURES,
    VALID_POOLS,
    assert_spec_reports,
    environment,
    node_pool_args,
    pool_fields,
    shape_rejects_a_required_key,
    spec_issues,
)
from testkit.input_errors import lines
from testkit.spec_data import NOW

# --- 1. pools: spec accepts -> AcceleratorNodePool accepts --------------------------------------------------


@settings(max_examples=150, deadline=None, suppress_health_check=SHARED_FIXTURES)
@given(generated=POOLS)
def test_a_pool_the_spec_accepts_is_one_the_node_pool_component_accepts(pulumi_run, generated) -> None:
    pools, reservations = generated
    try:
        spec = load_environment(environment(pools, reservations), now=NOW)
    except SpecError:
        event("spec rejects")
        return
    event("spec accepts")
    plans = [plan for plan in derive(spec).pools if plan.index >= FIRST]
    assert [plan.name for plan in plans] == [pool["name"] for pool in pools]

    def program() -> None:
        for plan in plans:
            args = pool_args(plan.request)
            args.update(cluster=CLUSTER, location=REGION, service_account=SA)
            AcceleratorNodePool(plan.name, args)

    registered = pulumi_run(program)  # raises whatever the component raises
    for plan in plans:
        names = [r.name for r in registered.of_type(NODE_POOL) if (r.parent or "").endswith(f"::{plan.name}")]
        assert sorted(names) == sorted(s.name for s in plan.node_pools), plan.name
    assert len(registered.of_type(NODE_POOL)) == sum(len(plan.node_pools) for plan in plans)


@settings(max_examples=15, deadline=None, suppress_health_check=SHARED_FIXTURES)
@given(generated=VALID_POOLS)
def test_an_environment_the_spec_accepts_is_one_the_environment_component_accepts(
    pulumi_run, clock_at_now, generated
) -> None:
    pools, reservations = generated
    try:
        spec = load_environment(environment(pools, reservations), now=NOW)
    except SpecError:
        event("spec rejects")
        return
    event("spec accepts")
    model = derive(spec)
    # The loaded spec (judged at NOW) is passed as is: Environment would otherwise load it at the real time.
    registered = pulumi_run(lambda: Environment("env", {"environment": spec, "project": PROJECT}))
    assert sorted(r.name for r in registered.of_type("gkecap:index:AcceleratorNodePool")) == sorted(
        p.name for p in spec.node_pools)
    assert sorted(r.name for r in registered.of_type(NODE_POOL)) == sorted(
        s.name for plan in model.pools for s in plan.node_pools)
    assert sorted(r.name for r in registered.of_type(FUTURE_RESERVATION)) == sorted(r["name"] for r in reservations)


# --- 2. pools: AcceleratorNodePool rejects -> the spec rejects first, at the pool's fields ----------------------


@settings(max_examples=150, deadline=None, suppress_health_check=SHARED_FIXTURES)
@given(generated=POOLS)
def test_a_pool_the_node_pool_component_rejects_the_spec_rejects_at_its_fields(pulumi_run, generated) -> None:
    pools, reservations = generated
    rejected: dict[int, tuple[dict[str, Any], pulumi.InputPropertiesError]] = {}
    for offset, pool in enumerate(pools):
        try:
            args = node_pool_args(pool, reservations)
            pulumi_run(lambda name=pool["name"], args=args: AcceleratorNodePool(name, args))
        except pulumi.InputPropertiesError as err:
            rejected[FIRST + offset] = (pool, err)
    event(f"component rejects {len(rejected)} of {len(pools)}")
    if not rejected:
        return
    paths = spec_issues(environment(pools, reservations))
    assert paths is not None, f"components reject {[lines(e) for _, e in rejected.values()]} but the spec accepts"
    for index, (pool, err) in rejected.items():
        assert_spec_reports(f"nodePools[{index}]", paths, err, lambda path, pool=pool: pool_fields(path, pool),
                            per_property=not shape_rejects_a_required_key(NodePoolSpec, pool))


@pytest.fixture
def clock_at_now(monkeypatch: pytest.MonkeyPatch) -> None:
    """CalendarReservation judges windows at `reservation._now()`; the spec at NOW: the same moment."""
    monkeypatch.setattr(reservation_module, "_now", lambda: NOW)
