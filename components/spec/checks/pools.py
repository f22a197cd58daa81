"""Node pools in an environment: each pool's one rule set (`gke.check_pool_request`, paths under
`nodePools[i].`), plus what needs the rest of the file: unique names, zones in the region, and calendar pools
against the reservations they consume.
"""

from __future__ import annotations

from dataclasses import dataclass

from gkecap.components.catalog import GPU_RESOURCE, TPU_RESOURCE, tpu_family_of, tpu_slice
from gkecap.components.gke.locations import zone_issues
from gkecap.components.gke.pool_checks import check_pool_request
from gkecap.components.gke.pool_request import PoolRequest, pool_gpu
from gkecap.components.gke.pool_settings import NodePoolSettings, node_pool_settings
from gkecap.components.issues import under
from gkecap.components.spec.checks.context import Findings, listing
from gkecap.components.spec.models import NodePoolSpec, ReservationSpec
from gkecap.components.spec.requests import pool_request


@dataclass(frozen=True)
class PoolFacts:
    """A valid pool: its request, the GKE node pools that follow, and what the quota checks need."""

    index: int
    pool: NodePoolSpec
    request: PoolRequest
    node_pools: tuple[NodePoolSettings, ...]
    kind: str  # "gpu" | "tpu"
    resource: str
    family: str

    @property
    def capacity(self) -> int:
        return sum(n.max_units for n in self.node_pools)  # units the nodes advertise (catalog.gpu_units_per_vm)

    @property
    def nodes(self) -> int:
        return sum(n.autoscaling.total_max_node_count for n in self.node_pools)

    def capacity_text(self) -> str:
        if self.kind == "tpu":
            slices = self.request.slice_count
            chips = tpu_slice(self.request.machine_type, self.request.tpu_topology).chips  # type: ignore[arg-type]
            return f"{slices} slice{'s' if slices != 1 else ''} x {chips} chips"
        per_node = self.node_pools[0].node_units
        unit = "" if per_node == self.node_pools[0].accelerators_per_node else " GPU units"
        return f"{self.nodes} node{'s' if self.nodes != 1 else ''} x {per_node}{unit}"


def check_pools(f: Findings, reservations: dict[str, tuple[int, ReservationSpec]]) -> dict[str, PoolFacts]:
    """Check every pool; return the facts of the valid ones by name (first of a duplicated name)."""
    facts: dict[str, PoolFacts] = {}
    seen: dict[str, int] = {}
    region = f.valid_region
    for index, pool in f.view.pools:
        path = f"nodePools[{index}]"
        f.unique("nodePools", index, pool.name, seen, "pool")
        reserved = reservations.get(pool.reservation or "") if pool.capacity == "calendar" else None
        request = pool_request(pool, reserved[1].count if reserved else None)
        issues = check_pool_request(request)
        if pool.capacity == "calendar" and pool.max_nodes is None and reserved is None:
            # The default size is the reservation's; its absence is reported on `reservation`.
            issues = [i for i in issues if i.path != "maxNodes"]
        f.errors.extend(under(path, issues))
        if region is not None and pool.zones is not None:
            for zone_index, zone in enumerate(pool.zones):
                f.errors.extend(zone_issues(f"{path}.zones[{zone_index}]", zone, region))
        if not issues and pool.name not in facts:
            facts[pool.name] = _facts(index, pool, request)
    return facts


def _facts(index: int, pool: NodePoolSpec, request: PoolRequest) -> PoolFacts:
    if pool.is_tpu:
        kind, resource, family = "tpu", TPU_RESOURCE, tpu_family_of(pool.machine_type).name
    else:
        kind, resource, family = "gpu", GPU_RESOURCE, pool_gpu(pool.machine_type, request.gpu_type,
                                                                request.gpu_count).family
    return PoolFacts(index, pool, request, node_pool_settings(request, checked=True), kind, resource, family)


def check_calendar_consumption(
    f: Findings, reservations: dict[str, tuple[int, ReservationSpec]], facts: dict[str, PoolFacts]
) -> None:
    """Calendar pools: a declared reservation, its machine type, its zone, within its count (all pools together)."""
    consumers: dict[str, list[PoolFacts]] = {}
    for index, pool in f.view.pools:
        if pool.capacity != "calendar" or pool.reservation is None:
            continue
        path = f"nodePools[{index}]"
        found = reservations.get(pool.reservation)
        if found is None:
            names = f.view.reservation_names
            if names is not None and pool.reservation not in names:
                f.error(f"{path}.reservation",
                        f"{pool.reservation!r} is not declared in reservations; declared: {listing(sorted(names))}")
            continue
        _, res = found
        if not res.submit:
            # A draft is never fulfilled: the pool gets no nodes, and work admitted to it waits (docs/design.md).
            f.warn(f"{path}.reservation",
                   f"pool {pool.name!r} consumes reservation {res.name!r}, which is a draft (submit: false): Compute "
                   "Engine provides no capacity until it is submitted; set submit: true once reviewed")
        if res.machine_type != pool.machine_type:
            f.error(f"{path}.machineType",
                    f"{pool.machine_type!r} does not match reservation {res.name!r}, which reserves {res.machine_type};"
                    " a calendar pool must use the reserved machine type")
            continue
        if pool.zones is not None and any(zone != res.zone for zone in pool.zones):
            f.error(f"{path}.zones",
                    f"{', '.join(pool.zones)} is outside reservation {res.name!r}, which is in {res.zone}; allowed:"
                    f" [{res.zone}]")
        pool_facts = facts.get(pool.name)
        if pool_facts is not None and pool_facts.index == index:
            consumers.setdefault(res.name, []).append(pool_facts)
    for name, pools in consumers.items():
        res_index, res = reservations[name]
        unit = "chips" if pools[0].kind == "tpu" else "VMs"
        need = {p.pool.name: (p.capacity if p.kind == "tpu" else p.nodes) for p in pools}
        for p in pools:
            if need[p.pool.name] > res.count:
                key = "slices" if p.kind == "tpu" else "maxNodes"
                detail = f" ({p.capacity_text()})" if p.kind == "tpu" else ""
                f.error(f"nodePools[{p.index}].{key}",
                        f"the pool needs {need[p.pool.name]} {unit}{detail} but reservation {name!r} holds {res.count} "
                        f"{unit}; allowed: at most {res.count} {unit}")
        total = sum(need.values())
        if len(pools) > 1 and total > res.count:
            parts = ", ".join(f"{pool} {n}" for pool, n in need.items())
            f.error(f"reservations[{res_index}].count",
                    f"pools consuming {name!r} need {total} {unit} together ({parts}) but it holds {res.count}; "
                    "reduce the pools or reserve more")

