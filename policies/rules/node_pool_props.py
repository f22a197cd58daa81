"""GKE node pools as the engine sees them: a `gcp.container.NodePool`, or a pool written inline in a
`gcp.container.Cluster`'s `nodePools`. Field names are pulumi-gcp's camelCase inputs (FACTS B.4 [S4]).

`PoolView` answers the questions several rules ask (machine type, zones, maximum nodes, capacity model)
and answers None whenever the answer depends on something absent or unknown during preview.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from gkecap.components.catalog import (
    GPU_RESOURCE,
    TPU_RESOURCE,
    CatalogError,
    gpu_machine,
    gpu_units_per_vm,
    is_gpu_machine_type,
    is_tpu_machine_type,
    tpu_machine,
)
from gkecap.components.gke import pool_settings
from gkecap.components.gke.locations import is_zone
from gkecap.policies.resource_view import ResourceView, is_unknown
from gkecap.policies.rules.known_values import at, known_bool, known_int, known_list, known_mapping, known_str

NODE_POOL_TYPE = "gcp:container/nodePool:NodePool"
CLUSTER_TYPE = "gcp:container/cluster:Cluster"
NODE_POOL_TYPES = (NODE_POOL_TYPE, CLUSTER_TYPE)

# ReservationAffinity.Type values: the node pool settings' own constants.
NO_RESERVATION, SPECIFIC_RESERVATION = pool_settings.NO_RESERVATION, pool_settings.SPECIFIC_RESERVATION

@dataclass(frozen=True)
class PoolView:
    """One node pool. `resource` is the NodePool, or the Cluster that declares the pool inline."""

    resource: ResourceView
    props: Mapping[str, Any]
    label: str  # how messages name the pool
    field_prefix: str  # "" for a NodePool, "nodePools[1]." for an inline pool
    location: Any
    node_locations: Any

    def get(self, path: str) -> Any:
        return at(self.props, path)

    def field(self, path: str) -> str:
        """The property path as the user wrote it, for messages."""
        return f"{self.field_prefix}{path}"

    # --- identity -------------------------------------------------------------------------------------
    @property
    def name(self) -> str | None:
        """The GKE node pool name when known (an auto-named pool's name is only known after creation)."""
        # An auto-named NodePool (no `name`) gets the resource name plus a random suffix.
        return known_str(self.get("name"))

    @property
    def machine_type(self) -> str | None:
        return known_str(self.get("nodeConfig.machineType"))

    @property
    def is_tpu(self) -> bool:
        return is_tpu_machine_type(self.machine_type or "")

    # --- where ----------------------------------------------------------------------------------------
    def zone_names(self) -> list[str] | None:
        """The zones the pool's nodes run in, when known from the pool itself."""
        locations = self.node_locations
        if isinstance(locations, list):
            known = known_list(locations)
            if known is None or not all(isinstance(z, str) for z in known):
                return None
            if known:
                return list(known)
        elif locations is not None:
            return None  # unknown during preview
        location = known_str(self.location)
        return [location] if location is not None and is_zone(location) else None

    def zone_count(self) -> int | None:
        zones = self.zone_names()
        return len(zones) if zones is not None else None

    # --- size -----------------------------------------------------------------------------------------
    @property
    def autoscaling(self) -> Mapping | None:
        return known_mapping(self.get("autoscaling"))

    @property
    def autoscaling_absent(self) -> bool:
        return self.get("autoscaling") is None

    def max_nodes(self) -> int | None:
        """Most nodes the pool can have across its zones, when that follows from what is known."""
        scaling = self.autoscaling
        if scaling is not None:
            total = known_int(scaling.get("totalMaxNodeCount"))
            if total is not None:
                return total
            per_zone = known_int(scaling.get("maxNodeCount"))
            zones = self.zone_count()
            if per_zone is not None and zones is not None:
                return per_zone * zones
            return None
        if not self.autoscaling_absent:
            return None
        count = known_int(self.get("nodeCount"))
        if count is None and self.get("nodeCount") is None:
            count = known_int(self.get("initialNodeCount"))
        zones = self.zone_count()
        if count is not None and zones is not None:
            return count * zones
        return None

    # --- capacity model -------------------------------------------------------------------------------
    @property
    def flex_start(self) -> bool | None:
        return _flag(self.get("nodeConfig.flexStart"))

    @property
    def queued(self) -> bool | None:
        return _flag(self.get("queuedProvisioning.enabled"))

    @property
    def spot(self) -> bool | None:
        spot, preemptible = _flag(self.get("nodeConfig.spot")), _flag(self.get("nodeConfig.preemptible"))
        if spot is None or preemptible is None:
            return None
        return spot or preemptible

    def capacity_model(self) -> str | None:
        """queued | flex-start | spot | reservation | on-demand (CAPACITY_MODELS names); None if unknown."""
        queued, flex, spot = self.queued, self.flex_start, self.spot
        if queued:
            return "queued"
        if flex:
            return "flex-start"
        if spot:
            return "spot"
        if None in (queued, flex, spot):
            return None
        affinity = self.get("nodeConfig.reservationAffinity.consumeReservationType")
        if is_unknown(affinity):
            return None
        return "reservation" if affinity == SPECIFIC_RESERVATION else "on-demand"

    # --- accelerators ---------------------------------------------------------------------------------
    def guest_accelerators(self) -> list[Mapping] | None:
        """The guestAccelerators entries; [] when none are written; None when unknown."""
        value = self.get("nodeConfig.guestAccelerators")
        if value is None:
            return []
        if not isinstance(value, list) or any(not isinstance(a, Mapping) for a in value):
            return None
        return value

    def accelerator_resource(self) -> tuple[str, int] | None:
        """(extended resource, units per node) the pool's nodes offer, e.g. ("nvidia.com/gpu", 8).

        GPU units count what pods request: time-shared and MIG-partitioned GPUs offer several units each.
        FACTS E [S10, S25]. None when the pool has no accelerator or the count is not known.
        """
        machine_type = self.machine_type
        if machine_type is None:
            return None
        if is_tpu_machine_type(machine_type):
            return TPU_RESOURCE, tpu_machine(machine_type).chips_per_vm
        accelerators = self.guest_accelerators()
        if accelerators is None:
            return None
        if accelerators:
            first = accelerators[0]
            gpus = known_int(first.get("count"))
            label = known_str(first.get("type"))
        elif is_gpu_machine_type(machine_type):
            machine = gpu_machine(machine_type)
            gpus, label = machine.gpus_per_vm, machine.accelerator_label
            first = {}
        else:
            return None
        if gpus is None:
            return None
        if label is None:
            return None
        partition = first.get("gpuPartitionSize")
        if partition is not None and known_str(partition) is None:
            return None
        clients = None
        sharing = first.get("gpuSharingConfig")
        if sharing is not None:
            clients = known_int(at(sharing, "maxSharedClientsPerGpu"))
            if clients is None or clients < 1:
                return None
        try:  # the one count of advertised units, also the spec's and the model's
            return GPU_RESOURCE, gpu_units_per_vm(label, gpus, partition or None, clients)
        except CatalogError:
            return None


def _flag(value: Any) -> bool | None:
    """A boolean that defaults to False when absent; None when unknown."""
    if value is None:
        return False
    return known_bool(value)


def _cluster_zones(cluster: Mapping[str, Any]) -> Any:
    """A cluster's node zones. A zonal cluster's `nodeLocations` omit its own zone (pulumi-gcp Cluster docs)."""
    locations, location = cluster.get("nodeLocations"), cluster.get("location")
    if isinstance(locations, list) and is_zone(known_str(location)) and known_list(locations) is not None:
        return [location] + [z for z in locations if z != location]
    return locations


def node_pools(resource: ResourceView) -> Iterator[PoolView]:
    """The node pools a resource declares: a NodePool itself, or a Cluster's inline `nodePools`."""
    if resource.type == NODE_POOL_TYPE:
        yield PoolView(
            resource=resource,
            props=resource.props,
            label=f"node pool {resource.name!r}",
            field_prefix="",
            location=resource.props.get("location"),
            node_locations=resource.props.get("nodeLocations"),
        )
    elif resource.type == CLUSTER_TYPE:
        pools = resource.props.get("nodePools")
        if not isinstance(pools, list):
            return
        for index, pool in enumerate(pools):
            if not isinstance(pool, Mapping):
                continue
            name = known_str(pool.get("name")) or f"#{index}"
            locations = pool.get("nodeLocations")
            if locations is None:
                locations = _cluster_zones(resource.props)
            yield PoolView(
                resource=resource,
                props=pool,
                label=f"node pool {name!r} of cluster {resource.name!r}",
                field_prefix=f"nodePools[{index}].",
                location=resource.props.get("location"),
                node_locations=locations,
            )
