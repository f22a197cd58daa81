"""Durations as configuration files spell them. Pure. The project's one duration parser, for two grammars:

* `parse_duration`: Kubernetes' (`metav1.Duration`: Go's `time.ParseDuration`, e.g. `10m`, `1h30m`, `90s`), for
  the values Kueue reads (`waitForPodsReady.timeout`) and the custom timeouts Pulumi sends.
* `parse_short_duration`: gkecap's own files' (`30m`, `2d`, `90s`: one number and one unit of s, m, h, d, or a
  number of seconds), for the environment file's Vertex AI profiles and the simulator's workloads file.

Grammar of Go's time.ParseDuration (go/src/time/format.go): an optional sign, then one or more decimal numbers
each with a unit (ns, us, µs, μs, ms, s, m, h); `0` alone is allowed without a unit.
"""

from __future__ import annotations

import math
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


_SHORT_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_SHORT_WHOLE = re.compile(r"(\d+)([smhd]?)")  # whole seconds; a bare number is seconds
_SHORT_FRACTIONAL = re.compile(r"(\d+(?:\.\d+)?)([smhd])")


def parse_short_duration(value: object, *, example: str, whole: bool = False, maximum: int | None = None) -> float:
    """Seconds of `30m`, `2d`, `1.5h` or a number (`whole`: whole seconds only, and `1800` as text is seconds too);
    ValueError naming `example` ("e.g. 30m, 12h or 2d"), and `maximum` seconds where given."""
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a duration; write {example}")
    if isinstance(value, float) and whole and value.is_integer():
        value = int(value)
    if isinstance(value, int) or (isinstance(value, float) and not whole):
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(f"{value!r} is not a finite number; write {example}")
        if value < 0:
            raise ValueError(f"{value!r} is negative; a duration is 0 or more: write {example}")
        return _at_most(value if whole else float(value), value, maximum)
    match = (_SHORT_WHOLE if whole else _SHORT_FRACTIONAL).fullmatch(value.strip()) if isinstance(value, str) else None
    if match is None:
        raise ValueError(f"{value!r} is not a duration; write {example}")
    number = int(match[1]) if whole else float(match[1])
    return _at_most(number * _SHORT_UNITS[match[2] or "s"], value, maximum)


def _at_most(seconds: float, written: object, maximum: int | None) -> float:
    if maximum is not None and not seconds <= maximum:
        raise ValueError(f"{written!r} is too long; at most {maximum // 86400} days ({maximum} s)")
    return seconds
