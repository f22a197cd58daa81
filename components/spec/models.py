"""The contract of the environment file: pydantic models of what `gkecap:environment` holds.

Keys are camelCase; an unknown key is an error (a typo must not pass silently). Value formats come from
`spec.fields`, enumerations from the constants of the layer that owns them, so a value the spec accepts is
one the components accept. `spec.load.load_environment` validates a file against these models and then
every cross-field rule (`spec.checks`); `EnvironmentSpec.model_validate` alone checks the shape only.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, PrivateAttr, model_validator
from pydantic.alias_generators import to_camel

from gkecap.components.catalog import CAPACITY_MODELS, is_tpu_machine_type
from gkecap.components.gke import calendar_window
from gkecap.components.gke.cluster import DEFAULT_SYSTEM_MACHINE_TYPE, RELEASE_CHANNELS
from gkecap.components.gke.node_labels import TAINT_EFFECTS
from gkecap.components.gke.pool_request import GPU_DRIVER_VERSIONS, GPU_SHARING_STRATEGIES
from gkecap.components.kueue_api.cluster_queue import (
    BORROW_WITHIN_COHORT_POLICIES,
    RECLAIM_WITHIN_COHORT_POLICIES,
    WITHIN_CLUSTER_QUEUE_POLICIES,
)
from gkecap.components.kueue_api.releases import API_VERSIONS, DEFAULT_KUEUE_VERSION
from gkecap.components.spec.fields import (
    DnsLabel,
    DnsSubdomain,
    ServiceAccount,
    GceName,
    GkeVersion,
    KueueVersion,
    NonNegativeDuration,
    NonNegativeInt,
    PositiveDuration,
    PositiveInt,
    PositiveQuantity,
    Principal,
    ProjectId,
    Region,
    StrictBool,
    Timestamp,
    WholeNumber,
    Weight,
    Zone,
)
from gkecap.components.spec.vertex import VertexSpec

CapacityModelName = Literal[CAPACITY_MODELS]  # type: ignore[valid-type]
QuotaMap = dict[str, NonNegativeInt]  # pool name -> accelerators (GPUs, TPU chips)


class _SpecModel(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid", str_strip_whitespace=True)


class SystemPoolSpec(_SpecModel):
    """The small node pool without flex-start/queued provisioning every Standard cluster keeps (FACTS B.1)."""

    machine_type: str = DEFAULT_SYSTEM_MACHINE_TYPE
    nodes: PositiveInt = 1


class ClusterSpec(_SpecModel):
    """An existing GKE cluster (default) or, with ``create: true``, one this environment creates."""

    name: str
    create: StrictBool = False
    location: str | None = None  # defaults to the environment's region
    release_channel: Literal[RELEASE_CHANNELS] = "REGULAR"  # type: ignore[valid-type]
    # `version` is accepted as a synonym (the module contract lists "version").
    min_master_version: GkeVersion | None = Field(
        default=None, validation_alias=AliasChoices("minMasterVersion", "min_master_version", "version")
    )
    system_pool: SystemPoolSpec = Field(default_factory=SystemPoolSpec)
    # Google Groups for RBAC: gke-security-groups@<domain>; required with `create: true` when a team has
    # `group:` members (gke.cluster.SECURITY_GROUP).
    security_group: str | None = None


class ManagerResourcesSpec(_SpecModel):
    """Requests of the Kueue controller manager (Kubernetes quantities); unset keeps the chart default."""

    cpu: PositiveQuantity | None = None
    memory: PositiveQuantity | None = None


# Go time.ParseDuration syntax (what Kueue's configuration decodes a metav1.Duration with), e.g. 15m, 1m30s.
GO_DURATION_PATTERN = r"^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$"


class MultiKueueSettingsSpec(_SpecModel):
    """The manager's `multiKueue` configuration (used only with `workers`). Unset values are written with
    Kueue's defaults (apis/config/v1beta2/defaults.go at v0.19.2), so the configuration says what runs."""

    # AllAtOnce: a copy of the workload goes to every worker, the first to admit it wins; Incremental: to up to
    # 3 workers at a time, in `workers` order (configuration_types.go MultiKueueDispatcherMode*).
    dispatcher: Literal["AllAtOnce", "Incremental"] = "AllAtOnce"
    worker_lost_timeout: Annotated[str, Field(pattern=GO_DURATION_PATTERN)] = "15m0s"  # DefaultMultiKueueWorkerLostTimeout
    gc_interval: Annotated[str, Field(pattern=GO_DURATION_PATTERN)] = "1m0s"  # DefaultMultiKueueGCInterval; 0s: off


