"""The environment spec: pydantic models of what ``gkecap:environment`` in a ``Pulumi.<env>.yaml`` holds.

``load_environment(config)`` is the entry point. It validates the shape (camelCase keys, unknown keys
rejected, types and enums) and then every cross-field rule (``gkecap.components.spec.checks``: catalog facts,
references between pools, reservations, cohorts and teams, quotas against capacity, calendar windows),
collects *all* problems and raises them as one ``SpecError`` whose lines read ``path: message`` with the
YAML path (``nodePools[1].tpuTopology: '4x3' is not a valid v6e topology ...``). Non-fatal findings
(over-committed flex-start/queued pools, unused reservations...) land in ``EnvironmentSpec.warnings``.

``EnvironmentSpec.model_validate`` alone checks the shape only; use ``load_environment``.
Pure: no Pulumi import. Callers pass ``now`` for the calendar-window rules (default: the current UTC time).
"""

from __future__ import annotations

from datetime import date, datetime, timezone
from pathlib import Path
from typing import Annotated, Any, Literal, Mapping

import yaml
from pydantic import (
    AliasChoices,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    model_validator,
)
from pydantic.alias_generators import to_camel

from gkecap.components.gke import calendar_window
from gkecap.components.catalog import is_tpu_machine_type
from gkecap.components.spec.errors import (
    SpecError,
    SpecIssue,
    in_file_order,
    show,
    translate_validation_error,
    under_any,
    unique,
)

__all__ = [
    "CapacityModelName",
    "ClusterSpec",
    "CohortSpec",
    "DEFAULT_PRIORITY_CLASSES",
    "EnvironmentSpec",
    "GpuSharingSpec",
    "KueueSpec",
    "ManagerResourcesSpec",
    "NodePoolSpec",
    "PreemptionSpec",
    "PriorityClassSpec",
    "ReservationSpec",
    "SpecError",
    "SpecIssue",
    "SystemPoolSpec",
    "TaintSpec",
    "TeamSpec",
    "load_environment",
    "load_stack_config",
    "load_stack_file",
]

CapacityModelName = Literal["reservation", "calendar", "queued", "flex-start", "spot", "on-demand"]
INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1  # WorkloadPriorityClass.value is an int32

# --------------------------------------------------------------------------------------------------------
# Models

StrictPositiveInt = Annotated[int, Field(strict=True, ge=1)]
StrictNonNegativeInt = Annotated[int, Field(strict=True, ge=0)]
StrictBool = Annotated[bool, Field(strict=True)]
QuotaMap = dict[str, StrictNonNegativeInt]


def _date_as_utc_midnight(value: Any) -> Any:
    # A YAML date (2026-12-07) means 00:00 UTC that day; datetimes keep their zone (naive ones are flagged later).
    if isinstance(value, date) and not isinstance(value, datetime):
        return calendar_window.as_utc_datetime(value)
    return value


class _SpecModel(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="forbid", str_strip_whitespace=True
    )


class SystemPoolSpec(_SpecModel):
    """The small node pool without flex-start/queued provisioning every Standard cluster keeps (FACTS B.1)."""

    machine_type: str = "e2-standard-4"
    nodes: StrictPositiveInt = 1


class ClusterSpec(_SpecModel):
    """An existing GKE cluster (default) or, with ``create: true``, one this environment creates."""

    name: str
    create: StrictBool = False
    location: str | None = None  # defaults to the environment's region
    release_channel: Literal["RAPID", "REGULAR", "STABLE", "EXTENDED", "UNSPECIFIED"] = "REGULAR"
    # `version` is accepted as a synonym (the module contract lists "version").
    min_master_version: str | None = Field(
        default=None, validation_alias=AliasChoices("minMasterVersion", "min_master_version", "version")
    )
    system_pool: SystemPoolSpec = Field(default_factory=SystemPoolSpec)


class ManagerResourcesSpec(_SpecModel):
    """Requests of the Kueue controller manager (Kubernetes quantities); unset keeps the chart default."""

    cpu: str | None = None
    memory: str | None = None


class KueueSpec(_SpecModel):
    install: StrictBool = True
    version: str = "v0.19.2"
    api_version: Literal["v1beta1", "v1beta2"] = "v1beta2"
    fair_sharing: StrictBool = True
    topology_aware_scheduling: StrictBool = False
    manager_resources: ManagerResourcesSpec | None = None


class GpuSharingSpec(_SpecModel):
    strategy: Literal["TIME_SHARING", "MPS"]
    # FACTS E: the device plugin only requires > 0; no documented upper bound.
    max_shared_clients_per_gpu: StrictPositiveInt


class TaintSpec(_SpecModel):
    """An extra node taint; the pool's Kueue flavor tolerates it, so only workloads admitted there land on it."""

    key: str
    value: str
    effect: Literal["NO_SCHEDULE", "PREFER_NO_SCHEDULE", "NO_EXECUTE"] = "NO_SCHEDULE"  # GKE API NodeTaint.Effect


