"""What the GKE node pools of one accelerator pool look like, derived from the catalog: pure, no Pulumi.

One accelerator pool (a machine type, a capacity model and a size) becomes one or more GKE node pools
(one per multi-host TPU slice). `node_pool_settings` derives every setting of those node pools -- node
counts, autoscaling, reservation affinity, placement, guest accelerators, labels and taints -- so that
`AcceleratorNodePool` creates them, the capacity model reports them, and the Kueue flavors select and
tolerate exactly these nodes.

Settings per capacity model (FACTS.md B):

=========== ========== ===== ====== ================== =========== ========== =====================
capacity    flexStart  spot  queued reservation        location    autoRepair nodes (total)
=========== ========== ===== ====== ================== =========== ========== =====================
flex-start  true       -     -      NO_RESERVATION     ANY         false      0..max, initial 0
queued      true       -     true   NO_RESERVATION     ANY         false      0..max, initial 0
calendar    -          -     -      SPECIFIC (by name) ANY         true       0..max, initial 0
reservation -          -     -      SPECIFIC (by name) ANY         true       min..max
spot        -          true  -      NO_RESERVATION     ANY         true       min..max
on-demand   -          -     -      ANY_RESERVATION    BALANCED    true       min..max
=========== ========== ===== ====== ================== =========== ========== =====================

Node counts belong to the cluster autoscaler: every pool autoscales with total limits, and the component
tells Pulumi to ignore `initialNodeCount` and `nodeCount` (`AUTOSCALER_OWNED_FIELDS`): the autoscaler
resizes the pool (GKE reports the new size in `nodeCount`, and a manual resize can rewrite
`initialNodeCount`, which is create-only and would force a replacement). The autoscaling limits themselves
are ours: the autoscaler never changes them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping

from gkecap.components.catalog import (
    COMPACT_PLACEMENT,
    HIGH_THROUGHPUT,
    CatalogError,
    GpuMachine,
    TpuSlice,
    gpu_units_per_vm,
    is_tpu_machine_type,
    tpu_slice,
)
from gkecap.components.gke.node_labels import NodeTaint, node_labels, node_taints
from gkecap.components.gke.pool_checks import check_pool_request
from gkecap.components.gke.pool_request import (
    DEFAULT_GPU_DRIVER_VERSION,
    FLEX_CAPACITIES,
    RESERVATION_CAPACITIES,
    GpuSharing,
    PoolRequest,
    ReservationTarget,
    is_gpu_pool_machine_type,
    node_pool_names,
    pool_gpu,
)
from gkecap.components.issues import InvalidInput

# ANY "picks zones that have the highest capacity available" and prioritizes unused reservations and
# lowers Spot preemption risk (pulumi-gcp NodePoolAutoscalingArgs.location_policy, FACTS B.1 [S6]);
# flex/queued use ANY (FACTS B.1 [S14, S15], xpk [S1]). On-demand keeps GKE's default, BALANCED.
LOCATION_POLICY: Mapping[str, str] = {
    "flex-start": "ANY",
    "queued": "ANY",
    "calendar": "ANY",
    "reservation": "ANY",
    "spot": "ANY",
    "on-demand": "BALANCED",
}

# ReservationAffinity.Type. FACTS B.1 [S6 cluster_service.proto]
NO_RESERVATION = "NO_RESERVATION"
ANY_RESERVATION = "ANY_RESERVATION"
SPECIFIC_RESERVATION = "SPECIFIC_RESERVATION"

# Specific reservations are targeted by this affinity key. FACTS B.4 [S3, S4]; C [S15]
RESERVATION_NAME_KEY = "compute.googleapis.com/reservation-name"

# Secure node defaults (GKE hardening guide): GKE metadata server for Workload Identity, shielded VMs.
WORKLOAD_METADATA_MODE = "GKE_METADATA"
CLOUD_PLATFORM_SCOPE = "https://www.googleapis.com/auth/cloud-platform"

# Fields the cluster autoscaler (or a manual resize) changes after creation; the component ignores them.
AUTOSCALER_OWNED_FIELDS = ("initialNodeCount", "nodeCount")


@dataclass(frozen=True)
class Autoscaling:
    total_min_node_count: int
    total_max_node_count: int
    location_policy: str


@dataclass(frozen=True)
class ReservationAffinity:
    consume_reservation_type: str  # NO_RESERVATION | ANY_RESERVATION | SPECIFIC_RESERVATION
    target: ReservationTarget | None = None

    @property
    def key(self) -> str | None:
        return RESERVATION_NAME_KEY if self.target else None

    def values(self) -> list[str] | None:
        return [self.target.affinity_value()] if self.target else None


@dataclass(frozen=True)
class Placement:
    """COMPACT placement; TPU slices add tpu_topology, or a workload policy (TPU7x) carrying the topology."""

    type: str = COMPACT_PLACEMENT
    tpu_topology: str | None = None
    workload_policy: str | None = None  # HIGH_THROUGHPUT: a compute ResourcePolicy named by policyName
    accelerator_topology: str | None = None  # the workload policy's topology


@dataclass(frozen=True)
class GuestAccelerator:
    type: str
    count: int
    gpu_driver_version: str
    gpu_partition_size: str | None = None
    gpu_sharing: GpuSharing | None = None


@dataclass(frozen=True)
class NodePoolSettings:
    """Every setting of one GKE node pool."""

    name: str  # GKE node pool name and the child resource's name
    machine_type: str
    node_locations: tuple[str, ...]
    initial_node_count: int
    autoscaling: Autoscaling
    flex_start: bool
    spot: bool
    queued_provisioning: bool
    max_run_duration: str | None
    reservation_affinity: ReservationAffinity
    placement: Placement | None
    auto_repair: bool
    auto_upgrade: bool
    labels: Mapping[str, str]
    taints: tuple[NodeTaint, ...]
    guest_accelerator: GuestAccelerator | None
    accelerators_per_node: int  # GPUs (as GKE attaches them) or TPU chips per VM
    slice_index: int | None = None  # multi-host TPU: which slice this node pool is
    disk_size_gb: int | None = None
    disk_type: str | None = None
    units_per_node: int = 0  # resource units a node advertises (catalog.gpu_units_per_vm); 0: accelerators_per_node

    @property
    def max_accelerators(self) -> int:
        return self.autoscaling.total_max_node_count * self.accelerators_per_node

    @property
    def node_units(self) -> int:
        """`nvidia.com/gpu` / `google.com/tpu` units one node advertises: what quotas count."""
        return self.units_per_node or self.accelerators_per_node

    @property
    def max_units(self) -> int:
        return self.autoscaling.total_max_node_count * self.node_units


def slice_of(req: PoolRequest) -> TpuSlice | None:
    if not is_tpu_machine_type(req.machine_type):
        return None
    if req.tpu_topology is None:  # check_pool_request requires one
        raise CatalogError(f"{req.machine_type}: a TPU pool needs a topology")
    return tpu_slice(req.machine_type, req.tpu_topology)


def node_pool_settings(req: PoolRequest, *, checked: bool = False) -> tuple[NodePoolSettings, ...]:
    """The GKE node pools of an accelerator pool; raises InvalidInput listing every problem (`checked`: the
    caller already ran `check_pool_request` and found none)."""
    issues = [] if checked else check_pool_request(req)
    if issues:
        raise InvalidInput(issues, subject=f"pool {req.name!r}")
    tpu = slice_of(req)
    if tpu is not None and tpu.multi_host:
        # One node pool per slice, each 0 or exactly the slice's VMs (all-or-nothing). FACTS A.3 [S13, S11]
        names = node_pool_names(req.name, req.slice_count)
        return tuple(_settings(req, name, tpu, 0, tpu.vms, index) for index, name in enumerate(names))
    if tpu is not None:
        # Single-host: one pool, each node a whole slice, 0..slices nodes.
        return (_settings(req, req.name, tpu, 0, req.slice_count, None),)
    return (_settings(req, req.name, None, req.min_nodes or 0, int(req.max_nodes or 0), None),)


def _settings(
    req: PoolRequest, name: str, tpu: TpuSlice | None, total_min: int, total_max: int, slice_index: int | None
) -> NodePoolSettings:
    flex = req.capacity in FLEX_CAPACITIES
    if req.capacity in RESERVATION_CAPACITIES:
        affinity = ReservationAffinity(SPECIFIC_RESERVATION, req.reservation)
    elif req.capacity == "on-demand":
        # GKE's default: on-demand VMs use matching open reservations the project already pays for; ours are
        # specificReservationRequired, so only the pools that name them consume them. FACTS B.1 [S6]; as xpk.
        affinity = ReservationAffinity(ANY_RESERVATION)
    else:
        # Flex-start and queued never consume reservations; spot requires NO_RESERVATION. FACTS B.1, B.2 [S9]
        affinity = ReservationAffinity(NO_RESERVATION)
    zones = tuple(req.zones or ())
    return NodePoolSettings(
        name=name,
        machine_type=req.machine_type,
        node_locations=zones,
        initial_node_count=0 if flex else _initial_per_zone(total_min, len(zones)),
        autoscaling=Autoscaling(total_min, total_max, LOCATION_POLICY[req.capacity]),
        flex_start=flex,
        spot=req.capacity == "spot",
        queued_provisioning=req.capacity == "queued",
        max_run_duration=f"{req.max_run_duration_seconds}s" if req.max_run_duration_seconds else None,
        reservation_affinity=affinity,
        placement=_placement(req, tpu),
        # Auto-repair off for flex-start: repairs disrupt workloads. FACTS B.1 [S14], B.2 [S9]
        auto_repair=not flex,
        auto_upgrade=True,
        labels=node_labels(req.name, req.capacity, req.labels),
        taints=node_taints(req.machine_type, req.capacity, req.taints),
        guest_accelerator=_guest_accelerator(req),
        accelerators_per_node=tpu.chips_per_vm if tpu is not None else _gpu(req).gpus_per_vm,
        slice_index=slice_index,
        disk_size_gb=req.disk_size_gb,
        disk_type=req.disk_type,
        units_per_node=_units_per_node(req, tpu),
    )


def _units_per_node(req: PoolRequest, tpu: TpuSlice | None) -> int:
    if tpu is not None:
        return tpu.chips_per_vm
    gpu = _gpu(req)
    clients = req.gpu_sharing.max_shared_clients_per_gpu if req.gpu_sharing is not None else None
    return gpu_units_per_vm(gpu.accelerator_label, gpu.gpus_per_vm, req.gpu_partition_size, clients)


def _initial_per_zone(total_min: int, zones: int) -> int:
    # initialNodeCount is per zone [S4 initial_node_count]; start at the total minimum, spread over zones.
    return math.ceil(total_min / zones) if zones else total_min


def _placement(req: PoolRequest, tpu: TpuSlice | None) -> Placement | None:
    if tpu is not None:
        if not tpu.multi_host:
            # Single-host slices get no topology or placement (xpk: "--tpu-topology should not be set for
            # single-host node pools" [S1 nodepool.py]; FACTS A.3 [S11]).
            return None
        if tpu.workload_policy:
            # TPU7x: a HIGH_THROUGHPUT workload policy replaces tpu_topology. FACTS A.3 [S34]
            return Placement(workload_policy=tpu.workload_policy, accelerator_topology=tpu.topology)
        return Placement(tpu_topology=tpu.topology)  # FACTS A.3 [S13, S6]
    if not req.compact_placement:
        return None
    gpu = _gpu(req)
    if gpu.nvlink_topology:
        # A4X (NVL72): compact placement is a HIGH_THROUGHPUT workload policy with accelerator topology 1x72, named
        # by the node pool's placement policy (AI Hypercomputer "Create a GKE cluster with A4X"; xpk's 1x72).
        return Placement(workload_policy=HIGH_THROUGHPUT, accelerator_topology=gpu.nvlink_topology)
    return Placement()


def _guest_accelerator(req: PoolRequest) -> GuestAccelerator | None:
    if not is_gpu_pool_machine_type(req.machine_type):
        return None  # TPU chips come with the machine type
    gpu = _gpu(req)
    return GuestAccelerator(
        type=gpu.accelerator_label,
        count=gpu.gpus_per_vm,
        gpu_driver_version=req.gpu_driver_version or DEFAULT_GPU_DRIVER_VERSION,
        gpu_partition_size=req.gpu_partition_size,
        gpu_sharing=req.gpu_sharing,
    )


def _gpu(req: PoolRequest) -> GpuMachine:
    return pool_gpu(req.machine_type, req.gpu_type, req.gpu_count)
