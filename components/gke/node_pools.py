"""What a GKE accelerator node pool must look like, derived from the catalog: pure, no Pulumi.

One accelerator pool (a machine type, a capacity model and a size) becomes one or more GKE node pools
(one per multi-host TPU slice). This module derives every setting of those node pools -- node counts,
autoscaling, reservation affinity, placement, guest accelerators, labels and taints -- so that
`gkecap.components.node_pool.AcceleratorNodePool` creates them, the policy pack checks raw resources against
the same facts, and the Kueue builders select and tolerate exactly these nodes.

Settings per capacity model (FACTS.md B):

=========== ========== ===== ====== ================== =========== ======== =====================
capacity    flexStart  spot  queued reservation        location    autoRepair  nodes (total)
=========== ========== ===== ====== ================== =========== ======== =====================
flex-start  true       -     -      NO_RESERVATION     ANY         false    0..max, initial 0
queued      true       -     true   NO_RESERVATION     ANY         false    0..max, initial 0
calendar    -          -     -      SPECIFIC (by name) ANY         true     0..max, initial 0
reservation -          -     -      SPECIFIC (by name) ANY         true     min..max
spot        -          true  -      NO_RESERVATION     ANY         true     min..max
on-demand   -          -     -      ANY_RESERVATION    BALANCED    true     min..max
=========== ========== ===== ====== ================== =========== ======== =====================

Node counts belong to the cluster autoscaler: every pool autoscales with total limits, and the
component tells Pulumi to ignore `initialNodeCount` and `nodeCount` (`AUTOSCALER_OWNED_FIELDS`): the
autoscaler resizes the pool (GKE reports the new size in `nodeCount`, and a manual resize can rewrite
`initialNodeCount`, which is create-only and would force a replacement). The autoscaling limits
themselves are ours: the autoscaler never changes them.

Taints: nodes carry the accelerator taint (`nvidia.com/gpu=present` or `google.com/tpu=present`), the
queued-provisioning taint on queued pools, and the user's extra taints; no per-pool isolation taint is
added (workloads select a pool with `node_selector()`; Kueue flavors tolerate `node_taints()`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from gkecap.components.gke.boot_disks import check_boot_disk
from gkecap.components.catalog import (
    CAPACITY_MODELS,
    COMPACT_PLACEMENT,
    FLEX_START_COMPACT_PREFIXES,
    GKE_ACCELERATOR_LABEL,
    GKE_QUEUED_LABEL,
    GPU_RESOURCE,
    TPU_TAINT,
    CatalogError,
    GpuMachine,
    TpuSlice,
    gpu_machine,
    is_gpu_machine_type,
    is_tpu_machine_type,
    supported_capacity_models,
    tpu_family_of,
    tpu_slice,
)

# --- Facts --------------------------------------------------------------------------------------------

# Our node labels: a workload (or a Kueue ResourceFlavor) selects exactly one accelerator pool with them.
POOL_LABEL = "gkecap.dev/pool"
CAPACITY_LABEL = "gkecap.dev/capacity"
MANAGED_LABELS = frozenset({POOL_LABEL, CAPACITY_LABEL})

FLEX_CAPACITIES = frozenset({"flex-start", "queued"})
RESERVATION_CAPACITIES = frozenset({"calendar", "reservation"})
# minNodes > 0 keeps paid capacity warm; flex/queued need total min 0 (FACTS B.2 [S9]) and a calendar
# reservation has no capacity before its window starts.
MIN_NODES_CAPACITIES = frozenset({"reservation", "spot", "on-demand"})
# Over-committed Kueue quota is a warning where DWS obtains capacity on demand, an error where capacity is
# fixed (issue 4); the environment spec checks and the policy pack's quota-capacity rules both judge by it.
OVERCOMMIT_WARNS = FLEX_CAPACITIES

# Flex-start VMs run at most seven days. FACTS B.3 [S16, S17]; value in whole seconds, "<n>s". FACTS B.2 [S9]
MAX_RUN_DURATION_SECONDS = 7 * 24 * 3600

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

# Specific reservations are targeted by this affinity key. FACTS B.4 [S3, S4]; C [S15]
RESERVATION_NAME_KEY = "compute.googleapis.com/reservation-name"

GPU_DRIVER_VERSIONS = ("DEFAULT", "LATEST", "INSTALLATION_DISABLED")  # FACTS E [S3]
DEFAULT_GPU_DRIVER_VERSION = "DEFAULT"
GPU_SHARING_STRATEGIES = ("TIME_SHARING", "MPS")  # FACTS E [S6 GPUSharingStrategy]
TAINT_EFFECTS = ("NO_SCHEDULE", "PREFER_NO_SCHEDULE", "NO_EXECUTE")  # GKE API NodeTaint.Effect [S3]
_K8S_EFFECT = {"NO_SCHEDULE": "NoSchedule", "PREFER_NO_SCHEDULE": "PreferNoSchedule", "NO_EXECUTE": "NoExecute"}

# Secure node defaults (GKE hardening guide): GKE metadata server for Workload Identity, shielded VMs.
WORKLOAD_METADATA_MODE = "GKE_METADATA"
CLOUD_PLATFORM_SCOPE = "https://www.googleapis.com/auth/cloud-platform"

# Fields the cluster autoscaler (or a manual resize) changes after creation; the component ignores them.
AUTOSCALER_OWNED_FIELDS = ("initialNodeCount", "nodeCount")

# GKE node pool names: "(?:[a-z](?:[-a-z0-9]{0,38}[a-z0-9])?)", at most 40 characters
# (GKE API error quoted in pulumi/pulumi-gcp#1510).
NODE_POOL_NAME_MAX = 40
_NODE_POOL_NAME = re.compile(r"^[a-z](?:[-a-z0-9]{0,38}[a-z0-9])?$")
# The default Compute Engine service account: <project number>-compute@developer.gserviceaccount.com.
_DEFAULT_COMPUTE_SA = re.compile(r"^\d+-compute@developer\.gserviceaccount\.com$")

# Minimum GKE versions. FACTS B.1 [S14] (GPU flex/queued), B.3 [S17] (TPU flex), A.3 [S34] (TPU7x Standard).
GPU_FLEX_MIN_VERSION = "1.32.2-gke.1652000"
TPU_FLEX_MIN_VERSION = "1.33.0-gke.1712000"
TPU7X_MIN_VERSION = "1.34.0-gke.2201000"


# --- Values -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Taint:
    """A node taint in the GKE API's form (effect NO_SCHEDULE ...)."""

    key: str
    value: str
    effect: str = "NO_SCHEDULE"

    def toleration(self) -> dict[str, str]:
        """The Kubernetes toleration (pod or Kueue ResourceFlavor form) that matches this taint."""
        return {"key": self.key, "operator": "Equal", "value": self.value, "effect": _K8S_EFFECT[self.effect]}

    def k8s(self) -> dict[str, str]:
        """The taint as Kubernetes (and Kueue ResourceFlavor.nodeTaints) writes it."""
        return {"key": self.key, "value": self.value, "effect": _K8S_EFFECT[self.effect]}


