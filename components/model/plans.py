"""The plans of the capacity model: one frozen dataclass per thing the environment declares, with everything
derived (see `model.derive`). `CapacityModel.to_dict` is the JSON form the report and `plan.json` use."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, fields, is_dataclass
from datetime import datetime, timezone
from typing import Any, Mapping

from pydantic import BaseModel
from pydantic.alias_generators import to_camel

from gkecap.components.catalog import CAPACITY_MODELS, GpuMachine, TpuSlice
from gkecap.components.gke.calendar_window import AcceleratorKind
from gkecap.components.gke.node_labels import NodeTaint
from gkecap.components.gke.pool_request import FLEX_CAPACITIES, GpuSharing, PoolRequest
from gkecap.components.gke.pool_settings import NodePoolSettings
from gkecap.components.model.vertex import VertexProfilePlan, VertexQuotaPlan
from gkecap.components.spec.models import ClusterSpec, KueueSpec

DEFAULT_WEIGHT = 1.0


def flavor_rank(capacity: str) -> int:
    """Position of a capacity model in the Kueue flavor order (committed capacity first)."""
    return CAPACITY_MODELS.index(capacity)


GpuSharingPlan = GpuSharing  # strategy (TIME_SHARING | MPS), max_shared_clients_per_gpu: one type for both


@dataclass(frozen=True)
class ReservationPlan:
    """A calendar-mode future reservation, resolved."""

    name: str
    machine_type: str
    kind: AcceleratorKind  # "gpu" (VMs) | "tpu" (chips)
    zone: str
    count: int  # GPU: VMs; TPU: chips
    unit: str  # "VMs" | "chips"
    accelerator_label: str
    accelerators: int  # GPUs (VMs x GPUs per VM) or chips
    start: datetime
    end: datetime
    days: int
    submit: bool
    planning_status: str  # DRAFT | SUBMITTED
    share_with: tuple[str, ...]
    workload_type: str | None  # TPU: BATCH (default) | SERVING; GPU: None
    tpu_family: str | None
    description: str | None
    consumers: tuple[str, ...]  # calendar pools consuming it


@dataclass(frozen=True)
class PoolPlan:
    """One spec pool, with everything derived: accelerator facts, GKE node pools, capacity, reservation."""

    name: str
    index: int  # position in nodePools
    machine_type: str
    kind: str  # "gpu" | "tpu"
    family: str  # catalog family, e.g. "a3", "v6e"
    capacity: str  # capacity model
    flavor_rank: int
    accelerator_label_key: str  # cloud.google.com/gke-accelerator | cloud.google.com/gke-tpu-accelerator
    accelerator_label: str  # e.g. nvidia-h100-80gb, tpu-v6e-slice
    resource_name: str  # nvidia.com/gpu | google.com/tpu
    accelerators_per_node: int
    node_resources: dict[str, int | str]  # per node, from the catalog (accelerators, cpu, memory)
    zones: tuple[str, ...]  # node locations; () = the cluster's default
    request: PoolRequest  # the pool as declared: what AcceleratorNodePool is given
    node_pools: tuple[NodePoolSettings, ...]  # its GKE node pools (gke.node_pool_settings)
    min_nodes: int  # total over node_pools
    max_nodes: int
    capacity_accelerators: int
    slices: int  # TPU slices; 1 for GPU pools
    tpu_topology: str | None  # normalized, TPU only
    multi_host: bool
    vms_per_slice: int | None
    chips_per_slice: int | None
    tpu: TpuSlice | None
    gpu: GpuMachine | None
    reservation: ReservationPlan | None  # calendar pools
    reservation_name: str | None  # calendar and reservation pools
    reservation_block: str | None
    reservation_project: str | None
    max_run_duration: int | None  # seconds
    gpu_driver_version: str | None  # GPU: DEFAULT unless given
    gpu_partition_size: str | None
    gpu_sharing: GpuSharingPlan | None
    labels: dict[str, str]  # extra node labels from the spec
    node_labels: dict[str, str]  # labels the node pools set (gkecap.components.gke.node_labels)
    node_selector: dict[str, str]  # labels selecting exactly this pool's nodes (gke.node_selector)
    taints: tuple[NodeTaint, ...]  # extra node taints from the spec (AcceleratorNodePool's `taints`)
    node_taints: tuple[NodeTaint, ...]  # every taint the nodes carry (gke.node_taints); flavors tolerate these
    disk_size_gb: int | None  # boot disk; None: GKE's default
    disk_type: str | None  # boot disk type; None: GKE's default for the machine type
    # Units a node advertises (catalog.gpu_units_per_vm: MIG partitions x shared clients per GPU; TPU chips):
    # the unit of every quota, and of the capacity quotas are checked against.
    units_per_node: int = 0
    capacity_units: int = 0

    @property
    def is_tpu(self) -> bool:
        return self.kind == "tpu"

    @property
    def quota_unit(self) -> str:
        """The unit of the pool's capacity and quotas, as a report names it: what its nodes advertise (MIG or shared
        GPUs: "GPU units")."""
        if self.is_tpu:
            return "chips"
        return "GPUs" if self.units_per_node in (0, self.accelerators_per_node) else "GPU units"

    @property
    def flex_start(self) -> bool:
        return self.capacity in FLEX_CAPACITIES

    @property
    def queued(self) -> bool:
        return self.capacity == "queued"

    @property
    def spot(self) -> bool:
        return self.capacity == "spot"

    def resources_for(self, accelerators: int) -> dict[str, int | str]:
        """The accelerators plus the cpu and memory of the nodes that carry them (pro rata per node)."""
        return _pro_rata(self.node_resources, self.resource_name, self.units_per_node or self.accelerators_per_node,
                         accelerators)


@dataclass(frozen=True)
class PreemptionPlan:
    reclaim_within_cohort: str
    within_cluster_queue: str
    borrow_within_cohort: str


@dataclass(frozen=True)
class TeamPlan:
    name: str
    index: int
    cohort: str | None
    quotas: dict[str, int]  # pool -> accelerators, as written (pools without an entry have no quota)
    borrowing_limits: dict[str, int]
    lending_limits: dict[str, int]
    weight: float
    namespaces: tuple[str, ...]
    members: tuple[str, ...]
    preemption: PreemptionPlan
    cohort_share: dict[str, float]  # pool -> this team's share of its cohort's quota on that pool
    pools: tuple[str, ...]  # pools the team can use (quota, borrowing or lending entry), in flavor order
    existing_namespace: bool = False  # `namespace:` an existing namespace: not created, selected by name only
    # WorkloadPriorityClasses the admission policy lets the team name (`priorities`, or the default allowance of
    # model.derive.allowed_priorities), in the environment's order.
    priorities: tuple[str, ...] = ()
    resource_quota: bool = False  # a ResourceQuota on accelerator requests in each team namespace
    # flavorFungibility as the team sets it (v1beta2 spelling): {"whenCanBorrow": ..., "whenCanPreempt": ...}
    flavor_fungibility: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class CohortPlan:
    name: str
    index: int
    parent: str | None
    children: tuple[str, ...]  # child cohorts
    teams: tuple[str, ...]  # teams directly in it
    quota: dict[str, int]  # the cohort's own shared quota
    weight: float | None
    depth: int  # 0 for a root
    subtree_quota: dict[str, int]  # own + teams + descendant cohorts, per pool
    borrowing_limits: dict[str, int]  # pool -> most the cohort borrows from its parent (only with a parent)
    lending_limits: dict[str, int]  # pool -> most the cohort lends to its parent (may exceed its own quota)
    pools: tuple[str, ...]  # pools of the Cohort object's flavors (quota or limit entry), in flavor order


@dataclass(frozen=True)
class PoolTotals:
    pool: str
    capacity_model: str
    resource_name: str
    capacity: int
    quota_total: int
    team_quotas: dict[str, int]
    cohort_quotas: dict[str, int]
    overcommitted: bool

    @property
    def unassigned(self) -> int:
        """Capacity no quota names (negative when over-committed)."""
        return self.capacity - self.quota_total

    @property
    def utilization(self) -> float:
        return self.quota_total / self.capacity if self.capacity else 0.0


@dataclass(frozen=True)
class PriorityClassPlan:
    name: str
    value: int
    description: str


@dataclass(frozen=True)
class WorkerPlan:
    """A MultiKueue worker cluster (spec.workers): where its pools run. Its objects are those of its own
    single-cluster environment (spec.workers.worker_environments)."""

    name: str
    region: str
    cluster: str
    location: str
    pools: tuple[str, ...]  # pool names, file order


@dataclass(frozen=True)
class CapacityModel:
    project: str | None
    region: str
    cluster: ClusterSpec
    kueue: KueueSpec
    node_service_account: str | None
    pools: tuple[PoolPlan, ...]  # file order
    reservations: tuple[ReservationPlan, ...]
    cohorts: tuple[CohortPlan, ...]
    teams: tuple[TeamPlan, ...]
    priority_classes: tuple[PriorityClassPlan, ...]
    flavor_order: tuple[str, ...]  # pool names in Kueue flavor order
    totals: dict[str, PoolTotals]  # per pool
    warnings: tuple[str, ...]
    vertex_profiles: tuple[VertexProfilePlan, ...] = ()  # Vertex AI FLEX_START training (model.vertex)
    vertex_quotas: tuple[VertexQuotaPlan, ...] = ()
    # MultiKueue workers (spec.workers); then `cluster` is the manager and `pools` are every worker's pools
    workers: tuple[WorkerPlan, ...] = ()
    _pools: dict[str, PoolPlan] = field(repr=False, compare=False, default_factory=dict)
    _teams: dict[str, TeamPlan] = field(repr=False, compare=False, default_factory=dict)
    _cohorts: dict[str, CohortPlan] = field(repr=False, compare=False, default_factory=dict)
    _reservations: dict[str, ReservationPlan] = field(repr=False, compare=False, default_factory=dict)

    def pool(self, name: str) -> PoolPlan:
        return self._pools[name]

    def team(self, name: str) -> TeamPlan:
        return self._teams[name]

    def cohort(self, name: str) -> CohortPlan:
        return self._cohorts[name]

    def reservation(self, name: str) -> ReservationPlan:
        return self._reservations[name]

    @property
    def root_cohorts(self) -> tuple[CohortPlan, ...]:
        return tuple(c for c in self.cohorts if c.parent is None)

    def worker_of(self, pool: str) -> WorkerPlan | None:
        """The worker cluster holding a pool (None in a single-cluster environment)."""
        return next((w for w in self.workers if pool in w.pools), None)

    def pools_in_flavor_order(self) -> tuple[PoolPlan, ...]:
        return tuple(self._pools[name] for name in self.flavor_order)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: camelCase keys for fields, names (pools, teams) kept as keys, datetimes in UTC ISO."""
        return _json(self)


