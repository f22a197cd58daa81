"""Defensive reads of raw (possibly malformed) Kubernetes object dicts, as the API server sees them after
defaulting: None and (for Go `omitempty` fields) "" mean unset; a value of the wrong type reads as unset,
because the schema layer already reports it.
"""

from __future__ import annotations

from typing import Any


def get_dict(node: Any, key: str) -> dict[str, Any] | None:
    value = node.get(key) if isinstance(node, dict) else None
    return value if isinstance(value, dict) else None


def get_list(node: Any, key: str) -> list[Any]:
    value = node.get(key) if isinstance(node, dict) else None
    return value if isinstance(value, list) else []


def get_str(node: Any, key: str, default: str | None = None, *, omitempty: bool = True) -> str | None:
    value = node.get(key) if isinstance(node, dict) else None
    if value is None or (omitempty and value == ""):
        return default
    return value if isinstance(value, str) else default


def has(node: Any, key: str) -> bool:
    """CEL has(): the field is present (null values are pruned by the API server)."""
    return isinstance(node, dict) and node.get(key) is not None
