"""Ready-to-apply workload manifests for a team, from the capacity model: pure, no Pulumi.

    workload_manifest(model, team="llm", pool="h100-dws", pods=2)   # a batch/v1 Job (dict)
    workload_manifest(model, team="vision", pool="v6e-4x4", pods=8)  # a JobSet of two 4-VM TPU slices
    starter_workloads(model)                                         # {(team, pool): manifest}

A manifest carries exactly what the platform needs, taken from the same model the Kueue objects are built
from: the team's namespace and LocalQueue (`kueue.x-k8s.io/queue-name`), the priority class when asked, the
pool's node selector and tolerations (the ones its ResourceFlavor has), the accelerator request in the
resource and unit the pool's nodes advertise, the ProvisioningRequest run time of a queued pool, the
topology annotation of a topology-aware flavor, and `suspend: true` (Kueue starts the job on admission).

A shape that cannot run on the pool (more accelerators per pod than a node has, more nodes than the pool
grows to, a TPU pod that is not a whole VM, TPU pods that are not whole slices) raises `WorkloadError`, one
`Issue` per problem, paths named like the API's arguments (`accelerators`, `pods`...).
"""

from __future__ import annotations

import hashlib
import math
from typing import Any, Literal

from gkecap.components.issues import InvalidInput, Issue
from gkecap.components.k8s.names import dns1123_label_errors
from gkecap.components.kubernetes_objects.flavors import (
    MAX_RUN_DURATION_PARAMETER,
    TOPOLOGY_LEVELS,
    uses_topology,
)
from gkecap.components.kubernetes_objects.queues import team_pools
from gkecap.components.model import CapacityModel, PoolPlan, TeamPlan

# Kueue's job labels and annotations. Queue and priority: FACTS D [S14] (queue-name), Kueue's
# WorkloadPriorityClass docs https://kueue.sigs.k8s.io/docs/concepts/workload_priority_class/ (priority-class).
QUEUE_LABEL = "kueue.x-k8s.io/queue-name"
PRIORITY_LABEL = "kueue.x-k8s.io/priority-class"
# A queued pool's node lifetime, per job: FACTS D [S14] (provreq.kueue.x-k8s.io/<parameter> on the job).
PROVISIONING_ANNOTATION_PREFIX = "provreq.kueue.x-k8s.io/"
# Topology-aware scheduling, per pod set (pod template annotations), value a level of the flavor's Topology:
# https://kueue.sigs.k8s.io/docs/concepts/topology_aware_scheduling/
REQUIRED_TOPOLOGY = "kueue.x-k8s.io/podset-required-topology"
PREFERRED_TOPOLOGY = "kueue.x-k8s.io/podset-preferred-topology"
TOPOLOGY_LEVEL = TOPOLOGY_LEVELS[0]  # the reservation block: the pods of one job share a block's fabric
# JobSet: one child Job per node pool (a multi-host TPU slice is one node pool, FACTS A.3), as xpk does
# [S1 src/xpk/templates]: https://jobset.sigs.k8s.io/docs/concepts/ (exclusive placement).
JOBSET_API_VERSION = "jobset.x-k8s.io/v1alpha2"
EXCLUSIVE_TOPOLOGY = "alpha.jobset.sigs.k8s.io/exclusive-topology"
NODE_POOL_LABEL = "cloud.google.com/gke-nodepool"
# A time-shared (or MPS) GPU container may request at most one nvidia.com/gpu. FACTS E [S25]
SHARED_GPU_MAX_REQUEST = 1

# Starter images: a GPU pod prints its GPUs; a TPU pod installs JAX and counts its chips (as GKE's TPU guides do).
GPU_IMAGE = "nvidia/cuda:12.4.1-base-ubuntu22.04"
GPU_COMMAND = ("nvidia-smi",)
TPU_IMAGE = "python:3.11"
TPU_COMMAND = ("bash", "-c", "pip install -q 'jax[tpu]' && python -c 'import jax; print(jax.device_count())'")

Kind = Literal["job", "jobset"]
KINDS: tuple[str, ...] = ("job", "jobset")
DEFAULT_NAME_MAX = 40
TOPOLOGY_MODES: tuple[str, ...] = ("preferred", "required")


