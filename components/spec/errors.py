"""How the environment spec reports problems: `SpecError` (an `InvalidInput` of `Issue`s at YAML paths), and
pydantic's validation errors rewritten to say which value is wrong and what is allowed."""

from __future__ import annotations

import difflib
import re
import types
from typing import Annotated, Any, Mapping, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError

from gkecap.components.issues import InvalidInput, Issue, format_path

class SpecError(InvalidInput):
    """Every problem of an environment file, one line per issue (`path: message`)."""


def translate_validation_error(
    err: ValidationError, root: type[BaseModel], prefix: tuple[Any, ...] = ()
) -> list[Issue]:
    issues = []
    for error in err.errors(include_url=False):
        loc = tuple(part for part in error["loc"] if part != "[key]")
        issues.append(Issue(format_path(prefix + loc), _message(error, root, loc)))
    return issues


def _message(error: Mapping[str, Any], root: type[BaseModel], loc: tuple[Any, ...]) -> str:
    kind = error["type"]
    value = error.get("input")
    ctx = error.get("ctx") or {}
    if kind == "extra_forbidden":
        model = _model_at(root, loc[:-1])
        allowed = [f.alias or n for n, f in model.model_fields.items()] if model else []
        hint = difflib.get_close_matches(str(loc[-1]), allowed, n=1)
        did_you_mean = f"did you mean {hint[0]}? " if hint else ""
        return f"unknown key; {did_you_mean}allowed: {', '.join(allowed)}"
    if kind == "missing":
        return "required key is missing"
    if kind == "literal_error":
        allowed = re.findall(r"'([^']*)'", str(ctx.get("expected", "")))
        return f"{show(value)} is not allowed; allowed: {', '.join(allowed)}"
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return f"{show(value)} is not a whole number"
    if kind in ("float_type", "float_parsing"):
        return f"{show(value)} is not a number"
    if kind in ("bool_type", "bool_parsing"):
        return f"{show(value)} is not true or false"
    if kind == "string_type":
        return f"{show(value)} is not a string"
    if kind == "greater_than_equal":
        return f"{show(value)} is too small; must be at least {_number(ctx.get('ge'))}"
    if kind == "greater_than":
        return f"{show(value)} is too small; must be greater than {_number(ctx.get('gt'))}"
    if kind == "less_than_equal":
        return f"{show(value)} is too large; must be at most {_number(ctx.get('le'))}"
    if kind == "list_type":
        return f"expected a list, got {show(value)}"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        model = _model_at(root, loc)
        keys = f" with keys: {', '.join(f.alias or n for n, f in model.model_fields.items())}" if model else ""
        return f"expected a mapping{keys}; got {show(value)}"
    if kind in ("datetime_type", "datetime_parsing", "datetime_from_date_parsing", "datetime_object_invalid"):
        return f"{show(value)} is not a timestamp; write ISO 8601 in UTC, e.g. 2026-12-07T00:00:00Z"
    if kind == "string_too_long":
        return f"has {len(str(value))} characters; at most {ctx.get('max_length')}"
    if kind == "too_short":
        return f"must have at least {ctx.get('min_length')} item(s)"
    if kind == "too_long":
        return f"must have at most {ctx.get('max_length')} item(s)"
    if kind == "value_error":
        return str(ctx.get("error", error.get("msg")))
    return str(error.get("msg"))


def _number(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def show(value: Any) -> str:
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "null"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _unwrap(annotation: Any) -> Any:
    while True:
        origin = get_origin(annotation)
        if origin is Annotated:
            annotation = get_args(annotation)[0]
        elif origin is Union or origin is types.UnionType:  # Optional[X] and X | None
            options = [a for a in get_args(annotation) if a is not type(None)]
            annotation = options[0] if len(options) == 1 else annotation
            if len(options) != 1:
                return annotation
        else:
            return annotation


def _model_at(root: type[BaseModel], loc: tuple[Any, ...]) -> type[BaseModel] | None:
    """The model class at a location of the YAML tree (for listing allowed keys)."""
    current: Any = root
    for part in loc:
        current = _unwrap(current)
        origin = get_origin(current)
        if isinstance(part, int) and origin in (list, tuple):
            current = get_args(current)[0]
        elif origin is dict:
            current = get_args(current)[1]
        elif isinstance(current, type) and issubclass(current, BaseModel):
            field = next((f for n, f in current.model_fields.items() if part in (n, f.alias)), None)
            if field is None:
                return None
            current = field.annotation
        else:
            return None
    current = _unwrap(current)
    return current if isinstance(current, type) and issubclass(current, BaseModel) else None


def unique(issues: list[Issue]) -> list[Issue]:
    return list(dict.fromkeys(issues))


def under_any(path: str, prefixes: set[str]) -> bool:
    """Whether `path` is one of `prefixes` or inside one of them."""
    return any(path == p or path.startswith(p + ".") or path.startswith(p + "[") for p in prefixes)


_SECTION_ORDER = {
    name: rank
    for rank, name in enumerate(
        [
            "gkecap:environment",
            "config",
            "project",
            "region",
            "nodeServiceAccount",
            "cluster",
            "kueue",
            "nodePools",
            "reservations",
            "cohorts",
            "teams",
            "priorityClasses",
        ]
    )
}


def in_file_order(issues: list[Issue]) -> list[Issue]:
    """Sorted by section in file order, then entry index; stable within an entry."""

    def key(issue: Issue) -> tuple[int, int]:
        match = re.match(r"^([A-Za-z:]+)(?:\[(\d+)\])?", issue.path)
        if not match:
            return (len(_SECTION_ORDER), 0)
        index = int(match.group(2)) if match.group(2) is not None else 1 << 30
        return (_SECTION_ORDER.get(match.group(1), len(_SECTION_ORDER)), index)

    return sorted(issues, key=key)
