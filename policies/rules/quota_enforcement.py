"""Holes through which a team's accelerator work escapes its Kueue quota, in any stack (issue 23).

A *team namespace* is one with a LocalQueue of a ClusterQueue of the stack. Two layers keep work there in the
queue: Kueue managing every job of the namespace (its Configuration's `manageJobsWithoutQueueName: true`, with the
namespace in `managedJobsNamespaceSelector`, whose default leaves out only kube-system and Kueue's own namespace:
apis/config/v1beta2/defaults.go @ v0.19.2), and a ValidatingAdmissionPolicy, bound with `Deny` to the namespace,
that requires `kueue.x-k8s.io/queue-name`. The Kueue Configuration is read from the stack's Kueue Helm chart
(`values.managerConfig.controllerManagerConfigYaml`) or Kueue's `kueue-manager-config` ConfigMap.

* team-quota-bypass (mandatory): a team namespace with neither layer: a Job, JobSet or Pod requesting GPUs without the
  label is never suspended and runs outside every quota.
* team-quota-layers (advisory): a team namespace with one layer only (defence in depth).
* cluster-queue-reachable (mandatory): a ClusterQueue whose namespaceSelector admits a namespace of the stack that
  belongs to another ClusterQueue (its LocalQueues feed another queue, or it carries another team's label): a
  LocalQueue there can spend this queue's quota. `{}` selectors are team-isolation's finding.
* team-priority-allowance (mandatory): a team namespace can use a WorkloadPriorityClass above the team's allowance (no
  bound admission policy restricts `kueue.x-k8s.io/priority-class`, or the one bound allows more). The allowance
  is the config `priorityAllowance` (namespace or ClusterQueue name -> classes), else every class of the stack
  below the highest value: the default gke-capacity gives teams (model.derive.allowed_priorities).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import yaml

from gkecap.components.k8s.label_selector import selects
from gkecap.components.kubernetes_objects.admission_policy import PRIORITIES_ANNOTATION, PRIORITY_LABEL, QUEUE_LABEL
from gkecap.components.kubernetes_objects.team_access import TEAM_LABEL
from gkecap.components.model.derive import allowed_priorities
from gkecap.policies.resource_view import ResourceView
from gkecap.policies.rules.known_values import at, has_unknown, known_str
from gkecap.policies.rules.kueue_props import display_name, is_kueue_token, kueue_kind, object_name
from gkecap.policies.rules.local_queues import NAMESPACE_NAME_LABEL, NAMESPACE_TYPE

POLICY_TYPE = "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicy"
BINDING_TYPE = "kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicyBinding"
CHART_TYPES = frozenset({"kubernetes:helm.sh/v3:Chart", "kubernetes:helm.sh/v4:Chart", "kubernetes:helm.sh/v3:Release"})
CONFIG_MAP_TYPE = "kubernetes:core/v1:ConfigMap"
KUEUE_CONFIG_MAP = "kueue-manager-config"  # config/components/manager (Kueue's kustomize install)
KUEUE_CONFIG_KEY = "controller_manager_config.yaml"
KUEUE_NAMESPACE = "kueue-system"

PRIORITY_ALLOWANCE_SCHEMA = {
    "priorityAllowance": {
        "type": "object",
        "additionalProperties": {"type": "array", "items": {"type": "string"}},
        "default": {},
        "description": "Namespace or ClusterQueue name -> the WorkloadPriorityClasses its team may use (default: every "
        "class below the highest value).",
    }
}


def is_enforcement_token(token: str) -> bool:
    """The resources these rules read: Kueue objects, Namespaces, admission policies, Kueue's configuration."""
    return (is_kueue_token(token) or token in (NAMESPACE_TYPE, POLICY_TYPE, BINDING_TYPE, CONFIG_MAP_TYPE)
            or token in CHART_TYPES)


