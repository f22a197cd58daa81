"""The admission policy of the bundled prod stack, run with cel-python as the API server runs it (testkit.admission_cel):
every hostile object is refused, every allowed one passes.

The objects are what a team member sends: accelerators hidden in init and ephemeral containers, in every workload
kind Kueue integrates and Kubernetes' own, DRA claims, other teams' queues, priority classes above the team's
allowance. Team vision (namespace vision) has the LocalQueue vision and may use high, normal and low (serving is the
environment's highest class: not allowed by default); team llm owns llm and llm-eval.
"""

from __future__ import annotations

import copy
from datetime import datetime, timezone
from pathlib import Path

import pytest

from gkecap.components.kubernetes_objects.admission_policy import POD_SPECS, RESOURCE_RULES, admission_policy
from gkecap.components.kubernetes_objects.build import kueue_objects
from gkecap.components.model import derive
from gkecap.components.spec import load_stack_file
from testkit.admission_cel import Request, admit

PROD = Path(__file__).resolve().parents[3] / "stacks" / "Pulumi.prod.yaml"
WRITTEN = datetime(2026, 11, 22, tzinfo=timezone.utc)
QUEUE = "kueue.x-k8s.io/queue-name"
PRIORITY = "kueue.x-k8s.io/priority-class"


@pytest.fixture(scope="module")
def guards():
    objects = kueue_objects(derive(load_stack_file(PROD, now=WRITTEN)))
    policies = [o for o in objects if o["kind"] == "ValidatingAdmissionPolicy"]
    bindings = [o for o in objects if o["kind"] == "ValidatingAdmissionPolicyBinding"]
    return policies, bindings


def decide(guards, request: Request):
    """Every team's policy judges the request (as the API server runs every bound policy); denied if any denies."""
    policies, bindings = guards
    decisions = [admit(p, bindings, request) for p in policies]
    return all(d.allowed for d in decisions), [m for d in decisions for m in d.messages]


# ---- objects -------------------------------------------------------------------------------------------------

def container(resources: dict | None = None, name: str = "main") -> dict:
    out = {"name": name, "image": "trainer:1"}
    if resources is not None:
        out["resources"] = resources
    return out


GPU = {"limits": {"nvidia.com/gpu": "8"}}
GPU_REQUEST = {"requests": {"nvidia.com/gpu": "1"}}
TPU = {"requests": {"google.com/tpu": "4"}, "limits": {"google.com/tpu": "4"}}
MIG = {"limits": {"nvidia.com/mig-1g.5gb": "1"}}
CPU = {"requests": {"cpu": "4", "memory": "8Gi"}}


def pod_spec(resources: dict | None = GPU, **extra) -> dict:
    return {"containers": [container(resources)], **extra}


def labels(queue: str | None = None, priority: str | None = None) -> dict:
    out = {"app": "train"}
    if queue is not None:
        out[QUEUE] = queue
    if priority is not None:
        out[PRIORITY] = priority
    return out


def meta(queue=None, priority=None, namespace="vision") -> dict:
    return {"name": "w", "namespace": namespace, "labels": labels(queue, priority)}


def template(spec: dict) -> dict:
    return {"metadata": {"labels": {"app": "train"}}, "spec": spec}


def pod(spec=None, **kw):
    return ("", "pods", {"apiVersion": "v1", "kind": "Pod", "metadata": meta(**kw), "spec": spec or pod_spec()})


def with_template(group, resource, api_version, kind, spec=None, **kw):
    return (group, resource, {"apiVersion": api_version, "kind": kind, "metadata": meta(**kw),
                              "spec": {"template": template(spec or pod_spec())}})


def job(spec=None, **kw):
    return with_template("batch", "jobs", "batch/v1", "Job", spec, **kw)


def deployment(spec=None, **kw):
    return with_template("apps", "deployments", "apps/v1", "Deployment", spec, **kw)


def cron_job(template_queue=None, spec=None, **kw):
    job_template = {"spec": {"template": template(spec or pod_spec())}}
    if template_queue is not None:
        job_template["metadata"] = {"labels": labels(template_queue)}
    return ("batch", "cronjobs", {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": meta(**kw),
                                  "spec": {"schedule": "0 * * * *", "jobTemplate": job_template}})


def job_set(specs=None, **kw):
    specs = specs or [pod_spec()]
    return ("jobset.x-k8s.io", "jobsets", {
        "apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet", "metadata": meta(**kw),
        "spec": {"replicatedJobs": [{"name": f"r{i}", "replicas": 1, "template": {"spec": {"template": template(s)}}}
                                    for i, s in enumerate(specs)]}})


def ray_groups(head=None, worker=None) -> dict:
    return {"headGroupSpec": {"template": template(head or pod_spec(CPU))},
            "workerGroupSpecs": [{"groupName": "gpu", "template": template(worker or pod_spec())}]}


