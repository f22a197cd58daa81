"""The workloads file of `gkecap simulate`: what is submitted when, and what flex-start and queued pools can obtain.

The shape is a strict pydantic model (an unknown key is an error, as in environment files); problems are reported
all at once as `Issue`s at their YAML path (`workloads[2].team: ...`) through the environment spec's own translation
of pydantic errors. Checks against the environment (teams, pools, priority classes, pod sizes) live in
`gkecap.simulate.environment`, which knows the emitted Kueue objects.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Annotated, Any

import yaml
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from gkecap.components.issues import InvalidInput, Issue
from gkecap.components.spec.errors import translate_validation_error
from gkecap.simulate.timing import EvictionDelays

_DURATION = re.compile(r"(\d+(?:\.\d+)?)(s|m|h|d)")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
DURATION_HINT = "a duration such as 90s, 15m, 4h or 2d (or a number of seconds)"


class WorkloadsFileError(InvalidInput):
    """Every problem of a workloads file, one line per issue (`path: message`)."""


def parse_duration(value: Any) -> float:
    """Seconds of `90s`, `15m`, `4h`, `2d` or a plain number of seconds."""
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not {DURATION_HINT}")
    if isinstance(value, (int, float)):
        if value < 0:
            raise ValueError(f"{value!r} is negative; write {DURATION_HINT}")
        return float(value)
    if isinstance(value, str):
        match = _DURATION.fullmatch(value.strip())
        if match:
            return float(match[1]) * _UNIT_SECONDS[match[2]]
    raise ValueError(f"{value!r} is not {DURATION_HINT}")


Duration = Annotated[float, BeforeValidator(parse_duration)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class WorkloadEntry(_Strict):
    name: str = Field(min_length=1, max_length=200)
    team: str
    pods: int = Field(1, ge=1)
    accelerators: int = Field(ge=1, description="per pod: GPUs, TPU chips, or the pool's shared/MIG units")
    pool: str | None = None
    priority: str | None = None
    submit: Duration = 0.0
    duration: Duration
    count: int = Field(1, ge=1, le=100_000)
    every: Duration = 0.0


class CapacityEntry(_Strict):
    pool: str
    start: Duration = Field(alias="from")
    until: Duration
    nodes: int = Field(ge=0)


class DelaysEntry(_Strict):
    """Overrides of the simulator's documented default delays (gkecap.simulate.timing)."""

    termination: Duration | None = Field(None, description="a preempted workload's pods hold their nodes and its "
                                         "quota this long (terminationGracePeriodSeconds; default 30s)")
    requeue: Duration | None = Field(None, description="an evicted workload rejoins its queue this long after its "
                                     "quota is released (default 0s, as Kueue)")
    release: Duration | None = Field(None, description="a preempted workload without running pods gives its quota "
                                     "back this long after its eviction (default 1s)")


class WorkloadsFile(_Strict):
    start: datetime | None = None
    workloads: list[WorkloadEntry] = Field(min_length=1)
    capacity: list[CapacityEntry] = Field(default_factory=list)
    delays: DelaysEntry = Field(default_factory=DelaysEntry)

    def eviction_delays(self) -> EvictionDelays:
        """The documented defaults, with the file's overrides."""
        defaults = EvictionDelays()
        return EvictionDelays(
            defaults.termination if self.delays.termination is None else self.delays.termination,
            defaults.requeue if self.delays.requeue is None else self.delays.requeue,
            defaults.release if self.delays.release is None else self.delays.release)


def load_workloads_file(path: Path, *, now: datetime | None = None) -> WorkloadsFile:
    """Parse and validate the file's shape; WorkloadsFileError names every problem with its YAML path."""
    where = str(path)
    try:
        text = path.read_text()
    except OSError as exc:
        raise WorkloadsFileError([Issue("", f"cannot read {where}: {exc.strerror}")], subject=where) from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f" (line {mark.line + 1})" if mark is not None else ""
        raise WorkloadsFileError([Issue("", f"not valid YAML{line}: {getattr(exc, 'problem', exc)}")],
                                 subject=where) from None
    if not isinstance(data, dict):
        raise WorkloadsFileError([Issue("", "expected a mapping with `workloads` (and optional `start`, `capacity`)")],
                                 subject=where)
    try:
        parsed = WorkloadsFile.model_validate(data)
    except ValidationError as exc:
        raise WorkloadsFileError(translate_validation_error(exc, WorkloadsFile), subject=where) from None
    issues = []
    for i, entry in enumerate(parsed.capacity):
        if entry.until <= entry.start:
            issues.append(Issue(f"capacity[{i}].until", "must be after `from`"))
    if issues:
        raise WorkloadsFileError(issues, subject=where)
    if parsed.start is None:
        parsed.start = (now or datetime.now(timezone.utc)).replace(microsecond=0)
    elif parsed.start.tzinfo is None:
        parsed.start = parsed.start.replace(tzinfo=timezone.utc)
    return parsed
