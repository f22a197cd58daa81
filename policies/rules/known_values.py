"""Reading resource properties that may be missing, mistyped or unknown during preview.

Every accessor returns None unless the value is known and has the expected type, so a rule only
judges what it can see: a value the engine cannot know yet (`UNKNOWN`) is never a violation.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from gkecap.policies.resource_view import is_unknown

_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)s\s*$")
_INT_TEXT = re.compile(r"^\s*[+-]?\d+\s*$")


def at(value: Any, path: str) -> Any:
    """`value` at a dotted path (list indexes as digits); None when absent, UNKNOWN when unknown."""
    for part in path.split("."):
        if is_unknown(value):
            return value
        if isinstance(value, Mapping):
            value = value.get(part)
        elif isinstance(value, list) and part.isascii() and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return None
    return value


_LEAVES = frozenset({str, int, float, bool, type(None)})


def has_unknown(value: Any) -> bool:
    """True when the value or anything inside it is unknown during preview."""
    # Rules ask this of every Kueue object of a stack: exact type checks first, and no call per scalar.
    if is_unknown(value):
        return True
    kind = type(value)
    if kind is list:
        items = value
    elif kind is dict or (kind not in _LEAVES and isinstance(value, Mapping)):
        items = value.values()
    else:
        return False
    for item in items:
        if type(item) not in _LEAVES and has_unknown(item):
            return True
    return False


def known_str(value: Any) -> str | None:
    return value if isinstance(value, str) and not is_unknown(value) else None


def known_bool(value: Any) -> bool | None:
    return value if isinstance(value, bool) else None


def known_int(value: Any) -> int | None:
    """An integral number, also an int64 sent as a string ("8") as some providers do."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and _INT_TEXT.match(value):
        return int(value)
    return None


def known_list(value: Any) -> list | None:
    """A list whose every element is known (partially unknown lists are not judged)."""
    if isinstance(value, list) and not has_unknown(value):
        return value
    return None


def known_mapping(value: Any) -> Mapping | None:
    return value if isinstance(value, Mapping) else None


def duration_seconds(value: Any) -> float | None:
    """Seconds of a protobuf JSON duration such as "604800s" (the form maxRunDuration takes)."""
    text = known_str(value)
    if text is None:
        return None
    match = _DURATION.match(text)
    return float(match.group(1)) if match else None
