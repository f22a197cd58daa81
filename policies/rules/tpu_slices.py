"""TPU slice node pools: topology, placement and node counts (FACTS A).

A TPU node pool of machine type M with topology T is one slice of chips(T) / chips_per_vm(M) VMs.
A multi-host slice (more than one VM) is all-or-nothing: its pool has 0 nodes or exactly that many,
in one zone, with COMPACT placement and `placementPolicy.tpuTopology` (FACTS A.3 [S6, S11, S13]);
TPU7x takes its topology from a workload policy named in `placementPolicy.policyName` instead
(FACTS A.3 [S34]).
"""

from __future__ import annotations

from functools import lru_cache

from gkecap.components.catalog import (
    COMPACT_PLACEMENT,
    CatalogError,
    TpuSlice,
    is_tpu_machine_type,
    tpu_family_of,
    tpu_slice,
    tpu_topologies,
)
from gkecap.policies.resource_view import ResourceView, is_unknown
from gkecap.policies.rules.known_values import at, known_int, known_str
from gkecap.policies.rules.node_pool_props import NODE_POOL_TYPES, PoolView, node_pools

RESOURCE_POLICY_TYPE = "gcp:compute/resourcePolicy:ResourcePolicy"


def check_tpu_slice_topology(resource: ResourceView, config: dict) -> list[str]:
    """tpu-slice-topology: every TPU pool's topology, placement and node counts fit its slice."""
    messages: list[str] = []
    for pool in node_pools(resource):
        messages += _check_pool(pool)
    return messages


def _check_pool(pool: PoolView) -> list[str]:
    machine_type = pool.machine_type
    if machine_type is None or not is_tpu_machine_type(machine_type):
        return []
    placement = pool.get("placementPolicy")
    if is_unknown(placement):
        return []
    raw_topology = pool.get("placementPolicy.tpuTopology")
    if is_unknown(raw_topology):
        return []
    if raw_topology is None:
        if _has_single_host_topology(machine_type):
            return []  # a single-host pool (or TPU7x with a workload policy, checked at stack level)
        return [
            f"{pool.label}: {machine_type} has no single-host topology, so the pool needs "
            f"{pool.field('placementPolicy.tpuTopology')}; set it to one of "
            f"{', '.join(tpu_topologies(machine_type)[:8])} with placementPolicy.type {COMPACT_PLACEMENT}."
        ]
    topology = known_str(raw_topology)
    if topology is None:
        return [f"{pool.label}: {pool.field('placementPolicy.tpuTopology')} must be a string like '4x4' or '2x2x2'."]
    try:
        slice_ = tpu_slice(machine_type, topology)
    except CatalogError as err:
        return [f"{pool.label}: {pool.field('placementPolicy.tpuTopology')}: {err}."]
    if not slice_.multi_host:
        return []
    messages = _placement_problems(pool, slice_)
    messages += slice_count_problems(pool, slice_)
    return messages


@lru_cache(maxsize=64)
def _has_single_host_topology(machine_type: str) -> bool:
    return any(tpu_slice(machine_type, t).vms == 1 for t in tpu_topologies(machine_type))


def _describe(slice_: TpuSlice) -> str:
    return (
        f"a {slice_.topology} {slice_.family} slice on {slice_.machine_type} is {slice_.vms} VMs "
        f"({slice_.chips} chips / {slice_.chips_per_vm} per VM)"
    )


def _placement_problems(pool: PoolView, slice_: TpuSlice) -> list[str]:
    if slice_.uses_workload_policy:
        policy_name = pool.get("placementPolicy.policyName")
        if policy_name is None or policy_name == "":
            return [
                f"{pool.label}: {_describe(slice_)}; multi-host {slice_.family} pools are placed by a workload "
                f"policy: set {pool.field('placementPolicy.policyName')} to a resource policy with workloadPolicy "
                f"{{type: {slice_.workload_policy}, acceleratorTopology: {slice_.topology}}}."
            ]
        return []
    placement_type = pool.get("placementPolicy.type")
    if is_unknown(placement_type) or placement_type == COMPACT_PLACEMENT:
        return []
    return [
        f"{pool.label}: {_describe(slice_)}; a multi-host slice needs {pool.field('placementPolicy.type')} "
        f"{COMPACT_PLACEMENT} (found {placement_type!r}): set placementPolicy {{type: {COMPACT_PLACEMENT}, "
        f"tpuTopology: {slice_.topology}}}."
    ]