class RequeuingStrategySpec(_SpecModel):
    """`waitForPodsReady.requeuingStrategy`, Kueue's own fields (apis/config/v1beta2 configuration_types.go
    @ v0.19.2, the same in config v1beta1 since v0.14): unset fields keep Kueue's defaults (Eviction, no limit on
    requeues, 60 s base, 3600 s maximum back-off)."""

    timestamp: Literal["Eviction", "Creation"] | None = None
    backoff_limit_count: NonNegativeInt | None = None  # requeues before the workload is deactivated; unset: no limit
    backoff_base_seconds: NonNegativeInt | None = None
    backoff_max_seconds: NonNegativeInt | None = None


class WaitForPodsReadySpec(_SpecModel):
    """Kueue's cluster-wide `waitForPodsReady` (Kueue's own field names): every admitted workload whose pods are
    not all ready within `timeout` is evicted and requeued. It applies to every workload of the cluster."""

    timeout: PositiveDuration
    block_admission: StrictBool | None = None
    recovery_timeout: NonNegativeDuration | None = None
    requeuing_strategy: RequeuingStrategySpec | None = None

    def config(self) -> dict[str, Any]:
        """The section as Kueue's Configuration spells it (camelCase, unset fields left out)."""
        return self.model_dump(by_alias=True, exclude_none=True)


class KueueSpec(_SpecModel):
    install: StrictBool = True
    version: KueueVersion = DEFAULT_KUEUE_VERSION
    api_version: Literal[API_VERSIONS] = "v1beta2"  # type: ignore[valid-type]
    fair_sharing: StrictBool = True
    topology_aware_scheduling: StrictBool = False
    manager_resources: ManagerResourcesSpec | None = None
    # Install JobSet with Kueue while Kueue's JobSet integration is on (kubernetes_objects.jobset_chart); false
    # when the cluster has JobSet already.
    job_set: StrictBool = True
    multi_kueue: MultiKueueSettingsSpec = Field(default_factory=MultiKueueSettingsSpec)
    # Kueue's integrations.frameworks; unset: what the chart of `version` enables (kueue_api.integrations).
    frameworks: list[str] | None = None
    # Off unless given: it is cluster-wide (README "Kueue settings").
    wait_for_pods_ready: WaitForPodsReadySpec | None = None
    # Kueue manages every job in the teams' namespaces, labelled or not, and unlabelled ones land in the
    # namespace's `default` LocalQueue (kueue_api.job_management); false: only jobs naming a queue.
    manage_jobs_without_queue_name: StrictBool = True


class GpuSharingSpec(_SpecModel):
    strategy: Literal[GPU_SHARING_STRATEGIES]  # type: ignore[valid-type]
    # FACTS E: the device plugin only requires > 0; no documented upper bound (GKE's field is 32-bit).
    max_shared_clients_per_gpu: PositiveInt


class AttachedGpuSpec(_SpecModel):
    """GPUs attached to an N1 VM (catalog.n1_gpus): nvidia-tesla-t4, -v100, -p100 or -p4, and how many."""

    type: str
    count: PositiveInt


class TaintSpec(_SpecModel):
    """An extra node taint; the pool's Kueue flavor tolerates it, so only workloads admitted there land on it."""

    key: str
    value: str
    effect: Literal[TAINT_EFFECTS] = "NO_SCHEDULE"  # type: ignore[valid-type]


class NodePoolSpec(_SpecModel):
    """One accelerator pool: a machine type, a capacity model and its size (GPU: maxNodes; TPU: slices).

    Its rules are the pool's one rule set (`gke.pool_checks`), which `AcceleratorNodePool` runs too."""

    name: str
    machine_type: str
    capacity: CapacityModelName
    zones: list[Zone] | None = None
    tpu_topology: str | None = None
    slices: PositiveInt | None = None  # TPU only; default 1
    max_nodes: PositiveInt | None = None  # GPU only; calendar pools default to the reservation's VM count
    min_nodes: NonNegativeInt | None = None  # GPU reservation/spot/on-demand only
    max_run_duration: WholeNumber | None = None  # seconds, flex-start/queued only
    gpu_driver_version: Literal[GPU_DRIVER_VERSIONS] | None = None  # type: ignore[valid-type]
    gpu_partition_size: str | None = None
    gpu_sharing: GpuSharingSpec | None = None
    reservation: str | None = None
    reservation_block: str | None = None
    reservation_project: ProjectId | None = None
    labels: dict[str, str] = Field(default_factory=dict)
    taints: list[TaintSpec] = Field(default_factory=list)  # extra node taints (the accelerator's own are added)
    disk_size_gb: WholeNumber | None = None  # boot disk; GKE default 100 GB
    disk_type: str | None = None  # boot disk type; GKE's default for the machine type when unset
    # GPU pools: COMPACT placement (A4X: the NVL72 1x72 workload policy), gke.pool_settings
    compact_placement: StrictBool = False
    gpu: AttachedGpuSpec | None = None  # N1 machine types only: the attached GPUs

    @property
    def is_tpu(self) -> bool:
        return is_tpu_machine_type(self.machine_type)


