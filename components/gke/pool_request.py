"""One accelerator pool as a user declares it (`PoolRequest`), and the facts that sort its capacity models.

The environment file's `nodePools[i]` and `AcceleratorNodePool`'s arguments both become a `PoolRequest`;
`gke.pool_checks.check_pool_request` judges it and `gke.pool_settings.node_pool_settings` derives the GKE
node pools from it, so a pool has one set of rules wherever it is declared.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from gkecap.components.catalog import (
    GpuMachine,
    attached_gpu_machine,
    gpu_machine,
    is_gpu_machine_type,
    is_n1_machine_type,
)
from gkecap.components.catalog.errors import CatalogError
from gkecap.components.gke.node_labels import NodeTaint

FLEX_CAPACITIES = frozenset({"flex-start", "queued"})
RESERVATION_CAPACITIES = frozenset({"calendar", "reservation"})
# minNodes > 0 keeps paid capacity warm: for reservation, spot and on-demand pools. Flex/queued need total
# min 0 (FACTS B.2 [S9]); a calendar reservation has no capacity outside its window.
MIN_NODES_CAPACITIES = frozenset({"reservation", "spot", "on-demand"})
# Over-committed Kueue quota is a warning where DWS obtains capacity on demand, an error where capacity is
# fixed; the environment spec checks and the policy pack's quota-capacity rules both judge by it.
OVERCOMMIT_WARNS = FLEX_CAPACITIES

# Flex-start VMs run at most seven days. FACTS B.3 [S16, S17]; value in whole seconds, "<n>s". FACTS B.2 [S9]
MAX_RUN_DURATION_SECONDS = 7 * 24 * 3600

GPU_DRIVER_VERSIONS = ("DEFAULT", "LATEST", "INSTALLATION_DISABLED")  # FACTS E [S3]
DEFAULT_GPU_DRIVER_VERSION = "DEFAULT"
GPU_SHARING_STRATEGIES = ("TIME_SHARING", "MPS")  # FACTS E [S6 GPUSharingStrategy]
# Most containers sharing one GPU, time-sharing or MPS: 48. NVIDIA MPS serves at most 48 clients per device
# (Volta and later, https://docs.nvidia.com/deploy/mps/), and GKE's GPU sharing guides state 48 for both
# strategies. The device plugin itself only requires > 0 (FACTS E [S10 manager.go]); the newer, documented bound
# is used (docs/sources.md "GPU sharing limits").
MAX_SHARED_CLIENTS_PER_GPU = 48


@dataclass(frozen=True)
class ReservationTarget:
    """The reservation a calendar or reservation pool consumes: a name, and optionally its owner and block."""

    name: str
    project: str | None = None
    block: str | None = None

    def affinity_value(self) -> str:
        return reservation_value(self.name, self.project, self.block)


def reservation_value(name: str, project: str | None = None, block: str | None = None) -> str:
    """The reservation affinity value for a specific reservation (and block).

    Same project: the name (``dec-run``); shared from another project: ``projects/P/reservations/R``;
    a block appends ``/reservationBlocks/B``. FACTS C [S15]; xpk's reservation paths [S1 capacity.py].
    """
    value = f"projects/{project}/reservations/{name}" if project else name
    return f"{value}/reservationBlocks/{block}" if block else value


@dataclass(frozen=True)
class GpuSharing:
    strategy: str  # TIME_SHARING | MPS
    max_shared_clients_per_gpu: int


@dataclass(frozen=True)
class PoolRequest:
    """One accelerator pool as a user declares it. Unset optional fields are None (not a default), so the
    checks can tell a setting that does not apply from one left out."""

    name: str
    machine_type: str
    capacity: str
    zones: tuple[str, ...] | None = None
    max_nodes: int | None = None  # GPU pools (a calendar pool's default, the reservation's VMs, is resolved by the caller)
    min_nodes: int | None = None  # GPU reservation / spot / on-demand
    tpu_topology: str | None = None  # TPU pools
    slices: int | None = None  # TPU pools; default 1
    reservation: ReservationTarget | None = None
    max_run_duration_seconds: int | None = None
    gpu_driver_version: str | None = None
    gpu_partition_size: str | None = None
    gpu_sharing: GpuSharing | None = None
    compact_placement: bool = False  # GPU pools; TPU placement follows from the slice
    labels: Mapping[str, str] = field(default_factory=dict)
    taints: tuple[NodeTaint, ...] = ()
    disk_size_gb: int | None = None
    disk_type: str | None = None
    gpu_type: str | None = None  # N1 pools: the attached GPU (nvidia-tesla-t4 ...), catalog.n1_gpus
    gpu_count: int | None = None  # N1 pools: GPUs per VM

    @property
    def slice_count(self) -> int:
        return self.slices if isinstance(self.slices, int) and self.slices > 0 else 1


def is_gpu_pool_machine_type(machine_type: object) -> bool:
    """A GPU pool's machine type: an accelerator-optimized GPU type, or an N1 type with attached GPUs."""
    return is_gpu_machine_type(machine_type) or is_n1_machine_type(machine_type)  # type: ignore[arg-type]


