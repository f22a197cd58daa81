"""validate_kueue_object: everything Kueue's API server would reject in a create of a kueue.x-k8s.io object.

Layers, in the API server's order: API-server object checks (served version, metadata), the CRD schema (our
typed models), the CRDs' CEL rules, Kueue's validating webhooks. The server stops at the first failing layer;
we report every layer, except that a webhook problem at the same path as a schema/CEL problem is dropped (it
is the same mistake: e.g. borrowingLimit without a cohort is both R-CQ-7 and R-CQ-6).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gkecap.components.k8s import names
from gkecap.components.kueue_api.cel_rules import CEL_CHECKS
from gkecap.components.kueue_api.fields import GROUP
from gkecap.components.kueue_api.objects import KINDS, NAMESPACED_KINDS, OBJECT_MODELS, SERVED_VERSIONS
from gkecap.components.kueue_api.schema_check import schema_problems
from gkecap.components.kueue_api.webhook_rules import WEBHOOK_CHECKS

# Cohort reuses ClusterQueue's resource-group models; its rules have their own ids (KUEUE_VALIDATION.md R-CO-*).
_COHORT_RULE_IDS = {"R-CQ-19": "R-CO-3", "R-CQ-20": "R-CO-3", "R-CQ-21": "R-CO-3"}


@dataclass(frozen=True)
class KueueViolation:
    """One reason Kueue's API server would reject the object: rule id, field path, message, layer."""

    rule: str
    path: str
    message: str
    layer: str = ""

    def __str__(self) -> str:
        return f"{self.path}: {self.message} [{self.rule}]"


def kueue_kind(obj: Any) -> tuple[str, str] | None:
    """(kind, version) when `obj` is a kueue.x-k8s.io object of a kind this package models, else None."""
    if not isinstance(obj, dict):
        return None
    api_version, kind = obj.get("apiVersion"), obj.get("kind")
    if not isinstance(api_version, str) or not isinstance(kind, str) or "/" not in api_version:
        return None
    group, version = api_version.split("/", 1)
    if group != GROUP or kind not in KINDS:
        return None
    return kind, version


def _metadata_problems(obj: dict[str, Any], kind: str, require_name: bool) -> list[tuple[str, str, str]]:
    metadata = obj.get("metadata")
    if metadata is None:
        metadata = {}
    if not isinstance(metadata, dict):
        return [("R-META-1", "metadata", f"metadata must be an object, got {type(metadata).__name__}")]
    problems = []
    name = metadata.get("name")
    if name is None or name == "":
        if require_name and not metadata.get("generateName"):
            problems.append(("R-META-1", "metadata.name", f"a {kind} needs metadata.name (or generateName)"))
    elif not isinstance(name, str):
        problems.append(("R-META-1", "metadata.name", f"name {name!r} is not a string"))
    else:
        for err in names.dns1123_subdomain_errors(name):
            problems.append(("R-META-1", "metadata.name", f"name {name!r} is invalid: {err}"))
    problems += [("R-META-2", path, message) for path, message in names.labels_errors(metadata.get("labels"),
                                                                                       "metadata.labels")]
    annotations = metadata.get("annotations")
    if isinstance(annotations, dict):
        for key in annotations:
            for err in names.qualified_name_errors(str(key)):
                problems.append(("R-META-2", f"metadata.annotations[{key}]",
                                 f"annotation key {key!r} is invalid: {err}"))
    namespace = metadata.get("namespace")
    if kind in NAMESPACED_KINDS and isinstance(namespace, str) and namespace:
        for err in names.dns1123_label_errors(namespace):
            problems.append(("R-META-3", "metadata.namespace", f"namespace {namespace!r} is invalid: {err}"))
    return problems


def validate_kueue_object(obj: Any, *, require_name: bool = True) -> list[KueueViolation]:
    """Violations of a kueue.x-k8s.io object (v1beta1 or v1beta2); [] for valid objects and for objects that
    are not Kueue kinds this package covers (other groups, Workload, ...).

    require_name=False accepts a missing metadata.name (Pulumi auto-names a CustomResource without one).
    """
    identified = kueue_kind(obj)
    if identified is None:
        return []
    kind, version = identified
    if version not in SERVED_VERSIONS:
        return [KueueViolation("R-API-1", "apiVersion", f"{obj['apiVersion']!r} is not served for {kind}; Kueue "
                               f"serves {', '.join(f'{GROUP}/{v}' for v in SERVED_VERSIONS)} (v1beta2 preferred)",
                               "apiserver")]
    found = [(p, "apiserver") for p in _metadata_problems(obj, kind, require_name)]
    found += [(p, "schema") for p in schema_problems(OBJECT_MODELS[(kind, version)], obj)]
    spec = obj.get("spec")
    if isinstance(spec, dict):
        if kind in CEL_CHECKS:
            found += [(p, "cel") for p in CEL_CHECKS[kind](spec, version)]
        if kind in WEBHOOK_CHECKS:
            early_paths = {path for (_, path, _), _ in found}
            found += [(p, "webhook") for p in WEBHOOK_CHECKS[kind](spec, version) if p[1] not in early_paths]
    renames = _COHORT_RULE_IDS if kind == "Cohort" else {}
    return [KueueViolation(renames.get(rule, rule), path, message, layer) for (rule, path, message), layer in found]