@dataclass
class _Stack:
    """What the rules need of a stack, read once."""

    queues: dict[str, ResourceView] = field(default_factory=dict)  # ClusterQueue name -> resource
    owners: dict[str, set[str]] = field(default_factory=dict)  # namespace -> ClusterQueues its LocalQueues feed
    first_local_queue: dict[str, ResourceView] = field(default_factory=dict)  # namespace -> a LocalQueue there
    namespace_labels: dict[str, Mapping[str, Any] | None] = field(default_factory=dict)
    policies: dict[str, ResourceView] = field(default_factory=dict)  # name -> queue-enforcing policy
    bindings: list[ResourceView] = field(default_factory=list)
    kueue_configs: list[dict] = field(default_factory=list)
    priority_classes: dict[str, int] = field(default_factory=dict)

    def labels_of(self, namespace: str) -> tuple[dict[str, Any], set[str] | None]:
        """The namespace's labels and, when it is not in the stack, the keys known (only its name label)."""
        labels = self.namespace_labels.get(namespace)
        if namespace in self.namespace_labels and labels is not None:
            return {**labels, NAMESPACE_NAME_LABEL: namespace}, None
        return {NAMESPACE_NAME_LABEL: namespace}, {NAMESPACE_NAME_LABEL}


def kueue_config(resource: ResourceView) -> dict | None:
    """The Kueue Configuration a Kueue Helm chart (its values, `{}` for the chart's default) or Kueue's ConfigMap
    carries; None for any other resource."""
    text: Any = None
    if resource.type in CHART_TYPES:
        chart = known_str(at(resource.props, "chart")) or ""
        if "kueue" not in chart:
            return None
        text = at(resource.props, "values.managerConfig.controllerManagerConfigYaml")
        if text is None:
            return {}  # the chart's default configuration: manageJobsWithoutQueueName off
    elif resource.type == CONFIG_MAP_TYPE and known_str(at(resource.props, "metadata.name")) == KUEUE_CONFIG_MAP:
        data = resource.props.get("data")
        text = data.get(KUEUE_CONFIG_KEY) if isinstance(data, Mapping) else None  # the key has a dot: no `at`
    if not isinstance(text, str):
        return None
    try:
        loaded = yaml.safe_load(text)
    except yaml.YAMLError:
        return None
    return loaded if isinstance(loaded, dict) else None


def _read(resources: list[ResourceView]) -> _Stack:
    stack = _Stack()
    policies: dict[str, ResourceView] = {}
    for resource in resources:
        kind = kueue_kind(resource)
        name = object_name(resource)
        if kind == "ClusterQueue" and name:
            stack.queues[name] = resource
        elif kind == "WorkloadPriorityClass" and name:
            value = resource.props.get("value")
            if isinstance(value, int) and not isinstance(value, bool):
                stack.priority_classes[name] = value
        elif resource.type == NAMESPACE_TYPE:
            name = known_str(at(resource.props, "metadata.name"))
            if name is not None:
                labels = at(resource.props, "metadata.labels") or {}
                stack.namespace_labels[name] = labels if isinstance(labels, Mapping) and not has_unknown(labels) else None
        elif resource.type == POLICY_TYPE and name:
            policies[name] = resource
        elif resource.type == BINDING_TYPE:
            stack.bindings.append(resource)
        else:
            config = kueue_config(resource)
            if config is not None:
                stack.kueue_configs.append(config)
    for resource in resources:
        if kueue_kind(resource) != "LocalQueue":
            continue
        namespace = known_str(at(resource.props, "metadata.namespace"))
        target = known_str(at(resource.props, "spec.clusterQueue"))
        if namespace is None or target is None or target not in stack.queues:
            continue
        stack.owners.setdefault(namespace, set()).add(target)
        stack.first_local_queue.setdefault(namespace, resource)
    stack.policies = {name: p for name, p in policies.items() if _requires_queue_label(p)}
    return stack


def _mentions(policy: ResourceView, text: str) -> bool:
    """Whether one of the policy's validation or variable expressions mentions `text` (a label key)."""
    spec = policy.props.get("spec")
    if not isinstance(spec, Mapping):
        return False
    return any(
        isinstance(item, Mapping) and isinstance(item.get("expression"), str) and text in item["expression"]
        for key in ("validations", "variables") if isinstance(spec.get(key), list)
        for item in spec[key]
    )


def _requires_queue_label(policy: ResourceView) -> bool:
    spec = policy.props.get("spec")
    return isinstance(spec, Mapping) and bool(spec.get("validations")) and _mentions(policy, QUEUE_LABEL)


