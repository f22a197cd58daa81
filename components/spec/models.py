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
    # A field's docstring is its description: one text for the JSON schema, the component package's schema
    # (components/_schema_types.py) and the README reference.
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid", str_strip_whitespace=True,
                              use_attribute_docstrings=True)


class SystemPoolSpec(_SpecModel):
    """The small node pool without flex-start/queued provisioning every Standard cluster keeps (FACTS B.1)."""

    machine_type: str = DEFAULT_SYSTEM_MACHINE_TYPE
    """Machine type of the system pool's nodes."""
    nodes: PositiveInt = 1
    """Nodes of the system pool (per zone of the cluster)."""


class ClusterSpec(_SpecModel):
    """An existing GKE cluster (default) or, with ``create: true``, one this environment creates."""

    name: str
    """Name of the GKE cluster."""
    create: StrictBool = False
    """true: this environment creates the cluster (a Standard cluster fit for DWS); false: it exists already."""
    location: str | None = None
    """Region or zone of the cluster; default: the environment's region."""
    release_channel: Literal[RELEASE_CHANNELS] = "REGULAR"  # type: ignore[valid-type]
    """GKE release channel of a created cluster."""
    # `version` is accepted as a synonym (the module contract lists "version").
    min_master_version: GkeVersion | None = Field(
        default=None, validation_alias=AliasChoices("minMasterVersion", "min_master_version", "version")
    )
    """Lowest GKE version of a created cluster's control plane (also accepted as `version`); default: the
    channel's default."""
    system_pool: SystemPoolSpec = Field(default_factory=SystemPoolSpec)
    """The small non-accelerator pool a created cluster keeps for system workloads."""
    # gke.cluster.SECURITY_GROUP
    security_group: str | None = None
    """Google Groups for RBAC group, gke-security-groups@<domain>: required with `create: true` when a team has
    `group:` members."""


class ManagerResourcesSpec(_SpecModel):
    """Requests of the Kueue controller manager (Kubernetes quantities); unset keeps the chart default."""

    cpu: PositiveQuantity | None = None
    """CPU request of the Kueue controller manager, e.g. 500m or 2."""
    memory: PositiveQuantity | None = None
    """Memory request of the Kueue controller manager, e.g. 512Mi."""


# Go time.ParseDuration syntax (what Kueue's configuration decodes a metav1.Duration with), e.g. 15m, 1m30s.
GO_DURATION_PATTERN = r"^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$"


class MultiKueueSettingsSpec(_SpecModel):
    """The manager's `multiKueue` configuration (used only with `workers`). Unset values are written with
    Kueue's defaults (apis/config/v1beta2/defaults.go at v0.19.2), so the configuration says what runs."""

    # configuration_types.go MultiKueueDispatcherMode*
    dispatcher: Literal["AllAtOnce", "Incremental"] = "AllAtOnce"
    """How workloads go to workers: AllAtOnce, a copy to every worker and the first to admit it wins;
    Incremental, to up to 3 workers at a time in `workers` order."""
    worker_lost_timeout: Annotated[str, Field(pattern=GO_DURATION_PATTERN)] = "15m0s"  # DefaultMultiKueueWorkerLostTimeout
    """How long a workload admitted on a worker that lost its connection stays there before it is requeued (a Go
    duration, e.g. 15m0s)."""
    gc_interval: Annotated[str, Field(pattern=GO_DURATION_PATTERN)] = "1m0s"  # DefaultMultiKueueGCInterval
    """How often the manager removes orphaned copies from the workers (a Go duration; 0s: never)."""


class RequeuingStrategySpec(_SpecModel):
    """`waitForPodsReady.requeuingStrategy`, Kueue's own fields (apis/config/v1beta2 configuration_types.go
    @ v0.19.2, the same in config v1beta1 since v0.14): unset fields keep Kueue's defaults (Eviction, no limit on
    requeues, 60 s base, 3600 s maximum back-off)."""

    timestamp: Literal["Eviction", "Creation"] | None = None
    """Which time orders requeued workloads in their queue: their eviction (default) or their creation."""
    backoff_limit_count: NonNegativeInt | None = None
    """Requeues before the workload is deactivated; unset: no limit."""
    backoff_base_seconds: NonNegativeInt | None = None
    """Base of the exponential requeue back-off, in seconds (Kueue's default 60)."""
    backoff_max_seconds: NonNegativeInt | None = None
    """Longest requeue back-off, in seconds (Kueue's default 3600)."""


