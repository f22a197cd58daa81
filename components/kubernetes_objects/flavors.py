"""Kueue objects that describe capacity: ResourceFlavors (one per pool), the Topology, and the DWS
ProvisioningRequestConfig + AdmissionCheck of each queued pool. Pure: CapacityModel in, object dicts out.

A flavor selects exactly its pool's nodes and tolerates exactly their taints, using the same pure functions
the node pools are built from (`gkecap.components.gke.node_selector` / `tolerations`), so the two cannot
drift apart.
"""

from __future__ import annotations

from gkecap.components import kueue_api
from gkecap.components.model import CapacityModel, PoolPlan
from gkecap.components.gke import POOL_LABEL, node_selector, tolerations, topology_aware_refusal
from gkecap.components.gke.node_labels import flavor_node_taints
from gkecap.components.kubernetes_objects.team_access import MANAGED_BY, MANAGED_BY_LABEL

POOL_OBJECT_LABEL = POOL_LABEL  # on generated objects that belong to one pool (flavor, PRC, check)

# Topology levels of GKE nodes for topology-aware scheduling, coarsest first: the reservation block, its
# sub-block, the physical host, then the node (Kueue requires kubernetes.io/hostname to be last, R-TOPO-3).
# GKE's TAS guide documents `podset-required-topology: cloud.google.com/gce-topology-host`, and Kueue refuses a
# level its Topology lacks ("no requested topology level"), so all four are listed.
# https://cloud.google.com/ai-hypercomputer/docs/workloads/schedule-gke-workloads-tas ; xpk's gke-default
# topology [S1 templates/kueue_gke_default_topology.yaml.j2]; FACTS A.1 (corrections 2026-11-23).
TOPOLOGY_NAME = "gke-default"
HOST_TOPOLOGY_LEVEL = "cloud.google.com/gce-topology-host"
TOPOLOGY_LEVELS = (
    "cloud.google.com/gce-topology-block",
    "cloud.google.com/gce-topology-subblock",
    HOST_TOPOLOGY_LEVEL,
    "kubernetes.io/hostname",
)

# DWS queued provisioning. FACTS D [S14] (class, controller), [S1 kueue_config.yaml.j2] (podSetUpdates):
# the nodes of one ProvisioningRequest carry autoscaling.gke.io/provisioning-request=<ResizeRequestName>,
# so the admitted pods land on exactly the nodes provisioned for them.
PROVISIONING_REQUEST_NODE_LABEL = "autoscaling.gke.io/provisioning-request"
PROVISIONING_CLASS_DETAIL = "ResizeRequestName"
# Kueue's documented defaults (R-PRC-5), written out so the applied object says what it does.
RETRY_STRATEGY = {"backoffLimitCount": 3, "backoffBaseSeconds": 60, "backoffMaxSeconds": 1800}
# GKE ProvisioningRequest parameter for the node lifetime (FACTS B.3 [S14]); values are strings (R-PRC-2).
MAX_RUN_DURATION_PARAMETER = "maxRunDurationSeconds"
CHECK_SUFFIX = "-provisioning"


def api_version_of(version: str) -> str:
    """`kueue.x-k8s.io/<version>` from the environment's `kueue.apiVersion` (v1beta1 or v1beta2)."""
    return f"{kueue_api.GROUP}/{version}"


def pool_labels(pool: str) -> dict[str, str]:
    return {MANAGED_BY_LABEL: MANAGED_BY, POOL_OBJECT_LABEL: pool}


def uses_topology(pool: PoolPlan, tas: bool) -> bool:
    """Whether the pool's flavor is topology-aware: when TAS is on, GPU pools on reserved or queued capacity whose
    nodes carry GKE's topology labels (`gke.topology_aware_refusal`)."""
    return tas and topology_aware_refusal(pool.request) is None


def pool_flavor(pool: PoolPlan, *, tas: bool, api_version: str) -> dict:
    """The pool's ResourceFlavor: named like the pool, selecting and tolerating its nodes."""
    return kueue_api.resource_flavor(
        pool.name,
        node_labels=node_selector(pool.name, pool.machine_type, pool.tpu_topology, pool.request.gpu_type),
        node_taints=flavor_node_taints(pool.capacity),  # calendar: opt-in (gke.node_labels.CALENDAR_TAINT)
        tolerations=tolerations(pool.machine_type, pool.capacity, pool.taints),
        topology_name=TOPOLOGY_NAME if uses_topology(pool, tas) else None,
        labels=pool_labels(pool.name),
        api_version=api_version,
    )


def gke_topology(api_version: str) -> dict:
    return kueue_api.topology(
        TOPOLOGY_NAME, TOPOLOGY_LEVELS, labels={MANAGED_BY_LABEL: MANAGED_BY}, api_version=api_version
    )


def admission_check_name(pool: str) -> str:
    """Name of a queued pool's AdmissionCheck (and of its ProvisioningRequestConfig)."""
    return f"{pool}{CHECK_SUFFIX}"


def pool_provisioning_config(pool: PoolPlan, *, api_version: str) -> dict:
    parameters = None
    if pool.max_run_duration is not None:
        parameters = {MAX_RUN_DURATION_PARAMETER: str(pool.max_run_duration)}
    return kueue_api.provisioning_request_config(
        admission_check_name(pool.name),
        managed_resources=[pool.resource_name],
        parameters=parameters,
        retry_strategy=RETRY_STRATEGY,
        pod_set_updates_node_selector=[(PROVISIONING_REQUEST_NODE_LABEL, PROVISIONING_CLASS_DETAIL)],
        labels=pool_labels(pool.name),
        api_version=api_version,
    )


def pool_admission_check(pool: PoolPlan, *, api_version: str) -> dict:
    return kueue_api.provisioning_admission_check(
        admission_check_name(pool.name), admission_check_name(pool.name),
        labels=pool_labels(pool.name), api_version=api_version,
    )


def capacity_objects(model: CapacityModel) -> dict[str, list[dict]]:
    """Topology, ResourceFlavors, ProvisioningRequestConfigs, AdmissionChecks, by kind, pools in flavor order."""
    api_version = api_version_of(model.kueue.api_version)
    tas = model.kueue.topology_aware_scheduling
    pools = model.pools_in_flavor_order()
    queued = [p for p in pools if p.queued]
    return {
        "Topology": [gke_topology(api_version)] if tas and any(uses_topology(p, tas) for p in pools) else [],
        "ResourceFlavor": [pool_flavor(p, tas=tas, api_version=api_version) for p in pools],
        "ProvisioningRequestConfig": [pool_provisioning_config(p, api_version=api_version) for p in queued],
        "AdmissionCheck": [pool_admission_check(p, api_version=api_version) for p in queued],
    }
