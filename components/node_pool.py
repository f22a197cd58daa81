"""AcceleratorNodePool: GKE node pools for one GPU or TPU machine type and one capacity model.

Thin: every setting comes from `gkecap.components.gke` (pure, shared with the policy pack and the
Kueue builders). One child `gcp.container.NodePool` per GKE node pool: ``<name>``, or ``<name>-s0 ..``
for multi-host TPU slices (one node pool per slice, as GKE requires); TPU7x multi-host slices also get
one `gcp.compute.ResourcePolicy` (HIGH_THROUGHPUT workload policy) named ``<name>-workload-policy``.

No ``from __future__ import annotations`` here: Pulumi's component analyzer reads the annotations.
"""

from dataclasses import replace
from typing import Any, NotRequired, Optional, TypedDict, cast

import pulumi
import pulumi_gcp as gcp

from gkecap.components._support import argument_issues, camel, known, raise_invalid, whole
from gkecap.components.gke import (
    AUTOSCALER_OWNED_FIELDS,
    CLOUD_PLATFORM_SCOPE,
    WORKLOAD_METADATA_MODE,
    GpuSharing,
    NodePoolSettings,
    PoolRequest,
    ReservationTarget,
    NodeTaint,
    check_pool_request,
    node_pool_settings,
    node_selector,
    region_of,
    reservation_value,
    service_account_issues,
)
from gkecap.components.issues import Issue


class ReservationTargetArgs(TypedDict):
    """The specific reservation a calendar or reservation pool consumes."""

    name: pulumi.Input[str]
    """Reservation name: a CalendarReservation's `reservationName`, or an existing specific reservation."""
    project: NotRequired[pulumi.Input[str]]
    """Project that owns the reservation, when it is shared from another project."""
    block: NotRequired[pulumi.Input[str]]
    """Reservation block to target (dense reservations), e.g. `dec-run-block-0001`."""


class GpuSharingArgs(TypedDict):
    """Several containers share each GPU."""

    strategy: str
    """TIME_SHARING or MPS."""
    max_shared_clients_per_gpu: int
    """How many containers share one physical GPU (at least 1)."""


class NodeTaintArgs(TypedDict):
    """An extra node taint (workloads must tolerate it)."""

    key: str
    """NodeTaint key."""
    value: str
    """NodeTaint value."""
    effect: NotRequired[str]
    """NO_SCHEDULE (default), PREFER_NO_SCHEDULE or NO_EXECUTE."""


class AttachedGpuArgs(TypedDict):
    """GPUs attached to an N1 VM."""

    type: str
    """GPU type: nvidia-tesla-t4, nvidia-tesla-v100, nvidia-tesla-p100 or nvidia-tesla-p4."""
    count: int
    """GPUs per VM (as Compute Engine offers for that type)."""