class WaitForPodsReadySpec(_SpecModel):
    """Kueue's cluster-wide `waitForPodsReady` (Kueue's own field names): every admitted workload whose pods are
    not all ready within `timeout` is evicted and requeued. It applies to every workload of the cluster."""

    timeout: PositiveDuration
    """How long an admitted workload's pods may take to all be ready before it is evicted, e.g. 10m."""
    block_admission: StrictBool | None = None
    """true: admit no other workload while an admitted one's pods are not yet ready."""
    recovery_timeout: NonNegativeDuration | None = None
    """How long pods that were ready may stay not ready before the workload is evicted; unset: no limit."""
    requeuing_strategy: RequeuingStrategySpec | None = None
    """How an evicted workload is requeued."""

    def config(self) -> dict[str, Any]:
        """The section as Kueue's Configuration spells it (camelCase, unset fields left out)."""
        return self.model_dump(by_alias=True, exclude_none=True)


class KueueSpec(_SpecModel):
    """Kueue on the cluster: its release, API version and cluster-wide settings."""

    install: StrictBool = True
    """true: install Kueue (Helm chart) with the environment; false: Kueue is installed already."""
    version: KueueVersion = DEFAULT_KUEUE_VERSION
    """Kueue release, e.g. v0.19.2 (v0.14.0 or later)."""
    api_version: Literal[API_VERSIONS] = "v1beta2"  # type: ignore[valid-type]
    """API version of the Kueue objects written: v1beta2, or v1beta1 for Kueue before v0.15."""
    fair_sharing: StrictBool = True
    """Kueue fair sharing among the ClusterQueues of a cohort (by their weights)."""
    topology_aware_scheduling: StrictBool = False
    """Topology-aware scheduling: a Topology per accelerator pool, and flavors that name it."""
    manager_resources: ManagerResourcesSpec | None = None
    """Requests of the Kueue controller manager; unset: the chart's."""
    # kubernetes_objects.jobset_chart
    job_set: StrictBool = True
    """true: install JobSet with Kueue (while Kueue's JobSet integration is on); false when the cluster has it."""
    multi_kueue: MultiKueueSettingsSpec = Field(default_factory=MultiKueueSettingsSpec)
    """The MultiKueue manager's settings (used only with `workers`)."""
    # kueue_api.integrations
    frameworks: list[str] | None = None
    """Kueue's integrations.frameworks, e.g. batch/job, jobset.x-k8s.io/jobset; unset: what the chart of
    `version` enables."""
    # README "Kueue settings"
    wait_for_pods_ready: WaitForPodsReadySpec | None = None
    """Kueue's waitForPodsReady (cluster-wide); off unless given."""
    # kueue_api.job_management
    manage_jobs_without_queue_name: StrictBool = True
    """true: Kueue manages every job of the teams' namespaces, and one naming no queue goes to the namespace's
    `default` LocalQueue; false: only jobs that name a queue."""


class GpuSharingSpec(_SpecModel):
    """Several containers share each GPU of the pool."""

    strategy: Literal[GPU_SHARING_STRATEGIES]  # type: ignore[valid-type]
    """GKE's GPU sharing strategy."""
    # FACTS E: the device plugin only requires > 0; no documented upper bound (GKE's field is 32-bit).
    max_shared_clients_per_gpu: PositiveInt
    """Containers that share one physical GPU (at least 1)."""


class AttachedGpuSpec(_SpecModel):
    """GPUs attached to an N1 VM (catalog.n1_gpus): nvidia-tesla-t4, -v100, -p100 or -p4, and how many."""

    type: str
    """GPU type: nvidia-tesla-t4, nvidia-tesla-v100, nvidia-tesla-p100 or nvidia-tesla-p4."""
    count: PositiveInt
    """GPUs per VM, as Compute Engine offers them for that type."""


