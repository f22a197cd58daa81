"""A team's own corner of the cluster: its Namespaces and the RBAC that lets its members work there.

Pure: plain Kubernetes object dicts, no Pulumi. Every grant is a RoleBinding in one of the team's namespaces:
nothing cluster-wide is granted (the one ClusterRole, `gkecap-team-member`, is only bound per namespace), and
nothing in another team's namespace. Members are the environment
file's principals (``user:EMAIL``, ``group:EMAIL``, ``serviceAccount:EMAIL``); GKE's RBAC knows Google
identities as ``User`` (users and Google service accounts, by email) and ``Group`` (Google Groups).
https://cloud.google.com/kubernetes-engine/docs/how-to/role-based-access-control
"""

from __future__ import annotations

from typing import Iterable

from gkecap.components.gke.resource_names import member_issues
from gkecap.components.issues import InvalidInput

RBAC_GROUP = "rbac.authorization.k8s.io"

# Labels on every object gke-capacity generates, and the team label the ClusterQueue's namespaceSelector uses.
MANAGED_BY_LABEL = "app.kubernetes.io/managed-by"
MANAGED_BY = "gke-capacity"
TEAM_LABEL = "gkecap.dev/team"
# Set by the API server on every namespace (immutable by users) since Kubernetes 1.22:
# https://kubernetes.io/docs/reference/labels-annotations-taints/#kubernetes-io-metadata-name
NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name"

# Kueue's chart ships "<fullname>-batch-user-role" (charts/kueue/templates/rbac/batch_user_role.yaml), which
# aggregates the ClusterRoles labelled rbac.kueue.x-k8s.io/batch-user: "true": create and manage every job kind
# Kueue integrates (Job, JobSet, RayJob/RayCluster/RayService, LeaderWorkerSet, the Kubeflow jobs, TrainJob,
# SparkApplication) and read LocalQueues and Workloads (v0.19.2 charts/kueue/templates/rbac/*_editor_role.yaml,
# localqueue_viewer_role.yaml, workload_viewer_role.yaml). We install with fullname "kueue" (gkecap.components.kueue).
BATCH_USER_ROLE_SUFFIX = "-batch-user-role"
# Kubernetes' `edit` role (https://kubernetes.io/docs/reference/access-authn-authz/rbac/#user-facing-roles) grants
# more than a team needs: impersonating the namespace's service accounts, every kind other controllers aggregate
# to it (their controllers could then create pods outside the queue), DaemonSets and bare ReplicaSets. Members get
# Kueue's batch-user role plus this explicit role instead (issue 23).
MEMBER_CLUSTER_ROLE = "gkecap-team-member"
_MANAGE = ["get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"]
_READ = ["get", "list", "watch"]
MEMBER_RULES: tuple[dict, ...] = (
    # Bare pods are Kueue's pod integration; the admission policy checks them like any workload.
    {"apiGroups": [""], "resources": ["pods", "services", "configmaps", "secrets", "persistentvolumeclaims"],
     "verbs": _MANAGE},
    {"apiGroups": [""], "resources": ["pods/exec", "pods/attach", "pods/portforward"], "verbs": ["get", "create"]},
    {"apiGroups": [""], "resources": ["pods/ephemeralcontainers"], "verbs": ["get", "update", "patch"]},
    {"apiGroups": [""], "resources": ["pods/log", "pods/status", "events", "endpoints", "serviceaccounts",
                                      "resourcequotas", "limitranges"], "verbs": _READ},
    {"apiGroups": ["apps"], "resources": ["deployments", "statefulsets"], "verbs": _MANAGE},
    {"apiGroups": ["apps"], "resources": ["deployments/scale", "statefulsets/scale"], "verbs": ["get", "update", "patch"]},
    {"apiGroups": ["apps"], "resources": ["replicasets", "controllerrevisions"], "verbs": _READ},
    {"apiGroups": ["batch"], "resources": ["cronjobs"], "verbs": _MANAGE},
    {"apiGroups": ["events.k8s.io"], "resources": ["events"], "verbs": _READ},
    {"apiGroups": ["policy"], "resources": ["poddisruptionbudgets"], "verbs": _MANAGE},
)