# GKE taints GPU nodes nvidia.com/gpu=present (pods requesting GPUs get the toleration automatically);
# TPU node pools google.com/tpu=present. FACTS A.1 [S9]. Queued pools: cloud.google.com/gke-queued=true
# (GKE adds it; declared so the config matches the nodes). FACTS B.1 [S14], B.3 [S9].
GPU_TAINT = Taint(GPU_RESOURCE, "present", "NO_SCHEDULE")
TPU_NODE_TAINT = Taint(TPU_TAINT["key"], TPU_TAINT["value"], TPU_TAINT["effect"])
QUEUED_TAINT = Taint(GKE_QUEUED_LABEL, "true", "NO_SCHEDULE")


@dataclass(frozen=True)
class ReservationTarget:
    """The reservation a calendar or reservation pool consumes: a name, and optionally its owner and block."""

    name: str
    project: str | None = None
    block: str | None = None


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
    """One accelerator pool as a user declares it (environment file or component args)."""

    name: str
    machine_type: str
    capacity: str
    zones: tuple[str, ...] = ()
    max_nodes: int | None = None  # GPU pools
    min_nodes: int = 0  # GPU spot / on-demand / reservation
    tpu_topology: str | None = None  # TPU pools
    slices: int = 1  # TPU pools
    reservation: ReservationTarget | None = None
    max_run_duration_seconds: int | None = None
    gpu_driver_version: str | None = None
    gpu_partition_size: str | None = None
    gpu_sharing: GpuSharing | None = None
    compact_placement: bool = False  # GPU pools; TPU placement follows from the slice
    labels: Mapping[str, str] = field(default_factory=dict)
    taints: tuple[Taint, ...] = ()
    disk_size_gb: int | None = None
    disk_type: str | None = None


