"""Durations as Kubernetes configuration files spell them (`metav1.Duration`: Go's `time.ParseDuration`, e.g.
`10m`, `1h30m`, `90s`). Pure.

Grammar of Go's time.ParseDuration (go/src/time/format.go): an optional sign, then one or more decimal numbers
each with a unit (ns, us, µs, μs, ms, s, m, h); `0` alone is allowed without a unit.
"""

from __future__ import annotations

import re

_UNIT_SECONDS = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "μs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}
_PART = re.compile(r"([0-9]*(?:\.[0-9]*)?)(ns|us|µs|μs|ms|s|m|h)")
_WHOLE = re.compile(r"[-+]?(?:[0-9]*(?:\.[0-9]*)?(?:ns|us|µs|μs|ms|s|m|h))+")


class DurationError(ValueError):
    """Not a Go duration."""


def parse_duration(text: object) -> float:
    """Seconds of a Go duration string; DurationError when it is not one."""
    if not isinstance(text, str):
        raise DurationError(f"{text!r} is not a duration; write it like 10m, 1h30m or 90s")
    if text in ("0", "+0", "-0"):
        return 0.0
    if not _WHOLE.fullmatch(text):
        raise DurationError(f"{text!r} is not a duration; write it like 10m, 1h30m or 90s (units: h, m, s, ms)")
    sign = -1.0 if text.startswith("-") else 1.0
    total = 0.0
    for number, unit in _PART.findall(text.lstrip("+-")):
        if number in ("", "."):
            raise DurationError(f"{text!r} is not a duration; each unit needs a number, e.g. 10m")
        total += float(number) * _UNIT_SECONDS[unit]
    return sign * total


def format_seconds(seconds: float) -> str:
    """A short human form of a number of seconds (`2h`, `10m`, `90s`)."""
    if seconds >= 3600 and seconds % 3600 == 0:
        return f"{int(seconds // 3600)}h"
    if seconds >= 60 and seconds % 60 == 0:
        return f"{int(seconds // 60)}m"
    return f"{seconds:g}s"