class AcceleratorNodePoolArgs(TypedDict):
    """Arguments of AcceleratorNodePool."""

    cluster: pulumi.Input[str]
    """Name (or id) of the GKE Standard cluster."""
    location: pulumi.Input[str]
    """Location (region or zone) of the cluster."""
    project: NotRequired[pulumi.Input[str]]
    """Project of the cluster; the provider's project when omitted."""
    machine_type: str
    """GPU or TPU machine type, e.g. a3-highgpu-8g or ct6e-standard-4t."""
    capacity: str
    """Capacity model: flex-start, queued, calendar, reservation, spot or on-demand."""
    service_account: pulumi.Input[str]
    """Email of the dedicated node service account (never the default compute service account)."""
    zones: NotRequired[list[str]]
    """Node locations (zones); the cluster's zones when omitted. A multi-host TPU slice needs one zone."""
    max_nodes: NotRequired[int]
    """GPU pools: the autoscaler's total maximum number of nodes."""
    min_nodes: NotRequired[int]
    """GPU spot, on-demand and reservation pools: total minimum number of nodes (default 0)."""
    tpu_topology: NotRequired[str]
    """TPU pools: slice topology, e.g. 4x4 or 2x2x4; the node count follows from it."""
    slices: NotRequired[int]
    """TPU pools: number of slices (default 1); one node pool per multi-host slice."""
    reservation: NotRequired[ReservationTargetArgs]
    """Calendar and reservation pools: the reservation to consume."""
    max_run_duration_seconds: NotRequired[int]
    """Flex-start and queued pools: maximum node lifetime in seconds (at most 604800, 7 days)."""
    gpu_driver_version: NotRequired[str]
    """GPU driver installed by GKE: DEFAULT (default), LATEST or INSTALLATION_DISABLED."""
    gpu_partition_size: NotRequired[str]
    """MIG partition size, e.g. 1g.10gb (must be a GKE MIG size of the GPU)."""
    gpu_sharing: NotRequired[GpuSharingArgs]
    """GPU time-sharing or MPS."""
    compact_placement: NotRequired[bool]
    """GPU pools: COMPACT placement (where the machine family and capacity model allow it)."""
    gpu: NotRequired[AttachedGpuArgs]
    """N1 machine types: the GPUs attached to each VM (nvidia-tesla-t4, -v100, -p100 or -p4)."""
    labels: NotRequired[dict[str, str]]
    """Extra node labels."""
    taints: NotRequired[list[NodeTaintArgs]]
    """Extra node taints."""
    disk_size_gb: NotRequired[int]
    """Boot disk size in GB."""
    disk_type: NotRequired[str]
    """Boot disk type, e.g. pd-balanced or hyperdisk-balanced."""


_PLAIN_FIELDS = ("machine_type", "capacity", "zones", "max_nodes", "min_nodes", "tpu_topology", "slices",
                 "max_run_duration_seconds", "gpu_driver_version", "gpu_partition_size", "compact_placement")