class ReservationSpec(_SpecModel):
    """A calendar-mode future reservation. GPU: ``count`` VMs; TPU: ``count`` chips (FACTS C).

    The window is judged at plan time (`gke.calendar_window`), which matters for a stack file planned in CI
    for months: a draft (``submit: false``) must start after now and within the advance window (GPU 60 days,
    TPU 120), so once its start has passed it is an error until the window is moved. A submitted request is
    binding and cannot be changed: once its window has begun it stays declared without complaint (its pools
    consume it); once it has ended, a warning says to remove it and its pools.
    """

    name: GceName
    machine_type: str
    count: PositiveInt
    zone: Zone
    start: Timestamp
    days: WholeNumber
    submit: StrictBool = False  # DRAFT until true; a submitted request cannot be cancelled (FACTS C)
    share_with: list[ProjectId] = Field(default_factory=list)
    workload_type: Literal[calendar_window.WORKLOAD_TYPES] | None = None  # type: ignore[valid-type]  # TPU only
    description: str | None = None

    @property
    def end(self) -> datetime:
        return calendar_window.window_end(self.start, self.days)


class CohortSpec(_SpecModel):
    """A Kueue Cohort. Borrowing and lending limits (per pool) only with a parent: Kueue R-CO-2."""

    name: DnsLabel
    parent: str | None = None
    quota: QuotaMap = Field(default_factory=dict)
    borrowing_limit: QuotaMap = Field(default_factory=dict)
    lending_limit: QuotaMap = Field(default_factory=dict)
    weight: Weight | None = None


class PreemptionSpec(_SpecModel):
    """Kueue ClusterQueue preemption; unset fields get the defaults documented in `model`."""

    reclaim_within_cohort: Literal[RECLAIM_WITHIN_COHORT_POLICIES] | None = None  # type: ignore[valid-type]
    within_cluster_queue: Literal[WITHIN_CLUSTER_QUEUE_POLICIES] | None = None  # type: ignore[valid-type]
    borrow_within_cohort: Literal[BORROW_WITHIN_COHORT_POLICIES] | None = None  # type: ignore[valid-type]


class FlavorFungibilitySpec(_SpecModel):
    """Kueue ClusterQueue flavorFungibility (v1beta2 spelling; gkecap writes v1beta1's Borrow / Preempt for
    MayStopSearch where the API is v1beta1); unset fields keep Kueue's defaults (`queues.FLAVOR_FUNGIBILITY`)."""

    when_can_borrow: Literal["MayStopSearch", "TryNextFlavor"] | None = None
    when_can_preempt: Literal["MayStopSearch", "TryNextFlavor"] | None = None


class TeamSpec(_SpecModel):
    name: DnsLabel
    cohort: str | None = None
    quota: QuotaMap = Field(default_factory=dict)
    borrowing_limit: QuotaMap = Field(default_factory=dict)
    lending_limit: QuotaMap = Field(default_factory=dict)
    weight: Weight | None = None  # fair-sharing weight; default 1
    namespaces: Annotated[list[DnsLabel], Field(min_length=1)] | None = None  # default [name]
    # An existing namespace the team works in (`default` too): no Namespace is created and the ClusterQueue selects
    # it by name only; RoleBindings stay in it. Instead of `namespaces`.
    namespace: DnsLabel | None = None
    members: list[Principal] = Field(default_factory=list)
    preemption: PreemptionSpec = Field(default_factory=PreemptionSpec)
    # WorkloadPriorityClasses the team's workloads may name (the admission policy refuses others); default: every
    # class below the environment's highest value (kubernetes_objects.admission_policy.allowed_priorities).
    priorities: list[str] | None = None
    # A ResourceQuota on accelerator requests in each team namespace, sized to what Kueue can ever admit for it.
    resource_quota: StrictBool = False
    flavor_fungibility: FlavorFungibilitySpec = Field(default_factory=FlavorFungibilitySpec)

    @model_validator(mode="after")
    def _default_namespace(self) -> "TeamSpec":
        if self.namespace is not None and self.namespaces is not None:
            raise ValueError("give either namespace (an existing namespace) or namespaces (created for the team), "
                             "not both")
        if self.namespaces is None:
            self.namespaces = [self.namespace] if self.namespace is not None else [self.name]
        return self


