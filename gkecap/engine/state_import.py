"""Resources of a `pulumi stack export` file, as records the policy pack can analyze.

The export is `{"version": 3, "deployment": {"manifest": ..., "resources": [...]}}`; each resource has
`urn`, `type`, `custom`, `id`, `inputs`, `outputs`, `parent`, `dependencies`, `propertyDependencies`,
`provider`, `protect`, `retainOnDelete`, `external`, `aliases`, `customTimeouts`... (apitype.ResourceV3).
Secret values are ciphertext we cannot read: they show as "[secret]" and reach the policy pack as unknown
values, as at preview, so no rule reports a value it cannot see (before, the "[secret]" text failed
"must be an object" checks as mandatory violations).

A malformed export is an error naming the file and the field (`deployment.resources[3].dependencies: must be
a list of URNs, got int`), never an internal error: invalid UTF-8, nesting deeper than the JSON parser
allows, NaN/Infinity (not JSON: `pulumi stack export` never writes them) and numbers beyond a double.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

from google.protobuf import struct_pb2

from gkecap.components.spec.user_files import UserFileError, parse_json, read_text
from gkecap.engine.resource_record import ResourceRecord
from gkecap.engine.stack_names import name_problem
from gkecap.engine.struct_values import SECRET, SECRET_SIG, SIG_KEY, UNKNOWN_SENTINEL


class StateError(ValueError):
    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


STDIN = "-"


def load_state(path: Path) -> tuple[list[ResourceRecord], str, str]:
    """(records, stack, project) of a stack export file; `-` reads it from stdin (`pulumi stack export | gkecap check --state -`)."""
    try:
        if str(path) == STDIN and sys.stdin is None:  # `gkecap check --state - <&-`: no stdin at all
            raise StateError(["--state -: stdin is closed; pipe `pulumi stack export` into it"])
        text = sys.stdin.read() if str(path) == STDIN else read_text(path)
    except UserFileError as exc:
        raise StateError([f"{path}: {exc}"]) from None
    except OSError as exc:  # stdin
        raise StateError([f"{path}: cannot read: {exc.strerror}"]) from None
    except UnicodeDecodeError as exc:  # stdin
        raise StateError([f"stdin: not UTF-8 text (byte {exc.start}: {exc.reason})"]) from None
    if str(path) == STDIN:
        path = Path("stdin")
        if not text.strip():
            raise StateError(["--state -: stdin is empty; pipe `pulumi stack export` into it"])
    try:
        document = parse_json(text, parse_constant=_not_json, parse_float=_double, parse_int=_integer)
    except UserFileError as exc:
        raise StateError([f"{path}: {exc}"]) from None
    except _NotJson as exc:
        raise StateError([f"{path}: not valid JSON: {exc} is not a JSON number (`pulumi stack export` never writes it)"]) from None
    except _BeyondDouble as exc:
        raise StateError([f"{path}: {exc} is beyond a double (`pulumi stack export` writes numbers as 64-bit floats; "
                          "a policy would see infinity)"]) from None
    return records_from_export(document, str(path))


class _NotJson(ValueError):
    pass


def _not_json(constant: str) -> Any:
    raise _NotJson(constant)


class _BeyondDouble(ValueError):
    pass


_DOUBLE_LIMIT = 2**1024  # the first integer a float64 cannot hold (sys.float_info.max is just below)


def _double(text: str) -> float:
    value = float(text)
    if math.isinf(value):  # 1e400: Python reads it as infinity
        raise _BeyondDouble(text if len(text) <= 40 else text[:37] + "...")
    return value


def _integer(text: str) -> int:
    value = int(text)
    if abs(value) >= _DOUBLE_LIMIT:  # the pack's protobuf Value is a double: it could not carry it
        raise _BeyondDouble(text if len(text) <= 40 else text[:37] + "...")
    return value


# Versions of a stack export Pulumi reads (sdk/go/common/resource/stack/deployment.go, DeserializeUntypedDeployment:
# DeploymentSchemaVersionOldestSupported = 1 to apitype.DeploymentSchemaVersionCurrent = 3; anything else is "too
# old" or "too new"). `pulumi stack export` writes 3.
SUPPORTED_VERSIONS = (1, 2, 3)


def records_from_export(document: Any, source: str = "state") -> tuple[list[ResourceRecord], str, str]:
    if not isinstance(document, dict) or not isinstance(document.get("deployment"), dict):
        raise StateError([f"{source}: deployment: missing; expected the output of `pulumi stack export`"])
    version = document.get("version", 3)  # absent: read as the current one (hand-written exports omit it)
    if type(version) is not int or version not in SUPPORTED_VERSIONS:
        raise StateError([f"{source}: version: {json.dumps(version)[:40]} is not a stack export version Pulumi reads "
                          f"({', '.join(map(str, SUPPORTED_VERSIONS))}; `pulumi stack export` writes 3)"])
    resources = document["deployment"].get("resources")
    if resources is None:
        resources = []
    if not isinstance(resources, list):
        raise StateError([f"{source}: deployment.resources: must be a list, got {type(resources).__name__}"])
    records: list[ResourceRecord] = []
    problems: list[str] = []
    checked_names: dict[tuple[str, ...], list[str]] = {}
    for index, resource in enumerate(resources):
        where = f"{source}: deployment.resources[{index}]"
        if not isinstance(resource, dict):
            problems.append(f"{where}: must be an object, got {type(resource).__name__}")
            continue
        urn, type_ = resource.get("urn"), resource.get("type")
        if not isinstance(urn, str) or not urn.startswith("urn:pulumi:") or urn.count("::") < 3:
            problems.append(f"{where}.urn: {urn!r} is not a Pulumi URN (urn:pulumi:<stack>::<project>::<type>::<name>)")
            continue
        names = tuple(urn[len("urn:pulumi:") :].split("::", 2)[:2])
        if names not in checked_names:  # one stack and project per export, as a rule: checked once
            checked_names[names] = [p for p in (name_problem(names[0]), name_problem(names[1], "project")) if p]
        name_problems = checked_names[names]
        if name_problems:  # they name the output directory and print in the report: Pulumi's rule, as for --stack
            problems += [f"{where}.urn: {problem}" for problem in name_problems]
            continue
        if not isinstance(type_, str) or not type_:
            problems.append(f"{where}.type: missing")
            continue
        if resource.get("delete"):
            continue  # pending deletion: not part of the stack the engine analyzes
        field_problems = _field_problems(resource)
        if field_problems:
            problems += [f"{where}.{problem}" for problem in field_problems]
            continue
        try:
            records.append(_record(resource, urn, type_))
        except _BadValue as exc:
            problems.append(f"{where}.{exc}")
        except RecursionError:
            problems.append(f"{where}: nested too deeply to read")
    if problems:
        raise StateError(problems)
    stack, project = ("stack", "project")
    if records:
        stack, project = records[0].urn[len("urn:pulumi:") :].split("::", 2)[:2]
    return records, stack, project


_STRINGS = ("parent", "provider", "id", "deletedWith", "importID")
_STRING_LISTS = ("dependencies", "ignoreChanges", "additionalSecretOutputs", "replaceOnChanges")
_OBJECTS = ("inputs", "outputs", "propertyDependencies", "customTimeouts")


def _field_problems(resource: dict[str, Any]) -> list[str]:
    """`field: problem` for each field of a resource that does not have the shape of apitype.ResourceV3."""
    problems = []
    for key in _STRINGS:
        value = resource.get(key)
        if value is not None and not isinstance(value, str):
            problems.append(f"{key}: must be a string, got {_kind(value)}")
    for key in _STRING_LISTS:
        value = resource.get(key)
        if value is not None and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
            problems.append(f"{key}: must be a list of strings, got {_kind(value)}")
    for key in _OBJECTS:
        value = resource.get(key)
        if value is not None and not isinstance(value, dict):
            problems.append(f"{key}: must be an object, got {_kind(value)}")
    for key, urns in (resource.get("propertyDependencies") or {}).items() if isinstance(resource.get("propertyDependencies"), dict) else ():
        if urns is not None and not (isinstance(urns, list) and all(isinstance(u, str) for u in urns)):
            problems.append(f"propertyDependencies.{key}: must be a list of URNs, got {_kind(urns)}")
    aliases = resource.get("aliases")
    if aliases is not None and not (isinstance(aliases, list) and all(isinstance(a, (str, dict)) for a in aliases)):
        problems.append(f"aliases: must be a list of URNs or alias objects, got {_kind(aliases)}")
    return problems


def _kind(value: Any) -> str:
    return "a list with other values" if isinstance(value, list) else type(value).__name__


class _BadValue(ValueError):
    """A property value a Pulumi state cannot hold; the text is `path: problem`."""


def _record(resource: dict[str, Any], urn: str, type_: str) -> ResourceRecord:
    dbr = resource.get("deleteBeforeReplace")
    options = {
        "custom": bool(resource.get("custom")),
        "protect": bool(resource.get("protect")),
        "ignoreChanges": list(resource.get("ignoreChanges") or ()),
        "deleteBeforeReplace": dbr if isinstance(dbr, bool) else None,
        "retainOnDelete": resource.get("retainOnDelete"),
        "aliases": [a if isinstance(a, str) else a.get("urn", "") for a in resource.get("aliases") or ()],
        "additionalSecretOutputs": list(resource.get("additionalSecretOutputs") or ()),
        "replaceOnChanges": list(resource.get("replaceOnChanges") or ()),
        "customTimeouts": resource.get("customTimeouts") or None,
        "deletedWith": resource.get("deletedWith") or None,
        "provider": resource.get("provider") or None,
        "importId": resource.get("importID") or None,
    }
    if resource.get("external"):
        options["external"] = True
    plain_inputs, inputs_struct = _properties(resource.get("inputs") or {}, "inputs")
    plain_outputs, outputs_struct = _properties(resource.get("outputs") or {}, "outputs")
    return ResourceRecord(
        urn=urn,
        type=type_,
        name=urn.split("::", 3)[3],
        custom=bool(resource.get("custom")),
        parent=resource.get("parent") or None,
        dependencies=tuple(resource.get("dependencies") or ()),
        property_dependencies={k: tuple(v or ()) for k, v in (resource.get("propertyDependencies") or {}).items()},
        provider=resource.get("provider") or None,
        id=resource.get("id") or None,
        options=options,
        inputs=plain_inputs,
        inputs_struct=inputs_struct,
        outputs=plain_outputs,
        outputs_struct=outputs_struct,
        external=bool(resource.get("external")),
    )


def _plain(value: Any, secret: Any = SECRET, found: list[bool] | None = None) -> Any:
    """Plain data of a state value: a secret becomes `secret` (noted in `found`); integral floats become int."""
    # Runs for every value of every resource (20,000-resource exports): exact type checks, most common first.
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return value
    if kind is dict:
        if value.get(SIG_KEY) == SECRET_SIG:
            if found is not None:
                found.append(True)
            return secret  # {"<sig>": "<secret sig>", "ciphertext": ...}: encrypted with the stack's key
        return {k: _plain(v, secret, found) for k, v in value.items()}
    if kind is list:
        return [_plain(v, secret, found) for v in value]
    if kind is float:
        return int(value) if value.is_integer() else value
    if kind is int and (value > _MAX_DOUBLE or value < -_MAX_DOUBLE):
        raise _BadValue(value)
    return value


_MAX_DOUBLE = int(sys.float_info.max)


def _properties(data: dict[str, Any], field: str) -> tuple[dict[str, Any], struct_pb2.Struct | None]:
    """(plain data, wire form) of a resource's inputs or outputs. The wire form is built here only when the data
    holds a secret: the pack gets it as an unknown value, as at preview (otherwise the record builds it)."""
    secrets: list[bool] = []
    try:
        plain = _plain(data, SECRET, secrets)
    except _BadValue as exc:
        raise _BadValue(f"{field}{_path_of(data, exc.args[0])}: {str(exc.args[0])[:20]}... is beyond any number Pulumi "
                        "stores (a double)") from None
    if not secrets:
        return plain, None
    struct = struct_pb2.Struct()
    struct.update(_plain(data, UNKNOWN_SENTINEL))
    return plain, struct


def _path_of(value: Any, target: Any) -> str:
    """`.a[2].b` where `target` (by identity) sits in `value`; found only for an error message."""
    if value is target:
        return ""
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found = _path_of(item, target)
        if found is not None:
            return (f".{key}" if isinstance(key, str) else f"[{key}]") + found
    return None  # type: ignore[return-value]
