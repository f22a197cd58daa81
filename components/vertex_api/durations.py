"""Durations as the environment file writes them (`30m`, `2d`, `36h`, `90s`, `0`, or whole seconds) and as Vertex
AI's REST API takes them (google.protobuf.Duration in JSON: whole seconds with an `s`, e.g. `1800s`)."""

from __future__ import annotations

import re
from typing import Any

from gkecap.components.issues import Issue

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_DURATION = re.compile(r"(\d+)([smhd]?)")


def parse_duration(value: Any) -> int:
    """Whole seconds of `30m`, `2d`, `1800s`, `0` or an int; ValueError names what is allowed."""
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a duration; write e.g. 30m, 12h, 2d, 1800s or 0")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int):
        if value < 0:
            raise ValueError(f"{value!r} is negative; a duration is 0 or more")
        return value
    match = _DURATION.fullmatch(value.strip()) if isinstance(value, str) else None
    if match is None:
        raise ValueError(f"{value!r} is not a duration; write e.g. 30m, 12h, 2d, 1800s or 0")
    return int(match.group(1)) * _UNITS[match.group(2) or "s"]


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