@dataclass(frozen=True)
class SettingIssue:
    """One problem with a pool request: the field (as the environment file names it) and why."""

    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.field}: {self.message}"


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
        if self.target is None:
            return None
        return [reservation_value(self.target.name, self.target.project, self.target.block)]


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
    """Every setting of one GKE node pool; `inputs()` is the camelCase view the engine and policies see."""

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
    taints: tuple[Taint, ...]
    guest_accelerator: GuestAccelerator | None
    disk_size_gb: int | None = None
    disk_type: str | None = None

    def inputs(self, *, policy_name: str | None = None) -> dict[str, object]:
        """The node pool's inputs in the engine's camelCase (plain values; the policy name if known)."""
        node_config: dict[str, object] = {
            "machineType": self.machine_type,
            "labels": dict(self.labels),
            "taints": [{"key": t.key, "value": t.value, "effect": t.effect} for t in self.taints],
            "reservationAffinity": _drop_none(
                {
                    "consumeReservationType": self.reservation_affinity.consume_reservation_type,
                    "key": self.reservation_affinity.key,
                    "values": self.reservation_affinity.values(),
                }
            ),
            "workloadMetadataConfig": {"mode": WORKLOAD_METADATA_MODE},
            "shieldedInstanceConfig": {"enableSecureBoot": True, "enableIntegrityMonitoring": True},
            "oauthScopes": [CLOUD_PLATFORM_SCOPE],
        }
        if self.flex_start:
            node_config["flexStart"] = True
        if self.spot:
            node_config["spot"] = True
        if self.max_run_duration:
            node_config["maxRunDuration"] = self.max_run_duration
        if self.guest_accelerator:
            node_config["guestAccelerators"] = [_accelerator_inputs(self.guest_accelerator)]
        if self.disk_size_gb is not None:
            node_config["diskSizeGb"] = self.disk_size_gb
        if self.disk_type is not None:
            node_config["diskType"] = self.disk_type
        inputs: dict[str, object] = {
            "name": self.name,
            "initialNodeCount": self.initial_node_count,
            "autoscaling": {
                "totalMinNodeCount": self.autoscaling.total_min_node_count,
                "totalMaxNodeCount": self.autoscaling.total_max_node_count,
                "locationPolicy": self.autoscaling.location_policy,
            },
            "management": {"autoRepair": self.auto_repair, "autoUpgrade": self.auto_upgrade},
            "nodeConfig": node_config,
        }
        if self.node_locations:
            inputs["nodeLocations"] = list(self.node_locations)
        if self.queued_provisioning:
            inputs["queuedProvisioning"] = {"enabled": True}
        if self.placement:
            inputs["placementPolicy"] = _drop_none(
                {
                    "type": self.placement.type,
                    "tpuTopology": self.placement.tpu_topology,
                    "policyName": policy_name if self.placement.workload_policy else None,
                }
            )
        return inputs


def _accelerator_inputs(acc: GuestAccelerator) -> dict[str, object]:
    out: dict[str, object] = {
        "type": acc.type,
        "count": acc.count,
        "gpuDriverInstallationConfig": {"gpuDriverVersion": acc.gpu_driver_version},
    }
    if acc.gpu_partition_size:
        out["gpuPartitionSize"] = acc.gpu_partition_size
    if acc.gpu_sharing:
        out["gpuSharingConfig"] = {
            "gpuSharingStrategy": acc.gpu_sharing.strategy,
            "maxSharedClientsPerGpu": acc.gpu_sharing.max_shared_clients_per_gpu,
        }
    return out


def _drop_none(d: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in d.items() if v is not None}


