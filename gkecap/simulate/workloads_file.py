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

import math
import re
from datetime import date, datetime, timezone
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictBool, StrictInt, ValidationError

from gkecap.components.issues import InvalidInput, Issue
from gkecap.components.spec.errors import translate_validation_error
from gkecap.components.spec.strict_yaml import YamlInputError, load_yaml
from gkecap.simulate.timing import EvictionDelays

_DURATION = re.compile(r"(\d+(?:\.\d+)?)(s|m|h|d)")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
DURATION_HINT = "a duration such as 90s, 15m, 4h or 2d (or a number of seconds)"
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
    """Seconds of `90s`, `15m`, `4h`, `2d` or a plain number of seconds."""
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not {DURATION_HINT}")
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(f"{value!r} is not a finite number; write {DURATION_HINT}")
        if value < 0:
            raise ValueError(f"{value!r} is negative; write {DURATION_HINT}")
        return _bounded(float(value), value)
    if isinstance(value, str):
        match = _DURATION.fullmatch(value.strip())
        if match:
            return _bounded(float(match[1]) * _UNIT_SECONDS[match[2]], value)
    raise ValueError(f"{value!r} is not {DURATION_HINT}")


def _bounded(seconds: float, written: Any) -> float:
    if not seconds <= MAX_SECONDS:
        raise ValueError(f"{written!r} is too long; at most {MAX_SECONDS // 86400} days ({MAX_SECONDS} s)")
    return seconds


def _timestamp(value: Any) -> Any:
    """`start` as YAML writes a time (`2027-01-10T00:00:00Z`, read as a datetime) or as text; never a number (a
    bare year `2027` would be 2027 seconds after 1970) nor a date alone."""
    if isinstance(value, bool) or isinstance(value, (int, float)):
        raise ValueError(f"{value!r} is not a timestamp; write ISO 8601 in UTC, e.g. 2027-01-10T00:00:00Z")
    if isinstance(value, date) and not isinstance(value, datetime):
        raise ValueError(f"{value.isoformat()} is a date, not a time; write e.g. {value.isoformat()}T00:00:00Z")
    return value


Duration = Annotated[float, BeforeValidator(parse_duration)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


# Counts are whole numbers as written (`pods: true` or `2.5` is refused, not read as 1 or 2), and bounded.
_COUNT_LIMIT = 2**31 - 1


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


class WorkloadsFile(_Strict):
    start: Annotated[datetime, BeforeValidator(_timestamp)] | None = None
    workloads: list[WorkloadEntry] = Field(min_length=1)
    capacity: list[CapacityEntry] = Field(default_factory=list)
    delays: DelaysEntry = Field(default_factory=DelaysEntry)

    def eviction_delays(self) -> EvictionDelays:
        """The documented defaults of the eviction delays, with the file's overrides."""
        defaults = EvictionDelays()
        return EvictionDelays(
            defaults.termination if self.delays.termination is None else self.delays.termination,
            defaults.requeue if self.delays.requeue is None else self.delays.requeue,
            defaults.release if self.delays.release is None else self.delays.release)


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
    try:
        with path.open("rb") as stream:  # bounded: a device or a pipe may never end
            raw = stream.read(max_bytes + 1)
    except OSError as exc:
        raise WorkloadsFileError([Issue("", f"cannot read {where}: {exc.strerror}")], subject=where) from None
    if len(raw) > max_bytes:
        raise WorkloadsFileError([Issue("", f"larger than {max_bytes / 2**20:g} MiB; a workloads file lists at most "
                                            f"{max_workloads:,} workloads ({MAX_FLAG} raises the cap)")],
                                 subject=where)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise WorkloadsFileError([Issue("", f"not UTF-8 text (byte {exc.start}: {exc.reason})")], subject=where) from None
    try:
        data = load_yaml(text)  # as strict as an environment file: duplicate keys, aliases, nesting
    except YamlInputError as exc:
        line = f" (line {exc.line})" if exc.line is not None else ""
        raise WorkloadsFileError([Issue("", f"not valid YAML{line}: {exc.problem}")], subject=where) from None
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
    for i, entry in enumerate(parsed.capacity):
        if entry.until <= entry.start:
            issues.append(Issue(f"capacity[{i}].until", "must be after `from`"))
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