class TaintSpec(_SpecModel):
    """An extra node taint; the pool's Kueue flavor tolerates it, so only workloads admitted there land on it."""

    key: str
    """Taint key."""
    value: str
    """Taint value."""
    effect: Literal[TAINT_EFFECTS] = "NO_SCHEDULE"  # type: ignore[valid-type]
    """What the taint does to pods that do not tolerate it (GKE's spelling)."""


class NodePoolSpec(_SpecModel):
    """One accelerator pool: a machine type, a capacity model and its size (GPU: maxNodes; TPU: slices).

    Its rules are the pool's one rule set (`gke.pool_checks`), which `AcceleratorNodePool` runs too."""

    name: str
    """Pool name: the GKE node pool's (with -s0, -s1 ... per multi-host TPU slice) and the Kueue flavor's."""
    machine_type: str
    """GPU or TPU machine type, e.g. a3-highgpu-8g or ct6e-standard-4t."""
    capacity: CapacityModelName
    """How the capacity is obtained: DWS flex-start, queued provisioning, a calendar reservation, a specific
    reservation, spot or on-demand."""
    zones: list[Zone] | None = None
    """Zones of the pool's nodes; default: the cluster's. A multi-host TPU slice needs one zone."""
    tpu_topology: str | None = None
    """TPU pools: the slice topology, e.g. 4x4 or 2x2x4; a slice's node count follows from it."""
    slices: PositiveInt | None = None
    """TPU pools: number of slices (default 1); one GKE node pool per multi-host slice."""
    max_nodes: PositiveInt | None = None
    """GPU pools: most nodes the autoscaler makes; calendar pools default to the reservation's VM count."""
    min_nodes: NonNegativeInt | None = None
    """GPU reservation, spot and on-demand pools: fewest nodes (default 0)."""
    max_run_duration: WholeNumber | None = None
    """Flex-start and queued pools: longest node lifetime in seconds (at most 604800, 7 days)."""
    gpu_driver_version: Literal[GPU_DRIVER_VERSIONS] | None = None  # type: ignore[valid-type]
    """GPU driver GKE installs (default DEFAULT)."""
    gpu_partition_size: str | None = None
    """MIG partition size, e.g. 1g.10gb (a GKE MIG size of the GPU)."""
    gpu_sharing: GpuSharingSpec | None = None
    """GPU time-sharing or MPS."""
    reservation: str | None = None
    """Calendar pools: a reservation of `reservations`; reservation pools: an existing specific reservation."""
    reservation_block: str | None = None
    """Reservation block to target (dense reservations)."""
    reservation_project: ProjectId | None = None
    """Project that owns a shared reservation."""
    labels: dict[str, str] = Field(default_factory=dict)
    """Extra node labels."""
    taints: list[TaintSpec] = Field(default_factory=list)
    """Extra node taints (the accelerator's own are added); the pool's flavor tolerates them."""
    disk_size_gb: WholeNumber | None = None
    """Boot disk size in GB (GKE's default 100)."""
    disk_type: str | None = None
    """Boot disk type; default: GKE's for the machine type."""
    # gke.pool_settings
    compact_placement: StrictBool = False
    """GPU pools: COMPACT placement of the nodes (A4X: the NVL72 1x72 workload policy)."""
    gpu: AttachedGpuSpec | None = None
    """N1 machine types only: the attached GPUs."""

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
    """Name of the future reservation (what calendar pools name in `reservation`)."""
    machine_type: str
    """GPU or TPU machine type reserved."""
    count: PositiveInt
    """GPU: VMs; TPU: chips."""
    zone: Zone
    """Zone of the reservation."""
    start: Timestamp
    """Start of the window, RFC 3339, e.g. 2026-12-07T00:00:00Z."""
    days: WholeNumber
    """Length of the window in days."""
    submit: StrictBool = False  # FACTS C
    """false: a DRAFT; true: submitted, binding and never cancellable."""
    share_with: list[ProjectId] = Field(default_factory=list)
    """Projects the reservation is shared with."""
    workload_type: Literal[calendar_window.WORKLOAD_TYPES] | None = None  # type: ignore[valid-type]
    """TPU only: the reservation's workload type."""
    description: str | None = None
    """Free text for the reservation."""

    @property
    def end(self) -> datetime:
        return calendar_window.window_end(self.start, self.days)


