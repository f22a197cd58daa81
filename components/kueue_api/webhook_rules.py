"""Kueue's validating webhooks (pkg/webhooks, Kueue ff69552e79), re-implemented on raw object dicts.

Only ClusterQueue, Cohort and ResourceFlavor have one. The webhook sees v1beta2 objects: a v1beta1 object is
converted first (cohort -> cohortName; admissionChecks -> admissionChecksStrategy, winning over it), so both
versions get the same checks. Quantities that do not parse are skipped here (the schema layer reports them).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable

from gkecap.components.k8s import names
from gkecap.components.kueue_api.access import get_dict, get_list, get_str, has
from gkecap.components.k8s.quantity import QuantityError, parse_quantity

Problem = tuple[str, str, str]  # (rule, path, message)

MAX_TOTAL_FLAVORS = 256  # clusterqueue_webhook.go:187-198 (R-CQ-13)
MAX_TOTAL_RESOURCES = 256  # :200-211 (R-CQ-14)
MAX_FLAVOR_RESOURCES_PER_GROUP = 512  # :213-229 (R-CQ-15)
MIN_NONZERO_WEIGHT = Fraction(1, 10**9)  # pkg/webhooks/common.go:43-60: 0 < weight <= 1n collapses (R-CQ-12)


def _value(raw: Any) -> Fraction | None:
    if raw is None:
        return None
    try:
        return parse_quantity(raw).value
    except QuantityError:
        return None


def _resource_groups(spec: dict[str, Any], *, has_parent: bool, parent_field: str, is_cohort: bool,
                     rules: dict[str, str]) -> list[Problem]:
    """validateResourceGroups, clusterqueue_webhook.go:302-356 (R-CQ-1..6, R-CQ-8; Cohort: R-CO-2)."""
    problems: list[Problem] = []
    seen_resources: set[str] = set()
    seen_flavors: set[str] = set()
    for i, group in enumerate(get_list(spec, "resourceGroups")):
        group_path = f"spec.resourceGroups[{i}]"
        covered = get_list(group, "coveredResources")
        for j, name in enumerate(covered):
            if not isinstance(name, str):
                continue
            path = f"{group_path}.coveredResources[{j}]"
            for err in names.qualified_name_errors(name):
                problems.append((rules["name"], path, f"resource name {name!r} is invalid: {err}; resource names "
                                 f"are label keys such as 'cpu', 'memory' or 'nvidia.com/gpu'"))
            if name in seen_resources:
                problems.append((rules["dup_resource"], path, f"resource {name!r} is already covered by another "
                                 f"resourceGroup; each resource may appear in only one resourceGroup"))
            seen_resources.add(name)
        for j, flavor in enumerate(get_list(group, "flavors")):
            flavor_path = f"{group_path}.flavors[{j}]"
            for k, quota in enumerate(get_list(flavor, "resources")):
                if k >= len(covered):
                    break
                if not isinstance(quota, dict):
                    continue
                path = f"{flavor_path}.resources[{k}]"
                problems += _quota(quota, covered[k], path, has_parent=has_parent, parent_field=parent_field,
                                   is_cohort=is_cohort, rules=rules)
            name = flavor.get("name") if isinstance(flavor, dict) else None
            if isinstance(name, str):
                if name in seen_flavors:
                    problems.append((rules["dup_flavor"], f"{flavor_path}.name", f"flavor {name!r} already appears "
                                     f"in another resourceGroup; each flavor may appear in only one resourceGroup"))
                seen_flavors.add(name)
    return problems


def _quota(quota: dict[str, Any], covered: Any, path: str, *, has_parent: bool, parent_field: str, is_cohort: bool,
           rules: dict[str, str]) -> list[Problem]:
    """validateFlavorQuotas, clusterqueue_webhook.go:330-389."""
    problems: list[Problem] = []
    name = quota.get("name")
    if name != covered:
        problems.append((rules["order"], f"{path}.name", f"resource {name!r} must match coveredResources entry "
                         f"{covered!r}: a flavor lists its resources in the order of coveredResources"))
    nominal = _value(quota.get("nominalQuota"))
    if nominal is not None and nominal < 0:
        problems.append((rules["nominal"], f"{path}.nominalQuota",
                         f"nominalQuota {quota['nominalQuota']!r} must be greater than or equal to 0"))
    owner = "Cohort" if is_cohort else "ClusterQueue"
    parent = "parent" if is_cohort else "cohort"
    for field, rule in (("borrowingLimit", rules["borrowing"]), ("lendingLimit", rules["lending"])):
        if not has(quota, field):
            continue
        raw = quota[field]
        value = _value(raw)
        if value is not None and value < 0:
            problems.append((rule, f"{path}.{field}", f"{field} {raw!r} must be greater than or equal to 0"))
        if not has_parent:
            problems.append((rule, f"{path}.{field}", f"{field} {raw!r} must be nil when {parent} is empty: a {owner} "
                             f"borrows and lends only with spec.{parent_field} set"))
        if field == "lendingLimit" and not is_cohort and value is not None and nominal is not None and value > nominal:
            problems.append((rule, f"{path}.{field}", f"lendingLimit {raw!r} must be less than or equal to the "
                             f"nominalQuota {quota.get('nominalQuota')!r}"))
    return problems


def _fair_sharing(spec: dict[str, Any], rule: str) -> list[Problem]:
    """validateFairSharing, pkg/webhooks/common.go:43-60 (R-CQ-12, R-CO-1)."""
    raw = (get_dict(spec, "fairSharing") or {}).get("weight")
    weight = _value(raw)
    if weight is None:
        return []
    if weight < 0:
        return [(rule, "spec.fairSharing.weight", f"weight {raw!r} must be greater than or equal to 0")]
    if 0 < weight <= MIN_NONZERO_WEIGHT:
        return [(rule, "spec.fairSharing.weight", f"weight {raw!r} is too small: when not 0, weight must be greater "
                 f"than 1n (10^-9), e.g. '2n', '0.5' or '1'")]
    return []


_CQ_RULES = {"name": "R-CQ-1", "dup_resource": "R-CQ-2", "dup_flavor": "R-CQ-3", "order": "R-CQ-4",
             "nominal": "R-CQ-5", "borrowing": "R-CQ-6", "lending": "R-CQ-8"}
_COHORT_RULES = dict.fromkeys(_CQ_RULES, "R-CO-2")


def admission_check_rules(spec: dict[str, Any], version: str) -> list[dict[str, Any]]:
    """The admissionChecksStrategy rules the webhook sees (v1beta1 admissionChecks win after conversion)."""
    if version == "v1beta1" and [n for n in get_list(spec, "admissionChecks") if n]:
        return [{"name": n} for n in get_list(spec, "admissionChecks")]
    return [rule for rule in get_list(get_dict(spec, "admissionChecksStrategy"), "admissionChecks")
            if isinstance(rule, dict)]


def cluster_queue(spec: dict[str, Any], version: str) -> list[Problem]:
    cohort_field = "cohortName" if version == "v1beta2" else "cohort"
    problems = _resource_groups(spec, has_parent=get_str(spec, cohort_field) is not None, parent_field=cohort_field,
                                is_cohort=False, rules=_CQ_RULES)
    problems += [("R-CQ-9", path, message)
                 for path, message in names.label_selector_errors(spec.get("namespaceSelector"),
                                                                  "spec.namespaceSelector")]
    problems += _fair_sharing(spec, "R-CQ-12")
    groups = [g for g in get_list(spec, "resourceGroups") if isinstance(g, dict)]
    flavors = sum(len(get_list(g, "flavors")) for g in groups)
    if flavors > MAX_TOTAL_FLAVORS:
        problems.append(("R-CQ-13", "spec.resourceGroups", f"{flavors} flavors across all resourceGroups; at most "
                         f"{MAX_TOTAL_FLAVORS} allowed"))
    resources = sum(len(get_list(g, "coveredResources")) for g in groups)
    if resources > MAX_TOTAL_RESOURCES:
        problems.append(("R-CQ-14", "spec.resourceGroups", f"{resources} covered resources across all resourceGroups; "
                         f"at most {MAX_TOTAL_RESOURCES} allowed"))
    for i, group in enumerate(get_list(spec, "resourceGroups")):
        combos = sum(len(get_list(f, "resources")) for f in get_list(group, "flavors"))
        if combos > MAX_FLAVOR_RESOURCES_PER_GROUP:
            problems.append(("R-CQ-15", f"spec.resourceGroups[{i}]", f"{combos} flavor-resource combinations in "
                             f"this resourceGroup; at most {MAX_FLAVOR_RESOURCES_PER_GROUP} allowed"))
    # R-CQ-16: clusterqueue_webhook.go:159-185; onFlavors must name flavors of this ClusterQueue
    queue_flavors = {f.get("name") for g in groups for f in get_list(g, "flavors") if isinstance(f, dict)}
    for i, rule in enumerate(admission_check_rules(spec, version)):
        for j, flavor in enumerate(get_list(rule, "onFlavors")):
            if flavor not in queue_flavors:
                allowed = ", ".join(sorted(str(f) for f in queue_flavors)) or "none (the queue has no flavors)"
                problems.append(("R-CQ-16", f"spec.admissionChecksStrategy.admissionChecks[{i}].onFlavors[{j}]",
                                 f"flavor {flavor!r} of admission check {rule.get('name')!r} is not a flavor of this "
                                 f"ClusterQueue; allowed: {allowed}"))
    return problems


def cohort(spec: dict[str, Any], version: str) -> list[Problem]:
    problems = _resource_groups(spec, has_parent=get_str(spec, "parentName") is not None, parent_field="parentName",
                                is_cohort=True, rules=_COHORT_RULES)
    return problems + _fair_sharing(spec, "R-CO-1")


def resource_flavor(spec: dict[str, Any], version: str) -> list[Problem]:
    """ValidateResourceFlavor, pkg/webhooks/resourceflavor_webhook.go:84-116 (R-RF-1..3)."""
    problems = [("R-RF-1", path, message)
                for path, message in names.labels_errors(spec.get("nodeLabels"), "spec.nodeLabels")]
    seen: set[tuple[str, str]] = set()
    for i, taint in enumerate(get_list(spec, "nodeTaints")):
        if not isinstance(taint, dict):
            continue
        key, value, effect = taint.get("key"), get_str(taint, "value", ""), taint.get("effect")
        if isinstance(key, str):
            for err in names.qualified_name_errors(key):
                problems.append(("R-RF-2", f"spec.nodeTaints[{i}].key", f"taint key {key!r} is invalid: {err}"))
        if isinstance(value, str):
            for err in names.label_value_errors(value):
                problems.append(("R-RF-2", f"spec.nodeTaints[{i}].value", f"taint value {value!r} is invalid: {err}"))
        if isinstance(key, str) and isinstance(effect, str):
            if (key, effect) in seen:
                problems.append(("R-RF-2", f"spec.nodeTaints[{i}]", f"taint {key!r} with effect {effect!r} is "
                                 f"repeated; taints must be unique by key and effect"))
            seen.add((key, effect))
    for i, toleration in enumerate(get_list(spec, "tolerations")):
        key = get_str(toleration, "key")
        if key is not None:
            for err in names.qualified_name_errors(key):
                problems.append(("R-RF-3", f"spec.tolerations[{i}].key", f"toleration key {key!r} is invalid: {err}"))
    return problems


WEBHOOK_CHECKS: dict[str, Callable[[dict[str, Any], str], list[Problem]]] = {
    "ClusterQueue": cluster_queue,
    "Cohort": cohort,
    "ResourceFlavor": resource_flavor,
}
