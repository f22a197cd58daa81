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
    # A field's docstring is its description (as spec.models).
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid", str_strip_whitespace=True,
                              use_attribute_docstrings=True)


class VertexProfileSpec(_VertexModel):
    """One kind of training job a team submits to Vertex AI with FLEX_START: its machines and limits."""

    name: DnsLabel
    """Profile name (`gkecap vertex-job --profile`)."""
    team: str | None = None
    """A team of the environment that runs these jobs (the quota they need is the project's)."""
    machine_type: str
    """Machine type of each replica, e.g. a3-highgpu-8g."""
    accelerator_type: str
    """Vertex's accelerator name, e.g. NVIDIA_H100_80GB."""
    accelerator_count: PositiveInt
    """GPUs per replica: the machine type's count."""
    replica_count: PositiveInt = 1
    """Machines per job (worker pool 0 the primary, pool 1 the others)."""
    max_wait_duration: Duration = DEFAULT_MAX_WAIT_SECONDS
    """How long a job may wait for its GPUs, e.g. 30m (0: indefinitely)."""
    timeout: Duration = DEFAULT_TIMEOUT_SECONDS
    """Longest run of a job once started, e.g. 2d (at most 7 days)."""
    max_concurrent_jobs: PositiveInt = 1
    """Jobs of the profile that run at once; sizes the quota (replicas x GPUs x this)."""
    image: str | None = None
    """The training container image; default: a starter that prints its GPUs."""


class VertexSpec(_VertexModel):
    """Vertex AI training with Dynamic Workload Scheduler (FLEX_START)."""

    region: Region | None = None
    """Region of the training jobs; default: the environment's."""
    contact_email: Email | None = None
    """Who Google may ask about the quota preference (Cloud Quotas contactEmail)."""
    profiles: list[VertexProfileSpec] = Field(default_factory=list)
    """The kinds of training jobs."""
