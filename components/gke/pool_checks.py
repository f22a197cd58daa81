"""The one rule set of an accelerator pool: `check_pool_request(request) -> list[Issue]`.

The environment spec runs it on every `nodePools[i]` (and prefixes the paths), `AcceleratorNodePool` runs it
on its arguments before registering anything; the policy pack checks raw resources against the same catalog
facts. Paths name fields as the environment file does (`maxNodes`, `gpuSharing.strategy`, `taints[0].key`).
Checks that need the rest of an environment (the region, declared reservations, other pools) are the spec's.
"""

from __future__ import annotations

from gkecap.components.catalog import (
    CAPACITY_MODELS,
    FLEX_START_COMPACT_PREFIXES,
    CatalogError,
    N1_CAPACITY_MODELS,
    GpuMachine,
    is_gpu_machine_type,
    is_n1_machine_type,
    is_tpu_machine_type,
    mig_profile,
    n1_gpu_issues,
    supported_capacity_models,
    tpu_machine,
    tpu_slice,
)
from gkecap.components.gke.boot_disks import check_boot_disk
from gkecap.components.gke.locations import zones_issues
from gkecap.components.gke.node_labels import label_issues, taint_issues
from gkecap.components.gke.pool_request import (
    FLEX_CAPACITIES,
    GPU_DRIVER_VERSIONS,
    GPU_SHARING_STRATEGIES,
    MAX_RUN_DURATION_SECONDS,
    MAX_SHARED_CLIENTS_PER_GPU,
    MIN_NODES_CAPACITIES,
    RESERVATION_CAPACITIES,
    PoolRequest,
    node_pool_names,
    pool_gpu,
)
from gkecap.components.gke.resource_names import (
    GCE_NAME_PATTERN,
    NODE_POOL_NAME_MAX,
    gce_name_issues,
    project_issues,
)
from gkecap.components.issues import Issue

# A GKE cluster holds at most 65,000 nodes ("Plan for large GKE clusters",
# https://cloud.google.com/kubernetes-engine/docs/concepts/planning-large-clusters): no pool can exceed it,
# and the bound keeps a mistyped size from turning into billions of node pools.
MAX_CLUSTER_NODES = 65_000


def check_pool_request(req: PoolRequest) -> list[Issue]:
    """Every problem of one pool, collected (empty when `node_pool_settings` will succeed)."""
    issues: list[Issue] = []
    if req.capacity not in CAPACITY_MODELS:
        issues.append(Issue("capacity", f"{req.capacity!r} is not a capacity model; allowed: {', '.join(CAPACITY_MODELS)}"))
    n1 = is_n1_machine_type(req.machine_type)
    if n1:
        # N1 with attached GPUs (catalog.n1_gpus): the GPU type and count are the pool's own.
        problems = n1_gpu_issues(req.machine_type, req.gpu_type, req.gpu_count)
        if problems:
            return issues + [Issue(f"gpu.{field}", message) for field, message in problems] + _name_issues(req.name, 1)
        supported = N1_CAPACITY_MODELS
    else:
        if req.gpu_type is not None or req.gpu_count is not None:
            issues.append(Issue("gpu", f"applies to N1 machine types only; {req.machine_type} comes with its "
                                "accelerators"))
        try:
            supported = supported_capacity_models(req.machine_type)
        except CatalogError as err:
            return issues + [Issue("machineType", str(err))] + _name_issues(req.name, 1)
    if req.capacity in CAPACITY_MODELS and req.capacity not in supported:
        ordered = ", ".join(m for m in CAPACITY_MODELS if m in supported)
        issues.append(Issue("capacity", f"{req.capacity!r} is not available for {req.machine_type}; supported: {ordered}"))
    pools = 1
    if n1 or is_gpu_machine_type(req.machine_type):
        issues += _gpu_issues(req, pool_gpu(req.machine_type, req.gpu_type, req.gpu_count))
    elif is_tpu_machine_type(req.machine_type):
        issues += _tpu_issues(req)
        pools = _tpu_node_pool_count(req)
    issues += _name_issues(req.name, pools)
    issues += _capacity_issues(req)
    if req.zones is not None:
        issues += zones_issues("zones", list(req.zones))
    issues += label_issues("labels", req.labels)
    issues += taint_issues("taints", req.taints)
    issues += check_boot_disk(req.machine_type, req.disk_type, req.disk_size_gb)
    return issues


def _tpu_node_pool_count(req: PoolRequest) -> int:
    try:
        multi_host = tpu_slice(req.machine_type, req.tpu_topology).multi_host if req.tpu_topology else False
    except CatalogError:
        return 1
    return req.slice_count if multi_host else 1