class AcceleratorNodePool(pulumi.ComponentResource):
    """GKE node pools for one GPU or TPU machine type and one capacity model (DWS flex-start, queued
    provisioning, calendar reservation, specific reservation, spot or on-demand), with node counts,
    placement and accelerator settings derived from the accelerator catalog."""

    node_pool_names: pulumi.Output[list[str]]
    """Names of the GKE node pools (one per multi-host TPU slice)."""
    node_selector: pulumi.Output[dict[str, str]]
    """Node labels that select exactly this pool's nodes."""
    max_nodes: pulumi.Output[int]
    """Most nodes the pool can have (all its GKE node pools together)."""
    max_accelerators: pulumi.Output[int]
    """Most GPUs or TPU chips the pool can have."""

    def __init__(self, name: str, args: AcceleratorNodePoolArgs, opts: Optional[pulumi.ResourceOptions] = None):
        # Check everything before registering anything: bad input leaves nothing half-made.
        args, key_issues = argument_issues(args, AcceleratorNodePoolArgs)  # type: ignore[assignment]
        request, issues = pool_request_from_args(name, args)
        issues = key_issues + issues
        sa = args.get("service_account")
        if not isinstance(sa, pulumi.Output):
            issues += service_account_issues("serviceAccount", sa)
        if issues:
            raise_invalid(f"AcceleratorNodePool {name!r}", issues, _ARG_NAMES)
        self._create(request, node_pool_settings(request, checked=True), args["cluster"], args["location"],
                     args.get("project"), sa, opts)

    @classmethod
    def of_plan(cls, request: PoolRequest, settings: "tuple[NodePoolSettings, ...]", *, cluster: pulumi.Input[str],
                location: pulumi.Input[str], service_account: pulumi.Input[str], project: Optional[str] = None,
                opts: Optional[pulumi.ResourceOptions] = None) -> "AcceleratorNodePool":
        """The pool of an environment's capacity model (`Environment`): its request as the spec checked it with the
        pool's one rule set, and its GKE node pools as the model derived them (`model.PoolPlan`), used as they are
        instead of being written out as arguments and read back. The reservation's name may be an Output."""
        pool = cls.__new__(cls)
        pool._create(request, settings, cluster, location, project, service_account, opts)
        return pool

    def _create(self, request: PoolRequest, settings: "tuple[NodePoolSettings, ...]", cluster: pulumi.Input[str],
                location: pulumi.Input[str], project: Optional[pulumi.Input[str]], sa: pulumi.Input[str],
                opts: Optional[pulumi.ResourceOptions]) -> None:
        name = request.name
        super().__init__("gkecap:index:AcceleratorNodePool", name, None, opts)
        self.settings: tuple[NodePoolSettings, ...] = settings
        service_account = sa.apply(_checked_service_account) if isinstance(sa, pulumi.Output) else sa

        policy = None
        placed = next((s.placement for s in self.settings if s.placement and s.placement.workload_policy), None)
        if placed is not None and placed.workload_policy is not None:
            # TPU7x multi-host slices and A4X (NVL72 1x72): one workload policy carries the accelerator topology for
            # every node pool of the pool. FACTS A.3 [S34]; gke.pool_settings._placement.
            policy = gcp.compute.ResourcePolicy(
                f"{name}-workload-policy",
                project=project,
                region=_region(request.zones or (), location),
                workload_policy=gcp.compute.ResourcePolicyWorkloadPolicyArgs(
                    type=placed.workload_policy, accelerator_topology=placed.accelerator_topology
                ),
                opts=pulumi.ResourceOptions(parent=self),
            )

        affinity_values = _affinity_values(request.reservation)
        self.node_pools: list[gcp.container.NodePool] = [
            self._node_pool(s, cluster, location, project, service_account, affinity_values, policy)
            for s in self.settings
        ]

        total_nodes = sum(s.autoscaling.total_max_node_count for s in self.settings)
        self.node_pool_names = pulumi.Output.all(*[p.name for p in self.node_pools]).apply(list)
        self.node_selector = known(node_selector(name, request.machine_type, request.tpu_topology, request.gpu_type))
        self.max_nodes = pulumi.Output.from_input(total_nodes)
        self.max_accelerators = pulumi.Output.from_input(sum(s.max_accelerators for s in self.settings))
        self.register_outputs(
            {
                "nodePoolNames": self.node_pool_names,
                "nodeSelector": self.node_selector,
                "maxNodes": self.max_nodes,
                "maxAccelerators": self.max_accelerators,
            }
        )

    def _node_pool(
        self,
        s: NodePoolSettings,
        cluster: pulumi.Input[str],
        location: pulumi.Input[str],
        project: Optional[pulumi.Input[str]],
        service_account: pulumi.Input[str],
        affinity_values: Optional[pulumi.Input[list[str]]],
        policy: "Optional[gcp.compute.ResourcePolicy]",  # quoted: pulumi_gcp.compute loads only when used
    ) -> gcp.container.NodePool:
        acc = s.guest_accelerator
        guest_accelerators = None
        if acc is not None:
            guest_accelerators = [
                gcp.container.NodePoolNodeConfigGuestAcceleratorArgs(
                    type=acc.type,
                    count=acc.count,
                    gpu_driver_installation_config=gcp.container.NodePoolNodeConfigGuestAcceleratorGpuDriverInstallationConfigArgs(
                        gpu_driver_version=acc.gpu_driver_version
                    ),
                    gpu_partition_size=acc.gpu_partition_size,
                    gpu_sharing_config=(
                        gcp.container.NodePoolNodeConfigGuestAcceleratorGpuSharingConfigArgs(
                            gpu_sharing_strategy=acc.gpu_sharing.strategy,
                            max_shared_clients_per_gpu=acc.gpu_sharing.max_shared_clients_per_gpu,
                        )
                        if acc.gpu_sharing
                        else None
                    ),
                )
            ]
        affinity = s.reservation_affinity
        placement = None
        if s.placement is not None:
            placement = gcp.container.NodePoolPlacementPolicyArgs(
                type=s.placement.type,
                tpu_topology=s.placement.tpu_topology,
                policy_name=policy.name if (policy is not None and s.placement.workload_policy) else None,
            )
        return gcp.container.NodePool(
            s.name,
            name=s.name,
            cluster=cluster,
            location=location,
            project=project,
            node_locations=list(s.node_locations) or None,
            initial_node_count=s.initial_node_count,
            autoscaling=gcp.container.NodePoolAutoscalingArgs(
                total_min_node_count=s.autoscaling.total_min_node_count,
                total_max_node_count=s.autoscaling.total_max_node_count,
                location_policy=s.autoscaling.location_policy,
            ),
            management=gcp.container.NodePoolManagementArgs(auto_repair=s.auto_repair, auto_upgrade=s.auto_upgrade),
            queued_provisioning=(
                gcp.container.NodePoolQueuedProvisioningArgs(enabled=True) if s.queued_provisioning else None
            ),
            placement_policy=placement,
            node_config=gcp.container.NodePoolNodeConfigArgs(
                machine_type=s.machine_type,
                service_account=service_account,
                oauth_scopes=[CLOUD_PLATFORM_SCOPE],
                workload_metadata_config=gcp.container.NodePoolNodeConfigWorkloadMetadataConfigArgs(
                    mode=WORKLOAD_METADATA_MODE
                ),
                shielded_instance_config=gcp.container.NodePoolNodeConfigShieldedInstanceConfigArgs(
                    enable_secure_boot=True, enable_integrity_monitoring=True
                ),
                flex_start=True if s.flex_start else None,
                spot=True if s.spot else None,
                max_run_duration=s.max_run_duration,
                reservation_affinity=gcp.container.NodePoolNodeConfigReservationAffinityArgs(
                    consume_reservation_type=affinity.consume_reservation_type,
                    key=affinity.key,
                    values=affinity_values if affinity.target is not None else None,
                ),
                guest_accelerators=guest_accelerators,
                labels=dict(s.labels),
                taints=[gcp.container.NodePoolNodeConfigTaintArgs(key=t.key, value=t.value, effect=t.effect)
                        for t in s.taints],
                disk_size_gb=s.disk_size_gb,
                disk_type=s.disk_type,
            ),
            # The autoscaler owns node counts (see gke.AUTOSCALER_OWNED_FIELDS).
            opts=pulumi.ResourceOptions(parent=self, ignore_changes=list(AUTOSCALER_OWNED_FIELDS)),
        )