def _restricts_priorities(policy: ResourceView) -> bool:
    return _mentions(policy, PRIORITY_LABEL)


def candidates(selector: Mapping[str, Any], namespaces: list[str], known: set[str] | None = None) -> list[str]:
    """The namespaces of `namespaces` a selector may select: when it requires `kubernetes.io/metadata.name` to be
    one of some names (an `In` expression or a matchLabels entry), only those; otherwise all. A prefilter: `selects`
    still decides each one. It keeps a stack of N namespaces and N per-team selectors linear, not N x N."""
    allowed: set[str] | None = None
    for expression in selector.get("matchExpressions") or []:
        if (isinstance(expression, Mapping) and expression.get("key") == NAMESPACE_NAME_LABEL
                and expression.get("operator") == "In" and isinstance(expression.get("values"), list)):
            values = {v for v in expression["values"] if isinstance(v, str)}
            allowed = values if allowed is None else allowed & values
    match_labels = selector.get("matchLabels")
    if isinstance(match_labels, Mapping) and isinstance(match_labels.get(NAMESPACE_NAME_LABEL), str):
        value = {match_labels[NAMESPACE_NAME_LABEL]}
        allowed = value if allowed is None else allowed & value
    if allowed is None:
        return list(namespaces)
    known = known if known is not None else set(namespaces)  # callers looping over selectors pass it once
    return sorted(ns for ns in allowed if ns in known)


def _guards(stack: _Stack, namespaces: Iterable[str]) -> dict[str, list[ResourceView] | None]:
    """Per namespace, the queue-enforcing policies bound to it with Deny; None where a binding's selector cannot
    be decided (unknown at preview, or about labels of a namespace outside the stack)."""
    namespaces = list(namespaces)
    index = set(namespaces)
    found: dict[str, list[ResourceView] | None] = {ns: [] for ns in namespaces}
    for binding in stack.bindings:
        policy = stack.policies.get(known_str(at(binding.props, "spec.policyName")) or "")
        actions = at(binding.props, "spec.validationActions")
        if policy is None or not isinstance(actions, list) or "Deny" not in actions:
            continue
        selector = at(binding.props, "spec.matchResources.namespaceSelector")
        if selector is not None and (not isinstance(selector, Mapping) or has_unknown(selector)):
            return {ns: None for ns in namespaces}
        for namespace in namespaces if selector is None else candidates(selector, namespaces, index):
            labels, known = stack.labels_of(namespace)
            matched = True if selector is None else selects(selector, labels, known)  # no selector: everywhere
            if matched is None:
                found[namespace] = None
            elif matched and found[namespace] is not None:
                found[namespace].append(policy)  # type: ignore[union-attr]
    return found


def _kueue_manages(stack: _Stack, namespace: str) -> bool:
    labels, known = stack.labels_of(namespace)
    for config in stack.kueue_configs:
        if config.get("manageJobsWithoutQueueName") is not True:
            continue
        own = config.get("namespace") or KUEUE_NAMESPACE
        selector = config.get("managedJobsNamespaceSelector") or {
            "matchExpressions": [{"key": NAMESPACE_NAME_LABEL, "operator": "NotIn", "values": ["kube-system", own]}]}
        if selects(selector, labels, known):
            return True
    return False


def _layers(stack: _Stack) -> dict[str, tuple[bool, bool | None]]:
    """Team namespace -> (Kueue manages it, an admission policy requires the queue label: None when unknown)."""
    guards = _guards(stack, sorted(stack.owners))
    return {namespace: (_kueue_manages(stack, namespace), None if policies is None else bool(policies))
            for namespace, policies in guards.items()}


def _where(stack: _Stack, namespace: str) -> str:
    return f"team namespace {namespace!r} (LocalQueues feeding ClusterQueue {', '.join(sorted(stack.owners[namespace]))})"