# --- Checks -------------------------------------------------------------------------------------------


def is_default_compute_service_account(email: str) -> bool:
    """True for the project's default Compute Engine service account (or the literal "default")."""
    return email == "default" or bool(_DEFAULT_COMPUTE_SA.match(email))


def check_service_account(email: str) -> list[SettingIssue]:
    """Nodes run as a dedicated, least-privilege service account, never the default compute one."""
    if not isinstance(email, str) or not email:
        return [SettingIssue("serviceAccount", "is required: the email of a dedicated node service account")]
    if is_default_compute_service_account(email):
        return [
            SettingIssue(
                "serviceAccount",
                f"{email!r} is the default Compute Engine service account (Editor on the project); "
                "use a dedicated node service account, e.g. gke-nodes@PROJECT.iam.gserviceaccount.com",
            )
        ]
    return []


def node_pool_names(name: str, slice_count: int) -> tuple[str, ...]:
    """Child (and GKE node pool) names: ``name`` for one pool, ``name-s0 .. name-s<N-1>`` for N slices."""
    if slice_count == 1:
        return (name,)
    return tuple(f"{name}-s{i}" for i in range(slice_count))


def check_pool_request(req: PoolRequest) -> list[SettingIssue]:
    """Every problem with the request, collected (empty when `node_pool_settings` will succeed)."""
    issues: list[SettingIssue] = []
    add = lambda f, m: issues.append(SettingIssue(f, m))  # noqa: E731

    if req.capacity not in CAPACITY_MODELS:
        add("capacity", f"{req.capacity!r} is not a capacity model; allowed: {', '.join(CAPACITY_MODELS)}")

    gpu = is_gpu_machine_type(req.machine_type)
    tpu = is_tpu_machine_type(req.machine_type)
    if not (gpu or tpu):
        try:
            supported_capacity_models(req.machine_type)
        except CatalogError as err:
            add("machineType", str(err))
        return issues + _name_issues(req.name, 1)

    if req.capacity in CAPACITY_MODELS:
        supported = supported_capacity_models(req.machine_type)
        if req.capacity not in supported:
            ordered = [m for m in CAPACITY_MODELS if m in supported]
            add("capacity", f"{req.capacity!r} is not available for {req.machine_type}; allowed: {', '.join(ordered)}")

    pools = 1
    if gpu:
        issues += _gpu_issues(req, gpu_machine(req.machine_type))
    else:
        issues += _tpu_issues(req)
        try:
            if req.tpu_topology and tpu_slice(req.machine_type, req.tpu_topology).multi_host:
                pools = req.slices if isinstance(req.slices, int) and req.slices > 0 else 1
        except CatalogError:
            pass
    issues += _name_issues(req.name, pools)
    issues += _capacity_issues(req)
    for i, taint in enumerate(req.taints):
        if taint.effect not in TAINT_EFFECTS:
            add(f"taints[{i}].effect", f"{taint.effect!r} is not allowed; allowed: {', '.join(TAINT_EFFECTS)}")
    for key in req.labels:
        if key in MANAGED_LABELS:
            add(f"labels.{key}", "is set by gke-capacity to select this pool; remove it")
    for problem in check_boot_disk(req.machine_type, req.disk_type, req.disk_size_gb):
        add(problem.field, problem.message)
    return issues


def _name_issues(name: str, pools: int) -> list[SettingIssue]:
    longest = node_pool_names(name, pools)[-1] if isinstance(name, str) else name
    if not isinstance(name, str) or not _NODE_POOL_NAME.match(longest):
        suffix = f" (with the slice suffix: {longest!r})" if pools > 1 else ""
        return [
            SettingIssue(
                "name",
                f"{name!r} is not a valid GKE node pool name{suffix}; allowed: lowercase letters, digits and "
                f"'-', starting with a letter, not ending with '-', at most {NODE_POOL_NAME_MAX} characters",
            )
        ]
    return []


