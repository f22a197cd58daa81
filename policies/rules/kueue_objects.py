"""Kueue objects of any stack (CustomResources of kueue.x-k8s.io, v1beta1 or v1beta2).

kueue-object-valid: what Kueue's API server would reject (OpenAPI schema, the CRDs' CEL rules, Kueue's
webhooks; shared/reference/KUEUE_VALIDATION.md), found by `gkecap.components.kueue_api.validate_kueue_object`, the
code our own Kueue objects are built and tested with, so `pulumi up` never fails half-way.
kueue-references: names one object uses that no object of the stack defines (they may live elsewhere).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from gkecap.components.kueue_api import GROUP, references, validate_kueue_object
from gkecap.policies.resource_view import ResourceView, is_unknown
from gkecap.policies.rules.known_values import at, has_unknown
from gkecap.policies.rules.kueue_props import display_name, kueue_type

_PATH_PART = re.compile(r"[^.\[\]]+")


def _plain(value: Any, path: tuple[str, ...], unknown_at: list[tuple[str, ...]]) -> Any:
    """A copy with plain dicts/lists, unknown values dropped and their paths recorded."""
    if isinstance(value, Mapping):
        out = {}
        for key, item in value.items():
            if is_unknown(item):
                unknown_at.append(path + (str(key),))
                continue
            out[key] = _plain(item, path + (str(key),), unknown_at)
        return out
    if isinstance(value, list):
        items = []
        for index, item in enumerate(value):
            if is_unknown(item):
                unknown_at.append(path + (str(index),))
                continue
            items.append(_plain(item, path + (str(index),), unknown_at))
        return items
    return value


def _parts(path: str) -> tuple[str, ...]:
    return tuple(_PATH_PART.findall(path or ""))


def _touches(path: tuple[str, ...], unknown: tuple[str, ...]) -> bool:
    """The violation is about an unknown value, something inside it, or an object that holds it."""
    shorter = min(len(path), len(unknown))
    return path[:shorter] == unknown[:shorter]


def kueue_object_problems(resource: ResourceView) -> list[tuple[str, str, str]]:
    """(rule, path, message) for every Kueue violation that does not depend on a value unknown at preview."""
    found = kueue_type(resource.type)
    if found is None:
        return []
    version, kind = found
    unknown_at: list[tuple[str, ...]] = []
    obj = _plain(resource.props, (), unknown_at)
    # The type token is what the engine creates; the body may omit or repeat apiVersion/kind.
    obj.setdefault("apiVersion", f"kueue.x-k8s.io/{version}")
    obj.setdefault("kind", kind)
    problems = []
    try:
        # Pulumi auto-names a CustomResource without metadata.name, so a missing name is not a mistake.
        violations = validate_kueue_object(obj, require_name=False)
    except Exception as err:  # noqa: BLE001 -- a validator crash must not take the rest of the pack down
        return [("R-SCHEMA", "", f"could not be validated ({type(err).__name__}: {err}); the object is most likely "
                 "malformed: compare every field with the Kueue CRD")]
    for violation in violations:
        parts = _parts(violation.path)
        if any(_touches(parts, u) for u in unknown_at):
            continue
        problems.append((violation.rule, violation.path, violation.message))
    return problems


def check_kueue_object_valid(resource: ResourceView, config: dict) -> list[str]:
    """kueue-object-valid: the object passes Kueue's schema, CEL and webhook validation."""
    found = kueue_type(resource.type)
    if found is None:
        return []
    _, kind = found
    name = display_name(resource)
    return [
        f"{kind} {name!r}: {path or '(object)'}: {message} [{rule}, KUEUE_VALIDATION.md]. Kueue's API server "
        "would reject this object; fix the field as described."
        for rule, path, message in kueue_object_problems(resource)
    ]


def check_kueue_references(resources: list[ResourceView], config: dict) -> list[tuple[str | None, str]]:
    """kueue-references: flavors, ClusterQueues, admission checks, PRCs, topologies a Kueue object names exist."""
    defined: dict[str, set[str]] = {}
    unsure: set[str] = set()  # kinds with an object whose name is unknown: any reference might be to it
    kueue = [(r, typed) for r in resources if (typed := kueue_type(r.type)) is not None]  # (version, kind)
    for resource, (version, kind) in kueue:
        name = at(resource.props, "metadata.name")
        if isinstance(name, str):
            defined.setdefault(kind, set()).add(name)
        else:
            unsure.add(kind)
    found: list[tuple[str | None, str]] = []
    for resource, (version, kind) in kueue:
        # A copy to add apiVersion/kind to: shallow when nothing is unknown (no value to drop), which is most.
        obj = _plain(resource.props, (), []) if has_unknown(resource.props) else dict(resource.props)
        obj.setdefault("apiVersion", f"{GROUP}/{version}")
        obj.setdefault("kind", kind)
        for ref in references(obj):
            if not ref.must_exist or ref.api_group != GROUP or ref.kind in unsure:
                continue
            if ref.name in defined.get(ref.kind, set()):
                continue
            found.append((resource.urn, (
                f"{kind} {display_name(resource)!r}: {ref.path} names {ref.kind} {ref.name!r}, which is not in this "
                f"stack; Kueue keeps the {kind} inactive until it exists. Create it here, or make sure another "
                "stack does (then ignore this)."
            )))
    return found