def ray_job(**kw):
    return ("ray.io", "rayjobs", {"apiVersion": "ray.io/v1", "kind": "RayJob", "metadata": meta(**kw),
                                  "spec": {"entrypoint": "python train.py", "rayClusterSpec": ray_groups()}})


def ray_cluster(**kw):
    return ("ray.io", "rayclusters", {"apiVersion": "ray.io/v1", "kind": "RayCluster", "metadata": meta(**kw),
                                      "spec": ray_groups(head=pod_spec(GPU), worker=pod_spec(CPU))})


def ray_service(**kw):
    return ("ray.io", "rayservices", {"apiVersion": "ray.io/v1", "kind": "RayService", "metadata": meta(**kw),
                                      "spec": {"rayClusterConfig": ray_groups()}})


def leader_worker_set(**kw):
    return ("leaderworkerset.x-k8s.io", "leaderworkersets", {
        "apiVersion": "leaderworkerset.x-k8s.io/v1", "kind": "LeaderWorkerSet", "metadata": meta(**kw),
        "spec": {"leaderWorkerTemplate": {"size": 2, "leaderTemplate": template(pod_spec(CPU)),
                                          "workerTemplate": template(pod_spec())}}})


KUBEFLOW = {"PyTorchJob": ("pytorchjobs", "pytorchReplicaSpecs"), "TFJob": ("tfjobs", "tfReplicaSpecs"),
            "MPIJob": ("mpijobs", "mpiReplicaSpecs"), "XGBoostJob": ("xgboostjobs", "xgbReplicaSpecs"),
            "PaddleJob": ("paddlejobs", "paddleReplicaSpecs"), "JAXJob": ("jaxjobs", "jaxReplicaSpecs")}


def kubeflow(kind, **kw):
    resource, field = KUBEFLOW[kind]
    return ("kubeflow.org", resource, {
        "apiVersion": "kubeflow.org/v1", "kind": kind, "metadata": meta(**kw),
        "spec": {field: {"Master": {"replicas": 1, "template": template(pod_spec(CPU))},
                         "Worker": {"replicas": 2, "template": template(pod_spec())}}}})


def train_job(**kw):
    return ("trainer.kubeflow.org", "trainjobs", {
        "apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainJob", "metadata": meta(**kw),
        "spec": {"runtimeRef": {"name": "torch-distributed"}}})


def app_wrapper(**kw):
    return ("workload.codeflare.dev", "appwrappers", {
        "apiVersion": "workload.codeflare.dev/v1beta2", "kind": "AppWrapper", "metadata": meta(**kw),
        "spec": {"components": []}})


def spark_application(**kw):
    return ("sparkoperator.k8s.io", "sparkapplications", {
        "apiVersion": "sparkoperator.k8s.io/v1beta2", "kind": "SparkApplication", "metadata": meta(**kw),
        "spec": {"type": "Python", "executor": {"instances": 2, "gpu": {"name": "nvidia.com/gpu", "quantity": 1}}}})


def request(case, *, namespace="vision", operation="CREATE", username="alice@acme.example", old=None,
            resource=None) -> Request:
    group, plural, obj = case
    return Request(object=obj, namespace=namespace, resource=resource or plural, group=group, operation=operation,
                   username=username, old_object=old)


def _set_labels(case, new_labels):
    group, plural, obj = copy.deepcopy(case)
    obj["metadata"]["labels"] = new_labels
    return group, plural, obj


def _unlabelled_cpu_deployment_given_a_gpu():
    old = deployment(pod_spec(CPU))[2]
    return request(deployment(), operation="UPDATE", old=old)


def _labelled_job_losing_its_label():
    old = job(queue="vision")[2]
    return request(job(), operation="UPDATE", old=old)


def _debug_container_with_gpu():
    group, plural, obj = pod(pod_spec(CPU))
    obj["spec"]["ephemeralContainers"] = [{"name": "debug", "image": "busybox", "resources": GPU}]
    return request((group, plural, obj), operation="UPDATE", resource="pods/ephemeralcontainers", old=pod(pod_spec(CPU))[2])