class CohortSpec(_SpecModel):
    """A Kueue Cohort. Borrowing and lending limits (per pool) only with a parent: Kueue R-CO-2."""

    name: DnsLabel
    """Cohort name."""
    parent: str | None = None
    """Parent cohort (hierarchical cohorts)."""
    quota: QuotaMap = Field(default_factory=dict)
    """Quota the cohort itself holds, in accelerators per pool, shared by its members."""
    borrowing_limit: QuotaMap = Field(default_factory=dict)
    """Accelerators per pool the cohort may borrow from its parent."""
    lending_limit: QuotaMap = Field(default_factory=dict)
    """Accelerators per pool of its quota the cohort may lend to its parent."""
    weight: Weight | None = None
    """Fair-sharing weight in the parent cohort (default 1)."""


class PreemptionSpec(_SpecModel):
    """Kueue ClusterQueue preemption; unset fields get the defaults documented in `model`."""

    reclaim_within_cohort: Literal[RECLAIM_WITHIN_COHORT_POLICIES] | None = None  # type: ignore[valid-type]
    """Which workloads of the cohort's other queues that use more than their quota the team may preempt to reclaim
    its own."""
    within_cluster_queue: Literal[WITHIN_CLUSTER_QUEUE_POLICIES] | None = None  # type: ignore[valid-type]
    """Which of the team's own admitted workloads a pending one may preempt."""
    borrow_within_cohort: Literal[BORROW_WITHIN_COHORT_POLICIES] | None = None  # type: ignore[valid-type]
    """Whether a workload that borrows may preempt lower-priority workloads of the cohort."""


class FlavorFungibilitySpec(_SpecModel):
    """Kueue ClusterQueue flavorFungibility (v1beta2 spelling; gkecap writes v1beta1's Borrow / Preempt for
    MayStopSearch where the API is v1beta1); unset fields keep Kueue's defaults (`queues.FLAVOR_FUNGIBILITY`)."""

    when_can_borrow: Literal["MayStopSearch", "TryNextFlavor"] | None = None
    """When a flavor fits only by borrowing: stop there, or try the next flavor first."""
    when_can_preempt: Literal["MayStopSearch", "TryNextFlavor"] | None = None
    """When a flavor fits only by preempting: stop there, or try the next flavor first."""


class TeamSpec(_SpecModel):
    """A team: its Kueue ClusterQueue (quota per pool, cohort, limits), namespaces and members."""

    name: DnsLabel
    """Team name: its ClusterQueue's, and its namespace's by default."""
    cohort: str | None = None
    """Cohort the team's ClusterQueue borrows and lends in."""
    quota: QuotaMap = Field(default_factory=dict)
    """Nominal quota in accelerators (GPUs or TPU chips) per pool."""
    borrowing_limit: QuotaMap = Field(default_factory=dict)
    """Accelerators per pool the team may borrow from its cohort; unset: no limit."""
    lending_limit: QuotaMap = Field(default_factory=dict)
    """Accelerators per pool of its quota the team may lend to its cohort; unset: all of it."""
    weight: Weight | None = None
    """Fair-sharing weight (default 1)."""
    namespaces: Annotated[list[DnsLabel], Field(min_length=1)] | None = None
    """Namespaces created for the team (default: its name)."""
    namespace: DnsLabel | None = None
    """An existing namespace the team works in (`default` too), instead of `namespaces`: nothing is created there
    and the ClusterQueue selects it by name."""
    members: list[Principal] = Field(default_factory=list)
    """Who submits work: user:, group: or serviceAccount: principals."""
    preemption: PreemptionSpec = Field(default_factory=PreemptionSpec)
    """The ClusterQueue's preemption policies."""
    # kubernetes_objects.admission_policy.allowed_priorities
    priorities: list[str] | None = None
    """WorkloadPriorityClasses the team's workloads may name (others are refused); default: every class below the
    environment's highest value."""
    resource_quota: StrictBool = False
    """true: a ResourceQuota on accelerator requests in each team namespace, sized to what Kueue can ever admit."""
    flavor_fungibility: FlavorFungibilitySpec = Field(default_factory=FlavorFungibilitySpec)
    """How Kueue picks among the team's flavors when one fits only by borrowing or preempting."""

    @model_validator(mode="after")
    def _default_namespace(self) -> "TeamSpec":
        if self.namespace is not None and self.namespaces is not None:
            raise ValueError("give either namespace (an existing namespace) or namespaces (created for the team), "
                             "not both")
        if self.namespaces is None:
            self.namespaces = [self.namespace] if self.namespace is not None else [self.name]
        return self