def _gpu_issues(req: PoolRequest, gpu: GpuMachine) -> list[SettingIssue]:
    issues: list[SettingIssue] = []
    add = lambda f, m: issues.append(SettingIssue(f, m))  # noqa: E731
    if req.tpu_topology is not None:
        add("tpuTopology", f"applies to TPU pools only; {req.machine_type} is a GPU machine type")
    if req.slices != 1:
        add("slices", "applies to TPU pools only; size GPU pools with maxNodes")
    if req.max_nodes is None:
        add("maxNodes", "is required for GPU pools (the autoscaler's total maximum node count)")
    elif not isinstance(req.max_nodes, int) or req.max_nodes < 1:
        add("maxNodes", f"{req.max_nodes!r} must be a whole number of nodes, at least 1")
    if not isinstance(req.min_nodes, int) or req.min_nodes < 0:
        add("minNodes", f"{req.min_nodes!r} must be a whole number, at least 0")
    elif isinstance(req.max_nodes, int) and req.min_nodes > req.max_nodes:
        add("minNodes", f"{req.min_nodes} is more than maxNodes {req.max_nodes}")
    elif req.min_nodes > 0 and req.capacity not in MIN_NODES_CAPACITIES:
        add("minNodes", f"must be 0 for {req.capacity} pools; minNodes > 0 is for "
            f"{', '.join(m for m in CAPACITY_MODELS if m in MIN_NODES_CAPACITIES)}")
    if req.gpu_driver_version is not None and req.gpu_driver_version not in GPU_DRIVER_VERSIONS:
        add("gpuDriverVersion", f"{req.gpu_driver_version!r} is not allowed; allowed: {', '.join(GPU_DRIVER_VERSIONS)}")
    if req.gpu_partition_size is not None and req.gpu_partition_size not in gpu.mig_partitions:
        allowed = ", ".join(gpu.mig_partitions) or f"none ({gpu.accelerator_label} does not support MIG)"
        add("gpuPartitionSize", f"{req.gpu_partition_size!r} is not a MIG partition of {gpu.accelerator_label}; "
            f"allowed: {allowed}")
    if req.gpu_sharing is not None:
        sharing = req.gpu_sharing
        if sharing.strategy not in GPU_SHARING_STRATEGIES:
            add("gpuSharing.strategy", f"{sharing.strategy!r} is not allowed; allowed: {', '.join(GPU_SHARING_STRATEGIES)}")
        elif (sharing.strategy == "TIME_SHARING" and not gpu.time_sharing) or (sharing.strategy == "MPS" and not gpu.mps):
            add("gpuSharing.strategy", f"{sharing.strategy} is not supported on {gpu.accelerator_label}")
        if not isinstance(sharing.max_shared_clients_per_gpu, int) or sharing.max_shared_clients_per_gpu < 1:
            # FACTS E [S10 manager.go]: must be > 0 for time-sharing or MPS.
            add("gpuSharing.maxSharedClientsPerGpu",
                f"{sharing.max_shared_clients_per_gpu!r} must be a whole number, at least 1")
    if req.compact_placement:
        if not gpu.compact_placement:
            add("compactPlacement", f"{req.machine_type} does not support compact placement")
        elif req.capacity == "queued":
            # FACTS B.2 [S9]: queued provisioning is not allowed with COMPACT placement (except TPUs).
            add("compactPlacement", "is not allowed with queued provisioning on GPUs")
        elif req.capacity == "flex-start" and not gpu.flex_start_compact_placement:
            add("compactPlacement", f"flex-start with compact placement is only for "
                f"{', '.join(p + '*' for p in FLEX_START_COMPACT_PREFIXES)}; not {req.machine_type}")
    return issues


