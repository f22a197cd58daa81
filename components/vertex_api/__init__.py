"""Vertex AI's training API as far as gke-capacity uses it: CustomJob request bodies with Dynamic Workload Scheduler
(`scheduling.strategy: FLEX_START`), durations, and the rules such a job must pass. Pure: no Pulumi.

The same functions build a profile's request (`custom_job`), check a profile (`machine_issues`,
`duration_issues`) in the environment spec, and check any CustomJob body in the policy pack
(`flex_start_job_issues`), so the spec, the pack and the report agree.
"""

from gkecap.components.vertex_api.custom_job import (
    custom_job,
    flex_start_job_issues,
    machine_issues,
    worker_pool_specs,
)
from gkecap.components.vertex_api.durations import duration_issues, format_duration, parse_duration, proto_duration

__all__ = [
    "custom_job", "duration_issues", "flex_start_job_issues", "format_duration", "machine_issues",
    "parse_duration", "proto_duration", "worker_pool_specs",
]