class WorkloadError(InvalidInput):
    """A workload the team or pool cannot run: one issue per problem."""


def advertised_per_node(pool: PoolPlan) -> int:
    """Units of the pool's resource one node advertises (the unit of the workload's request and of its quota):
    GPUs, or MIG partitions x shared clients on a partitioned or shared GPU pool, or the TPU chips of a VM.

    The model's `units_per_node` (the device plugin's count, `catalog.gpu_units_per_vm`) for GPU pools;
    the physical accelerators per node (TPU chips) where the model leaves it 0."""
    return pool.units_per_node or pool.accelerators_per_node


def workload_manifest(
    model: CapacityModel,
    team: str,
    pool: str | None = None,
    *,
    kind: Kind | None = None,
    pods: int | None = None,
    accelerators: int | None = None,
    image: str | None = None,
    name: str | None = None,
    priority_class: str | None = None,
    namespace: str | None = None,
    topology: str = "preferred",
) -> dict[str, Any]:
    """One manifest (a Job or a JobSet) for `team` on `pool` (default: the team's first pool with quota).

    `pods` defaults to one (a whole slice on a multi-host TPU pool); `accelerators` (per pod) to a whole node, or
    one MIG partition or shared GPU on such pools; `kind` to a JobSet on multi-host TPU pools and a Job otherwise.
    Raises WorkloadError on a shape the pool cannot run."""
    team_plan, pool_plan = _team_and_pool(model, team, pool)
    issues: list[Issue] = []
    per_node = advertised_per_node(pool_plan)
    if pool_plan.multi_host:
        pods = pool_plan.vms_per_slice if pods is None else pods
    pods = 1 if pods is None else pods
    if accelerators is None:  # a whole node; one unit of a partitioned or shared GPU (what such pools are for)
        accelerators = 1 if pool_plan.gpu_partition_size or pool_plan.gpu_sharing else per_node
    kind = kind or ("jobset" if pool_plan.multi_host else "job")
    if kind not in KINDS:
        issues.append(Issue("kind", f"{kind!r} is not a workload kind; allowed: {', '.join(KINDS)}"))
    if topology not in TOPOLOGY_MODES:
        issues.append(Issue("topology", f"{topology!r} is not allowed; allowed: {', '.join(TOPOLOGY_MODES)}"))
    name = name or default_name(team_plan.name, pool_plan.name)
    problems = dns1123_label_errors(name) if isinstance(name, str) else ["must be a string"]
    if problems:
        issues.append(Issue("name", f"{name!r} is not a DNS-1123 label: {'; '.join(problems)}"))
    if namespace is None:
        namespace = team_plan.namespaces[0]
    elif namespace not in team_plan.namespaces:
        issues.append(Issue("namespace", f"{namespace!r} is not a namespace of team {team_plan.name!r}; "
                                         f"allowed: {', '.join(team_plan.namespaces)}"))
    known_priorities = [pc.name for pc in model.priority_classes]
    if priority_class is not None and priority_class not in known_priorities:
        issues.append(Issue("priorityClass", f"{priority_class!r} is not a priority class of this environment; "
                                             f"allowed: {', '.join(known_priorities) or 'none'}"))
    elif priority_class is not None and priority_class not in team_plan.priorities:
        # The team's admission policy would refuse it (admission_policy.validations).
        issues.append(Issue("priorityClass", f"{priority_class!r} is not allowed to team {team_plan.name!r}; "
                                             f"allowed: {', '.join(team_plan.priorities) or 'none'}"))
    issues += shape_issues(pool_plan, pods, accelerators, kind)
    if issues:
        raise WorkloadError(issues, subject=f"workload of team {team_plan.name!r} on pool {pool_plan.name!r}")

    labels = {QUEUE_LABEL: team_plan.name}
    if priority_class is not None:
        labels[PRIORITY_LABEL] = priority_class
    annotations: dict[str, str] = {}
    if pool_plan.queued and pool_plan.max_run_duration is not None:
        annotations[PROVISIONING_ANNOTATION_PREFIX + MAX_RUN_DURATION_PARAMETER] = str(pool_plan.max_run_duration)
    pod_annotations: dict[str, str] = {}
    if uses_topology(pool_plan, model.kueue.topology_aware_scheduling):
        pod_annotations[REQUIRED_TOPOLOGY if topology == "required" else PREFERRED_TOPOLOGY] = TOPOLOGY_LEVEL
    pod = _pod_template(pool_plan, accelerators, image, pod_annotations)
    metadata: dict[str, Any] = {"name": name, "namespace": namespace, "labels": labels}
    if annotations:
        metadata["annotations"] = annotations

    if kind == "job":
        return {"apiVersion": "batch/v1", "kind": "Job", "metadata": metadata, "spec": _job_spec(pods, pod, suspend=True)}
    # A JobSet: one replicated job, a replica per slice (multi-host TPU) or one replica of all pods.
    per_replica = pool_plan.vms_per_slice if pool_plan.multi_host and pool_plan.vms_per_slice else pods
    replicas = pods // per_replica
    if pool_plan.multi_host:
        metadata.setdefault("annotations", {})[EXCLUSIVE_TOPOLOGY] = NODE_POOL_LABEL
    return {
        "apiVersion": JOBSET_API_VERSION,
        "kind": "JobSet",
        "metadata": metadata,
        "spec": {
            "suspend": True,
            "replicatedJobs": [{"name": "slice" if pool_plan.multi_host else "workers", "replicas": replicas,
                                "template": {"spec": _job_spec(per_replica, pod, suspend=None)}}],
        },
    }