def check_quota_bypass(resources: list[ResourceView], config: dict) -> list[tuple[str | None, str]]:
    """team-quota-bypass: a team namespace where neither Kueue management nor an admission policy keeps jobs queued."""
    stack = _read(resources)
    findings: list[tuple[str | None, str]] = []
    for namespace, (managed, guarded) in _layers(stack).items():
        if managed or guarded is not False:
            continue
        findings.append((stack.first_local_queue[namespace].urn, (
            f"{_where(stack, namespace)}: a Job, JobSet or Pod that requests GPUs or TPUs without the label "
            f"{QUEUE_LABEL} is never suspended by Kueue and runs outside every quota. Nothing in this stack stops it: "
            "Kueue does not manage jobs without a queue name there (its Configuration needs "
            "manageJobsWithoutQueueName: true with the namespace in managedJobsNamespaceSelector), and no "
            "ValidatingAdmissionPolicy bound to the namespace with Deny requires the label. Add both (gke-capacity's "
            "Environment does).")))
    return findings


def check_enforcement_layers(resources: list[ResourceView], config: dict) -> list[tuple[str | None, str]]:
    """team-quota-layers: a team namespace with only one of the two layers."""
    stack = _read(resources)
    findings: list[tuple[str | None, str]] = []
    for namespace, (managed, guarded) in _layers(stack).items():
        if guarded is None or managed == guarded:
            continue
        missing = (
            f"no ValidatingAdmissionPolicy bound to it with Deny requires {QUEUE_LABEL} (Kueue's own management "
            "does not cover kinds it does not integrate, nor the priority classes teams pick)"
            if managed else
            "Kueue does not manage its jobs without a queue name (manageJobsWithoutQueueName with the namespace in "
            "managedJobsNamespaceSelector), so only the admission policy keeps accelerator work queued"
        )
        findings.append((stack.first_local_queue[namespace].urn, f"{_where(stack, namespace)}: {missing}."))
    return findings


def check_cluster_queue_reachable(resources: list[ResourceView], config: dict) -> list[tuple[str | None, str]]:
    """cluster-queue-reachable: a ClusterQueue admits a namespace of the stack that belongs to another queue."""
    stack = _read(resources)
    namespaces = sorted(set(stack.owners) | set(stack.namespace_labels))
    index = set(namespaces)
    findings: list[tuple[str | None, str]] = []
    for name, queue in sorted(stack.queues.items()):
        selector = at(queue.props, "spec.namespaceSelector")
        if not isinstance(selector, Mapping) or has_unknown(selector):
            continue
        if not selector.get("matchLabels") and not selector.get("matchExpressions"):
            continue  # `{}`: team-isolation
        labels_of_queue = at(queue.props, "metadata.labels")
        queue_team = known_str(labels_of_queue.get(TEAM_LABEL)) if isinstance(labels_of_queue, Mapping) else None
        foreign = []
        for namespace in candidates(selector, namespaces, index):
            labels, known = stack.labels_of(namespace)
            if selects(selector, labels, known) is not True:
                continue
            owners = stack.owners.get(namespace, set())
            team = labels.get(TEAM_LABEL) if known is None else None
            if (owners and name not in owners) or (team and queue_team and team != queue_team):
                foreign.append(f"{namespace!r} (" + (f"feeds {', '.join(sorted(owners))}" if owners and name not in owners
                                                      else f"team {team}") + ")")
        if foreign:
            findings.append((queue.urn, (
                f"ClusterQueue {display_name(queue)!r}: its namespaceSelector {selector!r} admits namespace "
                f"{', '.join(foreign)}, which belongs to another team: a LocalQueue there can spend this queue's "
                "quota. Select exactly the team's namespaces (e.g. kubernetes.io/metadata.name In [<namespaces>]).")))
    return findings


def _allowance(stack: _Stack, namespace: str, config: dict) -> list[str]:
    given = config.get("priorityAllowance") or {}
    for key in [namespace, *sorted(stack.owners.get(namespace, ()))]:
        if isinstance(given.get(key), list):
            return [c for c in given[key] if isinstance(c, str)]
    return list(allowed_priorities(None, sorted(stack.priority_classes.items(), key=lambda item: -item[1])))