def pool_request_from_args(name: str, args: AcceleratorNodePoolArgs) -> tuple[PoolRequest, list[Issue]]:
    """The pure request of the arguments, and its issues: the pool's one rule set (`check_pool_request`) plus
    what only arguments can get wrong (a required one missing, an Output where a plain value is needed)."""
    issues = [
        Issue(camel(key), "must be a plain value known when the program runs, not an Output")
        for key in _PLAIN_FIELDS
        if isinstance(args.get(key), pulumi.Output)
    ]
    for key in ("cluster", "location", "machine_type", "capacity", "service_account"):
        if args.get(key) is None:
            issues.append(Issue(camel(key), "is required"))
    reservation = args.get("reservation")
    sharing = args.get("gpu_sharing")
    zones = args.get("zones")
    gpu = args.get("gpu")
    request = PoolRequest(
        name=name,
        machine_type=args.get("machine_type", ""),
        capacity=args.get("capacity", ""),
        zones=tuple(zones) if zones is not None else None,
        max_nodes=whole(args.get("max_nodes")),
        min_nodes=whole(args.get("min_nodes")),
        tpu_topology=args.get("tpu_topology"),
        slices=whole(args.get("slices")),
        reservation=(
            # An Output part rides through the pure request; it is judged below, and by GKE once known.
            ReservationTarget(cast(str, reservation.get("name")), cast(Optional[str], reservation.get("project")),
                              cast(Optional[str], reservation.get("block")))
            if reservation
            else None
        ),
        max_run_duration_seconds=whole(args.get("max_run_duration_seconds")),
        gpu_driver_version=args.get("gpu_driver_version"),
        gpu_partition_size=args.get("gpu_partition_size"),
        gpu_sharing=(
            GpuSharing(sharing.get("strategy"), whole(sharing.get("max_shared_clients_per_gpu"))) if sharing else None
        ),
        compact_placement=bool(args.get("compact_placement", False)),
        labels=dict(args.get("labels") or {}),
        taints=tuple(
            NodeTaint(t.get("key"), t.get("value"), t.get("effect", "NO_SCHEDULE")) for t in args.get("taints") or ()
        ),
        disk_size_gb=whole(args.get("disk_size_gb")),
        disk_type=args.get("disk_type"),
        gpu_type=gpu.get("type") if gpu else None,
        gpu_count=whole(gpu.get("count")) if gpu else None,
    )
    if issues:
        return request, issues
    # An Output reservation name is judged by the platform; the rest is ours to check.
    target = request.reservation
    if target is not None and any(isinstance(part, pulumi.Output) for part in (target.name, target.project, target.block)):
        plain = ReservationTarget("placeholder")  # known when the reservation exists: GKE judges it then
        return request, [i for i in check_pool_request(replace(request, reservation=plain)) if i.path != "reservation"]
    return request, check_pool_request(request)


