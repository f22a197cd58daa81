"""Run a ValidatingAdmissionPolicy and its bindings over an admission request as the API server does, with
cel-python (the CEL library the Kueue CRD tests use).

The steps follow Kubernetes' validating admission policy plugin (staging/src/k8s.io/apiserver/pkg/admission/plugin/
policy/validating, v1.33): a binding applies when its namespaceSelector matches the request's namespace; the
policy applies when a resource rule matches (group, resource, operation); every matchCondition must be true
(else the request is not checked); the variables are evaluated in order, each seeing the ones before it
(`variables.<name>`); then every validation; the first false one denies with its message (validationActions
Deny). A CEL evaluation error is a failure with failurePolicy Fail. `object`, `oldObject` and `request`
(namespace, operation, userInfo) are the variables the plugin declares.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import celpy
from celpy import celtypes

from gkecap.components.k8s.label_selector import selects

_ENV = celpy.Environment()
_PROGRAMS: dict[str, Any] = {}


def _program(expression: str) -> Any:
    program = _PROGRAMS.get(expression)
    if program is None:
        program = _PROGRAMS[expression] = _ENV.program(_ENV.compile(expression))
    return program


@dataclass(frozen=True)
class Request:
    """What the API server hands the policy: the object, the verb, where, and who."""

    object: dict
    namespace: str
    resource: str  # e.g. "pods", "jobs", "pods/ephemeralcontainers"
    group: str = ""
    operation: str = "CREATE"
    username: str = "alice@acme.example"
    old_object: dict | None = None


@dataclass
class Decision:
    allowed: bool
    messages: list[str] = field(default_factory=list)
    checked: bool = True  # False: no binding, rule or matchCondition applied


def _evaluate(expression: str, activation: dict[str, Any]) -> Any:
    result = _program(expression).evaluate(activation)
    if isinstance(result, celpy.CELEvalError):
        raise result
    return result


def _rule_matches(rule: dict, request: Request) -> bool:
    def hit(values: list[str], value: str) -> bool:
        return "*" in values or value in values

    return (hit(rule.get("apiGroups", []), request.group) and hit(rule.get("operations", []), request.operation)
            and hit(rule.get("resources", []), request.resource))


def admit(policy: dict, bindings: list[dict], request: Request, namespace_labels: dict[str, str] | None = None) -> Decision:
    """The decision of `policy` (through those of `bindings` that name it) on `request`."""
    labels = {"kubernetes.io/metadata.name": request.namespace, **(namespace_labels or {})}
    bound = [
        b for b in bindings
        if b["spec"]["policyName"] == policy["metadata"]["name"]
        and selects(b["spec"].get("matchResources", {}).get("namespaceSelector", {}), labels)
    ]
    spec = policy["spec"]
    if not bound or not any(_rule_matches(r, request) for r in spec["matchConstraints"]["resourceRules"]):
        return Decision(True, checked=False)
    activation: dict[str, Any] = {
        "object": celpy.json_to_cel(request.object),
        "oldObject": celpy.json_to_cel(request.old_object),
        "request": celpy.json_to_cel({
            "namespace": request.namespace, "operation": request.operation,
            "userInfo": {"username": request.username},
            "resource": {"group": request.group, "resource": request.resource},
        }),
    }
    failing = spec.get("failurePolicy", "Fail") == "Fail"
    try:
        for condition in spec.get("matchConditions", []):
            if not bool(_evaluate(condition["expression"], activation)):
                return Decision(True, checked=False)
        values: dict[Any, Any] = {}
        for variable in spec.get("variables", []):
            activation["variables"] = celtypes.MapType(values)
            values[celtypes.StringType(variable["name"])] = _evaluate(variable["expression"], activation)
        activation["variables"] = celtypes.MapType(values)
        messages = [v["message"] for v in spec["validations"] if not bool(_evaluate(v["expression"], activation))]
    except celpy.CELEvalError as err:
        return Decision(not failing, [f"evaluation error: {err}"])
    denies = any("Deny" in b["spec"]["validationActions"] for b in bound)
    return Decision(not (messages and denies), messages)