class PriorityClassSpec(_SpecModel):
    """A Kueue WorkloadPriorityClass."""

    name: DnsSubdomain
    """Class name, as workloads name it (kueue.x-k8s.io/priority-class label)."""
    value: WholeNumber  # WorkloadPriorityClass.value is an int32
    """Priority: higher is admitted first and may preempt lower."""
    description: Annotated[str, Field(max_length=2048)] = ""  # KUEUE_VALIDATION.md (WorkloadPriorityClass)
    """What the class is for."""


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
    """true: install Kueue on the worker; false: its Kueue is installed already; unset: the environment's."""
    version: KueueVersion | None = None
    """The worker's Kueue release; unset: the environment's."""
    api_version: Literal[API_VERSIONS] | None = None  # type: ignore[valid-type]
    """API version of the worker's Kueue objects; unset: the environment's."""
    frameworks: list[str] | None = None
    """The worker's Kueue integrations; they must include every one the manager dispatches; unset: the
    environment's."""
    job_set: StrictBool | None = None
    """true: install JobSet on the worker with Kueue; unset: the environment's."""
    manager_resources: ManagerResourcesSpec | None = None
    """Requests of the worker's Kueue controller manager; unset: the environment's."""


class WorkerSpec(_SpecModel):
    """A MultiKueue worker cluster: its own region, cluster and accelerator pools (and the calendar reservations
    they consume). The environment's `cluster` is then the manager, which keeps the queues and dispatches."""

    name: DnsLabel
    """Worker name (its MultiKueueCluster's)."""
    region: Region
    """Region of the worker."""
    cluster: ClusterSpec
    """The worker's GKE cluster."""
    node_pools: list[NodePoolSpec] = Field(default_factory=list)
    """The worker's accelerator pools (names unique across the environment)."""
    reservations: list[ReservationSpec] = Field(default_factory=list)
    """Calendar reservations the worker's pools consume."""
    kueue: WorkerKueueSpec | None = None
    """The worker's own Kueue settings, over the environment's `kueue` key by key (e.g. an existing cluster's
    release or integrations)."""

    @model_validator(mode="after")
    def _fill_location(self) -> "WorkerSpec":
        if self.cluster.location is None:
            self.cluster.location = self.region
        return self


class EnvironmentSpec(_SpecModel):
    """What ``gkecap:environment`` holds (docs/environment.md lists every key)."""

    project: ProjectId | None = None  # load_environment(project=...)
    """Google Cloud project; default: the stack's gcp:project."""
    region: Region
    """Region of the environment (and default location of the cluster)."""
    node_service_account: ServiceAccount | None = None
    """Email of the dedicated node service account (never the default compute account)."""
    cluster: ClusterSpec
    """The GKE cluster (with `workers`: the MultiKueue manager)."""
    kueue: KueueSpec = Field(default_factory=KueueSpec)
    """Kueue's release and settings."""
    node_pools: list[NodePoolSpec] = Field(default_factory=list)
    """The accelerator pools."""
    reservations: list[ReservationSpec] = Field(default_factory=list)
    """Calendar-mode future reservations the calendar pools consume."""
    cohorts: list[CohortSpec] = Field(default_factory=list)
    """Kueue cohorts (optionally hierarchical)."""
    teams: list[TeamSpec] = Field(default_factory=list)
    """The teams and their quotas."""
    priority_classes: list[PriorityClassSpec] | None = None
    """WorkloadPriorityClasses; unset: low (100), normal (500) and high (1000); [] for none."""
    vertex: VertexSpec | None = None  # spec.vertex
    """Vertex AI training with FLEX_START: profiles and the quota they need."""
    workers: list[WorkerSpec] = Field(default_factory=list)  # spec.workers
    """MultiKueue worker clusters."""

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
