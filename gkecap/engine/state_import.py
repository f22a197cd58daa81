"""Resources of a `pulumi stack export` file, as records the policy pack can analyze.

The export is `{"version": 3, "deployment": {"manifest": ..., "resources": [...]}}`; each resource has
`urn`, `type`, `custom`, `id`, `inputs`, `outputs`, `parent`, `dependencies`, `propertyDependencies`,
`provider`, `protect`, `retainOnDelete`, `external`, `aliases`, `customTimeouts`... (apitype.ResourceV3).
Secret values are ciphertext we cannot read: they become "[secret]".
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from gkecap.engine.resource_record import ResourceRecord
from gkecap.engine.struct_values import SECRET, SECRET_SIG, SIG_KEY


class StateError(ValueError):
    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


STDIN = "-"


def load_state(path: Path) -> tuple[list[ResourceRecord], str, str]:
    """(records, stack, project) of a stack export file; `-` reads it from stdin (`pulumi stack export | gkecap check --state -`)."""
    try:
        text = sys.stdin.read() if str(path) == STDIN else path.read_text(encoding="utf-8")
    except OSError as exc:
        raise StateError([f"{path}: cannot read: {exc.strerror}"]) from None
    except UnicodeDecodeError as exc:
        raise StateError([f"{'stdin' if str(path) == STDIN else path}: not UTF-8 text: {exc.reason}"]) from None
    if str(path) == STDIN:
        path = Path("stdin")
        if not text.strip():
            raise StateError(["--state -: stdin is empty; pipe `pulumi stack export` into it"])
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StateError([f"{path}: not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"]) from None
    return records_from_export(document, str(path))


def records_from_export(document: Any, source: str = "state") -> tuple[list[ResourceRecord], str, str]:
    if not isinstance(document, dict) or not isinstance(document.get("deployment"), dict):
        raise StateError([f"{source}: deployment: missing; expected the output of `pulumi stack export`"])
    resources = document["deployment"].get("resources")
    if resources is None:
        resources = []
    if not isinstance(resources, list):
        raise StateError([f"{source}: deployment.resources: must be a list, got {type(resources).__name__}"])
    records: list[ResourceRecord] = []
    problems: list[str] = []
    for index, resource in enumerate(resources):
        where = f"{source}: deployment.resources[{index}]"
        if not isinstance(resource, dict):
            problems.append(f"{where}: must be an object, got {type(resource).__name__}")
            continue
        urn, type_ = resource.get("urn"), resource.get("type")
        if not isinstance(urn, str) or not urn.startswith("urn:pulumi:") or urn.count("::") < 3:
            problems.append(f"{where}.urn: {urn!r} is not a Pulumi URN (urn:pulumi:<stack>::<project>::<type>::<name>)")
            continue
        if not isinstance(type_, str) or not type_:
            problems.append(f"{where}.type: missing")
            continue
        if resource.get("delete"):
            continue  # pending deletion: not part of the stack the engine analyzes
        records.append(_record(resource, urn, type_))
    if problems:
        raise StateError(problems)
    stack, project = ("stack", "project")
    if records:
        stack, project = records[0].urn[len("urn:pulumi:") :].split("::", 2)[:2]
    return records, stack, project


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
        inputs=_plain(resource.get("inputs") or {}),
        outputs=_plain(resource.get("outputs") or {}),
        external=bool(resource.get("external")),
    )


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        if value.get(SIG_KEY) == SECRET_SIG:
            return SECRET  # {"<sig>": "<secret sig>", "ciphertext": ...}: encrypted with the stack's key
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value