# Principal prefix -> RBAC subject kind. A Google service account is a User named by its email in GKE RBAC.
_SUBJECT_KINDS = {"user": "User", "group": "Group", "serviceAccount": "User"}


class TeamAccessError(InvalidInput):
    """A member that is not a principal gke-capacity can bind; the issue names it and what is allowed."""


def team_labels(team: str) -> dict[str, str]:
    return {MANAGED_BY_LABEL: MANAGED_BY, TEAM_LABEL: team}


def namespace(team: str, name: str) -> dict:
    """The Namespace object of one of the team's namespaces, labelled with the team."""
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name, "labels": team_labels(team)}}


def namespace_selector(team: str, namespaces: Iterable[str], *, labelled: bool = True) -> dict:
    """A selector admitting exactly the team's namespaces: by name (set by the API server, so a namespace
    cannot pose as another) and by team label. Never `{}`, which would admit every namespace (FACTS D).
    An existing namespace (`labelled` False) carries no team label, so it is selected by name alone."""
    by_name = {"matchExpressions": [{"key": NAMESPACE_NAME_LABEL, "operator": "In", "values": sorted(set(namespaces))}]}
    return {"matchLabels": {TEAM_LABEL: team}, **by_name} if labelled else by_name


def subject(member: str, where: str = "members") -> dict[str, str]:
    """The RBAC subject of a principal such as ``group:ml@acme.example``; raises TeamAccessError."""
    issues = member_issues(where, member) if isinstance(member, str) else member_issues(where, repr(member))
    if issues:
        raise TeamAccessError(issues)
    kind, _, name = member.partition(":")
    return {"kind": _SUBJECT_KINDS[kind], "apiGroup": RBAC_GROUP, "name": name}


def subjects(members: Iterable[str], where: str = "members") -> list[dict[str, str]]:
    """Subjects of the members, in the order given, without duplicates."""
    out: list[dict[str, str]] = []
    for index, member in enumerate(members):
        item = subject(member, f"{where}[{index}]")
        if item not in out:
            out.append(item)
    return out


def role_binding(team: str, namespace_name: str, name: str, cluster_role: str, members: list[dict[str, str]]) -> dict:
    """A RoleBinding (namespaced: the grant stops at this namespace) of a ClusterRole to the members."""
    return {
        "apiVersion": f"{RBAC_GROUP}/v1",
        "kind": "RoleBinding",
        "metadata": {"name": name, "namespace": namespace_name, "labels": team_labels(team)},
        "roleRef": {"apiGroup": RBAC_GROUP, "kind": "ClusterRole", "name": cluster_role},
        "subjects": [dict(s) for s in members],
    }


def member_cluster_role() -> dict:
    """The explicit part of a member's rights (bound per namespace, never cluster-wide): workloads, their pods,
    configuration and storage; read-only quotas. No LocalQueues, ResourceQuotas, RBAC or admission objects."""
    return {
        "apiVersion": f"{RBAC_GROUP}/v1",
        "kind": "ClusterRole",
        "metadata": {"name": MEMBER_CLUSTER_ROLE, "labels": {MANAGED_BY_LABEL: MANAGED_BY}},
        "rules": [{key: list(value) for key, value in rule.items()} for rule in MEMBER_RULES],
    }


def team_role_bindings(
    team: str, namespaces: Iterable[str], members: Iterable[str], *, kueue_fullname: str = "kueue", where: str = "members"
) -> list[dict]:
    """Per team namespace: the member role and Kueue's batch-user role for the members (none without members)."""
    bound = subjects(members, where)
    if not bound:
        return []
    batch_user = f"{kueue_fullname}{BATCH_USER_ROLE_SUFFIX}"
    out = []
    for ns in namespaces:
        out.append(role_binding(team, ns, f"gkecap-{team}-member", MEMBER_CLUSTER_ROLE, bound))
        out.append(role_binding(team, ns, f"gkecap-{team}-batch-user", batch_user, bound))
    return out
