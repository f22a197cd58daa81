"""The typed models have exactly the structure and constraints of the real CRDs, kind by kind, version by version:
the same fields, required fields, enums, patterns, length/size bounds, integer formats, list semantics and
scalar defaults; and every CEL rule of the CRDs is implemented (or is a transition rule, uncheckable on create).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from gkecap.components.kueue_api import OBJECT_MODELS, TRANSITION_RULES
from gkecap.components.kueue_api.fields import INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN
from testkit.kueue_rule_cases import CASES
from testkit.kueue_crds import crd_schema, requires_crds, served_kinds

pytestmark = requires_crds

_SKIPPED_TOP = {"apiVersion", "kind", "metadata", "status"}
_INT_FORMATS = {"int32": (INT32_MIN, INT32_MAX), "int64": (INT64_MIN, INT64_MAX)}

# Every x-kubernetes-validations rule of the CRDs -> the rule id implementing it (KUEUE_VALIDATION.md).
CEL_RULE_IDS = {
    "!has(self.cohortName) && has(self.resourceGroups) ? self.resourceGroups.all(rg, rg.flavors.all(f, "
    "f.resources.all(r, !has(r.borrowingLimit)))) : true": "R-CQ-7",
    "!has(self.cohort) && has(self.resourceGroups) ? self.resourceGroups.all(rg, rg.flavors.all(f, "
    "f.resources.all(r, !has(r.borrowingLimit)))) : true": "R-CQ-7",
    "!(self.reclaimWithinCohort == 'Never' && has(self.borrowWithinCohort) &&  self.borrowWithinCohort.policy "
    "!= 'Never')": "R-CQ-10",
    "!has(self.preference) || (self.whenCanBorrow == 'TryNextFlavor' && self.whenCanPreempt == 'TryNextFlavor')":
        "R-CQ-11",
    "self.flavors.all(x, size(x.resources) == size(self.coveredResources))": "R-CQ-20",
    "!has(self.topologyName) || self.nodeLabels.size() >= 1": "R-RF-4",
    "!has(oldSelf.topologyName) || (has(self.topologyName) && self.topologyName == oldSelf.topologyName)": "R-RF-5",
    "self.all(x, x.effect in ['NoSchedule', 'PreferNoSchedule', 'NoExecute'])": "R-RF-7",
    "self.all(x, !has(x.key) ? x.operator == 'Exists' : true)": "R-RF-8",
    "self.all(x, has(x.tolerationSeconds) ? x.effect == 'NoExecute' : true)": "R-RF-8",
    "self.all(x, !has(x.operator) || x.operator in ['Equal', 'Exists'])": "R-RF-8",
    "self.all(x, has(x.operator) && x.operator == 'Exists' ? !has(x.value) : true)": "R-RF-8",
    "self.all(x, !has(x.effect) || x.effect in ['NoSchedule', 'PreferNoSchedule', 'NoExecute'])": "R-RF-8",
    "size(self.filter(i, size(self.filter(j, j == i)) > 1)) == 0": "R-TOPO-2",
    "size(self.filter(i, i.nodeLabel == 'kubernetes.io/hostname')) == 0 || self[size(self) - 1].nodeLabel == "
    "'kubernetes.io/hostname'": "R-TOPO-3",
    "self == oldSelf || (self[size(self) - 1].nodeLabel == 'kubernetes.io/hostname' && "
    "oldSelf[size(oldSelf) - 1].nodeLabel == 'kubernetes.io/hostname')": "R-TOPO-4",
    "[has(self.kubeConfig),has(self.clusterProfileRef)].filter(x,x==true).size() == 1": "R-MKC-2",
}
# The same rule text on another kind is another rule.
CEL_RULE_IDS_BY_KIND = {
    ("MultiKueueConfig", "size(self.filter(i, size(self.filter(j, j == i)) > 1)) == 0"): "R-MKCFG-2",
}
_TRANSITION_BY_KIND = {"LocalQueue": "R-LQ-1", "AdmissionCheck": "R-AC-2", "Topology": "R-TOPO-4"}


def _resolve(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    while True:
        if "$ref" in node:
            target = defs[node["$ref"].rsplit("/", 1)[-1]]
            node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
        elif "anyOf" in node and not node.get("x-kubernetes-int-or-string"):
            options = [o for o in node["anyOf"] if o.get("type") != "null"]
            if len(options) != 1:
                return node
            node = {**options[0], **{k: v for k, v in node.items() if k not in ("anyOf",)}}
        else:
            return node


def _min_length(node: dict[str, Any]) -> int:
    pattern = node.get("pattern")
    implied = 1 if pattern and re.fullmatch(pattern.replace("^(?i)", "(?i)^"), "") is None else 0
    return max(node.get("minLength", 0), implied)


def _compare(crd: dict[str, Any], model: dict[str, Any], defs: dict[str, Any], path: str,
             problems: list[str], top: bool = False) -> None:
    model = _resolve(model, defs)
    if crd.get("x-kubernetes-int-or-string"):
        if not model.get("x-kubernetes-int-or-string"):
            problems.append(f"{path}: CRD int-or-string, model {model.get('type')}")
        return
    kind = crd.get("type")
    if kind != model.get("type") and not (kind == "object" and "properties" not in crd
                                          and "additionalProperties" not in crd):
        problems.append(f"{path}: CRD type {kind}, model {model.get('type')}")
        return
    if kind == "object" and "properties" in crd:
        skip = _SKIPPED_TOP if top else set()
        crd_props = set(crd["properties"]) - skip
        model_props = set(model.get("properties", {})) - skip
        if crd_props != model_props:
            problems.append(f"{path}: fields differ: CRD-only {sorted(crd_props - model_props)}, "
                            f"model-only {sorted(model_props - crd_props)}")
        if set(crd.get("required", [])) - skip != set(model.get("required", [])) - skip:
            problems.append(f"{path}: required differ: CRD {crd.get('required', [])}, model {model.get('required')}")
        for name in sorted(crd_props & model_props):
            _compare(crd["properties"][name], model["properties"][name], defs, f"{path}.{name}", problems)
        return
    if kind == "object" and isinstance(crd.get("additionalProperties"), dict):
        if crd.get("maxProperties") != model.get("maxProperties"):
            problems.append(f"{path}: maxProperties CRD {crd.get('maxProperties')}, model {model.get('maxProperties')}")
        _compare(crd["additionalProperties"], model.get("additionalProperties", {}), defs, f"{path}[*]", problems)
        return
    if kind == "array":
        for bound in ("minItems", "maxItems"):
            if crd.get(bound) != model.get(bound):
                problems.append(f"{path}: {bound} CRD {crd.get(bound)}, model {model.get(bound)}")
        crd_list = crd.get("x-kubernetes-list-type") if crd.get("x-kubernetes-list-type") != "atomic" else None
        if crd_list != model.get("x-kubernetes-list-type") or \
                crd.get("x-kubernetes-list-map-keys") != model.get("x-kubernetes-list-map-keys"):
            problems.append(f"{path}: list type CRD {crd_list} {crd.get('x-kubernetes-list-map-keys')}, model "
                            f"{model.get('x-kubernetes-list-type')} {model.get('x-kubernetes-list-map-keys')}")
        _compare(crd["items"], model.get("items", {}), defs, f"{path}[]", problems)
        return
    if kind == "string":
        if set(crd.get("enum", [])) != set(model.get("enum", [model["const"]] if "const" in model else [])):
            problems.append(f"{path}: enum CRD {crd.get('enum')}, model {model.get('enum')}")
        if crd.get("maxLength") != model.get("maxLength") or _min_length(crd) != _min_length(model):
            problems.append(f"{path}: length CRD {_min_length(crd)}..{crd.get('maxLength')}, model "
                            f"{_min_length(model)}..{model.get('maxLength')}")
        if crd.get("pattern") != model.get("pattern") or crd.get("format") != model.get("format"):
            problems.append(f"{path}: pattern/format CRD {crd.get('pattern')} {crd.get('format')}, model "
                            f"{model.get('pattern')} {model.get('format')}")
    if kind == "integer":
        bounds = _INT_FORMATS.get(crd.get("format"), (None, None))
        if (model.get("minimum"), model.get("maximum")) != bounds:
            problems.append(f"{path}: integer format {crd.get('format')}, model bounds "
                            f"{model.get('minimum')}..{model.get('maximum')}")
    if "default" in crd and not isinstance(crd["default"], (dict, list)) and crd["default"] != model.get("default"):
        problems.append(f"{path}: default CRD {crd['default']!r}, model {model.get('default')!r}")


@pytest.mark.parametrize(("kind", "version"), served_kinds())
def test_model_matches_the_crd_schema(kind: str, version: str) -> None:
    assert (kind, version) in OBJECT_MODELS
    model = OBJECT_MODELS[(kind, version)].model_json_schema(by_alias=True)
    problems: list[str] = []
    _compare(crd_schema(kind, version), model, model.get("$defs", {}), kind, problems, top=True)
    assert problems == []


def _cel_rules(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [v["rule"] for v in node.get("x-kubernetes-validations", [])]
        return found + [r for value in node.values() for r in _cel_rules(value)]
    if isinstance(node, list):
        return [r for item in node for r in _cel_rules(item)]
    return []


@pytest.mark.parametrize(("kind", "version"), served_kinds())
def test_every_cel_rule_is_implemented_or_a_transition_rule(kind: str, version: str) -> None:
    tested = {case.rule for case in CASES}
    for rule in _cel_rules(crd_schema(kind, version)):
        rule_id = CEL_RULE_IDS_BY_KIND.get((kind, rule)) or CEL_RULE_IDS.get(rule) or (
            _TRANSITION_BY_KIND.get(kind) if "oldSelf" in rule else None)
        assert rule_id is not None, f"unmapped CEL rule of {kind} {version}: {rule}"
        if "oldSelf" in rule:
            assert rule_id in TRANSITION_RULES
        else:
            assert rule_id in tested, f"{rule_id} ({rule}) has no invalid case in the rule table"
