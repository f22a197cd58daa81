"""The environment file's pools and cluster as the requests their rule sets and components take.

`pool_request(nodePools[i])` is the same `PoolRequest` `AcceleratorNodePool` builds from its arguments, and
`cluster_request(cluster)` the same `ClusterRequest` as `GkeCluster`'s: the spec runs their rule sets, the
model derives node pools from them, and `Environment` passes each pool's request and node pools on
(`AcceleratorNodePool.of_plan`).
"""

from __future__ import annotations

from gkecap.components.gke.cluster import ClusterRequest
from gkecap.components.gke.node_labels import NodeTaint
from gkecap.components.gke.pool_request import GpuSharing, PoolRequest, ReservationTarget
from gkecap.components.spec.models import ClusterSpec, NodePoolSpec


def pool_request(pool: NodePoolSpec, reservation_vms: int | None = None) -> PoolRequest:
    """The request of `nodePools[i]`. A GPU calendar pool without maxNodes takes the whole reservation
    (`reservation_vms`, its VM count, when the reservation is declared)."""
    max_nodes = pool.max_nodes
    if max_nodes is None and pool.capacity == "calendar" and not pool.is_tpu:
        max_nodes = reservation_vms
    target = None
    if any(value is not None for value in (pool.reservation, pool.reservation_project, pool.reservation_block)):
        target = ReservationTarget(pool.reservation, pool.reservation_project, pool.reservation_block)  # type: ignore[arg-type]
    sharing = pool.gpu_sharing
    return PoolRequest(
        name=pool.name,
        machine_type=pool.machine_type,
        capacity=pool.capacity,
        zones=tuple(pool.zones) if pool.zones is not None else None,
        max_nodes=max_nodes,
        min_nodes=pool.min_nodes,
        tpu_topology=pool.tpu_topology,
        slices=pool.slices,
        reservation=target,
        max_run_duration_seconds=pool.max_run_duration,
        gpu_driver_version=pool.gpu_driver_version,
        gpu_partition_size=pool.gpu_partition_size,
        gpu_sharing=GpuSharing(sharing.strategy, sharing.max_shared_clients_per_gpu) if sharing else None,
        labels=dict(pool.labels),
        taints=tuple(NodeTaint(t.key, t.value, t.effect) for t in pool.taints),
        disk_size_gb=pool.disk_size_gb,
        disk_type=pool.disk_type,
        compact_placement=pool.compact_placement,
        gpu_type=pool.gpu.type if pool.gpu is not None else None,
        gpu_count=pool.gpu.count if pool.gpu is not None else None,
    )


def cluster_request(cluster: ClusterSpec, node_service_account: str | None) -> ClusterRequest:
    """The request of `cluster`. Without `nodeServiceAccount` the environment creates a dedicated one, so the
    account is only judged when given."""
    return ClusterRequest(
        name=cluster.name,
        location=cluster.location,
        create=cluster.create,
        release_channel=cluster.release_channel,
        min_master_version=cluster.min_master_version,
        system_pool_nodes=cluster.system_pool.nodes,
        service_account=node_service_account,
        service_account_known=node_service_account is not None,
        security_group=cluster.security_group,
    )
