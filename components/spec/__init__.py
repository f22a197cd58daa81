"""The environment file: pydantic models of `gkecap:environment`, loading, and every rule it must satisfy."""

from gkecap.components.spec.models import (
    DEFAULT_PRIORITY_CLASSES,
    CapacityModelName,
    ClusterSpec,
    CohortSpec,
    EnvironmentSpec,
    GpuSharingSpec,
    KueueSpec,
    ManagerResourcesSpec,
    NodePoolSpec,
    PreemptionSpec,
    PriorityClassSpec,
    ReservationSpec,
    SpecError,
    SpecIssue,
    SystemPoolSpec,
    TaintSpec,
    TeamSpec,
    load_environment,
    load_stack_config,
    load_stack_file,
)

__all__ = [
    "CapacityModelName", "ClusterSpec", "CohortSpec", "DEFAULT_PRIORITY_CLASSES", "EnvironmentSpec",
    "GpuSharingSpec", "KueueSpec", "ManagerResourcesSpec", "NodePoolSpec", "PreemptionSpec", "PriorityClassSpec",
    "ReservationSpec", "SpecError", "SpecIssue", "SystemPoolSpec", "TaintSpec", "TeamSpec", "load_environment",
    "load_stack_config", "load_stack_file",
]
