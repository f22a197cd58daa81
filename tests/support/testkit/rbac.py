"""Kubernetes RBAC evaluated over plain objects, with ClusterRole aggregation: what a subject may do, where.

The rules follow Kubernetes' own (v1.33): a RoleBinding grants its role's rules for requests in its namespace only,
a ClusterRoleBinding everywhere (plugin/pkg/auth/authorizer/rbac/rbac.go, `VisitRulesFor`); a rule allows a
request when its apiGroups, resources and verbs contain the request's or `*`, and, with resourceNames, only those
names (rbac/v1 helpers `RuleAllows`); an aggregated ClusterRole's rules are the rules of every ClusterRole its
aggregationRule selects (pkg/controller/clusterroleaggregation). A cluster-scoped resource is requested with no
namespace, so no RoleBinding reaches it.

`KUEUE_BATCH_USER_ROLES` are the ClusterRoles Kueue v0.19.2's chart aggregates into `kueue-batch-user-role`
(charts/kueue/templates/rbac/*_role.yaml labelled `rbac.kueue.x-k8s.io/batch-user: "true"`), as test data.
"""

from __future__ import annotations

from typing import Iterable

from gkecap.components.k8s.label_selector import selects

_EDIT = ["create", "delete", "get", "list", "patch", "update", "watch"]
_VIEW = ["get", "list", "watch"]
_BATCH_USER_LABEL = "rbac.kueue.x-k8s.io/batch-user"

# (group, resource, editable) of every ClusterRole labelled batch-user in Kueue v0.19.2's chart.
_KUEUE_BATCH_USER = [
    ("batch", "jobs", True), ("jobset.x-k8s.io", "jobsets", True), ("leaderworkerset.x-k8s.io", "leaderworkersets", True),
    ("kubeflow.org", "jaxjobs", True), ("kubeflow.org", "mpijobs", True), ("kubeflow.org", "paddlejobs", True),
    ("kubeflow.org", "pytorchjobs", True), ("kubeflow.org", "tfjobs", True), ("kubeflow.org", "xgboostjobs", True),
    ("ray.io", "rayclusters", True), ("ray.io", "rayjobs", True), ("ray.io", "rayservices", True),
    ("sparkoperator.k8s.io", "sparkapplications", True), ("trainer.kubeflow.org", "trainjobs", True),
    ("kueue.x-k8s.io", "localqueues", False), ("kueue.x-k8s.io", "workloads", False),
]
KUEUE_BATCH_USER_ROLES: list[dict] = [
    {
        "apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
        "metadata": {"name": f"kueue-{resource}-{'editor' if editable else 'viewer'}-role",
                     "labels": {_BATCH_USER_LABEL: "true"}},
        "rules": [{"apiGroups": [group], "resources": [resource], "verbs": _EDIT if editable else _VIEW},
                  {"apiGroups": [group], "resources": [f"{resource}/status"], "verbs": ["get"]}],
    }
    for group, resource, editable in _KUEUE_BATCH_USER
] + [
    {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
     "metadata": {"name": "kueue-pending-workloads-lq-viewer-role", "labels": {_BATCH_USER_LABEL: "true"}},
     "rules": [{"apiGroups": ["visibility.kueue.x-k8s.io"], "resources": ["localqueues/pendingworkloads"],
                "verbs": _VIEW}]},
    {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
     "metadata": {"name": "kueue-batch-user-role"},
     "aggregationRule": {"clusterRoleSelectors": [{"matchLabels": {_BATCH_USER_LABEL: "true"}}]}},
]


def _roles(objects: Iterable[dict]) -> dict[tuple[str, str, str], list[dict]]:
    """(kind, namespace, name) -> rules, aggregation resolved."""
    objects = list(objects)
    cluster_roles = {o["metadata"]["name"]: o for o in objects if o["kind"] == "ClusterRole"}
    out: dict[tuple[str, str, str], list[dict]] = {}
    for name, role in cluster_roles.items():
        rules = list(role.get("rules") or [])
        for selector in (role.get("aggregationRule") or {}).get("clusterRoleSelectors") or []:
            for other in cluster_roles.values():
                if other is not role and selects(selector, other["metadata"].get("labels") or {}):
                    rules += other.get("rules") or []
        out[("ClusterRole", "", name)] = rules
    for role in objects:
        if role["kind"] == "Role":
            out[("Role", role["metadata"]["namespace"], role["metadata"]["name"])] = list(role.get("rules") or [])
    return out


def _rule_allows(rule: dict, verb: str, group: str, resource: str) -> bool:
    def hit(values, value):
        return "*" in (values or []) or value in (values or [])

    return (hit(rule.get("verbs"), verb) and hit(rule.get("apiGroups"), group) and hit(rule.get("resources"), resource)
            and not rule.get("resourceNames"))


def _bound(binding: dict, subject: dict) -> bool:
    return any(s.get("kind") == subject["kind"] and s.get("name") == subject["name"] for s in binding.get("subjects") or [])


def allows(objects: Iterable[dict], subject: dict, verb: str, group: str, resource: str, namespace: str = "") -> bool:
    """May `subject` do `verb` on `group`/`resource` in `namespace` ("" for a cluster-scoped resource)?"""
    objects = list(objects)
    roles = _roles(objects)
    for binding in objects:
        if binding["kind"] not in ("RoleBinding", "ClusterRoleBinding") or not _bound(binding, subject):
            continue
        if binding["kind"] == "RoleBinding" and binding["metadata"]["namespace"] != namespace:
            continue
        ref = binding["roleRef"]
        key = (ref["kind"], "" if ref["kind"] == "ClusterRole" else binding["metadata"]["namespace"], ref["name"])
        if any(_rule_allows(rule, verb, group, resource) for rule in roles.get(key, [])):
            return True
    return False
