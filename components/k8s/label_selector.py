"""Whether a Kubernetes label selector selects a set of labels, as the API machinery evaluates it.

`metav1.LabelSelectorAsSelector` (k8s.io/apimachinery/pkg/apis/meta/v1/helpers.go) with `labels.Requirement.Matches`
(pkg/labels/selector.go): every `matchLabels` pair must be present with that value; `In` needs the key with one of
the values, `NotIn` the key absent or with another value, `Exists` the key, `DoesNotExist` its absence. An empty
selector `{}` selects everything. (Kueue reads a *null* ClusterQueue namespaceSelector as selecting nothing; that
is the caller's concern.)

`selects(selector, labels, known_keys=None)` answers True/False, or None when it cannot tell: the selector is
malformed, or it asks about a key outside `known_keys` (labels known only in part: a namespace that is not in the
stack has only its automatic `kubernetes.io/metadata.name` label known). Pure.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any


def selects(selector: Any, labels: Mapping[str, str], known_keys: Collection[str] | None = None) -> bool | None:
    if not isinstance(selector, Mapping):
        return None
    requirements: list[tuple[str, str, list[str]]] = []
    match_labels = selector.get("matchLabels") or {}
    expressions = selector.get("matchExpressions") or []
    if not isinstance(match_labels, Mapping) or not isinstance(expressions, list):
        return None
    for key, value in match_labels.items():
        if not isinstance(key, str) or not isinstance(value, str):
            return None
        requirements.append((key, "In", [value]))
    for expression in expressions:
        if not isinstance(expression, Mapping):
            return None
        key, operator, values = expression.get("key"), expression.get("operator"), expression.get("values") or []
        if not isinstance(key, str) or operator not in ("In", "NotIn", "Exists", "DoesNotExist") or not isinstance(values, list):
            return None
        if not all(isinstance(v, str) for v in values):
            return None
        requirements.append((key, operator, values))
    if known_keys is not None and any(key not in known_keys for key, _, _ in requirements):
        return None
    return all(_matches(labels, key, operator, values) for key, operator, values in requirements)


def _matches(labels: Mapping[str, str], key: str, operator: str, values: list[str]) -> bool:
    present = key in labels
    if operator == "In":
        return present and labels[key] in values
    if operator == "NotIn":
        return not present or labels[key] not in values
    if operator == "Exists":
        return present
    return not present  # DoesNotExist