class PriorityClassSpec(_SpecModel):
    name: DnsSubdomain
    value: WholeNumber  # WorkloadPriorityClass.value is an int32
    description: Annotated[str, Field(max_length=2048)] = ""  # KUEUE_VALIDATION.md (WorkloadPriorityClass)


# Used when an environment gives no priorityClasses (an explicit empty list means none). Kueue
# WorkloadPriorityClasses: higher value = admitted first and may preempt lower ones.
DEFAULT_PRIORITY_CLASSES: tuple[PriorityClassSpec, ...] = (
    PriorityClassSpec(name="low", value=100, description="Best-effort and exploratory work; preempted first."),
    PriorityClassSpec(name="normal", value=500, description="Regular training and batch work."),
    PriorityClassSpec(name="high", value=1000, description="Deadline-bound work; may preempt lower priorities."),
)


class WorkerKueueSpec(_SpecModel):
    """The Kueue settings a worker's cluster may have of its own (an existing cluster's Kueue release or
    integrations); the rest of `kueue` is the environment's (spec.workers.worker_data)."""

    install: StrictBool | None = None
    version: KueueVersion | None = None
    api_version: Literal[API_VERSIONS] | None = None  # type: ignore[valid-type]
    frameworks: list[str] | None = None
    job_set: StrictBool | None = None
    manager_resources: ManagerResourcesSpec | None = None


class WorkerSpec(_SpecModel):
    """A MultiKueue worker cluster: its own region, cluster and accelerator pools (and the calendar reservations
    they consume). The environment's `cluster` is then the manager, which keeps the queues and dispatches."""

    name: DnsLabel
    region: Region
    cluster: ClusterSpec
    node_pools: list[NodePoolSpec] = Field(default_factory=list)
    reservations: list[ReservationSpec] = Field(default_factory=list)
    kueue: WorkerKueueSpec | None = None  # over the environment's `kueue`, key by key

    @model_validator(mode="after")
    def _fill_location(self) -> "WorkerSpec":
        if self.cluster.location is None:
            self.cluster.location = self.region
        return self


class EnvironmentSpec(_SpecModel):
    """What ``gkecap:environment`` holds (see the README's "The environment file")."""

    project: ProjectId | None = None  # from gcp:project (load_environment(project=...)) or given here
    region: Region
    node_service_account: ServiceAccount | None = None  # dedicated; never the default compute account
    cluster: ClusterSpec
    kueue: KueueSpec = Field(default_factory=KueueSpec)
    node_pools: list[NodePoolSpec] = Field(default_factory=list)
    reservations: list[ReservationSpec] = Field(default_factory=list)
    cohorts: list[CohortSpec] = Field(default_factory=list)
    teams: list[TeamSpec] = Field(default_factory=list)
    priority_classes: list[PriorityClassSpec] | None = None
    vertex: VertexSpec | None = None  # Vertex AI training with FLEX_START (spec.vertex)
    workers: list[WorkerSpec] = Field(default_factory=list)  # MultiKueue worker clusters (spec.workers)

    _warnings: list[str] = PrivateAttr(default_factory=list)
    _warning_issues: list[Any] = PrivateAttr(default_factory=list)  # the same findings as Issues (path, message)
    # With workers: each worker's environment as a single-cluster file would give it (spec.workers)
    _worker_data: list[dict[str, Any]] = PrivateAttr(default_factory=list)

    @model_validator(mode="after")
    def _fill_defaults(self) -> "EnvironmentSpec":
        if self.cluster.location is None:
            self.cluster.location = self.region
        if self.priority_classes is None:
            self.priority_classes = [pc.model_copy() for pc in DEFAULT_PRIORITY_CLASSES]
        return self

    @property
    def warnings(self) -> list[str]:
        """Findings that do not stop a plan (``path: message``), e.g. over-committed flex-start pools."""
        return self._warnings

    @property
    def warning_issues(self) -> list[Any]:
        """`warnings` as `Issue`s: each finding's field path and message apart (for located diagnostics)."""
        return self._warning_issues

    def pool(self, name: str) -> NodePoolSpec:
        for pool in self.node_pools:
            if pool.name == name:
                return pool
        raise KeyError(name)

    def reservation(self, name: str) -> ReservationSpec:
        for reservation in self.reservations:
            if reservation.name == name:
                return reservation
        raise KeyError(name)