def _name_issues(name: str, pools: int) -> list[Issue]:
    if not isinstance(name, str) or not GCE_NAME_PATTERN.fullmatch(name):
        return [
            Issue(
                "name",
                f"{name!r} is not a valid pool name; allowed: lowercase letters, digits and hyphens, starting with a"
                " letter and ending with a letter or digit",
            )
        ]
    longest = node_pool_names(name, 1)[0] if pools == 1 else f"{name}-s{pools - 1}"  # as node_pool_names names the last
    if len(longest) <= NODE_POOL_NAME_MAX:
        return []
    # One GKE node pool per multi-host slice: <pool>-s0, -s1, ...; every name must fit GKE's limit.
    limit = NODE_POOL_NAME_MAX - (len(longest) - len(name))
    why = f" so that the GKE node pool names ({longest}) fit in {NODE_POOL_NAME_MAX}" if pools > 1 else ""
    return [Issue("name", f"{name!r} has {len(name)} characters; at most {limit}{why}")]


def _whole(value: object, minimum: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= minimum


def _gpu_issues(req: PoolRequest, gpu: GpuMachine) -> list[Issue]:
    issues: list[Issue] = []
    add = lambda path, message: issues.append(Issue(path, message))  # noqa: E731
    if req.tpu_topology is not None:
        add("tpuTopology", f"applies to TPU pools only; {req.machine_type} is a GPU machine type")
    if req.slices is not None:
        add("slices", "applies to TPU pools only; size GPU pools with maxNodes")
    if req.max_nodes is None:
        add("maxNodes", "required for GPU pools: the most nodes the pool may scale to (>= 1)")
    elif not _whole(req.max_nodes, 1):
        add("maxNodes", f"{req.max_nodes!r} must be a whole number of nodes, at least 1")
    elif req.max_nodes > MAX_CLUSTER_NODES:
        add("maxNodes", f"{req.max_nodes} is more nodes than a GKE cluster holds; allowed: 1 to {MAX_CLUSTER_NODES}")
    if req.min_nodes is not None:
        if not _whole(req.min_nodes, 0):
            add("minNodes", f"{req.min_nodes!r} must be a whole number, at least 0")
        elif req.capacity in FLEX_CAPACITIES:
            add("minNodes", f"{req.capacity} pools scale from zero (DWS creates nodes for pending work); remove minNodes")
        elif req.min_nodes > 0 and req.capacity == "calendar":
            # A calendar reservation's VMs exist only in its window: nodes cannot be kept before it opens.
            allowed = ", ".join(m for m in CAPACITY_MODELS if m in MIN_NODES_CAPACITIES)
            add("minNodes", f"must be 0 for calendar pools (the reservation's VMs exist only in its window); "
                f"minNodes > 0 is for {allowed}")
        elif _whole(req.max_nodes, 1) and req.min_nodes > req.max_nodes:  # type: ignore[operator]
            add("minNodes", f"{req.min_nodes} exceeds maxNodes {req.max_nodes}; allowed: 0 to {req.max_nodes}")
    if req.gpu_driver_version is not None and req.gpu_driver_version not in GPU_DRIVER_VERSIONS:
        add("gpuDriverVersion", f"{req.gpu_driver_version!r} is not allowed; allowed: {', '.join(GPU_DRIVER_VERSIONS)}")
    if req.gpu_partition_size is not None:
        try:
            mig_profile(gpu.accelerator_label, req.gpu_partition_size)
        except CatalogError as err:
            add("gpuPartitionSize", str(err))
    sharing = req.gpu_sharing
    if sharing is not None:
        supported = {"TIME_SHARING": gpu.time_sharing, "MPS": gpu.mps}
        if sharing.strategy not in GPU_SHARING_STRATEGIES:
            add("gpuSharing.strategy", f"{sharing.strategy!r} is not allowed; allowed: {', '.join(GPU_SHARING_STRATEGIES)}")
        elif not supported[sharing.strategy]:
            allowed = ", ".join(s for s, ok in supported.items() if ok) or "none"
            add("gpuSharing.strategy", f"{sharing.strategy!r} is not supported on {gpu.accelerator_label}; allowed: {allowed}")
        elif sharing.strategy == "MPS" and req.gpu_partition_size is not None:
            # GKE shares MIG partitions by time-sharing; MPS runs on whole GPUs. FACTS E
            add("gpuSharing.strategy", "'MPS' cannot be combined with gpuPartitionSize; use TIME_SHARING to share MIG "
                "partitions, or drop gpuPartitionSize")
        if (not _whole(sharing.max_shared_clients_per_gpu, 1)
                or sharing.max_shared_clients_per_gpu > MAX_SHARED_CLIENTS_PER_GPU):
            # FACTS E [S10 manager.go]: must be > 0 for time-sharing or MPS; at most 48 (MAX_SHARED_CLIENTS_PER_GPU).
            add("gpuSharing.maxSharedClientsPerGpu",
                f"{sharing.max_shared_clients_per_gpu!r} is outside the containers one GPU can serve; allowed: 1 to "
                f"{MAX_SHARED_CLIENTS_PER_GPU}")
    if req.compact_placement:
        if not gpu.compact_placement and not gpu.nvlink_topology:  # A4X: a workload policy (gke.pool_settings)
            add("compactPlacement", f"{req.machine_type} does not support compact placement")
        elif req.capacity == "queued":
            # FACTS B.2 [S9]: queued provisioning is not allowed with COMPACT placement (except TPUs).
            add("compactPlacement", "is not allowed with queued provisioning on GPUs")
        elif req.capacity == "flex-start" and not gpu.flex_start_compact_placement:
            add("compactPlacement", f"flex-start with compact placement is only for "
                f"{', '.join(p + '*' for p in FLEX_START_COMPACT_PREFIXES)}; not {req.machine_type}")
        if req.zones is not None and len(set(req.zones)) > 1:
            # A compact placement policy places VMs close together within one zone (docs/sources.md "Compact
            # placement is single-zone"): a COMPACT pool over several node locations is refused by GKE.
            add("compactPlacement", f"compact placement keeps the pool's VMs in one zone; give exactly one zone in "
                f"zones (got {', '.join(req.zones)}), or drop compactPlacement")
    return issues


def _tpu_issues(req: PoolRequest) -> list[Issue]:
    issues: list[Issue] = []
    add = lambda path, message: issues.append(Issue(path, message))  # noqa: E731
    if req.max_nodes is not None:
        add("maxNodes", "TPU pools are sized in slices, never nodes: use slices (the node count follows from tpuTopology)")
    if req.min_nodes is not None:
        add("minNodes", "TPU pools are sized in slices and scale from zero; remove minNodes")
    for path, value in (("gpuDriverVersion", req.gpu_driver_version), ("gpuPartitionSize", req.gpu_partition_size),
                        ("gpuSharing", req.gpu_sharing)):
        if value is not None:
            add(path, f"applies to GPU pools only; {req.machine_type} is a TPU machine type")
    if req.compact_placement:
        add("compactPlacement", "applies to GPU pools only; TPU placement follows from the slice topology")
    if req.slices is not None and not _whole(req.slices, 1):
        add("slices", f"{req.slices!r} must be a whole number of slices, at least 1")
    if req.tpu_topology is None:
        add("tpuTopology", f"required for TPU machine type {req.machine_type}; valid: "
            f"{tpu_machine(req.machine_type).describe_topologies()}")
        return issues
    try:
        tpu = tpu_slice(req.machine_type, req.tpu_topology)
    except CatalogError as err:
        add("tpuTopology", str(err))
        return issues
    nodes = req.slice_count * tpu.vms
    if nodes > MAX_CLUSTER_NODES:
        add("slices", f"{req.slice_count} slices of {tpu.vms} VMs are {nodes} nodes, more than a GKE cluster holds; "
            f"allowed: at most {MAX_CLUSTER_NODES // tpu.vms} slices")
    if tpu.multi_host and req.zones is not None and len(set(req.zones)) > 1:
        add("zones", f"a multi-host {tpu.topology} slice ({tpu.vms} VMs) lives in one zone; give exactly one zone, "
            f"got {', '.join(req.zones)}")
    return issues


def _capacity_issues(req: PoolRequest) -> list[Issue]:
    issues: list[Issue] = []
    add = lambda path, message: issues.append(Issue(path, message))  # noqa: E731
    if req.max_run_duration_seconds is not None:
        if req.capacity not in FLEX_CAPACITIES:
            add("maxRunDuration", f"applies to flex-start and queued pools only, not {req.capacity}")
        elif not _whole(req.max_run_duration_seconds, 1) or req.max_run_duration_seconds > MAX_RUN_DURATION_SECONDS:
            add("maxRunDuration", f"{req.max_run_duration_seconds!r} seconds is outside the flex-start limit; "
                f"allowed: 1 to {MAX_RUN_DURATION_SECONDS} (7 days)")
    target = req.reservation
    if req.capacity in RESERVATION_CAPACITIES:
        if target is None or not target.name:
            what = ("a reservation declared in reservations" if req.capacity == "calendar"
                    else "an existing specific reservation")
            add("reservation", f"required for {req.capacity} pools: the name of {what}")
        else:
            issues += gce_name_issues("reservation", target.name, "reservation name")
            if req.capacity == "calendar" and target.project is not None:
                add("reservationProject", "applies to capacity: reservation only; calendar reservations are declared"
                    " in this environment's project")
    elif target is not None:
        for path, value in (("reservation", target.name), ("reservationBlock", target.block),
                            ("reservationProject", target.project)):
            if value is not None:
                add(path, f"applies to calendar and reservation pools only; {req.capacity} pools consume no reservation")
    if target is not None and target.project is not None:
        issues += project_issues("reservationProject", target.project)
    if target is not None and target.block is not None:
        issues += gce_name_issues("reservationBlock", target.block, "reservation block name")
    return issues
