"""Validate objects against the REAL Kueue CRDs in <repo>/../shared/kueue-crds (test data, never copied).

`validate_against_crds(obj)` does what the API server does on a create with the CRD's
openAPIV3Schema: prune nulls, apply defaults, check the schema (jsonschema, with OpenAPI v3 and
x-kubernetes-* list semantics), then evaluate every x-kubernetes-validations CEL rule at its node
with cel-python (self = the node; transition rules on oldSelf are skipped: a create has no old object).
Known formats are checked (date-time, as kube-openapi's strfmt does). It also checks metadata.name
as the API server does for custom resources (DNS-1123 subdomain), and, with strict=True (kubectl's default field validation), reports unknown fields.

Use `requires_crds` on tests: they skip with a clear reason where ../shared is absent (a user's clone).
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

import celpy
import jsonschema
import pytest
import yaml

REPO_ROOT = Path(__file__).resolve().parents[3]  # tests/support/testkit -> the repository
CRD_DIR = REPO_ROOT.parent / "shared" / "kueue-crds"
GROUP = "kueue.x-k8s.io"



def shared_skip_reason(what: str) -> str:
    """One line for a test skipped in a clone without ../shared: what it needs, and that CI runs it."""
    return f"needs {what} in ../shared beside the repository (reference data, not shipped); CI runs this test"


requires_crds = pytest.mark.skipif(not CRD_DIR.is_dir(), reason=shared_skip_reason("the real Kueue CRDs (kueue-crds/)"))

_INT_BOUNDS = {"int32": (-(2**31), 2**31 - 1), "int64": (-(2**63), 2**63 - 1)}
_DNS_SUBDOMAIN = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*")


@dataclass(frozen=True)
class CrdError:
    path: str
    message: str
    layer: str  # "schema", "cel" or "apiserver"
    rule: str = ""  # the CEL rule text, or the schema keyword

    def __str__(self) -> str:
        return f"{self.path or '<root>'}: {self.message}"


def crds_available() -> bool:
    return CRD_DIR.is_dir()


@lru_cache(maxsize=None)
def _crds() -> dict[tuple[str, str], dict[str, Any]]:
    schemas: dict[tuple[str, str], dict[str, Any]] = {}
    for path in sorted(CRD_DIR.glob("*.yaml")):
        crd = yaml.safe_load(path.read_text())
        kind = crd["spec"]["names"]["kind"]
        for version in crd["spec"]["versions"]:
            if version.get("served"):
                schemas[(kind, version["name"])] = version["schema"]["openAPIV3Schema"]
    return schemas


def crd_schema(kind: str, version: str) -> dict[str, Any]:
    """The openAPIV3Schema of a served (kind, version), e.g. ("ClusterQueue", "v1beta2")."""
    return _crds()[(kind, version)]


def served_kinds() -> list[tuple[str, str]]:
    return sorted(_crds())


# --- API-server preparation: prune nulls, apply defaults ------------------------------------------------------

def _prune_nulls(node: Any, schema: dict[str, Any]) -> Any:
    if isinstance(node, dict):
        props = schema.get("properties")
        extra = schema.get("additionalProperties") if isinstance(schema.get("additionalProperties"), dict) else None
        out = {}
        for key, value in node.items():
            sub = (props or {}).get(key) if props else extra
            if value is None and not (sub or {}).get("nullable"):
                continue
            out[key] = _prune_nulls(value, sub or {})
        return out
    if isinstance(node, list) and isinstance(schema.get("items"), dict):
        return [_prune_nulls(item, schema["items"]) for item in node]
    return node


def _apply_defaults(node: Any, schema: dict[str, Any]) -> None:
    if isinstance(node, dict):
        for key, sub in (schema.get("properties") or {}).items():
            if key not in node and "default" in sub:
                node[key] = copy.deepcopy(sub["default"])
            if key in node:
                _apply_defaults(node[key], sub)
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict) and not schema.get("properties"):
            for value in node.values():
                _apply_defaults(value, extra)
    elif isinstance(node, list) and isinstance(schema.get("items"), dict):
        for item in node:
            _apply_defaults(item, schema["items"])


# --- schema: OpenAPI v3 -> JSON Schema -------------------------------------------------------------------------

def _go_pattern(pattern: str) -> str:
    # Go's RE2 allows an inline flag after '^'; Python 3.11 needs it first. Go's '$' is the end of text.
    if pattern.startswith("^(?i)"):
        pattern = "(?i)^" + pattern[len("^(?i)"):]
    if pattern.endswith("$") and not pattern.endswith("\\$"):
        pattern = pattern[:-1] + r"\Z"
    return pattern


def _to_json_schema(schema: Any) -> Any:
    if isinstance(schema, list):
        return [_to_json_schema(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key.startswith("x-kubernetes-") or key in ("description", "default", "nullable", "example"):
            continue
        if key == "pattern":
            out[key] = _go_pattern(value)
        elif key in ("properties",):
            out[key] = {name: _to_json_schema(sub) for name, sub in value.items()}
        else:
            out[key] = _to_json_schema(value)
    if schema.get("nullable") and "type" in out:
        out["type"] = [out["type"], "null"]
    if schema.get("type") == "integer" and schema.get("format") in _INT_BOUNDS:
        lo, hi = _INT_BOUNDS[schema["format"]]
        out.setdefault("minimum", lo)
        out.setdefault("maximum", hi)
    return out


_FORMATS = jsonschema.FormatChecker(formats=())


@_FORMATS.checks("date-time")
def _is_date_time(value: object) -> bool:
    """kube-openapi strfmt IsDateTime: an RFC 3339 date, 'T', time and a required zone (Z or +hh:mm)."""
    if not isinstance(value, str):
        return True
    date, sep, rest = value.partition("T") if "T" in value else value.partition("t")
    if not sep or not re.fullmatch(r"[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?([zZ]|[+-][0-9]{2}:[0-9]{2})", rest):
        return False
    try:
        datetime.fromisoformat(f"{date}T{rest.upper().replace('Z', '+00:00')}")
    except ValueError:
        return False
    return True


@lru_cache(maxsize=None)
def _validator(kind: str, version: str) -> jsonschema.Draft7Validator:
    return jsonschema.Draft7Validator(_to_json_schema(crd_schema(kind, version)), format_checker=_FORMATS)


def _json_path(parts: Any) -> str:
    path = ""
    for part in parts:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path


def _schema_errors(obj: dict[str, Any], kind: str, version: str) -> list[CrdError]:
    return [CrdError(_json_path(err.absolute_path), err.message, "schema", err.validator)
            for err in _validator(kind, version).iter_errors(obj)]


def _walk(node: Any, schema: dict[str, Any], path: str) -> Iterator[tuple[Any, dict[str, Any], str]]:
    """Every (node, schema, path) pair of an object, depth first."""
    yield node, schema, path
    if isinstance(node, dict):
        props = schema.get("properties")
        extra = schema.get("additionalProperties")
        for key, value in node.items():
            if props is not None and key in props:
                yield from _walk(value, props[key], f"{path}.{key}" if path else key)
            elif props is None and isinstance(extra, dict):
                yield from _walk(value, extra, f"{path}[{key}]")
    elif isinstance(node, list) and isinstance(schema.get("items"), dict):
        for i, item in enumerate(node):
            yield from _walk(item, schema["items"], f"{path}[{i}]")


def _structural_errors(obj: dict[str, Any], schema: dict[str, Any], strict: bool) -> list[CrdError]:
    errors = []
    for node, sub, path in _walk(obj, schema, ""):
        if isinstance(node, list):
            list_type = sub.get("x-kubernetes-list-type")
            if list_type == "map":
                keys = sub.get("x-kubernetes-list-map-keys", [])
                seen: set[str] = set()
                for i, item in enumerate(node):
                    key = repr(tuple(item.get(k) for k in keys)) if isinstance(item, dict) else repr(item)
                    if key in seen:
                        errors.append(CrdError(f"{path}[{i}]", f"Duplicate value: {key}", "schema", "list-map"))
                    seen.add(key)
            elif list_type == "set":
                seen_items: list[Any] = []
                for i, item in enumerate(node):
                    if item in seen_items:
                        errors.append(CrdError(f"{path}[{i}]", f"Duplicate value: {item!r}", "schema", "list-set"))
                    seen_items.append(item)
        if strict and isinstance(node, dict) and sub.get("properties") is not None \
                and not sub.get("x-kubernetes-preserve-unknown-fields") and path != "metadata":
            for key in node:
                if key not in sub["properties"]:
                    errors.append(CrdError(f"{path}.{key}" if path else key, "unknown field", "schema",
                                           "unknown-field"))
    return errors


# --- CEL -------------------------------------------------------------------------------------------------------

_CEL = celpy.Environment()  # created once: compiling is the slow part, so programs are cached per rule
_PROGRAMS: dict[str, Any] = {}


def _program(rule: str) -> Any:
    program = _PROGRAMS.get(rule)
    if program is None:
        program = _PROGRAMS[rule] = _CEL.program(_CEL.compile(rule))
    return program


def _cel_errors(obj: dict[str, Any], schema: dict[str, Any]) -> list[CrdError]:
    errors = []
    for node, sub, path in _walk(obj, schema, ""):
        for validation in sub.get("x-kubernetes-validations") or []:
            rule = validation["rule"]
            if re.search(r"\boldSelf\b", rule):
                continue  # transition rule: only evaluated on update
            message = validation.get("message") or f"failed rule: {rule}"
            try:
                result = _program(rule).evaluate({"self": celpy.json_to_cel(node)})
            except celpy.CELEvalError as err:
                errors.append(CrdError(path, f"{message} (evaluation error: {err.args[0] if err.args else err})",
                                       "cel", rule))
                continue
            if isinstance(result, celpy.CELEvalError) or not bool(result):
                errors.append(CrdError(path, message, "cel", rule))
    return errors


def _metadata_errors(obj: dict[str, Any]) -> list[CrdError]:
    metadata = obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}
    name = metadata.get("name")
    if not name:
        return [] if metadata.get("generateName") else [
            CrdError("metadata.name", "name or generateName is required", "apiserver")]
    if not isinstance(name, str) or len(name) > 253 or not _DNS_SUBDOMAIN.fullmatch(name):
        return [CrdError("metadata.name", f"Invalid value: {name!r}: a lowercase RFC 1123 subdomain", "apiserver")]
    return []


def validate_against_crds(obj: dict[str, Any], *, strict: bool = True) -> list[CrdError]:
    """Problems the API server would find creating `obj` with the real Kueue CRDs ([] when accepted).

    Webhook checks are not included: they are Kueue's Go code, not part of the CRDs.
    """
    api_version, kind = obj.get("apiVersion", ""), obj.get("kind", "")
    group, _, version = str(api_version).partition("/")
    if group != GROUP:
        return [CrdError("apiVersion", f"{api_version!r} is not in group {GROUP}", "apiserver")]
    if (kind, version) not in _crds():
        return [CrdError("apiVersion", f"no served CRD version for {kind} {api_version}", "apiserver")]
    schema = crd_schema(kind, version)
    prepared = _prune_nulls(copy.deepcopy(obj), schema)
    _apply_defaults(prepared, schema)
    errors = _metadata_errors(prepared)
    errors += _schema_errors(prepared, kind, version)
    errors += _structural_errors(prepared, schema, strict)
    if not errors:  # the API server runs CEL on schema-valid objects
        errors += _cel_errors(prepared, schema)
    else:
        errors += [e for e in _cel_errors(prepared, schema) if "evaluation error" not in e.message]
    return errors
