"""gke-capacity components: accelerator capacity for GKE as Pulumi components.

Exports are lazy (PEP 562) so pure modules such as ``components.catalog`` can be
imported by the policy pack without loading the Pulumi SDKs.
"""

from importlib import import_module
from typing import Any

_EXPORTS = {
    "AcceleratorNodePool": "components.node_pool",
    "CalendarReservation": "components.reservation",
    "GkeCluster": "components.cluster",
    "KueueInstall": "components.kueue",
    "KueueObjects": "components.kueue",
    "Environment": "components.environment",
    "EnvironmentSpec": "components.spec",
    "load_environment": "components.spec",
    "SpecError": "components.spec",
    "load_stack_config": "components.spec",
    "load_stack_file": "components.spec",
    "derive": "components.model",
    "CapacityModel": "components.model",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'components' has no attribute {name!r}")
    return getattr(import_module(module), name)