HOSTILE: dict[str, Request] = {
    "pod-no-label": request(pod()),
    "pod-gpu-request-only": request(pod(pod_spec(GPU_REQUEST))),
    "pod-other-teams-queue": request(pod(queue="speech")),
    "pod-unknown-queue": request(pod(queue="gpu-fast-lane")),
    "pod-empty-queue-label": request(pod(queue="")),
    "pod-gpu-only-in-init-container": request(pod({"containers": [container(CPU)],
                                                   "initContainers": [container(GPU, "prep")]})),
    "pod-tpu": request(pod(pod_spec(TPU))),
    "pod-mig-resource": request(pod(pod_spec(MIG))),
    "pod-dra-claim": request(pod(pod_spec(CPU, resourceClaims=[{"name": "gpu", "resourceClaimName": "a100"}]))),
    "pod-debug-container-with-gpu": _debug_container_with_gpu(),
    "pod-highest-priority-class": request(pod(queue="vision", priority="serving")),
    "pod-unknown-priority-class": request(pod(queue="vision", priority="urgent")),
    "pod-kubernetes-priority-class": request(pod(pod_spec(GPU, priorityClassName="system-cluster-critical"),
                                                 queue="vision")),
    "pod-team-service-account": request(pod(), username="system:serviceaccount:vision:trainer"),
    "pod-anonymous-user": request(pod(), username="system:anonymous"),
    "job-no-label": request(job()),
    "job-other-teams-queue": request(job(queue="llm")),
    "job-tpu-no-label": request(job(pod_spec(TPU))),
    "cron-job-label-on-the-cron-job-only": request(cron_job(queue="vision")),
    "deployment-hides-the-pod-template": request(deployment()),
    "deployment-gets-a-gpu-later": _unlabelled_cpu_deployment_given_a_gpu(),
    "job-label-removed-after-creation": _labelled_job_losing_its_label(),
    "stateful-set-no-label": request(with_template("apps", "statefulsets", "apps/v1", "StatefulSet")),
    "replica-set-no-label": request(with_template("apps", "replicasets", "apps/v1", "ReplicaSet")),
    "daemon-set-no-label": request(with_template("apps", "daemonsets", "apps/v1", "DaemonSet")),
    "replication-controller-no-label": request(with_template("", "replicationcontrollers", "v1",
                                                             "ReplicationController")),
    "job-set-no-label": request(job_set()),
    "job-set-gpu-in-second-job-init-container": request(job_set(
        [pod_spec(CPU), {"containers": [container(CPU)], "initContainers": [container(MIG)]}])),
    "job-set-highest-priority": request(job_set(queue="vision", priority="serving")),
    "ray-job-no-label": request(ray_job()),
    "ray-cluster-gpu-head-no-label": request(ray_cluster()),
    "ray-service-no-label": request(ray_service()),
    "leader-worker-set-no-label": request(leader_worker_set()),
    **{f"{kind.lower()}-no-label": request(kubeflow(kind)) for kind in KUBEFLOW},
    "train-job-no-label": request(train_job()),
    "app-wrapper-no-label": request(app_wrapper()),
    "spark-application-no-label": request(spark_application()),
    "llm-eval-with-vision-queue": request(job(queue="vision", namespace="llm-eval"), namespace="llm-eval"),
    "llm-highest-priority": request(job(queue="llm", priority="serving", namespace="llm"), namespace="llm"),
}

