"""The admission policy that keeps a team's accelerator work inside its Kueue quota. Pure: plain object dicts.

Per team, a `ValidatingAdmissionPolicy` and its `ValidatingAdmissionPolicyBinding` (admissionregistration.k8s.io/v1,
GA and served by default since Kubernetes 1.30, so on every GKE version from 1.30 on: docs/sources.md "Admission
policies"). The binding selects the team's namespaces by `kubernetes.io/metadata.name`, which the API server sets
and nobody can change. In those namespaces, an object that requests accelerators (`nvidia.com/gpu`,
`nvidia.com/mig-*`, `google.com/tpu`, or a DRA resource claim, in any container, init container or ephemeral
container of any of its pod templates), and every object that names a queue, must:

* carry `kueue.x-k8s.io/queue-name` naming one of the team's LocalQueues (a LocalQueue always lives in the
  workload's own namespace, so another team's queue name does not exist there and is refused too);
* name, with `kueue.x-k8s.io/priority-class`, only a WorkloadPriorityClass the team is allowed (`priorities`);
* set no `priorityClassName` in its pod templates: Kueue takes a workload's priority from it when the label is
  absent, and the scheduler preempts other pods by it.

Kinds: Pods (and their ephemeral containers), the workload kinds of Kubernetes, and every kind Kueue's batch-user
role lets a team create (`KUEUE_BATCH_USER_KINDS`). TrainJob, AppWrapper and SparkApplication carry their
accelerators outside a pod template (a training runtime, wrapped objects, a Spark setting), so they always need
the queue label.

Requests from the cluster's own controllers (a `system:` user other than `system:anonymous` and the service
accounts of the object's namespace: the Job, ReplicaSet and StatefulSet controllers, Kueue, JobSet, KubeRay...) are not checked: they
create pods from objects this policy already checked, and re-checking them would refuse the pods of an admitted
Job (Kueue labels the Job, not its pods). A team member cannot act as such a user: the team's RBAC grants no
impersonation and no access outside its namespaces (team_access).

The CEL is standard CEL (macros has/all/exists/map, string and list functions), which Kubernetes and cel-python
evaluate alike; the tests run it with cel-python against hostile and allowed objects.
"""

from __future__ import annotations

from typing import Iterable

from gkecap.components.catalog import GPU_RESOURCE, TPU_RESOURCE
from gkecap.components.kubernetes_objects.team_access import NAMESPACE_NAME_LABEL, team_labels
from gkecap.components.kubernetes_objects.workloads import PRIORITY_LABEL, QUEUE_LABEL

ADMISSION_GROUP = "admissionregistration.k8s.io"
ADMISSION_API_VERSION = f"{ADMISSION_GROUP}/v1"
# ValidatingAdmissionPolicy v1: GA in Kubernetes 1.30 (KEP-3488), so served by GKE 1.30 and later.
MIN_KUBERNETES_MINOR = 30

MIG_RESOURCE_PREFIX = "nvidia.com/mig-"  # the NVIDIA device plugin's mixed MIG strategy (nvidia.com/mig-1g.5gb...)
ACCELERATOR_RESOURCES = (GPU_RESOURCE, TPU_RESOURCE)
# A policy (like a binding) is named after its team.
POLICY_PREFIX = "gkecap-queue-"
# What the policy allows, for readers and the policy pack (policies/rules/quota_enforcement.py): comma-separated.
QUEUES_ANNOTATION = "gkecap.dev/queues"
PRIORITIES_ANNOTATION = "gkecap.dev/priority-classes"

