"""The workloads file of `gkecap simulate`: what is submitted when, and what flex-start and queued pools can obtain.

The shape is a strict pydantic model (an unknown key is an error, as in environment files); problems are reported
all at once as `Issue`s at their YAML path (`workloads[2].team: ...`) through the environment spec's own translation
of pydantic errors. The file is read as strictly as an environment file (`spec.strict_yaml`: no duplicate keys, no
alias bombs, bounded nesting) and bounded in size; numbers are whole where they count things (`pods: true` is
not 1), times are finite and at most `MAX_SECONDS`, `start` is a timestamp (a bare year is not), and the copies
of all entries together at most `MAX_WORKLOADS` (the default of `gkecap simulate --max-workloads`). Checks against the environment (teams, pools, priority classes, pod sizes) live in
`gkecap.simulate.environment`, which knows the emitted Kueue objects.
"""

from __future__ import annotations

from datetime import date, datetime, timezone
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictBool, StrictInt, ValidationError

from gkecap.components.k8s.quantity import QuantityError, parse_quantity

from gkecap.components.issues import InvalidInput, Issue
from gkecap.components.k8s.duration import parse_short_duration
from gkecap.components.spec.errors import translate_validation_error
from gkecap.components.spec.user_files import UserFileError, parse_yaml, read_text

DURATION_EXAMPLE = "e.g. 90s, 15m, 4h or 2d, or a number of seconds"
MAX_SECONDS = 10 * 365 * 86400  # a time in a scenario: ten years is beyond any capacity plan
# Workloads a file may submit in all (entries times `count`): the simulator replays every one through Kueue's
# scheduling cycle, and 4,000 copies took 25 s on one core (measured, issue 25); `--timeout` bounds the rest. A
# default safety cap, not a limit of the simulator: `gkecap simulate --max-workloads N` raises it.
MAX_WORKLOADS = 10_000
MAX_FILE_BYTES = 4 * 1024 * 1024  # a workloads file of 10,000 entries is about 1.3 MiB; /dev/zero never ends
MAX_FLAG = "--max-workloads"