ALLOWED: dict[str, Request] = {
    "pod-labelled": request(pod(queue="vision")),
    "pod-cpu-only": request(pod(pod_spec(CPU))),
    "pod-no-resources": request(pod(pod_spec(None))),
    **{f"pod-priority-{p}": request(pod(queue="vision", priority=p)) for p in ("high", "normal", "low")},
    "pod-empty-priority-class-name": request(pod(pod_spec(GPU, priorityClassName=""), queue="vision")),
    "pod-tpu-labelled": request(pod(pod_spec(TPU), queue="vision")),
    "pod-mig-labelled": request(pod(pod_spec(MIG), queue="vision")),
    "job-labelled": request(job(queue="vision")),
    "job-cpu-only-unlabelled": request(job(pod_spec(CPU))),
    "cron-job-template-labelled": request(cron_job(template_queue="vision")),
    "deployment-labelled": request(deployment(queue="vision")),
    "deployment-cpu-only-unlabelled": request(deployment(pod_spec(CPU))),
    "deployment-update-keeps-label": request(deployment(queue="vision"), operation="UPDATE",
                                             old=deployment(queue="vision")[2]),
    "stateful-set-labelled": request(with_template("apps", "statefulsets", "apps/v1", "StatefulSet", queue="vision")),
    "job-set-labelled": request(job_set(queue="vision", priority="normal")),
    "job-set-cpu-only": request(job_set([pod_spec(CPU)])),
    "ray-job-labelled": request(ray_job(queue="vision")),
    "ray-cluster-labelled": request(ray_cluster(queue="vision")),
    "ray-service-labelled": request(ray_service(queue="vision")),
    "leader-worker-set-labelled": request(leader_worker_set(queue="vision")),
    **{f"{kind.lower()}-labelled": request(kubeflow(kind, queue="vision")) for kind in KUBEFLOW},
    "train-job-labelled": request(train_job(queue="vision")),
    "app-wrapper-labelled": request(app_wrapper(queue="vision")),
    "spark-application-labelled": request(spark_application(queue="vision")),
    # Pods of an admitted Job: the Job controller creates them from the checked template, without the label.
    "job-controller-creates-pods": request(pod(), username="system:serviceaccount:kube-system:job-controller"),
    "kueue-updates-a-job": request(job(), operation="UPDATE", old=job()[2],
                                   username="system:serviceaccount:kueue-system:kueue-controller-manager"),
    "replica-set-labelled": request(with_template("apps", "replicasets", "apps/v1", "ReplicaSet", queue="vision")),
    "daemon-set-labelled": request(with_template("apps", "daemonsets", "apps/v1", "DaemonSet", queue="vision")),
    "replication-controller-labelled": request(with_template("", "replicationcontrollers", "v1",
                                                             "ReplicationController", queue="vision")),
    "pod-debug-container-without-gpu": request(
        ("", "pods", {**pod(pod_spec(CPU))[2], "spec": {**pod_spec(CPU), "ephemeralContainers": [
            {"name": "debug", "image": "busybox"}]}}),
        operation="UPDATE", resource="pods/ephemeralcontainers", old=pod(pod_spec(CPU))[2]),
    "pod-gpu-in-init-container-labelled": request(pod({"containers": [container(CPU)],
                                                       "initContainers": [container(GPU, "prep")]}, queue="vision")),
    "cron-job-cpu-only-unlabelled": request(cron_job(spec=pod_spec(CPU))),
    "ray-cluster-cpu-only-unlabelled": request(("ray.io", "rayclusters", {
        "apiVersion": "ray.io/v1", "kind": "RayCluster", "metadata": meta(),
        "spec": ray_groups(head=pod_spec(CPU), worker=pod_spec(CPU))})),
    "job-cpu-only-labelled": request(job(pod_spec(CPU), queue="vision")),
    "llm-eval-with-llm-queue": request(job(queue="llm", namespace="llm-eval"), namespace="llm-eval"),
    "llm-high-priority": request(job(queue="llm", priority="high", namespace="llm"), namespace="llm"),
    "not-a-team-namespace": request(pod(namespace="ml-tools"), namespace="ml-tools"),
    "config-map": request(("", "configmaps", {"apiVersion": "v1", "kind": "ConfigMap",
                                              "metadata": {"name": "c", "namespace": "vision"}})),
}


def test_there_are_at_least_30_hostile_and_30_allowed_objects():
    assert len(HOSTILE) >= 30 and len(ALLOWED) >= len(HOSTILE)


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_object_is_refused(guards, name):
    allowed, messages = decide(guards, HOSTILE[name])
    assert not allowed and messages, name


@pytest.mark.parametrize("name", sorted(ALLOWED))
def test_an_allowed_object_passes(guards, name):
    allowed, messages = decide(guards, ALLOWED[name])
    assert allowed and not messages, messages


def test_every_kind_with_a_pod_template_and_every_matched_resource_has_a_hostile_case():
    kinds = {r.object["kind"] for r in HOSTILE.values()}
    assert set(POD_SPECS) <= kinds
    resources = {r.resource for r in HOSTILE.values()}
    assert {res for group in RESOURCE_RULES.values() for res in group} <= resources


def test_the_queue_message_names_the_teams_queue(guards):
    _, messages = decide(guards, HOSTILE["job-no-label"])
    assert messages == [
        "team vision: objects that request GPUs or TPUs (nvidia.com/gpu, nvidia.com/mig-*, google.com/tpu) must be "
        "queued through Kueue: set the label kueue.x-k8s.io/queue-name to a LocalQueue of this namespace (default, "
        "vision)"]  # `default`: the LocalQueue Kueue gives unlabelled jobs (kueue_api.job_management)


def test_the_priority_message_names_the_allowed_classes(guards):
    _, messages = decide(guards, HOSTILE["pod-highest-priority-class"])
    assert messages == ["team vision: the label kueue.x-k8s.io/priority-class may name only the "
                        "WorkloadPriorityClasses allowed to this team (high, normal, low)"]


def test_a_team_given_the_top_class_may_use_it():
    policy = admission_policy("llm", ["llm"], ["serving", "high"])
    binding = {"spec": {"policyName": policy["metadata"]["name"], "validationActions": ["Deny"],
                        "matchResources": {"namespaceSelector": {}}}}
    assert admit(policy, [binding], request(job(queue="llm", priority="serving", namespace="llm"),
                                            namespace="llm")).allowed


def test_a_malformed_object_fails_closed(guards):
    # A JobSet without replicatedJobs makes the CEL error: failurePolicy Fail refuses it.
    broken = request(("jobset.x-k8s.io", "jobsets", {"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet",
                                                     "metadata": meta(), "spec": {}}))
    allowed, messages = decide(guards, broken)
    assert not allowed and messages[0].startswith("evaluation error")