def _tpu_issues(req: PoolRequest) -> list[SettingIssue]:
    issues: list[SettingIssue] = []
    add = lambda f, m: issues.append(SettingIssue(f, m))  # noqa: E731
    if req.max_nodes is not None:
        add("maxNodes", "applies to GPU pools only; TPU pools are sized in slices (the topology sets the nodes)")
    if req.min_nodes:
        add("minNodes", "applies to GPU pools only; TPU pools scale from 0")
    for name, value in (("gpuDriverVersion", req.gpu_driver_version), ("gpuPartitionSize", req.gpu_partition_size),
                        ("gpuSharing", req.gpu_sharing)):
        if value is not None:
            add(name, f"applies to GPU pools only; {req.machine_type} is a TPU machine type")
    if req.compact_placement:
        add("compactPlacement", "applies to GPU pools only; TPU placement follows from the slice topology")
    if not isinstance(req.slices, int) or req.slices < 1:
        add("slices", f"{req.slices!r} must be a whole number of slices, at least 1")
    if req.tpu_topology is None:
        family = tpu_family_of(req.machine_type)
        add("tpuTopology", f"is required for TPU pools; e.g. {family.machine_type(req.machine_type).describe_topologies()}")
        return issues
    try:
        tpu = tpu_slice(req.machine_type, req.tpu_topology)
    except CatalogError as err:
        add("tpuTopology", str(err))
        return issues
    if tpu.multi_host and len(req.zones) > 1:
        add("zones", f"a multi-host TPU slice lives in one zone; got {len(req.zones)}: {', '.join(req.zones)}")
    return issues


def _capacity_issues(req: PoolRequest) -> list[SettingIssue]:
    issues: list[SettingIssue] = []
    add = lambda f, m: issues.append(SettingIssue(f, m))  # noqa: E731
    if req.capacity in RESERVATION_CAPACITIES:
        if req.reservation is None or not req.reservation.name:
            add("reservation", f"is required for {req.capacity} pools: the name of the reservation to consume")
    elif req.reservation is not None:
        add("reservation", f"applies to calendar and reservation pools only, not {req.capacity}")
    if req.max_run_duration_seconds is not None:
        if req.capacity not in FLEX_CAPACITIES:
            add("maxRunDuration", f"applies to flex-start and queued pools only, not {req.capacity}")
        elif not isinstance(req.max_run_duration_seconds, int) or not (
            1 <= req.max_run_duration_seconds <= MAX_RUN_DURATION_SECONDS
        ):
            add("maxRunDuration", f"{req.max_run_duration_seconds!r} seconds is outside 1 to "
                f"{MAX_RUN_DURATION_SECONDS} (7 days, the flex-start limit)")
    return issues


# --- Derivation ---------------------------------------------------------------------------------------


class PoolSettingsError(ValueError):
    """A pool request with problems; `.issues` lists them all, str() has one line per issue."""

    def __init__(self, name: str, issues: list[SettingIssue]):
        self.name = name
        self.issues = issues
        super().__init__("\n".join(f"{name}: {issue}" for issue in issues))


def slice_of(req: PoolRequest) -> TpuSlice | None:
    return tpu_slice(req.machine_type, req.tpu_topology) if is_tpu_machine_type(req.machine_type) else None


def node_pool_settings(req: PoolRequest) -> tuple[NodePoolSettings, ...]:
    """The GKE node pools of an accelerator pool; raises PoolSettingsError listing every problem."""
    issues = check_pool_request(req)
    if issues:
        raise PoolSettingsError(req.name, issues)
    tpu = slice_of(req)
    if tpu is not None and tpu.multi_host:
        # One node pool per slice, each 0 or exactly the slice's VMs (all-or-nothing). FACTS A.3 [S13, S11]
        names = node_pool_names(req.name, req.slices)
        total_min, total_max = 0, tpu.vms
    elif tpu is not None:
        # Single-host: one pool, each node a whole slice, 0..slices nodes.
        names = (req.name,)
        total_min, total_max = 0, req.slices
    else:
        names = (req.name,)
        total_min, total_max = req.min_nodes, int(req.max_nodes or 0)
    return tuple(_settings(req, name, tpu, total_min, total_max) for name in names)


def _settings(req: PoolRequest, name: str, tpu: TpuSlice | None, total_min: int, total_max: int) -> NodePoolSettings:
    flex = req.capacity in FLEX_CAPACITIES
    if req.capacity in RESERVATION_CAPACITIES:
        affinity = ReservationAffinity("SPECIFIC_RESERVATION", req.reservation)
    elif req.capacity == "on-demand":
        # GKE's default: on-demand VMs use matching open reservations the project already pays for; ours are
        # specificReservationRequired, so only the pools that name them consume them. FACTS B.1 [S6]; as xpk.
        affinity = ReservationAffinity("ANY_RESERVATION")
    else:
        # Flex-start and queued never consume reservations; spot requires NO_RESERVATION. FACTS B.1, B.2 [S9]
        affinity = ReservationAffinity("NO_RESERVATION")
    return NodePoolSettings(
        name=name,
        machine_type=req.machine_type,
        node_locations=tuple(req.zones),
        initial_node_count=0 if flex else _initial_per_zone(total_min, len(req.zones)),
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
        disk_size_gb=req.disk_size_gb,
        disk_type=req.disk_type,
    )


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
    return Placement() if req.compact_placement else None