def max_file_bytes(max_workloads: int) -> int:
    """The size bound of a file that may list `max_workloads` entries: 4 MiB per 10,000, never less than 4 MiB."""
    return max(MAX_FILE_BYTES, -(-max_workloads * MAX_FILE_BYTES // MAX_WORKLOADS))


class WorkloadsFileError(InvalidInput):
    """Every problem of a workloads file, one line per issue (`path: message`)."""


def parse_duration(value: Any) -> float:
    """Seconds of `90s`, `15m`, `4h`, `2d` or a plain number of seconds, at most `MAX_SECONDS`."""
    return parse_short_duration(value, example=DURATION_EXAMPLE, maximum=MAX_SECONDS)


def _timestamp(value: Any) -> Any:
    """`start` as YAML writes a time (`2027-01-10T00:00:00Z`, read as a datetime) or as text; never a number (a
    bare year `2027` would be 2027 seconds after 1970) nor a date alone."""
    if isinstance(value, bool) or isinstance(value, (int, float)):
        raise ValueError(f"{value!r} is not a timestamp; write ISO 8601 in UTC, e.g. 2027-01-10T00:00:00Z")
    if isinstance(value, date) and not isinstance(value, datetime):
        raise ValueError(f"{value.isoformat()} is a date, not a time; write e.g. {value.isoformat()}T00:00:00Z")
    return value


Duration = Annotated[float, BeforeValidator(parse_duration)]
QUANTITY_HINT = "a Kubernetes quantity such as 500m, 8, 64Gi or 1.5Ti"


def _quantity(value: Any) -> Any:
    """A pod's cpu or memory request as Kubernetes writes it (`8`, `500m`, `64Gi`), above zero; kept as written."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ValueError(f"{value!r} is not {QUANTITY_HINT}")
    try:
        amount = parse_quantity(value).value
    except (QuantityError, ValueError):
        raise ValueError(f"{value!r} is not {QUANTITY_HINT}") from None
    if not amount > 0:
        raise ValueError(f"{value!r} is not above zero; write {QUANTITY_HINT}")
    return value


Quantity = Annotated[int | float | str, BeforeValidator(_quantity)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


# Counts are whole numbers as written (`pods: true` or `2.5` is refused, not read as 1 or 2), and bounded.
_COUNT_LIMIT = 2**31 - 1


# Topology levels a workload may ask for (gke-default's, coarsest first), by short name or label key.
TOPOLOGY_LEVEL_NAMES = {"block": "cloud.google.com/gce-topology-block",
                        "subblock": "cloud.google.com/gce-topology-subblock",
                        "host": "cloud.google.com/gce-topology-host", "hostname": "kubernetes.io/hostname"}


class TopologyEntry(_Strict):
    """Kueue's podset-required-topology or podset-preferred-topology annotation: one level."""

    required: str | None = None
    preferred: str | None = None

    def level(self) -> str | None:
        """The short name of the level asked for, None when it is not one of gke-default's."""
        written = self.required if self.required is not None else self.preferred
        for name, key in TOPOLOGY_LEVEL_NAMES.items():
            if written in (name, key):
                return name
        return None


class WorkloadEntry(_Strict):
    name: str = Field(min_length=1, max_length=200)
    team: str
    pods: StrictInt = Field(1, ge=1, le=_COUNT_LIMIT)
    accelerators: StrictInt = Field(ge=1, le=_COUNT_LIMIT, description="per pod: GPUs, TPU chips, or the pool's shared/MIG units")
    pool: str | None = None
    priority: str | None = None
    submit: Duration = 0.0
    duration: Duration
    count: StrictInt = Field(1, ge=1, le=_COUNT_LIMIT)  # all copies together: bounded by --max-workloads
    every: Duration = 0.0
    # false: the job carries no kueue.x-k8s.io/queue-name (environment.default_local_queues says where it goes)
    queue_label: StrictBool = Field(True, alias="queueLabel")
    # Kueue's PodSet.minCount (partial admission): Kueue may admit as few pods as this when all do not fit
    min_pods: StrictInt | None = Field(None, alias="minPods", ge=1, le=_COUNT_LIMIT)
    # What each pod requests besides its accelerators, counted against the queue's cpu and memory quota and the
    # room on a node (the ClusterQueues gkecap emits cover both, pro rata of the pools' machines).
    cpu: Quantity | None = None
    memory: Quantity | None = None
    # Topology-aware scheduling: all pods in one domain of a level (required), or as few as possible (preferred)
    topology: TopologyEntry | None = None


class CapacityEntry(_Strict):
    pool: str
    start: Duration = Field(alias="from")
    until: Duration
    nodes: StrictInt = Field(ge=0, le=_COUNT_LIMIT)


class DelaysEntry(_Strict):
    """Overrides of the simulator's documented default delays (gkecap.simulate.nodes, gkecap.simulate.timing)."""

    provisioning: Duration | None = Field(None, description="a new autoscaled node is ready this long after the "
                                          "cluster autoscaler asks for it")
    scale_down: Duration | None = Field(None, alias="scaleDown", description="an empty autoscaled node is removed "
                                        "after this long")
    pod_start: Duration | None = Field(None, alias="podStart", description="from a pod's binding to its running")
    # Eviction delays (gkecap.simulate.timing)
    termination: Duration | None = Field(None, description="a preempted workload's pods hold their nodes and its "
                                         "quota this long (terminationGracePeriodSeconds; default 30s)")
    requeue: Duration | None = Field(None, description="an evicted workload rejoins its queue this long after its "
                                     "quota is released (default 0s, as Kueue)")
    release: Duration | None = Field(None, description="a preempted workload without running pods gives its quota "
                                     "back this long after its eviction (default 1s)")


class LayoutEntry(_Strict):
    """Which nodes of a topology-aware pool share a block and a sub-block (in the order the pool has them)."""

    pool: str
    nodes_per_block: StrictInt = Field(alias="nodesPerBlock", ge=1, le=_COUNT_LIMIT)
    nodes_per_subblock: StrictInt = Field(alias="nodesPerSubblock", ge=1, le=_COUNT_LIMIT)


class WorkloadsFile(_Strict):
    start: Annotated[datetime, BeforeValidator(_timestamp)] | None = None
    workloads: list[WorkloadEntry] = Field(min_length=1)
    capacity: list[CapacityEntry] = Field(default_factory=list)
    layout: list[LayoutEntry] = Field(default_factory=list)
    delays: DelaysEntry = Field(default_factory=DelaysEntry)


def _too_many(total: int, limit: int) -> Issue:
    return Issue("workloads", f"{total:,} workloads in all (entries times their `count`); at most {limit:,} "
                              f"are simulated ({MAX_FLAG} raises the cap): split the scenario")


def load_workloads_file(path: Path, *, now: datetime | None = None,
                        max_workloads: int = MAX_WORKLOADS) -> WorkloadsFile:
    """Parse and validate the file's shape; WorkloadsFileError names every problem with its YAML path. At most
    `max_workloads` workloads in all (a safety cap against hostile input, `gkecap simulate --max-workloads`)."""
    if max_workloads < 1:
        raise ValueError(f"max_workloads must be at least 1, not {max_workloads}")
    max_bytes = max_file_bytes(max_workloads)
    where = str(path)
    try:  # bounded: a device or a pipe may never end
        data = parse_yaml(read_text(path, max_bytes=max_bytes,
                                    limit_note=f"; a workloads file lists at most {max_workloads:,} workloads "
                                               f"({MAX_FLAG} raises the cap)"))
    except UserFileError as exc:  # as strict as an environment file: duplicate keys, aliases, nesting
        raise WorkloadsFileError([Issue("", str(exc))], subject=where) from None
    if not isinstance(data, dict):
        raise WorkloadsFileError([Issue("", "expected a mapping with `workloads` (and optional `start`, `capacity`)")],
                                 subject=where)
    if isinstance(data.get("workloads"), list) and len(data["workloads"]) > max_workloads:  # before validating each
        raise WorkloadsFileError([_too_many(len(data["workloads"]), max_workloads)], subject=where)
    try:
        parsed = WorkloadsFile.model_validate(data)
    except ValidationError as exc:
        raise WorkloadsFileError(translate_validation_error(exc, WorkloadsFile), subject=where) from None
    issues = []
    for i, obtained in enumerate(parsed.capacity):
        if obtained.until <= obtained.start:
            issues.append(Issue(f"capacity[{i}].until", "must be after `from`"))
    for i, entry in enumerate(parsed.workloads):
        if entry.min_pods is not None and entry.min_pods > entry.pods:
            issues.append(Issue(f"workloads[{i}].minPods", f"{entry.min_pods} is more than its {entry.pods} pods; "
                                "Kueue's minCount is at most the pod count"))
        topology = entry.topology
        if topology is not None and (topology.required is None) == (topology.preferred is None):
            issues.append(Issue(f"workloads[{i}].topology", "give one of `required` or `preferred`"))
        elif topology is not None and topology.level() is None:
            which = "required" if topology.required is not None else "preferred"
            issues.append(Issue(f"workloads[{i}].topology.{which}", (
                f"{topology.required or topology.preferred!r} is not a level of gke-default's topology; allowed: "
                f"{', '.join(TOPOLOGY_LEVEL_NAMES)} (or their labels {', '.join(TOPOLOGY_LEVEL_NAMES.values())})")))
    for i, layout in enumerate(parsed.layout):
        if layout.nodes_per_block % layout.nodes_per_subblock:
            issues.append(Issue(f"layout[{i}].nodesPerSubblock", f"{layout.nodes_per_subblock} does not divide "
                                f"nodesPerBlock ({layout.nodes_per_block}): a sub-block lies within one block"))
    total = sum(entry.count for entry in parsed.workloads)
    if total > max_workloads:
        issues.append(_too_many(total, max_workloads))
    if issues:
        raise WorkloadsFileError(issues, subject=where)
    if parsed.start is None:
        parsed.start = (now or datetime.now(timezone.utc)).replace(microsecond=0)
    elif parsed.start.tzinfo is None:
        parsed.start = parsed.start.replace(tzinfo=timezone.utc)
    return parsed