def pool_gpu(machine_type: str, gpu_type: str | None = None, gpu_count: int | None = None) -> GpuMachine:
    """The GPU facts of a GPU pool: the catalog's machine type, or for N1 the VM with its attached GPUs."""
    if is_n1_machine_type(machine_type):
        return attached_gpu_machine(machine_type, gpu_type, gpu_count)  # type: ignore[arg-type]
    return gpu_machine(machine_type)


def node_pool_names(name: str, slice_count: int) -> tuple[str, ...]:
    """Child (and GKE node pool) names: ``name`` for one pool, ``name-s0 .. name-s<N-1>`` for N slices."""
    if slice_count == 1:
        return (name,)
    return tuple(f"{name}-s{i}" for i in range(slice_count))


# Kueue plans TAS placement from existing Node objects, so a TAS flavor needs nodes that exist before
# admission (reservations) or are created for the admitted workload (ProvisioningRequest); a pool that
# scales from zero on pending pods (flex-start, spot, on-demand) would never admit a TAS workload.
# https://kueue.sigs.k8s.io/docs/concepts/topology_aware_scheduling/ ; GKE's TAS guide (docs/sources.md "TAS levels").
TAS_CAPACITY_MODELS = frozenset({"reservation", "calendar", "queued"})


def topology_aware_refusal(req: PoolRequest) -> str | None:
    """Why the pool's flavor cannot be topology-aware, or None when it can: a GPU pool on reserved or queued
    capacity whose nodes carry GKE's `cloud.google.com/gce-topology-*` labels. Kueue ignores nodes without those
    labels, so a TAS flavor on any other pool would never place a workload. Compute Engine knows the topology of
    some machine series, and of any VM under a compact placement policy (A4X's is a HIGH_THROUGHPUT workload
    policy); docs/sources.md "Topology labels". A TPU slice's placement follows from its own topology."""
    if not is_gpu_pool_machine_type(req.machine_type):
        return "a TPU slice's placement follows from its own topology"
    if req.capacity not in TAS_CAPACITY_MODELS:
        return (f"{req.capacity} nodes are created only for pending pods, and Kueue places topology-aware workloads "
                "on nodes that exist (reservation, calendar) or that a ProvisioningRequest creates (queued)")
    try:
        labelled = pool_gpu(req.machine_type, req.gpu_type, req.gpu_count).topology_labels
    except CatalogError:
        return None  # judged by the pool's rule set
    if labelled or req.compact_placement:
        return None
    return (f"{req.machine_type} nodes carry no cloud.google.com/gce-topology-* labels (Compute Engine gives them "
            "to A4X, A4, A3 Ultra, A3 Mega, A3 Edge and a3-highgpu-8g VMs, and to VMs under compact placement)")