# --------------------------------------------------------------------------------------------------------
# cpu / memory that come with a number of accelerators

_MEMORY = re.compile(r"^(\d+)(Mi|Gi)$")


def _pro_rata(
    per_node: Mapping[str, int | str], resource: str, per_node_accelerators: int, accelerators: int
) -> dict[str, int | str]:
    result: dict[str, int | str] = {resource: accelerators}
    if "cpu" in per_node:
        millicores = math.ceil(int(per_node["cpu"]) * 1000 * accelerators / per_node_accelerators)
        result["cpu"] = millicores // 1000 if millicores % 1000 == 0 else f"{millicores}m"
    memory = _MEMORY.match(str(per_node.get("memory", "")))
    if memory:
        mebibytes = int(memory.group(1)) * (1024 if memory.group(2) == "Gi" else 1)
        total = math.ceil(mebibytes * accelerators / per_node_accelerators)
        result["memory"] = f"{total // 1024}Gi" if total % 1024 == 0 else f"{total}Mi"
    return result


# --------------------------------------------------------------------------------------------------------
# to_dict


def _json(value: Any) -> Any:
    if hasattr(value, "to_dict") and not isinstance(value, CapacityModel):
        return value.to_dict()  # catalog objects (TpuSlice, GpuMachine) have their own camelCase form
    if is_dataclass(value) and not isinstance(value, type):
        return {to_camel(f.name): _json(getattr(value, f.name)) for f in fields(value) if not f.name.startswith("_")}
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True)
    if isinstance(value, dict):
        return {key: _json(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json(item) for item in value]
    if isinstance(value, (set, frozenset)):
        return sorted(_json(item) for item in value)
    if isinstance(value, datetime):
        return value.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return value
