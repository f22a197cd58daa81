"""Organisation allow-lists: which machine types and regions a stack may use (from the pack's config).

Silent until configured. Machine types and regions may be globs (`a3-*`, `us-*`).
"""

from __future__ import annotations

from collections.abc import Iterator
from fnmatch import fnmatchcase

from gkecap.policies.resource_view import ResourceView
from gkecap.policies.rules.known_values import at, known_list, known_str
from gkecap.components.gke.locations import is_zone, region_of
from gkecap.policies.rules.node_pool_props import CLUSTER_TYPE, node_pools
from gkecap.policies.rules.reservations import FUTURE_RESERVATION_TYPE, RESERVATION_TYPE

ALLOW_LIST_SCHEMA = {
    "allowedMachineTypes": {
        "type": "array",
        "items": {"type": "string"},
        "default": [],
        "description": "Machine types node pools and reservations may use (globs allowed, e.g. 'a3-*'). "
        "Empty: any.",
    },
    "allowedRegions": {
        "type": "array",
        "items": {"type": "string"},
        "default": [],
        "description": "Regions clusters, node pools and reservations may use (globs allowed). Empty: any.",
    },
}


def _allowed(value: str, patterns: list[str]) -> bool:
    return any(fnmatchcase(value, p) for p in patterns)


def _uses(resource: ResourceView) -> Iterator[tuple[str, str | None, list[str]]]:
    """(what, machine type, locations) a resource uses; locations are zones or regions."""
    if resource.type == CLUSTER_TYPE:
        location = known_str(resource.props.get("location"))
        machine_type = known_str(at(resource.props, "nodeConfig.machineType"))
        zones = [z for z in known_list(resource.props.get("nodeLocations")) or [] if isinstance(z, str)]
        yield f"cluster {resource.name!r}", machine_type, ([location] if location else []) + zones
    for pool in node_pools(resource):
        if pool.resource.type == CLUSTER_TYPE:
            yield pool.label, pool.machine_type, []  # the cluster's own entry covers its locations
            continue
        location = known_str(pool.location)
        locations = pool.zone_names() or ([location] if location else [])
        yield pool.label, pool.machine_type, locations
    if resource.type == RESERVATION_TYPE:
        yield (
            f"reservation {resource.name!r}",
            known_str(at(resource.props, "specificReservation.instanceProperties.machineType")),
            [z for z in [known_str(resource.props.get("zone"))] if z],
        )
    if resource.type == FUTURE_RESERVATION_TYPE:
        yield (
            f"future reservation {resource.name!r}",
            known_str(at(resource.props, "specificSkuProperties.instanceProperties.machineType")),
            [z for z in [known_str(resource.props.get("zone"))] if z],
        )


def check_allow_lists(resource: ResourceView, config: dict) -> list[str]:
    """allow-lists: machine types and regions are in the organisation's allow-lists, when configured."""
    machine_types = [p for p in config.get("allowedMachineTypes") or [] if isinstance(p, str)]
    regions = [p for p in config.get("allowedRegions") or [] if isinstance(p, str)]
    if not machine_types and not regions:
        return []
    messages: list[str] = []
    for what, machine_type, locations in _uses(resource):
        if machine_types and machine_type and not _allowed(machine_type, machine_types):
            messages.append(
                f"{what} uses machine type {machine_type!r}, which is not in the allowed machine types "
                f"({', '.join(machine_types)}): pick an allowed one or ask the platform team to extend "
                "allowedMachineTypes."
            )
        if regions:
            for region in dict.fromkeys(region_of(loc) for loc in locations):
                if not _allowed(region, regions):
                    where = "zone in" if any(is_zone(loc) for loc in locations) else "location"
                    messages.append(
                        f"{what} uses region {region!r} ({where} {', '.join(locations)}), which is not in the "
                        f"allowed regions ({', '.join(regions)}): move it to an allowed region or ask the platform "
                        "team to extend allowedRegions."
                    )
    return messages