class NodePoolSpec(_SpecModel):
    """One accelerator pool: a machine type, a capacity model and its size (GPU: maxNodes; TPU: slices)."""

    name: str
    machine_type: str
    capacity: CapacityModelName
    zones: list[str] | None = None
    tpu_topology: str | None = None
    slices: StrictPositiveInt | None = None  # TPU only; default 1
    max_nodes: StrictPositiveInt | None = None  # GPU only; calendar pools default to the reservation's VM count
    min_nodes: StrictNonNegativeInt | None = None  # GPU reservation/calendar/spot/on-demand only
    max_run_duration: Annotated[int, Field(strict=True)] | None = None  # seconds, flex-start/queued only
    gpu_driver_version: Literal["DEFAULT", "LATEST", "INSTALLATION_DISABLED"] | None = None
    gpu_partition_size: str | None = None
    gpu_sharing: GpuSharingSpec | None = None
    reservation: str | None = None
    reservation_block: str | None = None
    reservation_project: str | None = None
    labels: dict[str, str] = Field(default_factory=dict)
    taints: list[TaintSpec] = Field(default_factory=list)  # extra node taints (the accelerator's own are added)
    disk_size_gb: Annotated[int, Field(strict=True)] | None = None  # boot disk; GKE default 100 GB
    disk_type: str | None = None  # boot disk type; GKE's default for the machine type when unset

    @property
    def is_tpu(self) -> bool:
        return is_tpu_machine_type(self.machine_type)


class ReservationSpec(_SpecModel):
    """A calendar-mode future reservation. GPU: ``count`` VMs; TPU: ``count`` chips (FACTS C).

    The window is judged at plan time (``gkecap.components.gke.calendar_window.check_window``), which matters for a stack
    file planned in CI for months: a draft (``submit: false``) must start after now and within the advance
    window (GPU 60 days, TPU 120), so once its start has passed it is an error until the window is moved. A
    submitted request is binding and cannot be changed: once its window has begun it stays declared without
    complaint (its pools consume it); once it has ended, a warning says to remove it and its pools (the
    reservation is gone and the pools consume nothing).
    """

    name: str
    machine_type: str
    count: StrictPositiveInt
    zone: str
    start: Annotated[datetime, BeforeValidator(_date_as_utc_midnight)]
    days: Annotated[int, Field(strict=True)]
    submit: StrictBool = False  # DRAFT until true; a submitted request cannot be cancelled (FACTS C)
    share_with: list[str] = Field(default_factory=list)
    workload_type: Literal["BATCH", "SERVING"] | None = None  # TPU only; default BATCH
    description: str | None = None

    @property
    def end(self) -> datetime:
        return calendar_window.window_end(self.start, self.days)


class CohortSpec(_SpecModel):
    """A Kueue Cohort. Borrowing and lending limits (per pool) only with a parent: Kueue R-CO-2."""

    name: str
    parent: str | None = None
    quota: QuotaMap = Field(default_factory=dict)
    borrowing_limit: QuotaMap = Field(default_factory=dict)
    lending_limit: QuotaMap = Field(default_factory=dict)
    weight: Annotated[float, Field(gt=0)] | None = None


class PreemptionSpec(_SpecModel):
    """Kueue ClusterQueue preemption; unset fields get the defaults documented in gkecap.components.model."""

    reclaim_within_cohort: Literal["Never", "LowerPriority", "Any"] | None = None
    within_cluster_queue: Literal["Never", "LowerPriority", "LowerOrNewerEqualPriority"] | None = None
    borrow_within_cohort: Literal["Never", "LowerPriority"] | None = None


class TeamSpec(_SpecModel):
    name: str
    cohort: str | None = None
    quota: QuotaMap = Field(default_factory=dict)
    borrowing_limit: QuotaMap = Field(default_factory=dict)
    lending_limit: QuotaMap = Field(default_factory=dict)
    weight: Annotated[float, Field(gt=0)] | None = None  # fair-sharing weight; default 1
    namespaces: Annotated[list[str], Field(min_length=1)] | None = None  # default [name]
    members: list[str] = Field(default_factory=list)
    preemption: PreemptionSpec = Field(default_factory=PreemptionSpec)

    @model_validator(mode="after")
    def _default_namespace(self) -> "TeamSpec":
        if self.namespaces is None:
            self.namespaces = [self.name]
        return self


class PriorityClassSpec(_SpecModel):
    name: str
    value: Annotated[int, Field(strict=True, ge=INT32_MIN, le=INT32_MAX)]
    description: str = ""


