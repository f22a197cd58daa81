"""Pydantic building blocks for the Kueue models: the base model and constrained field types.

Types mirror the CRD schemas (shared/kueue-crds; see KUEUE_VALIDATION.md for lines): strings and integers are
strict as the API server is (no "5" for an integer), except that an integral float is an integer, because Pulumi
sends every number as a double. Optional strings that Kueue's Go types mark `omitempty` treat "" as unset, as
every Go client (and Kueue's own tests) sends them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, GetCoreSchemaHandler, GetJsonSchemaHandler,
    PlainValidator, Strict, WithJsonSchema,
)
from pydantic.alias_generators import to_camel
from pydantic_core import PydanticCustomError, PydanticUseDefault, core_schema

from gkecap.components.k8s import names
from gkecap.components.k8s.quantity import QuantityError, parse_quantity

V1BETA1 = "kueue.x-k8s.io/v1beta1"
V1BETA2 = "kueue.x-k8s.io/v1beta2"
GROUP = "kueue.x-k8s.io"
# kueue.x-k8s.io/v1beta2 (and config.kueue.x-k8s.io/v1beta2) first shipped in Kueue v0.15.0. FACTS D [S2]
V1BETA2_SINCE = (0, 15, 0)

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1

# CRD pattern of label-key-format fields (Topology levels, PRC nodeSelector keys): no per-part length limits.
LABEL_KEY_PATTERN = re.compile(
    r"([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])"
)
KIND_PATTERN = re.compile(r"[a-z]([-a-z0-9]*[a-z0-9])?", re.IGNORECASE)  # CRD admissionchecks.yaml:211-213
RFC3339_PATTERN = re.compile(  # kube-openapi strfmt date-time: date, T, time, required zone
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})"
)


class KueueModel(BaseModel):
    """Base of every Kueue model: camelCase aliases, unknown fields rejected.

    `field_rules` maps a field's JSON name to the rule id of KUEUE_VALIDATION.md its schema errors belong to
    (or to a pair: rule of the list, rule of its items); `default_rule` covers the model's other fields.
    `field_hints` adds advice to an unknown-field error.
    """

    # A field's docstring is its description (the component package's schema, components/_schema_types.py).
    model_config = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=True,
                              use_attribute_docstrings=True)

    field_rules: ClassVar[dict[str, str | tuple[str, str]]] = {}
    default_rule: ClassVar[str | None] = None
    field_hints: ClassVar[dict[str, str]] = {}

    def to_dict(self) -> dict[str, Any]:
        """The JSON form Kubernetes expects: camelCase, only the fields that were set."""
        return self.model_dump(by_alias=True, exclude_none=True, exclude_unset=True)


def _omit_empty(value: Any) -> Any:
    if value == "":
        raise PydanticUseDefault()
    return value


OmitEmpty = BeforeValidator(_omit_empty)


def _integral(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _int_type(lo: int, hi: int) -> Any:
    return Annotated[int, Strict(), Field(ge=lo, le=hi), BeforeValidator(_integral)]


Int32 = _int_type(INT32_MIN, INT32_MAX)
Int64 = _int_type(INT64_MIN, INT64_MAX)


def short_repr(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit - 5]}...{text[-2:]}"


def custom_error(error_type: str, message: str, **ctx: Any) -> PydanticCustomError:
    """A pydantic error whose message is final text, with extra context (e.g. a duplicate's index) in ctx."""
    return PydanticCustomError(error_type, message, ctx or None)


def _checked_str(check, error_type: str, what: str):
    def validate(value: str) -> str:
        problems = check(value)
        if problems:
            raise custom_error(error_type, f"{short_repr(value)} is not a valid {what}: {'; '.join(problems)}")
        return value
    return AfterValidator(validate)


def _pattern_errors(pattern: re.Pattern[str], hint: str):
    def check(value: str) -> list[str]:
        return [] if pattern.fullmatch(value) else [hint]
    return check


def _schema(**extra: Any) -> Any:
    """JSON-schema facts of a field that a custom validator enforces (compared with the CRDs in the tests)."""
    return Field(json_schema_extra=extra)


# CRD patterns (shared/kueue-crds), as the validators below implement them; the tests prove both agree.
DNS1123_SUBDOMAIN_PATTERN = r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"
DNS1123_LABEL_PATTERN = r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"
LABEL_KEY_FORMAT_PATTERN = ("^" + LABEL_KEY_PATTERN.pattern + "$")
KIND_NAME_PATTERN = r"^(?i)[a-z]([-a-z0-9]*[a-z0-9])?$"

DnsSubdomain = Annotated[str, Strict(), Field(max_length=253), _schema(pattern=DNS1123_SUBDOMAIN_PATTERN),
                         _checked_str(names.dns1123_subdomain_errors, "dns_subdomain", "DNS-1123 subdomain")]
DnsLabel = Annotated[str, Strict(), Field(max_length=63), _schema(pattern=DNS1123_LABEL_PATTERN),
                     _checked_str(names.dns1123_label_errors, "dns_label", "DNS-1123 label")]


_LABEL_KEY_SCHEMA = _schema(pattern=LABEL_KEY_FORMAT_PATTERN)
_LABEL_KEY_CHECK = _checked_str(
    _pattern_errors(LABEL_KEY_PATTERN, "must be a label key such as 'cloud.google.com/gke-nodepool' (optional DNS "
                                       "prefix and '/', then a name)"),
    "label_key_format", "label-key-format name")
# Written out per length (not made by a function), so type checkers read them as types.
LabelKeyFormat316 = Annotated[str, Strict(), Field(min_length=1, max_length=316), _LABEL_KEY_SCHEMA, _LABEL_KEY_CHECK]
LabelKeyFormat317 = Annotated[str, Strict(), Field(min_length=1, max_length=317), _LABEL_KEY_SCHEMA, _LABEL_KEY_CHECK]


KindName = Annotated[str, Strict(), Field(max_length=63), _schema(pattern=KIND_NAME_PATTERN), _checked_str(
    _pattern_errors(KIND_PATTERN, "must start with a letter and contain only letters, digits and '-'"),
    "kind_name", "kind name")]
def _date_time_errors(value: str) -> list[str]:
    match = RFC3339_PATTERN.fullmatch(value)
    if match:
        year, month, day, hour, minute, second = (int(g) for g in match.groups()[:6])
        try:
            date(year, month, day)
        except ValueError:
            match = None
        else:
            match = match if hour <= 23 and minute <= 59 and second <= 59 else None
    return [] if match else ["must be an RFC 3339 date-time with a zone, like 2026-01-02T15:04:05Z"]


DateTime = Annotated[str, Strict(), _schema(format="date-time"), _checked_str(_date_time_errors, "date_time",
                                                                               "date-time")]


def _quantity(value: Any) -> int | str:
    try:
        return parse_quantity(value).raw
    except QuantityError as err:
        raise custom_error("quantity", str(err)) from None


QuantityValue = Annotated[int | str, PlainValidator(_quantity),
                          WithJsonSchema({"anyOf": [{"type": "integer"}, {"type": "string"}],
                                          "x-kubernetes-int-or-string": True})]


@dataclass(frozen=True)
class ListMap:
    """x-kubernetes-list-type: map -- items are unique by their key fields."""

    keys: tuple[str, ...]

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.no_info_after_validator_function(self._validate, handler(source))

    def __get_pydantic_json_schema__(self, schema: Any, handler: GetJsonSchemaHandler) -> dict[str, Any]:
        return {**handler(schema), "x-kubernetes-list-type": "map",
                "x-kubernetes-list-map-keys": [to_camel(k) for k in self.keys]}

    def _validate(self, items: list[Any]) -> list[Any]:
        seen: dict[tuple[Any, ...], int] = {}
        for index, item in enumerate(items):
            key = tuple(getattr(item, k) for k in self.keys)
            if key in seen:
                shown = ", ".join(f"{to_camel(k)}={v!r}" for k, v in zip(self.keys, key))
                by = ", ".join(to_camel(k) for k in self.keys)
                raise custom_error("list_map_duplicate", f"duplicate entry {shown} (also at index {seen[key]}); "
                                   f"entries of this list must be unique by {by}", index=index)
            seen[key] = index
        return items


def list_map(*keys: str) -> ListMap:
    return ListMap(keys)


class _ListSet:
    """x-kubernetes-list-type: set -- items are unique."""

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.no_info_after_validator_function(self._validate, handler(source))

    def __get_pydantic_json_schema__(self, schema: Any, handler: GetJsonSchemaHandler) -> dict[str, Any]:
        return {**handler(schema), "x-kubernetes-list-type": "set"}

    @staticmethod
    def _validate(items: list[Any]) -> list[Any]:
        seen: dict[Any, int] = {}
        for index, item in enumerate(items):
            if item in seen:
                raise custom_error("list_set_duplicate", f"duplicate value {short_repr(item)} (also at index "
                                   f"{seen[item]}); the list is a set", index=index)
            seen[item] = index
        return items


ListSet = _ListSet()

StopPolicy = Literal["None", "Hold", "HoldAndDrain"]
