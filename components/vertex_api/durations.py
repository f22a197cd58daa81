"""Durations as the environment file writes them (`30m`, `2d`, `36h`, `90s`, `0`, or whole seconds) and as Vertex
AI's REST API takes them (google.protobuf.Duration in JSON: whole seconds with an `s`, e.g. `1800s`)."""

from __future__ import annotations

from typing import Any

from gkecap.components.issues import Issue
from gkecap.components.k8s.duration import parse_short_duration

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
EXAMPLE = "e.g. 30m, 12h, 2d, 1800s or 0"


def parse_duration(value: Any) -> int:
    """Whole seconds of `30m`, `2d`, `1800s`, `0` or an int; ValueError names what is allowed."""
    return int(parse_short_duration(value, example=EXAMPLE, whole=True))


def proto_duration(seconds: int) -> str:
    """A protobuf Duration's JSON form: `1800s`."""
    return f"{seconds}s"


def format_duration(seconds: int) -> str:
    """The shortest exact form for people: `2d`, `30m`, `90s`, `0`."""
    if seconds == 0:
        return "0"
    for unit in ("d", "h", "m"):
        if seconds % _UNITS[unit] == 0:
            return f"{seconds // _UNITS[unit]}{unit}"
    return f"{seconds}s"


def duration_issues(path: str, value: Any, *, maximum: int | None = None, what: str = "duration") -> list[Issue]:
    """Why `value` is not a duration of at most `maximum` seconds (empty when it is)."""
    try:
        seconds = parse_duration(value)
    except ValueError as err:
        return [Issue(path, str(err))]
    if maximum is not None and seconds > maximum:
        return [Issue(path, f"{value!r} is longer than the {format_duration(maximum)} a {what} may last")]
    return []