# Used when an environment gives no priorityClasses (an explicit empty list means none). Kueue
# WorkloadPriorityClasses: higher value = admitted first and may preempt lower ones.
DEFAULT_PRIORITY_CLASSES: tuple[PriorityClassSpec, ...] = (
    PriorityClassSpec(name="low", value=100, description="Best-effort and exploratory work; preempted first."),
    PriorityClassSpec(name="normal", value=500, description="Regular training and batch work."),
    PriorityClassSpec(name="high", value=1000, description="Deadline-bound work; may preempt lower priorities."),
)


class EnvironmentSpec(_SpecModel):
    """What ``gkecap:environment`` holds (see ARCHITECTURE.md "The environment file")."""

    project: str | None = None  # from gcp:project (load_environment(project=...)) or given here
    region: str
    node_service_account: str | None = None
    cluster: ClusterSpec
    kueue: KueueSpec = Field(default_factory=KueueSpec)
    node_pools: list[NodePoolSpec] = Field(default_factory=list)
    reservations: list[ReservationSpec] = Field(default_factory=list)
    cohorts: list[CohortSpec] = Field(default_factory=list)
    teams: list[TeamSpec] = Field(default_factory=list)
    priority_classes: list[PriorityClassSpec] | None = None

    _warnings: list[str] = PrivateAttr(default_factory=list)

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

    def to_config(self) -> dict[str, Any]:
        """The camelCase mapping that loads back to this spec (defaults included)."""
        return self.model_dump(mode="json", by_alias=True, exclude={"project"})


# --------------------------------------------------------------------------------------------------------
# Loading


def load_environment(
    config: Mapping[str, Any], project: str | None = None, *, now: datetime | None = None
) -> EnvironmentSpec:
    """Validate the value of ``gkecap:environment``; raise SpecError with every problem, or return the spec."""
    now = _aware_now(now)
    if not isinstance(config, Mapping):
        raise SpecError([SpecIssue("gkecap:environment", f"expected a mapping of settings, got {show(config)}")])
    data = dict(config)
    issues: list[SpecIssue] = []
    if project is not None:
        given = data.get("project")
        if given is not None and given != project:
            issues.append(SpecIssue("project", f"{given!r} differs from gcp:project {project!r}; give one"))
        data["project"] = project
    try:
        spec: EnvironmentSpec | None = EnvironmentSpec.model_validate(data)
    except ValidationError as err:
        spec = None
        issues += translate_validation_error(err, EnvironmentSpec)
    # Imported here: spec_checks builds on the models above.
    from gkecap.components.spec.checks import check_environment

    errors, warnings = check_environment(spec, data, now)
    # A key that failed to parse was dropped for the cross-field checks: do not report it twice.
    reported = {issue.path for issue in issues}
    issues += [issue for issue in errors if not under_any(issue.path, reported)]
    if issues:
        raise SpecError(in_file_order(unique(issues)))
    assert spec is not None
    spec._warnings = [str(w) for w in warnings]
    return spec


def load_stack_config(stack_config: Mapping[str, Any], *, now: datetime | None = None) -> EnvironmentSpec:
    """Load from a whole Pulumi stack ``config:`` map (``gcp:project`` and ``gkecap:environment``)."""
    if not isinstance(stack_config, Mapping):
        raise SpecError([SpecIssue("config", f"expected a mapping, got {show(stack_config)}")])
    environment = stack_config.get("gkecap:environment")
    if environment is None:
        keys = ", ".join(sorted(map(str, stack_config))) or "none"
        raise SpecError([SpecIssue("config", f"no gkecap:environment key; keys present: {keys}")])
    project = stack_config.get("gcp:project")
    if project is not None and not isinstance(project, str):
        raise SpecError([SpecIssue("config.gcp:project", f"expected a project ID string, got {show(project)}")])
    return load_environment(environment, project=project, now=now)


def load_stack_file(path: str | Path, *, now: datetime | None = None) -> EnvironmentSpec:
    """Load a ``Pulumi.<env>.yaml`` (with a top-level ``config:``) or a bare environment mapping."""
    path = Path(path)
    try:
        document = yaml.safe_load(path.read_text())
    except OSError as err:
        raise SpecError([SpecIssue(str(path), f"cannot read the file: {err.strerror or err}")]) from None
    except yaml.YAMLError as err:
        raise SpecError([SpecIssue(str(path), f"not valid YAML: {err}")]) from None
    if not isinstance(document, Mapping):
        raise SpecError([SpecIssue(str(path), f"expected a mapping at the top level, got {show(document)}")])
    if "config" in document:
        return load_stack_config(document["config"] or {}, now=now)
    if "gkecap:environment" in document:
        return load_stack_config(document, now=now)
    return load_environment(document, now=now)


def _aware_now(now: datetime | None) -> datetime:
    if now is None:
        return datetime.now(timezone.utc)
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware (e.g. datetime.now(timezone.utc))")
    return now
