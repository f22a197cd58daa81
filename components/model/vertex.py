"""What follows from the `vertex` section: per profile its CustomJob request body and the GPUs one job holds, and
per region and GPU the preemptible Vertex quota the profiles need (replicas x GPUs x concurrent jobs, summed).

A FLEX_START training job consumes the preemptible training quota of its GPU (FACTS F [S26]; quota ids [S35]),
which must be raised before the first job: `VertexQuotaPlan` is what the Cloud Quotas preference asks for.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gkecap.components.catalog.vertex import VertexGpu, vertex_gpu
from gkecap.components.spec.vertex import VertexSpec
from gkecap.components.vertex_api import custom_job

TEAM_LABEL = "gkecap-team"  # on the job: who runs it (Vertex label keys: lowercase, digits, - and _)
PROFILE_LABEL = "gkecap-profile"


@dataclass(frozen=True)
class VertexProfilePlan:
    name: str
    team: str | None
    region: str
    machine_type: str
    accelerator_type: str
    accelerator_count: int  # per replica
    replica_count: int
    max_wait_seconds: int
    timeout_seconds: int
    max_concurrent_jobs: int
    image: str | None
    gpu: VertexGpu
    gpus_per_job: int  # replicas x GPUs per replica
    quota_gpus: int  # gpus_per_job x max_concurrent_jobs: what the profile needs of the preemptible quota

    def request_body(self, image: str | None = None) -> dict[str, Any]:
        """The CustomJob request body (REST JSON); `image` overrides the profile's container."""
        labels = {PROFILE_LABEL: self.name, **({TEAM_LABEL: self.team} if self.team else {})}
        return custom_job(
            self.name,
            machine_type=self.machine_type,
            accelerator_type=self.accelerator_type,
            accelerator_count=self.accelerator_count,
            replica_count=self.replica_count,
            max_wait_seconds=self.max_wait_seconds,
            timeout_seconds=self.timeout_seconds,
            image=image or self.image,
            labels=labels,
        )


@dataclass(frozen=True)
class VertexQuotaPlan:
    """The preemptible Vertex training quota one region and GPU needs."""

    region: str
    accelerator_type: str
    quota_id: str  # Cloud Quotas quota id, e.g. CustomModelTrainingPreemptibleH100GPUsPerProjectPerRegion
    metric: str  # e.g. aiplatform.googleapis.com/custom_model_training_preemptible_nvidia_h100_gpus
    gpus: int
    profiles: tuple[str, ...]


def vertex_profiles(vertex: VertexSpec | None, default_region: str) -> tuple[VertexProfilePlan, ...]:
    """The plans of a validated `vertex` section; profiles run in its region, else `default_region`."""
    if vertex is None:
        return ()
    region = vertex.region or default_region
    plans = []
    for profile in vertex.profiles:
        per_job = profile.replica_count * profile.accelerator_count
        plans.append(VertexProfilePlan(
            name=profile.name,
            team=profile.team,
            region=region,
            machine_type=profile.machine_type,
            accelerator_type=profile.accelerator_type,
            accelerator_count=profile.accelerator_count,
            replica_count=profile.replica_count,
            max_wait_seconds=profile.max_wait_duration,
            timeout_seconds=profile.timeout,
            max_concurrent_jobs=profile.max_concurrent_jobs,
            image=profile.image,
            gpu=vertex_gpu(profile.accelerator_type),
            gpus_per_job=per_job,
            quota_gpus=per_job * profile.max_concurrent_jobs,
        ))
    return tuple(plans)


def vertex_quotas(profiles: tuple[VertexProfilePlan, ...]) -> tuple[VertexQuotaPlan, ...]:
    """One entry per (region, GPU), in the order profiles first name them."""
    needed: dict[tuple[str, str], list[VertexProfilePlan]] = {}
    for profile in profiles:
        needed.setdefault((profile.region, profile.accelerator_type), []).append(profile)
    return tuple(
        VertexQuotaPlan(
            region=region,
            accelerator_type=accelerator,
            quota_id=group[0].gpu.preemptible_quota_id,
            metric=group[0].gpu.preemptible_metric,
            gpus=sum(p.quota_gpus for p in group),
            profiles=tuple(p.name for p in group),
        )
        for (region, accelerator), group in needed.items()
    )
