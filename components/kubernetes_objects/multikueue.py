"""MultiKueue objects (issue 24): what the manager needs to dispatch to its workers, and what each worker gives
the manager to reach it. Pure: plain dicts, no Pulumi.

Manager (Kueue objects, with the others in `build.kueue_objects`): one MultiKueueCluster per worker, reading
the worker's kubeconfig from a Secret in Kueue's namespace; one MultiKueueConfig listing the workers in file
order; the AdmissionCheck with Kueue's MultiKueue controller, which every team ClusterQueue carries instead of the
ProvisioningRequest checks (those run on the worker that holds the queued pool: Kueue marks a ClusterQueue with
both inactive, reason MultiKueueWithProvisioningRequest, FACTS D).

Worker (`worker_access_objects`): the identity the manager uses there. Kueue refuses kubeconfigs with exec
plugins, auth providers, token files or CA file paths (pkg/controller/admissionchecks/multikueue/
multikueuecluster.go validateKubeconfig at v0.19.2), so GKE's gke-gcloud-auth-plugin (an exec plugin) cannot be
used; Workload Identity Federation reaches a worker only through the ClusterProfile API, behind the alpha
MultiKueueClusterProfile gate (off by default, pkg/features/kube_features.go). What Kueue documents for a
worker (site/static/examples/multikueue/create-multikueue-kubeconfig.sh) and what works on GKE is a
ServiceAccount bound to a ClusterRole limited to the dispatched kinds, with a service-account token Secret; the
kubeconfig holds the worker's endpoint, its CA data and that token (`worker_kubeconfig`).
"""

from __future__ import annotations

from typing import Any, Iterable

import yaml

from gkecap.components import kueue_api
from gkecap.components.kubernetes_objects.kueue_chart import DISPATCHERS, KUEUE_NAMESPACE, manager_settings  # noqa: F401 -- part of this module's API
from gkecap.components.kubernetes_objects.team_access import MANAGED_BY, MANAGED_BY_LABEL, RBAC_GROUP
from gkecap.components.model import CapacityModel

MULTIKUEUE_CHECK = "multikueue"  # the AdmissionCheck every team ClusterQueue of the manager carries
MULTIKUEUE_CONFIG = "multikueue"  # the MultiKueueConfig it points at
ACCESS_NAME = "gkecap-multikueue"  # the worker's ServiceAccount, ClusterRole, binding and token Secret
TOKEN_SECRET_TYPE = "kubernetes.io/service-account-token"

# Job kinds MultiKueue dispatches, per first Kueue release: v0.6.0 had adapters for Job and JobSet only
# (pkg/controller/admissionchecks/multikueue/workload.go `adapters`); from v0.8 each integration declares
# `MultiKueueAdapter:` (pkg/controller/jobs/<kind>/*_controller.go; Job and JobSet at every tag v0.8.0 .. v0.19.2).
# The project emits batch/Job and JobSet (kubernetes_objects.workloads).
DISPATCHED_KINDS_SINCE: dict[str, tuple[int, int, int]] = {
    "job": (0, 6, 0),
    "jobset": (0, 6, 0),
}

# What the manager does on a worker for Jobs and JobSets (create-multikueue-kubeconfig.sh at v0.19.2, the
# rules of the kinds the project dispatches, plus Kueue's own Workloads and the queues it reads).
_VERBS = ["create", "delete", "get", "list", "watch"]
WORKER_RULES: tuple[dict[str, Any], ...] = (
    {"apiGroups": ["batch"], "resources": ["jobs"], "verbs": _VERBS},
    {"apiGroups": ["batch"], "resources": ["jobs/status"], "verbs": ["get"]},
    {"apiGroups": ["jobset.x-k8s.io"], "resources": ["jobsets"], "verbs": _VERBS},
    {"apiGroups": ["jobset.x-k8s.io"], "resources": ["jobsets/status"], "verbs": ["get"]},
    {"apiGroups": ["kueue.x-k8s.io"], "resources": ["workloads"], "verbs": [*_VERBS, "update", "patch"]},
    {"apiGroups": ["kueue.x-k8s.io"], "resources": ["workloads/status"], "verbs": ["get", "patch", "update"]},
    {"apiGroups": ["kueue.x-k8s.io"], "resources": ["clusterqueues", "localqueues"], "verbs": ["get", "list",
                                                                                                 "watch"]},
)