def pool_args(request: PoolRequest) -> dict[str, Any]:
    """The component arguments that declare `request` (the inverse of `pool_request`, without the cluster,
    location, project and service account)."""
    args: dict[str, Any] = {"machine_type": request.machine_type, "capacity": request.capacity}
    optional = {
        "zones": list(request.zones) if request.zones is not None else None,
        "max_nodes": request.max_nodes,
        "min_nodes": request.min_nodes,
        "tpu_topology": request.tpu_topology,
        "slices": request.slices,
        "max_run_duration_seconds": request.max_run_duration_seconds,
        "gpu_driver_version": request.gpu_driver_version,
        "gpu_partition_size": request.gpu_partition_size,
        "disk_size_gb": request.disk_size_gb,
        "disk_type": request.disk_type,
        "compact_placement": request.compact_placement or None,
        "gpu": {"type": request.gpu_type, "count": request.gpu_count} if request.gpu_type is not None else None,
        "labels": dict(request.labels) or None,
        "taints": [{"key": t.key, "value": t.value, "effect": t.effect} for t in request.taints] or None,
    }
    args.update({key: value for key, value in optional.items() if value is not None})
    if request.reservation is not None:
        target = request.reservation
        args["reservation"] = {
            key: value for key, value in (("name", target.name), ("project", target.project), ("block", target.block))
            if value is not None
        }
    if request.gpu_sharing is not None:
        args["gpu_sharing"] = {
            "strategy": request.gpu_sharing.strategy,
            "max_shared_clients_per_gpu": request.gpu_sharing.max_shared_clients_per_gpu,
        }
    return args


def _affinity_values(target: Optional[ReservationTarget]) -> Optional[pulumi.Input[list[str]]]:
    if target is None:
        return None
    parts = (target.name, target.project, target.block)
    if any(isinstance(p, pulumi.Output) for p in parts):
        return pulumi.Output.all(*parts).apply(lambda p: [reservation_value(*p)])
    return [reservation_value(*parts)]


# The pool's rules name fields as the environment file does; where the component's argument differs, say so.
_ARG_NAMES = {"maxRunDuration": "maxRunDurationSeconds", "reservationProject": "reservation",
              "reservationBlock": "reservation"}


def _checked_service_account(email: str) -> str:
    issues = service_account_issues("serviceAccount", email)
    if issues:
        raise_invalid("AcceleratorNodePool", issues)
    return email


def _region(zones: tuple[str, ...], location: pulumi.Input[str]) -> pulumi.Input[str]:
    """Region of the pool: from its zone, else from the cluster location (a region, or a zone's region)."""
    if zones:
        return region_of(zones[0])
    return pulumi.Output.from_input(location).apply(region_of)
