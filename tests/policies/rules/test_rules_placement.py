"""compact-placement-zone: a COMPACT node pool lives in one zone, as a compact placement policy places VMs
(docs/sources.md "Compact placement is single-zone")."""

from __future__ import annotations

from testkit.rule_resources import flex_tpu_pool, on_demand_gpu_pool

from gkecap.policies.resource_view import UNKNOWN
from gkecap.policies.rules.placement import check_compact_placement_zone


def test_a_compact_gpu_pool_over_two_zones_is_caught():
    [message] = check_compact_placement_zone(on_demand_gpu_pool(placementPolicy={"type": "COMPACT"}), {})
    assert "placementPolicy.type is COMPACT" in message and "2 zones (us-east5-a, us-east5-b)" in message


def test_a_compact_gpu_pool_in_one_zone_passes():
    pool = on_demand_gpu_pool(placementPolicy={"type": "COMPACT"}, nodeLocations=["us-east5-a"])
    assert check_compact_placement_zone(pool, {}) == []


def test_a_pool_over_two_zones_without_compact_placement_passes():
    assert check_compact_placement_zone(on_demand_gpu_pool(), {}) == []


def test_unknown_zones_are_not_judged():
    pool = on_demand_gpu_pool(placementPolicy={"type": "COMPACT"}, nodeLocations=UNKNOWN)
    assert check_compact_placement_zone(pool, {}) == []


def test_tpu_slices_are_left_to_the_tpu_rule():
    pool = flex_tpu_pool(nodeLocations=["us-east5-a", "us-east5-b"])
    assert check_compact_placement_zone(pool, {}) == []
