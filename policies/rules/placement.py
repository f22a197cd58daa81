"""Compact placement on node pools of any machine type: a COMPACT placement policy places VMs close together within
one zone (docs/sources.md "Compact placement is single-zone"), so a COMPACT pool over several zones is refused by
GKE. Multi-host TPU slices are judged by `tpu-slice-topology`, which says the same for a slice.
"""

from __future__ import annotations

from gkecap.components.catalog import COMPACT_PLACEMENT, is_tpu_machine_type
from gkecap.policies.resource_view import ResourceView
from gkecap.policies.rules.known_values import known_str
from gkecap.policies.rules.node_pool_props import node_pools


def check_compact_placement_zone(resource: ResourceView, config: dict) -> list[str]:
    """compact-placement-zone: a non-TPU node pool with COMPACT placement lives in one zone."""
    messages: list[str] = []
    for pool in node_pools(resource):
        machine_type = pool.machine_type
        if machine_type is None or is_tpu_machine_type(machine_type):
            continue
        if known_str(pool.get("placementPolicy.type")) != COMPACT_PLACEMENT:
            continue
        zones = pool.zone_names()
        if zones is None or len(set(zones)) <= 1:
            continue
        messages.append(
            f"{pool.label}: {pool.field('placementPolicy.type')} is {COMPACT_PLACEMENT}, which keeps the pool's VMs "
            f"in one zone, but the pool has {len(set(zones))} zones ({', '.join(zones)}): set "
            f"{pool.field('nodeLocations')} to a single zone, or remove placementPolicy."
        )
    return messages
