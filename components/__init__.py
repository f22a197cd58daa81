"""gke-capacity components: accelerator capacity for GKE as Pulumi components.

Exports are lazy (PEP 562) so pure modules such as ``gkecap.components.catalog`` can be
imported by the policy pack without loading the Pulumi SDKs.
"""

from importlib import import_module
from typing import Any

_EXPORTS = {
    "AcceleratorNodePool": "gkecap.components.node_pool",
    "CalendarReservation": "gkecap.components.reservation",
    "GkeCluster": "gkecap.components.cluster",
    "KueueInstall": "gkecap.components.kueue",
    "KueueObjects": "gkecap.components.kueue",
    "Environment": "gkecap.components.environment",
    "EnvironmentSpec": "gkecap.components.spec",
    "load_environment": "gkecap.components.spec",
    "SpecError": "gkecap.components.spec",
    "load_stack_config": "gkecap.components.spec",
    "load_stack_file": "gkecap.components.spec",
    "derive": "gkecap.components.model",
    "CapacityModel": "gkecap.components.model",
    "VertexTrainingQuota": "gkecap.components.vertex",
    "workload_manifest": "gkecap.components.kubernetes_objects.workloads",
    "starter_workloads": "gkecap.components.kubernetes_objects.workloads",
    "WorkloadError": "gkecap.components.kubernetes_objects.workloads",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'gkecap.components' has no attribute {name!r}")
    return getattr(import_module(module), name)