def check_priority_allowance(resources: list[ResourceView], config: dict) -> list[tuple[str | None, str]]:
    """team-priority-allowance: a team namespace can use a WorkloadPriorityClass above its team's allowance."""
    stack = _read(resources)
    if not stack.priority_classes:
        return []
    findings: list[tuple[str | None, str]] = []
    for namespace, policies in _guards(stack, sorted(stack.owners)).items():
        if policies is None:
            continue
        restricting = [p for p in policies if _restricts_priorities(p)]
        if restricting:
            usable: set[str] | None = None
            for policy in restricting:  # every bound policy must pass: the usable classes are the intersection
                listed = _annotation(policy)
                if listed is None:
                    continue
                allowed = {c for c in listed.split(",") if c}
                usable = allowed if usable is None else usable & allowed
            if usable is None:
                continue  # a hand-written restriction we cannot read: trusted
        else:
            usable = set(stack.priority_classes)
        allowance = _allowance(stack, namespace, config)
        ceiling = max((stack.priority_classes.get(c, 0) for c in allowance), default=None)
        above = sorted((c for c in usable if c in stack.priority_classes
                        and (ceiling is None or stack.priority_classes[c] > ceiling)),
                       key=lambda c: -stack.priority_classes[c])
        if above:
            how = ("no admission policy bound to it restricts the label " + PRIORITY_LABEL) if not restricting else \
                "its admission policy allows them"
            findings.append((stack.first_local_queue[namespace].urn, (
                f"{_where(stack, namespace)} can use WorkloadPriorityClass "
                f"{', '.join(f'{c} ({stack.priority_classes[c]})' for c in above)}, above the team's allowance "
                f"({', '.join(allowance) or 'none'}): {how}, so its work can preempt other teams'. Restrict the label "
                "with an admission policy (gke-capacity's `teams[i].priorities`), or widen this policy's "
                "priorityAllowance config.")))
    return findings


def _annotation(policy: ResourceView) -> str | None:
    annotations = at(policy.props, "metadata.annotations")
    if not isinstance(annotations, Mapping):
        return None
    return known_str(annotations.get(PRIORITIES_ANNOTATION))


@dataclass(frozen=True)
class NamespaceLayers:
    """How one namespace's accelerator work is kept in its quota, as the stack's objects say (for the report)."""

    kueue_managed: bool  # Kueue manages its jobs without a queue name
    policies: tuple[str, ...]  # queue-enforcing admission policies bound to it with Deny
    priorities: str | None  # the classes they allow (gkecap's annotation), None when not stated
    roles: tuple[str, ...]  # roles its RoleBindings grant
    resource_quota: Mapping[str, Any] | None  # spec.hard of ResourceQuotas on accelerators, merged


ROLE_BINDING_TYPE = "kubernetes:rbac.authorization.k8s.io/v1:RoleBinding"
RESOURCE_QUOTA_TYPE = "kubernetes:core/v1:ResourceQuota"


def namespace_layers(resources: list[ResourceView], namespaces: list[str]) -> dict[str, NamespaceLayers]:
    """The enforcement layers of each of `namespaces` in a stack: one computation for the report and the rules."""
    stack = _read(resources)
    roles: dict[str, set[str]] = {}
    quotas: dict[str, dict[str, Any]] = {}
    for resource in resources:
        namespace = known_str(at(resource.props, "metadata.namespace"))
        if namespace is None:
            continue
        if resource.type == ROLE_BINDING_TYPE:
            role = known_str(at(resource.props, "roleRef.name"))
            if role is not None:
                roles.setdefault(namespace, set()).add(role)
        elif resource.type == RESOURCE_QUOTA_TYPE:
            hard = at(resource.props, "spec.hard")
            if isinstance(hard, Mapping):
                accelerators = {k: v for k, v in hard.items() if "nvidia.com/" in k or "google.com/tpu" in k}
                if accelerators:
                    quotas.setdefault(namespace, {}).update(accelerators)
    out = {}
    guards = _guards(stack, namespaces)
    for namespace in namespaces:
        policies = guards[namespace] or []
        listed = [_annotation(p) for p in policies if _restricts_priorities(p)]
        out[namespace] = NamespaceLayers(
            kueue_managed=_kueue_manages(stack, namespace),
            policies=tuple(sorted(display_name(p) for p in policies)),
            priorities=listed[0] if listed and listed[0] is not None else None,
            roles=tuple(sorted(roles.get(namespace, ()))),
            resource_quota=quotas.get(namespace),
        )
    return out