# Where each kind keeps its pod templates (CEL over `object`; each entry is a list of pod specs). Kinds and paths
# of the APIs Kueue integrates (v0.19 pkg/controller/jobs/*: batch/job, jobset, ray, leaderworkerset, kubeflow,
# pod, deployment, statefulset) and Kubernetes' own workload controllers.
_TEMPLATE = "[object.spec.template.spec]"
_RAY_GROUPS = (
    "[{root}.headGroupSpec.template.spec] + (has({root}.workerGroupSpecs) ? "
    "{root}.workerGroupSpecs.map(g, g.template.spec) : [])"
)
_KUBEFLOW = "object.spec.{field}.map(k, object.spec.{field}[k].template.spec)"
POD_SPECS: dict[str, str] = {
    "Pod": "[object.spec]",
    "Job": _TEMPLATE,
    "Deployment": _TEMPLATE,
    "StatefulSet": _TEMPLATE,
    "ReplicaSet": _TEMPLATE,
    "DaemonSet": _TEMPLATE,
    "ReplicationController": _TEMPLATE,
    "CronJob": "[object.spec.jobTemplate.spec.template.spec]",
    "JobSet": "object.spec.replicatedJobs.map(r, r.template.spec.template.spec)",
    "RayCluster": _RAY_GROUPS.format(root="object.spec"),
    "RayJob": "(has(object.spec.rayClusterSpec) ? " + _RAY_GROUPS.format(root="object.spec.rayClusterSpec")
    + " : []) + (has(object.spec.submitterPodTemplate) ? [object.spec.submitterPodTemplate.spec] : [])",
    "RayService": _RAY_GROUPS.format(root="object.spec.rayClusterConfig"),
    "LeaderWorkerSet": "[object.spec.leaderWorkerTemplate.workerTemplate.spec] + "
    "(has(object.spec.leaderWorkerTemplate.leaderTemplate) ? [object.spec.leaderWorkerTemplate.leaderTemplate.spec] : [])",
    "PyTorchJob": _KUBEFLOW.format(field="pytorchReplicaSpecs"),
    "TFJob": _KUBEFLOW.format(field="tfReplicaSpecs"),
    "MPIJob": _KUBEFLOW.format(field="mpiReplicaSpecs"),
    "XGBoostJob": _KUBEFLOW.format(field="xgbReplicaSpecs"),
    "PaddleJob": _KUBEFLOW.format(field="paddleReplicaSpecs"),
    "JAXJob": _KUBEFLOW.format(field="jaxReplicaSpecs"),
}
# Kinds whose accelerators are not in a pod template of the object: always queued.
ALWAYS_QUEUED_KINDS = ("TrainJob", "AppWrapper", "SparkApplication")

# apiGroup -> resources the policy matches (CREATE and UPDATE). pods/ephemeralcontainers: `kubectl debug` adds
# containers through that subresource, with the whole Pod as the object.
RESOURCE_RULES: dict[str, tuple[str, ...]] = {
    "": ("pods", "pods/ephemeralcontainers", "replicationcontrollers"),
    "apps": ("deployments", "statefulsets", "replicasets", "daemonsets"),
    "batch": ("jobs", "cronjobs"),
    "jobset.x-k8s.io": ("jobsets",),
    "ray.io": ("rayjobs", "rayclusters", "rayservices"),
    "leaderworkerset.x-k8s.io": ("leaderworkersets",),
    "kubeflow.org": ("pytorchjobs", "tfjobs", "mpijobs", "xgboostjobs", "paddlejobs", "jaxjobs"),
    "trainer.kubeflow.org": ("trainjobs",),
    "workload.codeflare.dev": ("appwrappers",),
    "sparkoperator.k8s.io": ("sparkapplications",),
}

# Requests the policy leaves alone: the cluster's controllers (see the module docstring).
NOT_A_CONTROLLER = (
    "!request.userInfo.username.startsWith('system:') || request.userInfo.username == 'system:anonymous' || "
    "request.userInfo.username.startsWith('system:serviceaccount:' + request.namespace + ':')"
)


