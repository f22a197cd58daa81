"""The `vertex` section of the environment file: Vertex AI training profiles that wait for GPUs with Dynamic
Workload Scheduler (`scheduling.strategy: FLEX_START`).

    vertex:
      region: us-central1                # default: the environment's region
      profiles:
        - {name: llm-h100, team: llm, machineType: a3-highgpu-8g, acceleratorType: NVIDIA_H100_80GB,
           acceleratorCount: 8, replicaCount: 2, maxWaitDuration: 30m, timeout: 2d, maxConcurrentJobs: 1}

Durations are `30m`, `12h`, `2d`, `1800s`, `0` or whole seconds. The rules that need more than one field (the
machine configuration, the 7-day limit, the team) are `spec.checks.vertex`.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from pydantic.alias_generators import to_camel

from gkecap.components.catalog.vertex import DEFAULT_MAX_WAIT_SECONDS, DEFAULT_TIMEOUT_SECONDS
from gkecap.components.spec.fields import DnsLabel, Email, PositiveInt, Region
from gkecap.components.vertex_api import parse_duration

Duration = Annotated[int, BeforeValidator(parse_duration)]  # whole seconds


class _VertexModel(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid", str_strip_whitespace=True)


class VertexProfileSpec(_VertexModel):
    """One kind of training job a team submits to Vertex AI with FLEX_START: its machines and limits."""

    name: DnsLabel
    team: str | None = None  # a team of the environment (who runs it; the quota it needs is the project's)
    machine_type: str
    accelerator_type: str  # Vertex's name, e.g. NVIDIA_H100_80GB
    accelerator_count: PositiveInt  # GPUs per replica: the machine type's count
    replica_count: PositiveInt = 1  # machines per job (pool 0 the primary, pool 1 the others)
    max_wait_duration: Duration = DEFAULT_MAX_WAIT_SECONDS  # 0: wait indefinitely
    timeout: Duration = DEFAULT_TIMEOUT_SECONDS  # at most 7 days
    max_concurrent_jobs: PositiveInt = 1  # sizes the quota: replicas x GPUs x this
    image: str | None = None  # the training container; default a starter that prints its GPUs


class VertexSpec(_VertexModel):
    region: Region | None = None
    contact_email: Email | None = None  # for Google's questions on the quota preference (Cloud Quotas contactEmail)
    profiles: list[VertexProfileSpec] = Field(default_factory=list)