def default_name(team: str, pool: str) -> str:
    """`<team>-<pool>`, shortened with a digest when longer than DEFAULT_NAME_MAX (JobSet builds pod hostnames
    from it, `<name>-<replicated job>-<index>-<index>`, which must stay DNS labels)."""
    name = f"{team}-{pool}"
    if len(name) <= DEFAULT_NAME_MAX:
        return name
    digest = hashlib.sha256(name.encode()).hexdigest()[:8]
    return f"{name[: DEFAULT_NAME_MAX - 9].rstrip('-')}-{digest}"


def shape_issues(pool: PoolPlan, pods: int, accelerators: int, kind: str) -> list[Issue]:
    """Why `pods` pods of `accelerators` each cannot run on the pool (empty when they can)."""
    issues: list[Issue] = []
    for field, value in (("pods", pods), ("accelerators", accelerators)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            issues.append(Issue(field, f"{value!r} must be a whole number of at least 1"))
    if issues:
        return issues
    per_node = advertised_per_node(pool)
    unit = "TPU chips" if pool.is_tpu else pool.resource_name
    if pool.is_tpu:
        if accelerators != per_node:
            # A TPU VM's chips serve one pod: the pod requests all of them (FACTS A.1: google.com/tpu per VM).
            issues.append(Issue("accelerators", f"{accelerators} {unit} per pod is not a whole {pool.machine_type} "
                                                f"VM of pool {pool.name!r}: a TPU pod requests all {per_node} chips of its VM"))
        if pool.multi_host:
            vms = pool.vms_per_slice or 1
            if pods % vms:
                issues.append(Issue("pods", f"{pods} pods are not whole {pool.tpu_topology} slices of pool {pool.name!r}: "
                                            f"a slice is {vms} VMs, one pod each; use a multiple of {vms}"))
            elif pods // vms > pool.slices:
                issues.append(Issue("pods", f"{pods} pods need {pods // vms} slices; pool {pool.name!r} has {pool.slices}"))
            elif kind == "job" and pods != vms:
                issues.append(Issue("kind", f"a Job runs one slice ({vms} pods) of pool {pool.name!r}; use kind "
                                            "jobset for several slices"))
        elif pods > pool.max_nodes:
            issues.append(Issue("pods", f"{pods} pods need {pods} VMs; pool {pool.name!r} grows to {pool.max_nodes}"))
        return issues
    if pool.gpu_sharing is not None and accelerators > SHARED_GPU_MAX_REQUEST:
        issues.append(Issue("accelerators", f"pool {pool.name!r} shares its GPUs ({pool.gpu_sharing.strategy}): a "
                                            f"container may request at most {SHARED_GPU_MAX_REQUEST} {unit}"))
    elif accelerators > per_node:
        issues.append(Issue("accelerators", f"{accelerators} {unit} per pod is more than one node of pool "
                                            f"{pool.name!r} has ({per_node} per {pool.machine_type} node)"))
    else:
        nodes = math.ceil(pods / (per_node // accelerators))
        if nodes > pool.max_nodes:
            issues.append(Issue("pods", f"{pods} pods x {accelerators} {unit} need {nodes} nodes; pool {pool.name!r} "
                                        f"grows to {pool.max_nodes} ({pool.max_nodes * per_node} {unit})"))
    return issues


def starter_workloads(model: CapacityModel) -> dict[tuple[str, str], dict[str, Any]]:
    """A starter manifest per team and pool it can use (its ClusterQueue's flavors): one whole node, or one
    whole slice of a multi-host TPU pool."""
    return {(team.name, pool): manifest for team in model.teams for pool, manifest in team_starters(model, team).items()}


def team_starters(model: CapacityModel, team: TeamPlan) -> dict[str, dict[str, Any]]:
    """{pool: starter manifest} of one team, in its queue's flavor order (`starter_workloads` of one team)."""
    return {pool.name: workload_manifest(model, team.name, pool.name) for pool in team_pools(model, team)}


def _team_and_pool(model: CapacityModel, team: str, pool: str | None) -> tuple[TeamPlan, PoolPlan]:
    try:
        team_plan = model.team(team)  # a dict lookup: the starters ask once per team and pool (48,000 at 1,000 teams)
    except (KeyError, TypeError):
        teams = [t.name for t in model.teams]
        raise WorkloadError([Issue("team", f"{team!r} is not a team of this environment; teams: {', '.join(teams) or 'none'}")]) from None
    usable = team_pools(model, team_plan)
    names = [p.name for p in usable]
    if pool is None:
        with_quota = [p for p in usable if team_plan.quotas.get(p.name, 0) > 0]
        if not (with_quota or usable):
            raise WorkloadError([Issue("pool", f"team {team!r} has no pool to run on (no quota, borrowing or lending entry)")])
        return team_plan, (with_quota or usable)[0]
    if pool not in names:
        raise WorkloadError([Issue("pool", f"team {team!r} cannot run on {pool!r}; its queue's pools: {', '.join(names) or 'none'}")])
    return team_plan, model.pool(pool)


def _pod_template(pool: PoolPlan, accelerators: int, image: str | None, annotations: dict[str, str]) -> dict[str, Any]:
    container: dict[str, Any] = {"name": "main", "image": image or (TPU_IMAGE if pool.is_tpu else GPU_IMAGE)}
    if image is None:
        container["command"] = list(TPU_COMMAND if pool.is_tpu else GPU_COMMAND)
    amount = {pool.resource_name: accelerators}  # extended resources: limits, with requests equal
    container["resources"] = {"requests": dict(amount), "limits": dict(amount)}
    template: dict[str, Any] = {
        "spec": {
            "restartPolicy": "Never",
            "nodeSelector": dict(pool.node_selector),
            "tolerations": [t.toleration() for t in pool.node_taints],
            "containers": [container],
        }
    }
    if annotations:
        template["metadata"] = {"annotations": dict(annotations)}
    return template


def _job_spec(pods: int, pod: dict[str, Any], *, suspend: bool | None) -> dict[str, Any]:
    spec: dict[str, Any] = {}
    if suspend is not None:
        spec["suspend"] = suspend  # Kueue unsuspends the job when it admits it
    spec.update({"parallelism": pods, "completions": pods, "backoffLimit": 0})
    if pods > 1:
        spec["completionMode"] = "Indexed"  # each pod knows its rank (JOB_COMPLETION_INDEX)
    spec["template"] = pod
    return spec


__all__ = [
    "KINDS", "QUEUE_LABEL", "PRIORITY_LABEL", "WorkloadError", "advertised_per_node",
    "shape_issues", "starter_workloads", "team_starters", "workload_manifest",
]
