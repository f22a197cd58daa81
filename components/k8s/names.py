"""Kubernetes name, label and selector checks, as apimachinery's validation package does them.

Each check returns a list of problems (empty when valid), in the words Kubernetes uses, so a message can name the
bad value and what is allowed. Go's regexp `$` only matches at the very end, so patterns use `fullmatch`.
Source: k8s.io/apimachinery/pkg/util/validation/validation.go (IsQualifiedName, IsDNS1123Subdomain,
IsDNS1123Label, IsValidLabelValue) and pkg/apis/meta/v1/validation (ValidateLabelSelector).
"""

from __future__ import annotations

import re
from typing import Any

DNS1123_LABEL_MAX = 63
DNS1123_SUBDOMAIN_MAX = 253
QUALIFIED_NAME_MAX = 63
LABEL_VALUE_MAX = 63

_DNS1123_LABEL = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?"
DNS1123_LABEL_RE = re.compile(_DNS1123_LABEL)
DNS1123_SUBDOMAIN_RE = re.compile(_DNS1123_LABEL + r"(\." + _DNS1123_LABEL + r")*")
_QUALIFIED_NAME_RE = re.compile(r"([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]")
_LABEL_VALUE_RE = re.compile(r"(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?")

_SUBDOMAIN_HINT = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
    "and must start and end with an alphanumeric character (e.g. 'example.com')"
)
_LABEL_HINT = (
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
    "and must start and end with an alphanumeric character (e.g. 'my-name'), at most 63 characters"
)
_NAME_PART_HINT = (
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character (e.g. 'MyName', 'my.name' or '123-abc')"
)
_VALUE_HINT = (
    "a valid label value must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
    "and must start and end with an alphanumeric character (e.g. 'MyValue', 'my_value' or '12345')"
)

SELECTOR_OPERATORS = ("In", "NotIn", "Exists", "DoesNotExist")


def _bounded_pattern_errors(value: str, max_length: int, pattern: re.Pattern[str], hint: str) -> list[str]:
    """Kubernetes' two checks of a name or value, in its order: the length, then the pattern."""
    errors = []
    if len(value) > max_length:
        errors.append(f"must be no more than {max_length} characters")
    if not pattern.fullmatch(value):
        errors.append(hint)
    return errors


def dns1123_subdomain_errors(value: str) -> list[str]:
    return _bounded_pattern_errors(value, DNS1123_SUBDOMAIN_MAX, DNS1123_SUBDOMAIN_RE, _SUBDOMAIN_HINT)


def dns1123_label_errors(value: str) -> list[str]:
    return _bounded_pattern_errors(value, DNS1123_LABEL_MAX, DNS1123_LABEL_RE, _LABEL_HINT)


def qualified_name_errors(value: str) -> list[str]:
    """A label key / resource name: optional DNS-subdomain prefix and '/', then a name of at most 63 characters."""
    parts = value.split("/")
    if len(parts) == 1:
        name = parts[0]
        errors: list[str] = []
    elif len(parts) == 2:
        prefix, name = parts
        if not prefix:
            errors = ["prefix part must be non-empty"]
        else:
            errors = [f"prefix part {e}" for e in dns1123_subdomain_errors(prefix)]
    else:
        return [
            "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
            "with an alphanumeric character, with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"
        ]
    if not name:
        errors.append("name part must be non-empty")
    elif len(name) > QUALIFIED_NAME_MAX:
        errors.append(f"name part must be no more than {QUALIFIED_NAME_MAX} characters")
    if name and not _QUALIFIED_NAME_RE.fullmatch(name):
        errors.append(_NAME_PART_HINT)
    return errors


def label_value_errors(value: str) -> list[str]:
    return _bounded_pattern_errors(value, LABEL_VALUE_MAX, _LABEL_VALUE_RE, _VALUE_HINT)


def labels_errors(labels: Any, path: str) -> list[tuple[str, str]]:
    """metav1validation.ValidateLabels: every key a qualified name, every value a label value -> (path, message)."""
    problems: list[tuple[str, str]] = []
    if not isinstance(labels, dict):
        return problems
    for key, value in labels.items():
        key_path = f"{path}[{key}]"
        if isinstance(key, str):
            for err in qualified_name_errors(key):
                problems.append((key_path, f"label key {key!r} is invalid: {err}"))
        if isinstance(value, str):
            for err in label_value_errors(value):
                problems.append((key_path, f"label value {value!r} is invalid: {err}"))
    return problems


def label_selector_errors(selector: Any, path: str) -> list[tuple[str, str]]:
    """metav1validation.ValidateLabelSelector with default options -> (path, message) pairs."""
    problems: list[tuple[str, str]] = []
    if not isinstance(selector, dict):
        return problems
    problems += labels_errors(selector.get("matchLabels"), f"{path}.matchLabels")
    expressions = selector.get("matchExpressions")
    if not isinstance(expressions, list):
        return problems
    for i, req in enumerate(expressions):
        req_path = f"{path}.matchExpressions[{i}]"
        if not isinstance(req, dict):
            continue
        operator, values, key = req.get("operator"), req.get("values") or [], req.get("key")
        if not isinstance(values, list):
            continue
        if operator in ("In", "NotIn"):
            if not values:
                problems.append((f"{req_path}.values",
                                 f"values must be specified (non-empty) when operator is {operator!r}"))
        elif operator in ("Exists", "DoesNotExist"):
            if values:
                problems.append((f"{req_path}.values",
                                 f"values {values!r} may not be specified when operator is {operator!r}"))
        elif isinstance(operator, str):
            problems.append((f"{req_path}.operator",
                             f"operator {operator!r} is not supported; allowed: {', '.join(SELECTOR_OPERATORS)}"))
        if isinstance(key, str):
            for err in qualified_name_errors(key):
                problems.append((f"{req_path}.key", f"key {key!r} is invalid: {err}"))
        for j, value in enumerate(values):
            if isinstance(value, str):
                for err in label_value_errors(value):
                    problems.append((f"{req_path}.values[{j}]", f"value {value!r} is invalid: {err}"))
    return problems
