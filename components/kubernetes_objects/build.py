"""Every Kubernetes object an environment needs for Kueue, from the capacity model: pure, no Pulumi.

``kueue_objects(model)`` returns plain dicts ({apiVersion, kind, metadata, spec...}) in apply order: what a
kind depends on comes first (Namespaces before the LocalQueues and RoleBindings in them, the Topology before
the flavors naming it, flavors and admission checks before the queues using them, parent Cohorts before
children); the guards of team quotas (admission policies and bindings, ResourceQuotas, the member ClusterRole)
come last. Names and order are deterministic. The same list feeds the `KueueObjects` component and
`gkecap manifests`.

Kueue objects are `kueue.x-k8s.io/v1beta2` by default, `v1beta1` with `kueue.apiVersion: v1beta1` (Kueue
older than v0.15, FACTS D), and each is checked by `gkecap.components.kueue_api.validate_kueue_object` as it is
built. Everything is built before anything is returned: a bad object raises, nothing is half-emitted.
"""

from __future__ import annotations

from typing import Iterable

from gkecap.components.kubernetes_objects.kueue_chart import KUEUE_FULLNAME
from gkecap.components.kubernetes_objects.flavors import api_version_of, capacity_objects
from gkecap.components.kubernetes_objects.multikueue import manager_objects
from gkecap.components.kubernetes_objects.queues import sharing_objects
from gkecap.components.issues import InvalidInput, Issue
from gkecap.components.model import CapacityModel, derive
from gkecap.components.spec import EnvironmentSpec
from gkecap.components.kubernetes_objects.admission_policy import admission_policy, admission_policy_binding
from gkecap.components.kubernetes_objects.resource_quotas import resource_quotas
from gkecap.components.kubernetes_objects.team_access import member_cluster_role, namespace, team_role_bindings

# Apply order of kinds. Core kinds first (namespaces), then Kueue kinds by reference direction.
KIND_ORDER: tuple[str, ...] = (
    "Namespace",
    "Topology",
    "ResourceFlavor",
    "ProvisioningRequestConfig",
    "AdmissionCheck",
    "WorkloadPriorityClass",
    "Cohort",
    "ClusterQueue",
    "LocalQueue",
    "RoleBinding",
    # The guards of team quotas (admission_policy, resource_quotas, team_access): nothing refers to them, and a
    # RoleBinding may name its ClusterRole before it exists (it grants nothing until then).
    "ClusterRole",
    "ResourceQuota",
    "ValidatingAdmissionPolicy",
    "ValidatingAdmissionPolicyBinding",
    # MultiKueue (a manager's objects), last so the numbered manifest files of other kinds keep their names; the
    # MultiKueue AdmissionCheck is Inactive until its MultiKueueConfig exists, then Kueue activates it.
    "MultiKueueCluster",
    "MultiKueueConfig",
    # A MultiKueue worker's GitOps unit: the manager's identity there (multikueue.worker_access_objects; Pulumi
    # registers the same objects itself), the ServiceAccount before its binding and token Secret.
    "ServiceAccount",
    "ClusterRoleBinding",
    "Secret",
)
NAMESPACED_KINDS = frozenset({"LocalQueue", "RoleBinding", "ResourceQuota"})


class KueueObjectsError(InvalidInput):
    """Two generated objects would have the same kind, namespace and name."""


def object_key(obj: dict) -> str:
    """`Kind/name` for cluster-scoped objects, `Kind/namespace/name` for namespaced ones."""
    meta = obj["metadata"]
    if "namespace" in meta:
        return f"{obj['kind']}/{meta['namespace']}/{meta['name']}"
    return f"{obj['kind']}/{meta['name']}"


def _team_objects(model: CapacityModel) -> dict[str, list[dict]]:
    namespaces, bindings, quotas = [], [], []
    for team in model.teams:
        if not team.existing_namespace:  # an existing namespace (`namespace:`, even `default`) is not ours to make
            namespaces += [namespace(team.name, ns) for ns in team.namespaces]
        bindings += team_role_bindings(
            team.name, team.namespaces, team.members, kueue_fullname=KUEUE_FULLNAME,
            where=f"teams[{team.index}].members",
        )
        quotas += resource_quotas(model, team)
    return {"Namespace": namespaces, "RoleBinding": bindings, "ResourceQuota": quotas,
            "ClusterRole": [member_cluster_role()] if bindings else []}


def _admission_objects(model: CapacityModel, local_queues: list[dict]) -> dict[str, list[dict]]:
    """Per team, its admission policy (allowing the LocalQueues generated in its namespaces) and binding."""
    queues_in: dict[str, set[str]] = {}
    for queue in local_queues:
        queues_in.setdefault(queue["metadata"]["namespace"], set()).add(queue["metadata"]["name"])
    policies, bindings = [], []
    for team in model.teams:
        queues = set().union(*(queues_in.get(ns, set()) for ns in team.namespaces))
        policies.append(admission_policy(team.name, queues, team.priorities))
        bindings.append(admission_policy_binding(team.name, team.namespaces))
    return {"ValidatingAdmissionPolicy": policies, "ValidatingAdmissionPolicyBinding": bindings}


def kueue_objects(model: CapacityModel) -> list[dict]:
    """All generated objects of the environment, in apply order (with MultiKueue workers: the manager's)."""
    by_kind: dict[str, list[dict]] = {}
    by_kind.update(_team_objects(model))
    by_kind.update(capacity_objects(model))
    by_kind.update(sharing_objects(model))
    by_kind.update(_admission_objects(model, by_kind.get("LocalQueue", [])))
    for kind, objects in manager_objects(model, api_version_of(model.kueue.api_version)).items():
        by_kind[kind] = by_kind.get(kind, []) + objects
    ordered = [obj for kind in KIND_ORDER for obj in by_kind.get(kind, [])]
    _check_unique(ordered)
    return ordered


def kueue_objects_for_spec(spec: EnvironmentSpec) -> list[dict]:
    return kueue_objects(derive(spec))


def _check_unique(objects: Iterable[dict]) -> None:
    seen: set[str] = set()
    duplicates = []
    for obj in objects:
        key = object_key(obj)
        if key in seen:
            duplicates.append(key)
        seen.add(key)
    if duplicates:
        raise KueueObjectsError([Issue(
            "", f"generated objects collide: {', '.join(sorted(set(duplicates)))}; pool, team, cohort, namespace and "
            "priority class names must be unique per kind"
        )])


def objects_of_kind(objects: Iterable[dict], kind: str) -> list[dict]:
    return [o for o in objects if o["kind"] == kind]
