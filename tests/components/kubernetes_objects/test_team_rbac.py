"""What a team member of the bundled prod stack may do, evaluated over the generated RBAC objects plus Kueue's
aggregated batch-user role (testkit.rbac): run and manage workloads in the team's namespaces, and nothing that
changes the team's quota, its queues, its guards or anyone else's namespace."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from gkecap.components.kubernetes_objects.build import kueue_objects
from gkecap.components.model import derive
from gkecap.components.spec import load_stack_file
from testkit.rbac import KUEUE_BATCH_USER_ROLES, allows

PROD = Path(__file__).resolve().parents[3] / "stacks" / "Pulumi.prod.yaml"
WRITTEN = datetime(2026, 11, 22, tzinfo=timezone.utc)
VISION = {"kind": "Group", "name": "vision@acme.example"}
WRITE = ("create", "update", "patch", "delete")

# Every (group, resource) a member could want to touch, and whether it is namespaced.
NAMESPACED = [
    ("", "pods"), ("", "pods/exec"), ("", "pods/log"), ("", "pods/ephemeralcontainers"), ("", "services"),
    ("", "configmaps"), ("", "secrets"), ("", "persistentvolumeclaims"), ("", "serviceaccounts"),
    ("", "resourcequotas"), ("", "limitranges"), ("", "replicationcontrollers"), ("apps", "deployments"),
    ("apps", "statefulsets"), ("apps", "replicasets"), ("apps", "daemonsets"), ("batch", "jobs"),
    ("batch", "cronjobs"), ("jobset.x-k8s.io", "jobsets"), ("ray.io", "rayjobs"), ("ray.io", "rayclusters"),
    ("ray.io", "rayservices"), ("leaderworkerset.x-k8s.io", "leaderworkersets"), ("kubeflow.org", "pytorchjobs"),
    ("kubeflow.org", "tfjobs"), ("kubeflow.org", "mpijobs"), ("kubeflow.org", "xgboostjobs"),
    ("kubeflow.org", "paddlejobs"), ("kubeflow.org", "jaxjobs"), ("trainer.kubeflow.org", "trainjobs"),
    ("sparkoperator.k8s.io", "sparkapplications"), ("workload.codeflare.dev", "appwrappers"),
    ("kueue.x-k8s.io", "localqueues"), ("kueue.x-k8s.io", "workloads"), ("rbac.authorization.k8s.io", "roles"),
    ("rbac.authorization.k8s.io", "rolebindings"), ("networking.k8s.io", "networkpolicies"),
    ("policy", "poddisruptionbudgets"),
]
CLUSTER_SCOPED = [
    ("", "namespaces"), ("kueue.x-k8s.io", "clusterqueues"), ("kueue.x-k8s.io", "cohorts"),
    ("kueue.x-k8s.io", "resourceflavors"), ("kueue.x-k8s.io", "workloadpriorityclasses"),
    ("kueue.x-k8s.io", "admissionchecks"), ("admissionregistration.k8s.io", "validatingadmissionpolicies"),
    ("admissionregistration.k8s.io", "validatingadmissionpolicybindings"), ("rbac.authorization.k8s.io", "clusterroles"),
    ("rbac.authorization.k8s.io", "clusterrolebindings"),
]


@pytest.fixture(scope="module")
def rbac():
    objects = kueue_objects(derive(load_stack_file(PROD, now=WRITTEN)))
    return [o for o in objects if o["kind"] in ("ClusterRole", "Role", "RoleBinding", "ClusterRoleBinding")] \
        + KUEUE_BATCH_USER_ROLES


def writable(rbac, namespace: str) -> set[str]:
    return {f"{group or 'core'}/{resource}" for group, resource in NAMESPACED
            if any(allows(rbac, VISION, verb, group, resource, namespace) for verb in WRITE)}


def test_what_a_member_can_change_in_the_team_namespace(rbac):
    # The list a reviewer reads: workloads (Kueue's batch-user kinds and the core ones), their pods and config.
    assert sorted(writable(rbac, "vision")) == sorted([
        "core/pods", "core/pods/exec", "core/pods/ephemeralcontainers", "core/services", "core/configmaps",
        "core/secrets", "core/persistentvolumeclaims", "apps/deployments", "apps/statefulsets", "batch/jobs",
        "batch/cronjobs", "jobset.x-k8s.io/jobsets", "ray.io/rayjobs", "ray.io/rayclusters", "ray.io/rayservices",
        "leaderworkerset.x-k8s.io/leaderworkersets", "kubeflow.org/pytorchjobs", "kubeflow.org/tfjobs",
        "kubeflow.org/mpijobs", "kubeflow.org/xgboostjobs", "kubeflow.org/paddlejobs", "kubeflow.org/jaxjobs",
        "trainer.kubeflow.org/trainjobs", "sparkoperator.k8s.io/sparkapplications", "policy/poddisruptionbudgets",
    ])


@pytest.mark.parametrize(("group", "resource"), [
    ("kueue.x-k8s.io", "localqueues"), ("", "resourcequotas"), ("rbac.authorization.k8s.io", "rolebindings"),
    ("rbac.authorization.k8s.io", "roles"), ("", "serviceaccounts"), ("apps", "daemonsets"), ("apps", "replicasets"),
])
@pytest.mark.parametrize("verb", WRITE)
def test_a_member_cannot_change_what_guards_the_quota(rbac, group, resource, verb):
    assert not allows(rbac, VISION, verb, group, resource, "vision")


@pytest.mark.parametrize(("group", "resource"), CLUSTER_SCOPED)
def test_a_member_cannot_touch_cluster_objects(rbac, group, resource):
    assert not any(allows(rbac, VISION, verb, group, resource) for verb in (*WRITE, "get", "list"))


def test_a_member_cannot_impersonate_the_namespace_service_accounts(rbac):
    # `edit` grants this; a service account's requests would still be checked, but its rights are not the member's.
    assert not allows(rbac, VISION, "impersonate", "", "serviceaccounts", "vision")


def test_a_member_can_read_the_team_queue_and_its_workloads(rbac):
    assert all(allows(rbac, VISION, "get", "kueue.x-k8s.io", resource, "vision")
               for resource in ("localqueues", "workloads"))


def test_nothing_in_another_teams_namespace(rbac):
    assert writable(rbac, "speech") == set() and writable(rbac, "llm") == set()
    assert not any(allows(rbac, VISION, "get", group, resource, "speech") for group, resource in NAMESPACED)


def test_the_evaluator_resolves_aggregation(rbac):
    # Jobs come only through Kueue's aggregated batch-user role: without the aggregated roles, no Job.
    without = [o for o in rbac if "batch-user" not in str(o["metadata"].get("labels"))]
    assert allows(rbac, VISION, "create", "batch", "jobs", "vision")
    assert not allows(without, VISION, "create", "batch", "jobs", "vision")
