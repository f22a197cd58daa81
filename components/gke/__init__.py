"""What GKE and Compute Engine accept, from the catalog: pure, no Pulumi.

`pool_request` (a pool as declared) -> `pool_checks` (its one rule set) -> `pool_settings` (its GKE node
pools); `node_labels` (labels, taints, selectors), `locations`, `resource_names`, `versions`, `cluster` (the
cluster's rule set), `reservation_request` (a calendar reservation's rule set, on `calendar_window`'s rules)
and `boot_disks`.
"""

from gkecap.components.gke.cluster import RELEASE_CHANNELS, ClusterRequest, check_cluster_request
from gkecap.components.gke.locations import is_region, is_zone, region_of, zone_region
from gkecap.components.gke.node_labels import (
    CALENDAR_TAINT,
    CAPACITY_LABEL,
    GPU_TAINT,
    MANAGED_LABELS,
    POOL_LABEL,
    QUEUED_TAINT,
    TAINT_EFFECTS,
    TPU_NODE_TAINT,
    NodeTaint,
    node_labels,
    node_selector,
    node_taints,
    tolerations,
)
from gkecap.components.gke.pool_checks import check_pool_request
from gkecap.components.gke.pool_request import (
    DEFAULT_GPU_DRIVER_VERSION,
    FLEX_CAPACITIES,
    GPU_DRIVER_VERSIONS,
    GPU_SHARING_STRATEGIES,
    MAX_RUN_DURATION_SECONDS,
    MAX_SHARED_CLIENTS_PER_GPU,
    MIN_NODES_CAPACITIES,
    OVERCOMMIT_WARNS,
    RESERVATION_CAPACITIES,
    TAS_CAPACITY_MODELS,
    GpuSharing,
    PoolRequest,
    ReservationTarget,
    node_pool_names,
    reservation_value,
    topology_aware_refusal,
)
from gkecap.components.gke.pool_settings import (
    AUTOSCALER_OWNED_FIELDS,
    CLOUD_PLATFORM_SCOPE,
    RESERVATION_NAME_KEY,
    WORKLOAD_METADATA_MODE,
    NodePoolSettings,
    node_pool_settings,
    slice_of,
)
from gkecap.components.gke.reservation_request import ReservationRequest, check_reservation_request
from gkecap.components.gke.resource_names import is_default_compute_service_account, service_account_issues
from gkecap.components.gke.versions import (
    GPU_FLEX_MIN_VERSION,
    TPU7X_MIN_VERSION,
    TPU_FLEX_MIN_VERSION,
    gke_version_key,
    parse_gke_version,
)
from gkecap.components.gke.whole_vms import WHOLE_VM_CAPACITIES, WholeVmFinding, whole_vm_findings

__all__ = [
    "AUTOSCALER_OWNED_FIELDS", "CALENDAR_TAINT", "CAPACITY_LABEL", "CLOUD_PLATFORM_SCOPE", "DEFAULT_GPU_DRIVER_VERSION",
    "FLEX_CAPACITIES", "GPU_DRIVER_VERSIONS", "GPU_FLEX_MIN_VERSION", "GPU_SHARING_STRATEGIES", "GPU_TAINT",
    "MANAGED_LABELS", "MAX_RUN_DURATION_SECONDS", "MAX_SHARED_CLIENTS_PER_GPU", "MIN_NODES_CAPACITIES", "OVERCOMMIT_WARNS", "POOL_LABEL",
    "QUEUED_TAINT", "RELEASE_CHANNELS", "RESERVATION_CAPACITIES", "RESERVATION_NAME_KEY", "TAINT_EFFECTS",
    "TPU7X_MIN_VERSION", "TPU_FLEX_MIN_VERSION", "TPU_NODE_TAINT", "WHOLE_VM_CAPACITIES", "WORKLOAD_METADATA_MODE",
    "ClusterRequest", "WholeVmFinding", "whole_vm_findings",
    "GpuSharing", "NodePoolSettings", "NodeTaint", "PoolRequest", "ReservationRequest", "ReservationTarget",
    "check_cluster_request", "check_reservation_request",
    "check_pool_request", "gke_version_key", "is_default_compute_service_account", "is_region", "is_zone",
    "node_labels", "node_pool_names", "node_pool_settings", "node_selector", "node_taints", "parse_gke_version",
    "region_of", "reservation_value", "service_account_issues", "slice_of", "tolerations", "zone_region",
    "TAS_CAPACITY_MODELS", "topology_aware_refusal",
]
