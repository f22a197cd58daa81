"""CustomJob request bodies for Vertex AI training with Dynamic Workload Scheduler, and the rules they must pass.

The body is the REST JSON of `google.cloud.aiplatform.v1.CustomJob` (camelCase; int64 fields such as
`replicaCount` as strings, durations as `"<seconds>s"`), what `projects.locations.customJobs.create` takes.
Its `jobSpec` is what `gcloud ai custom-jobs create --config FILE` reads. Distributed training: worker pool 0
holds the primary replica, worker pool 1 the other replicas, both with the same machine configuration, as
FLEX_START requires (FACTS F [S26]).
"""

from __future__ import annotations

from typing import Any, Mapping

from gkecap.components.catalog import CatalogError, gpu_machine
from gkecap.components.catalog.vertex import (
    FLEX_START_STRATEGY,
    MAX_TIMEOUT_SECONDS,
    vertex_gpu,
)
from gkecap.components.issues import Issue, join_path
from gkecap.components.vertex_api.durations import duration_issues, proto_duration

# The starter container: Vertex AI's prebuilt PyTorch GPU training image, printing the GPUs it got.
# https://cloud.google.com/vertex-ai/docs/training/pre-built-containers
DEFAULT_IMAGE = "us-docker.pkg.dev/vertex-ai/training/pytorch-gpu.2-3.py310:latest"
DEFAULT_COMMAND = ("nvidia-smi",)


def machine_spec(machine_type: str, accelerator_type: str, accelerator_count: int) -> dict[str, Any]:
    return {"machineType": machine_type, "acceleratorType": accelerator_type, "acceleratorCount": accelerator_count}


def worker_pool_specs(
    machine_type: str, accelerator_type: str, accelerator_count: int, replica_count: int, image: str | None = None
) -> list[dict[str, Any]]:
    """Pool 0: the primary replica; pool 1: the other `replica_count - 1` replicas, on the same machines."""
    container: dict[str, Any] = {"imageUri": image or DEFAULT_IMAGE}
    if image is None:
        container["command"] = list(DEFAULT_COMMAND)
    pools = [{"machineSpec": machine_spec(machine_type, accelerator_type, accelerator_count), "replicaCount": "1",
              "containerSpec": dict(container)}]
    if replica_count > 1:
        pools.append({"machineSpec": machine_spec(machine_type, accelerator_type, accelerator_count),
                      "replicaCount": str(replica_count - 1), "containerSpec": dict(container)})
    return pools


def custom_job(
    display_name: str,
    *,
    machine_type: str,
    accelerator_type: str,
    accelerator_count: int,
    replica_count: int = 1,
    max_wait_seconds: int,
    timeout_seconds: int,
    image: str | None = None,
    labels: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The CustomJob request body (REST JSON) of a FLEX_START training job."""
    body: dict[str, Any] = {"displayName": display_name}
    if labels:
        body["labels"] = dict(labels)
    body["jobSpec"] = {
        "workerPoolSpecs": worker_pool_specs(machine_type, accelerator_type, accelerator_count, replica_count, image),
        "scheduling": {
            "strategy": FLEX_START_STRATEGY,
            "maxWaitDuration": proto_duration(max_wait_seconds),
            "timeout": proto_duration(timeout_seconds),
        },
    }
    return body


def machine_issues(machine_type: Any, accelerator_type: Any, accelerator_count: Any) -> list[Issue]:
    """Why this machine configuration cannot run a FLEX_START training job (empty when it can): a GPU FLEX_START
    serves, on a machine type of the catalog with that GPU, with the machine's GPU count."""
    try:
        gpu = vertex_gpu(accelerator_type)
    except CatalogError as err:
        return [Issue("acceleratorType", str(err))]
    try:
        machine = gpu_machine(machine_type)
    except CatalogError as err:
        return [Issue("machineType", str(err))]
    if machine.accelerator_label != gpu.accelerator_label:
        return [Issue("machineType", f"{machine_type!r} carries {machine.accelerator_label} GPUs, not {accelerator_type}")]
    if isinstance(accelerator_count, bool) or accelerator_count != machine.gpus_per_vm:
        return [Issue("acceleratorCount", f"{accelerator_count!r} is not the GPU count of {machine_type}: it has "
                                          f"{machine.gpus_per_vm} {accelerator_type}")]
    return []


def flex_start_job_issues(job: Mapping[str, Any]) -> list[Issue]:
    """Why a CustomJob body (or its `jobSpec`) breaks a FLEX_START rule: the strategy, a supported GPU on a
    matching machine, the same machine configuration in every worker pool, a timeout of at most 7 days, a wait
    duration that is a duration. Paths are the body's (`jobSpec.scheduling.timeout`)."""
    prefix = "jobSpec" if "jobSpec" in job else ""
    spec = job.get("jobSpec", job)
    if not isinstance(spec, Mapping):
        return [Issue(prefix, "must be a CustomJobSpec mapping")]
    issues: list[Issue] = []
    scheduling: Mapping[str, Any] = spec["scheduling"] if isinstance(spec.get("scheduling"), Mapping) else {}
    where = join_path(prefix, "scheduling")
    if scheduling.get("strategy") != FLEX_START_STRATEGY:
        issues.append(Issue(join_path(where, "strategy"), f"{scheduling.get('strategy')!r} is not {FLEX_START_STRATEGY}"))
    if "timeout" in scheduling:
        issues += duration_issues(join_path(where, "timeout"), scheduling["timeout"], maximum=MAX_TIMEOUT_SECONDS,
                                  what="FLEX_START training job")
    if "maxWaitDuration" in scheduling:
        issues += duration_issues(join_path(where, "maxWaitDuration"), scheduling["maxWaitDuration"])
    pools = spec.get("workerPoolSpecs")
    pools_path = join_path(prefix, "workerPoolSpecs")
    if not isinstance(pools, list) or not pools:
        return issues + [Issue(pools_path, "a training job needs at least one worker pool")]
    first: Mapping[str, Any] | None = None
    for index, pool in enumerate(pools):
        machine = pool.get("machineSpec") if isinstance(pool, Mapping) else None
        if not machine:
            continue  # an empty placeholder pool (Vertex allows {} for an unused pool index)
        where = f"{pools_path}[{index}].machineSpec"
        if first is None:
            first = machine
            issues += [issue.under(where) for issue in machine_issues(
                machine.get("machineType"), machine.get("acceleratorType"), machine.get("acceleratorCount"))]
        elif dict(machine) != dict(first):
            issues.append(Issue(where, "FLEX_START needs the same machine configuration in every worker pool; "
                                       f"pool 0 has {dict(first)}, this one {dict(machine)}"))
    return issues