def _cel_string(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _cel_list(items: Iterable[str]) -> str:
    return "[" + ", ".join(_cel_string(i) for i in items) + "]"


def _pod_specs_expression() -> str:
    expression = "[]"
    for kind, specs in reversed(POD_SPECS.items()):
        expression = f"object.kind == {_cel_string(kind)} ? {specs} : {expression}"
    return expression


def _accelerator_key(var: str) -> str:
    return " || ".join([f"{var} == {_cel_string(r)}" for r in ACCELERATOR_RESOURCES]
                       + [f"{var}.startsWith({_cel_string(MIG_RESOURCE_PREFIX)})"])


def _label(key: str) -> str:
    return f"{_cel_string(key)} in variables.labels ? variables.labels[{_cel_string(key)}] : ''"


def variables() -> list[dict[str, str]]:
    """The policy's variables, in evaluation order (each may use the ones before it)."""
    requests = (
        "(has(c.resources.requests) && c.resources.requests.exists(r, " + _accelerator_key("r") + ")) || "
        "(has(c.resources.limits) && c.resources.limits.exists(r, " + _accelerator_key("r") + "))"
    )
    return [
        # A CronJob's Jobs take their labels from its jobTemplate (Kueue manages those Jobs).
        {"name": "labels", "expression": (
            "object.kind == 'CronJob' ? (has(object.spec.jobTemplate.metadata) && "
            "has(object.spec.jobTemplate.metadata.labels) ? object.spec.jobTemplate.metadata.labels : {}) : "
            "(has(object.metadata.labels) ? object.metadata.labels : {})")},
        {"name": "podSpecs", "expression": _pod_specs_expression()},
        {"name": "containers", "expression": (
            "variables.podSpecs.map(s, (has(s.containers) ? s.containers : []) + "
            "(has(s.initContainers) ? s.initContainers : []) + "
            "(has(s.ephemeralContainers) ? s.ephemeralContainers : []))")},
        {"name": "accelerated", "expression": (
            f"object.kind in {_cel_list(ALWAYS_QUEUED_KINDS)} || "
            "variables.podSpecs.exists(s, has(s.resourceClaims) && size(s.resourceClaims) > 0) || "
            f"variables.containers.exists(cs, cs.exists(c, has(c.resources) && ({requests})))")},
        {"name": "queue", "expression": _label(QUEUE_LABEL)},
        {"name": "priority", "expression": _label(PRIORITY_LABEL)},
    ]


def validations(team: str, queues: Iterable[str], priorities: Iterable[str]) -> list[dict[str, str]]:
    """The three checks, each with a message that names the team's queues and allowed classes."""
    queues, priorities = sorted(set(queues)), list(priorities)
    queue_list = ", ".join(queues) or "(none)"
    class_list = ", ".join(priorities) or "(none: leave the label off)"
    return [
        {
            "expression": f"(!variables.accelerated && variables.queue == '') || variables.queue in {_cel_list(queues)}",
            "message": (
                f"team {team}: objects that request GPUs or TPUs (nvidia.com/gpu, nvidia.com/mig-*, google.com/tpu) "
                f"must be queued through Kueue: set the label {QUEUE_LABEL} to a LocalQueue of this namespace "
                f"({queue_list})"),
            "reason": "Forbidden",
        },
        {
            "expression": f"variables.priority == '' || variables.priority in {_cel_list(priorities)}",
            "message": (
                f"team {team}: the label {PRIORITY_LABEL} may name only the WorkloadPriorityClasses allowed to this "
                f"team ({class_list})"),
            "reason": "Forbidden",
        },
        {
            "expression": (
                "(!variables.accelerated && variables.queue == '') || "
                "variables.podSpecs.all(s, !has(s.priorityClassName) || s.priorityClassName == '')"),
            "message": (
                f"team {team}: queued and accelerator workloads must not set priorityClassName (Kueue and the "
                f"scheduler would take their priority from it); use the label {PRIORITY_LABEL} with one of: "
                f"{class_list}"),
            "reason": "Forbidden",
        },
    ]


def policy_name(team: str) -> str:
    return f"{POLICY_PREFIX}{team}"


def admission_policy(team: str, queues: Iterable[str], priorities: Iterable[str]) -> dict:
    """The team's ValidatingAdmissionPolicy (cluster-scoped; applies where its binding says)."""
    queues, priorities = sorted(set(queues)), list(priorities)
    rules = [
        {"apiGroups": [group], "apiVersions": ["*"], "operations": ["CREATE", "UPDATE"], "resources": list(resources)}
        for group, resources in RESOURCE_RULES.items()
    ]
    return {
        "apiVersion": ADMISSION_API_VERSION,
        "kind": "ValidatingAdmissionPolicy",
        "metadata": {"name": policy_name(team), "labels": team_labels(team), "annotations": {
            QUEUES_ANNOTATION: ",".join(queues), PRIORITIES_ANNOTATION: ",".join(priorities)}},
        "spec": {
            "failurePolicy": "Fail",
            "matchConstraints": {"resourceRules": rules},
            "matchConditions": [{"name": "not-a-cluster-controller", "expression": NOT_A_CONTROLLER}],
            "variables": variables(),
            "validations": validations(team, queues, priorities),
        },
    }


def admission_policy_binding(team: str, namespaces: Iterable[str]) -> dict:
    """The binding that applies the team's policy, denying, in exactly the team's namespaces (by name)."""
    return {
        "apiVersion": ADMISSION_API_VERSION,
        "kind": "ValidatingAdmissionPolicyBinding",
        "metadata": {"name": policy_name(team), "labels": team_labels(team)},
        "spec": {
            "policyName": policy_name(team),
            "validationActions": ["Deny"],
            "matchResources": {"namespaceSelector": {"matchExpressions": [
                {"key": NAMESPACE_NAME_LABEL, "operator": "In", "values": sorted(set(namespaces))}]}},
        },
    }
