"""The environment file: `models` (its contract), `fields` (value formats), `load` (validation entry points),
`checks` (cross-field rules), `requests` (its pools and cluster as the rule sets take them), `errors`."""

from gkecap.components.spec.errors import SpecError
from gkecap.components.spec.load import load_environment, load_stack_config, load_stack_file
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
    SystemPoolSpec,
    TaintSpec,
    TeamSpec,
)
from gkecap.components.spec.requests import cluster_request, pool_request

__all__ = [
    "CapacityModelName", "ClusterSpec", "CohortSpec", "DEFAULT_PRIORITY_CLASSES", "EnvironmentSpec",
    "GpuSharingSpec", "KueueSpec", "ManagerResourcesSpec", "NodePoolSpec", "PreemptionSpec", "PriorityClassSpec",
    "ReservationSpec", "SpecError", "SystemPoolSpec", "TaintSpec", "TeamSpec", "cluster_request",
    "load_environment", "load_stack_config", "load_stack_file", "pool_request",
]
