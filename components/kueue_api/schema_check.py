"""Schema layer: validate an object against its typed model and turn pydantic errors into violations.

Each error's location is walked through the model classes to find the field path (camelCase, `[i]` for list
items, `[key]` for map entries) and the rule id (`field_rules` / `default_rule` of the models on the way).
"""

from __future__ import annotations

import types
import typing
from typing import Any, Iterator, Mapping, Union

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from gkecap.components.kueue_api.fields import KueueModel, short_repr

Problem = tuple[str, str, str]  # (rule, path, message)

_ATOMIC_TYPES = {str: "string", int: "integer", float: "number", bool: "boolean", list: "list", dict: "object"}


def _unwrap(tp: Any) -> Any:
    while True:
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            tp = typing.get_args(tp)[0]
        elif origin in (Union, types.UnionType):
            args = [a for a in typing.get_args(tp) if a is not type(None)]
            if len(args) != 1:
                return tp
            tp = args[0]
        else:
            return tp


def _alias_map(model: type[BaseModel]) -> dict[str, Any]:
    return {(info.alias or name): info.annotation for name, info in model.model_fields.items()}


def _walk(model: type[KueueModel], loc: tuple[Any, ...]) -> tuple[str, str | None, type[KueueModel] | None, str | None]:
    """(path, rule, last model, last field alias) for a pydantic error location."""
    path = ""
    rule = model.default_rule
    tp: Any = model
    owner: type[KueueModel] | None = model
    field: str | None = None
    item_rule: str | None = None
    for part in loc:
        current = _unwrap(tp)
        origin = typing.get_origin(current)
        if isinstance(current, type) and issubclass(current, KueueModel) and isinstance(part, str):
            owner, field = current, part
            found = current.field_rules.get(part, current.default_rule or rule)
            if isinstance(found, tuple):  # (rule of the list itself, rule of its items)
                rule, item_rule = found
            else:
                rule = found
            tp = _alias_map(current).get(part)
            path = f"{path}.{part}" if path else part
        elif origin is list and isinstance(part, int):
            tp = typing.get_args(current)[0]
            rule, item_rule = item_rule or rule, None
            path = f"{path}[{part}]"
        elif origin is dict and isinstance(part, str):
            if part == "[key]":
                continue
            tp = typing.get_args(current)[1]
            path = f"{path}[{part}]"
        else:
            path = f"{path}.{part}" if isinstance(part, str) else f"{path}[{part}]"
            tp = None
    return path, rule, owner, field


def _describe_type(value: Any) -> str:
    return _ATOMIC_TYPES.get(type(value), type(value).__name__)


def _message(err: Mapping[str, Any], owner: type[KueueModel] | None, field: str | None) -> str:
    kind, ctx, value = err["type"], err.get("ctx") or {}, err.get("input")
    shown = short_repr(value)
    if kind == "missing":
        return f"required field {field!r} is missing"
    if kind == "extra_forbidden":
        allowed = sorted(_alias_map(owner)) if owner else []
        hint = owner.field_hints.get(field, "") if owner and field else ""
        return (f"unknown field {field!r}" + (f" ({hint})" if hint else "")
                + f"; allowed here: {', '.join(allowed)}")
    if kind == "literal_error":
        return f"{shown} is not supported; allowed: {ctx.get('expected')}"
    if kind in ("too_long", "too_short"):
        bound = ctx.get("max_length", ctx.get("min_length"))
        word = "at most" if kind == "too_long" else "at least"
        count = len(value) if isinstance(value, (list, dict)) else ctx.get("actual_length")
        return f"has {count} entries; {word} {bound} allowed"
    if kind == "string_too_long":
        return f"{shown} has {len(str(value))} characters; at most {ctx['max_length']} allowed"
    if kind == "string_too_short":
        return f"{shown} is too short; at least {ctx['min_length']} character(s) required"
    if kind in ("greater_than_equal", "less_than_equal"):
        bound = f">= {ctx['ge']}" if "ge" in ctx else f"<= {ctx['le']}"
        return f"{shown} is out of range; it must be {bound}"
    if kind.startswith("int_"):
        return f"{shown} ({_describe_type(value)}) is not an integer; write a whole number"
    if kind.startswith("string_"):
        return f"{shown} ({_describe_type(value)}) is not a string"
    if kind in ("model_type", "model_attributes_type", "dict_type"):
        return f"{shown} ({_describe_type(value)}) is not an object"
    if kind == "list_type":
        return f"{shown} ({_describe_type(value)}) is not a list"
    return err["msg"]


def _errors(model: type[KueueModel], obj: Any) -> Iterator[ErrorDetails]:
    try:
        model.model_validate(obj)
    except ValidationError as exc:
        yield from exc.errors(include_url=False)


def schema_problems(model: type[KueueModel], obj: Any) -> list[Problem]:
    problems: list[Problem] = []
    for err in _errors(model, obj):
        path, rule, owner, field = _walk(model, tuple(err["loc"]))
        if err["type"] == "extra_forbidden":
            rule = "R-FIELD-1"
        elif err["type"] == "quantity" and not (owner and field in owner.field_rules):
            rule = "R-QTY-1"
        ctx = err.get("ctx") or {}
        if "index" in ctx:  # list-map / set duplicates point at the repeated item
            path = f"{path}[{ctx['index']}]"
        problems.append((rule or "R-SCHEMA-1", path, _message(err, owner, field)))
    return problems