def _guest_accelerator(req: PoolRequest) -> GuestAccelerator | None:
    if not is_gpu_machine_type(req.machine_type):
        return None  # TPU chips come with the machine type
    gpu = gpu_machine(req.machine_type)
    return GuestAccelerator(
        type=gpu.accelerator_label,
        count=gpu.gpus_per_vm,
        gpu_driver_version=req.gpu_driver_version or DEFAULT_GPU_DRIVER_VERSION,
        gpu_partition_size=req.gpu_partition_size,
        gpu_sharing=req.gpu_sharing,
    )


# --- What workloads and Kueue see ---------------------------------------------------------------------


def node_labels(pool: str, capacity: str, extra: Mapping[str, str] = {}) -> dict[str, str]:
    """Labels the node pool config sets: ours, the queued label GKE needs for nodeSelectors, the user's."""
    labels = {POOL_LABEL: pool, CAPACITY_LABEL: capacity}
    if capacity == "queued":
        # Cluster Toolkit adds it: GKE applies the taint, workloads select the label. FACTS B.2 [S9]
        labels[GKE_QUEUED_LABEL] = "true"
    labels.update(extra)
    return labels


def node_taints(machine_type: str, capacity: str, extra: Iterable[Taint] = ()) -> tuple[Taint, ...]:
    """Taints the pool's nodes carry (declared in the node pool config); Kueue flavors tolerate these."""
    taints = [GPU_TAINT if is_gpu_machine_type(machine_type) else TPU_NODE_TAINT]
    if capacity == "queued":
        taints.append(QUEUED_TAINT)
    taints.extend(extra)
    return tuple(taints)


def node_selector(pool: str, machine_type: str, tpu_topology: str | None = None) -> dict[str, str]:
    """Labels that select exactly this pool's nodes: our pool label plus the accelerator labels GKE sets."""
    selector = {POOL_LABEL: pool}
    if is_gpu_machine_type(machine_type):
        selector[GKE_ACCELERATOR_LABEL] = gpu_machine(machine_type).accelerator_label
    elif tpu_topology is not None:
        selector.update(tpu_slice(machine_type, tpu_topology).node_selector)
    return selector


def tolerations(machine_type: str, capacity: str, extra: Iterable[Taint] = ()) -> list[dict[str, str]]:
    """Kubernetes tolerations for every taint of `node_taints` (for Kueue ResourceFlavor.spec.tolerations)."""
    return [t.toleration() for t in node_taints(machine_type, capacity, extra)]


def minimum_gke_version(machine_type: str, capacity: str) -> str | None:
    """Oldest GKE version a pool of this machine type and capacity model runs on (None: no floor known)."""
    floors = []
    if is_tpu_machine_type(machine_type) and tpu_family_of(machine_type).name == "tpu7x":
        floors.append(TPU7X_MIN_VERSION)
    if capacity in FLEX_CAPACITIES:
        floors.append(TPU_FLEX_MIN_VERSION if is_tpu_machine_type(machine_type) else GPU_FLEX_MIN_VERSION)
    return max(floors, key=gke_version_key) if floors else None


_GKE_VERSION = re.compile(r"^(\d+)\.(\d+)(?:\.(\d+))?(?:-gke\.(\d+))?$")


def gke_version_key(version: str) -> tuple[int, int, int, int]:
    """Sortable key of a GKE version like ``1.33.0-gke.1712000``; ValueError when malformed."""
    match = _GKE_VERSION.match(version.strip()) if isinstance(version, str) else None
    if not match:
        raise ValueError(f"{version!r} is not a GKE version like 1.33.0-gke.1712000")
    major, minor, patch, gke = match.groups()
    return int(major), int(minor), int(patch or 0), int(gke or 0)