def kubeconfig_secret_name(worker: str) -> str:
    """The manager's Secret (in Kueue's namespace) holding a worker's kubeconfig."""
    return f"multikueue-{worker}"


def _labels() -> dict[str, str]:
    return {MANAGED_BY_LABEL: MANAGED_BY}


def manager_objects(model: CapacityModel, api_version: str) -> dict[str, list[dict]]:
    """The manager's MultiKueueClusters, MultiKueueConfig and MultiKueue AdmissionCheck, by kind."""
    if not model.workers:
        return {}
    return {
        "MultiKueueCluster": [kueue_api.multikueue_cluster(w.name, kubeconfig_secret_name(w.name), labels=_labels(),
                                                           api_version=api_version) for w in model.workers],
        "MultiKueueConfig": [kueue_api.multikueue_config(MULTIKUEUE_CONFIG, [w.name for w in model.workers],
                                                         labels=_labels(), api_version=api_version)],
        "AdmissionCheck": [kueue_api.multikueue_admission_check(MULTIKUEUE_CHECK, MULTIKUEUE_CONFIG,
                                                                labels=_labels(), api_version=api_version)],
    }


def worker_access_objects(namespace: str = KUEUE_NAMESPACE) -> list[dict]:
    """The manager's identity on a worker: ServiceAccount, ClusterRole, ClusterRoleBinding and the token Secret
    Kubernetes fills (`data.token`), in apply order."""
    meta = {"name": ACCESS_NAME, "namespace": namespace, "labels": _labels()}
    return [
        {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": dict(meta)},
        {"apiVersion": f"{RBAC_GROUP}/v1", "kind": "ClusterRole",
         "metadata": {"name": ACCESS_NAME, "labels": _labels()}, "rules": [dict(r) for r in WORKER_RULES]},
        {"apiVersion": f"{RBAC_GROUP}/v1", "kind": "ClusterRoleBinding",
         "metadata": {"name": ACCESS_NAME, "labels": _labels()},
         "roleRef": {"apiGroup": RBAC_GROUP, "kind": "ClusterRole", "name": ACCESS_NAME},
         "subjects": [{"kind": "ServiceAccount", "name": ACCESS_NAME, "namespace": namespace}]},
        {"apiVersion": "v1", "kind": "Secret", "type": TOKEN_SECRET_TYPE,
         "metadata": {**meta, "annotations": {"kubernetes.io/service-account.name": ACCESS_NAME}}},
    ]


def worker_kubeconfig(worker: str, endpoint: str, ca_certificate: str, token: str) -> str:
    """The kubeconfig the manager uses for a worker: https endpoint, CA data (base64 PEM), the bearer token. No
    exec plugin, token file or CA path: Kueue refuses those (validateKubeconfig, v0.19.2)."""
    server = endpoint if endpoint.startswith("https://") else f"https://{endpoint}"
    user = f"{worker}-{ACCESS_NAME}"
    return yaml.safe_dump({
        "apiVersion": "v1", "kind": "Config",
        "clusters": [{"name": worker, "cluster": {"server": server, "certificate-authority-data": ca_certificate}}],
        "users": [{"name": user, "user": {"token": token}}],
        "contexts": [{"name": worker, "context": {"cluster": worker, "user": user}}],
        "current-context": worker,
    }, sort_keys=False)


def dispatch_issues(kinds: Iterable[str], release: tuple[int, int, int]) -> list[str]:
    """The job kinds (of `kinds`) MultiKueue does not dispatch in a Kueue release."""
    return [kind for kind in kinds if kind not in DISPATCHED_KINDS_SINCE or release < DISPATCHED_KINDS_SINCE[kind]]