def slice_count_problems(pool: PoolView, slice_: TpuSlice) -> list[str]:
    """A multi-host slice's pool: one zone, autoscaling maximum = VMs, node counts 0 or VMs."""
    vms = slice_.vms
    zones = pool.zone_count()
    messages: list[str] = []
    if zones is not None and zones > 1:
        messages.append(
            f"{pool.label}: {_describe(slice_)}, and a slice cannot span zones, but the pool has {zones} zones "
            f"({', '.join(pool.zone_names() or [])}): set {pool.field('nodeLocations')} to a single zone."
        )
        return messages
    scaling = pool.autoscaling
    if scaling is not None:
        total = known_int(scaling.get("totalMaxNodeCount"))
        per_zone = known_int(scaling.get("maxNodeCount"))
        if total is not None and total != vms:
            messages.append(
                f"{pool.label}: {pool.field('autoscaling.totalMaxNodeCount')} is {total} but {_describe(slice_)}; "
                f"set it to {vms} (a multi-host pool holds exactly one slice, all or nothing; for more slices "
                "add one pool per slice)."
            )
        elif total is None and per_zone is not None and not _fits(per_zone, zones, vms):
            across = f" x {zones} zone = {per_zone * zones} nodes" if zones is not None else " per zone"
            messages.append(
                f"{pool.label}: {pool.field('autoscaling.maxNodeCount')} is {per_zone}{across}, but "
                f"{_describe(slice_)}; set maxNodeCount to {vms} in one zone (or totalMaxNodeCount: {vms})."
            )
    for count_field in ("nodeCount", "initialNodeCount"):
        count = known_int(pool.get(count_field))
        if count is None or count == 0 or _fits(count, zones, vms):
            continue
        messages.append(
            f"{pool.label}: {pool.field(count_field)} is {count} but {_describe(slice_)}; "
            f"set it to 0 or {vms}."
        )
    return messages


def _fits(per_zone: int, zones: int | None, vms: int) -> bool:
    """per_zone nodes in each zone add up to exactly `vms` (for some zone count, when it is unknown)."""
    if zones is not None:
        return per_zone * zones == vms
    return 0 < per_zone <= vms and vms % per_zone == 0


def check_tpu_workload_policies(resources: list[ResourceView], config: dict) -> list[tuple[str | None, str]]:
    """tpu-workload-policy: a TPU7x pool placed by a workload policy in the stack fits that policy's slice."""
    policies = [r for r in resources if r.type == RESOURCE_POLICY_TYPE]
    if not policies:
        return []
    found: list[tuple[str | None, str]] = []
    for resource in resources:
        if resource.type not in NODE_POOL_TYPES:
            continue
        for pool in node_pools(resource):
            machine_type = pool.machine_type
            if machine_type is None or not is_tpu_machine_type(machine_type):
                continue
            if not tpu_family_of(machine_type).multi_host_workload_policy:
                continue
            if pool.get("placementPolicy.tpuTopology") is not None:
                continue  # the resource rule checks it
            policy = _resource_policy_of(pool, policies)
            if policy is None:
                continue
            topology = known_str(at(policy.props, "workloadPolicy.acceleratorTopology"))
            if topology is None:
                continue
            where = f"resource policy {policy.name!r} (workloadPolicy.acceleratorTopology)"
            try:
                slice_ = tpu_slice(machine_type, topology)
            except CatalogError as err:
                found.append((policy.urn, f"{pool.label} uses {where}: {err}."))
                continue
            for message in slice_count_problems(pool, slice_):
                found.append((resource.urn, f"{message} (topology {topology} from {where})"))
    return found


def _resource_policy_of(pool: PoolView, policies: list[ResourceView]) -> ResourceView | None:
    """The stack's resource policy the pool's placementPolicy.policyName names (by name or dependency)."""
    name = known_str(pool.get("placementPolicy.policyName"))
    depends_on = set(pool.resource.property_dependencies.get("placementPolicy", ()))
    for policy in policies:
        if policy.urn in depends_on and len(depends_on) == 1:
            return policy
        policy_name = known_str(policy.props.get("name"))
        if name and policy_name and (name == policy_name or name.endswith(f"/resourcePolicies/{policy_name}")):
            return policy
    return None
