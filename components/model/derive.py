"""`derive(spec) -> CapacityModel`: the capacity model of a validated environment, in linear time."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterable, Mapping

from gkecap.components.catalog import (
    GKE_ACCELERATOR_LABEL,
    GKE_TPU_ACCELERATOR_LABEL,
    GPU_RESOURCE,
    TPU_RESOURCE,
    gpu_machine,
    is_tpu_machine_type,
    node_resources,
    tpu_family_of,
    tpu_slice,
)
from gkecap.components.gke.calendar_window import AcceleratorKind
from gkecap.components.gke.node_labels import node_labels, node_selector, node_taints
from gkecap.components.gke.pool_request import DEFAULT_GPU_DRIVER_VERSION, pool_gpu
from gkecap.components.gke.pool_settings import node_pool_settings
from gkecap.components.gke.reservation_request import DEFAULT_TPU_WORKLOAD_TYPE
from gkecap.components.model.plans import (
    DEFAULT_WEIGHT,
    CapacityModel,
    CohortPlan,
    PoolPlan,
    PoolTotals,
    PreemptionPlan,
    PriorityClassPlan,
    ReservationPlan,
    TeamPlan,
    WorkerPlan,
    flavor_rank,
)
from gkecap.components.model.vertex import vertex_profiles, vertex_quotas
from gkecap.components.spec.models import EnvironmentSpec, NodePoolSpec, ReservationSpec, TeamSpec
from gkecap.components.spec.requests import pool_request
from gkecap.components.spec.workers import manager_view


def derive(spec: EnvironmentSpec) -> CapacityModel:
    """Derive the capacity model of a validated environment spec. With MultiKueue workers it is the manager's
    model: every worker's pools, the teams' whole quotas, and `workers` saying where each pool runs."""
    if spec.workers:
        workers = tuple(WorkerPlan(w.name, w.region, w.cluster.name, w.cluster.location or w.region,
                                   tuple(p.name for p in w.node_pools)) for w in spec.workers)
        return replace(derive(manager_view(spec).model_copy(update={"workers": []})), workers=workers)
    consumers: dict[str, list[str]] = {}
    for pool in spec.node_pools:
        if pool.capacity == "calendar" and pool.reservation:
            consumers.setdefault(pool.reservation, []).append(pool.name)
    reservations = tuple(_reservation_plan(r, consumers.get(r.name, ())) for r in spec.reservations)
    reservation_by_name = {r.name: r for r in reservations}

    pools = tuple(
        _pool_plan(
            index, pool, reservation_by_name.get(pool.reservation or "") if pool.capacity == "calendar" else None
        )
        for index, pool in enumerate(spec.node_pools)
    )
    pool_by_name = {p.name: p for p in pools}
    flavor_order = tuple(p.name for p in sorted(pools, key=lambda p: (p.flavor_rank, p.index)))
    order_of = {name: i for i, name in enumerate(flavor_order)}

    fair_sharing = spec.kueue.fair_sharing
    # Per (cohort, pool): the cohort's own quota plus its direct teams' quotas -> each team's share.
    cohort_pool_total: dict[tuple[str, str], int] = {}
    for cohort in spec.cohorts:
        for pool_name, quota in cohort.quota.items():
            cohort_pool_total[(cohort.name, pool_name)] = cohort_pool_total.get((cohort.name, pool_name), 0) + quota
    for team in spec.teams:
        if team.cohort is not None:
            for pool_name, quota in team.quota.items():
                key = (team.cohort, pool_name)
                cohort_pool_total[key] = cohort_pool_total.get(key, 0) + quota
    classes = spec.priority_classes or []
    teams = tuple(
        replace(_team_plan(i, t, fair_sharing, cohort_pool_total, order_of),
                priorities=allowed_priorities(t.priorities, [(pc.name, pc.value) for pc in classes]))
        for i, t in enumerate(spec.teams)
    )

    cohorts = _cohort_plans(spec, teams, order_of)
    totals = _totals(pools, spec)
    vertex = vertex_profiles(spec.vertex, spec.region)

    return CapacityModel(
        project=spec.project,
        region=spec.region,
        cluster=spec.cluster,
        kueue=spec.kueue,
        node_service_account=spec.node_service_account,
        pools=pools,
        reservations=reservations,
        cohorts=cohorts,
        teams=teams,
        priority_classes=tuple(
            PriorityClassPlan(pc.name, pc.value, pc.description) for pc in spec.priority_classes or []
        ),
        flavor_order=flavor_order,
        totals=totals,
        warnings=tuple(spec.warnings),
        vertex_profiles=vertex,
        vertex_quotas=vertex_quotas(vertex),
        _pools=pool_by_name,
        _teams={t.name: t for t in teams},
        _cohorts={c.name: c for c in cohorts},
        _reservations=reservation_by_name,
    )


def _reservation_plan(res: ReservationSpec, consumers: Iterable[str]) -> ReservationPlan:
    kind: AcceleratorKind
    if is_tpu_machine_type(res.machine_type):
        # TPU calendar requests count chips (FACTS C).
        family = tpu_family_of(res.machine_type)
        kind, unit, label, accelerators = "tpu", "chips", family.accelerator_label, res.count
        workload_type, tpu_family = res.workload_type or DEFAULT_TPU_WORKLOAD_TYPE, family.name
    else:
        gpu = gpu_machine(res.machine_type)
        kind, unit, label, accelerators = "gpu", "VMs", gpu.accelerator_label, res.count * gpu.gpus_per_vm
        workload_type, tpu_family = None, None
    return ReservationPlan(
        name=res.name,
        machine_type=res.machine_type,
        kind=kind,
        zone=res.zone,
        count=res.count,
        unit=unit,
        accelerator_label=label,
        accelerators=accelerators,
        start=res.start,
        end=res.end,
        days=res.days,
        submit=res.submit,
        planning_status="SUBMITTED" if res.submit else "DRAFT",
        share_with=tuple(res.share_with),
        workload_type=workload_type,
        tpu_family=tpu_family,
        description=res.description,
        consumers=tuple(consumers),
    )


def _pool_plan(index: int, pool: NodePoolSpec, reservation: ReservationPlan | None) -> PoolPlan:
    request = pool_request(pool, reservation.count if reservation else None)
    if request.zones is None and reservation is not None:
        request = replace(request, zones=(reservation.zone,))  # a calendar pool lives in its reservation's zone
    node_pools = node_pool_settings(request)
    max_nodes = sum(n.autoscaling.total_max_node_count for n in node_pools)
    common: dict[str, Any] = {  # the same for GPU and TPU pools
        "name": pool.name,
        "index": index,
        "machine_type": pool.machine_type,
        "capacity": pool.capacity,
        "flavor_rank": flavor_rank(pool.capacity),
        "zones": request.zones or (),
        "request": request,
        "node_pools": node_pools,
        "min_nodes": sum(n.autoscaling.total_min_node_count for n in node_pools),
        "max_nodes": max_nodes,
        "capacity_accelerators": sum(n.max_accelerators for n in node_pools),
        "units_per_node": node_pools[0].node_units,
        "capacity_units": sum(n.max_units for n in node_pools),
        "reservation": reservation,
        "reservation_name": pool.reservation,
        "reservation_block": pool.reservation_block,
        "reservation_project": pool.reservation_project,
        "max_run_duration": pool.max_run_duration,
        "labels": dict(pool.labels),
        "node_labels": node_labels(pool.name, pool.capacity, request.labels),
        "node_selector": node_selector(pool.name, pool.machine_type, pool.tpu_topology, request.gpu_type),
        "taints": request.taints,
        "node_taints": node_taints(pool.machine_type, pool.capacity, request.taints),
        "disk_size_gb": pool.disk_size_gb,
        "disk_type": pool.disk_type,
    }
    tpu = tpu_slice(pool.machine_type, pool.tpu_topology) if is_tpu_machine_type(pool.machine_type) else None  # type: ignore[arg-type]
    gpu = None if tpu is not None else pool_gpu(pool.machine_type, request.gpu_type, request.gpu_count)
    resource = TPU_RESOURCE if tpu is not None else GPU_RESOURCE
    per_node = tpu.chips_per_vm if tpu is not None else gpu.gpus_per_vm  # type: ignore[union-attr]
    return PoolPlan(
        kind="tpu" if tpu is not None else "gpu",
        family=(tpu or gpu).family,  # type: ignore[union-attr]
        accelerator_label_key=GKE_TPU_ACCELERATOR_LABEL if tpu is not None else GKE_ACCELERATOR_LABEL,
        accelerator_label=(tpu or gpu).accelerator_label,  # type: ignore[union-attr]
        resource_name=resource,
        accelerators_per_node=per_node,
        node_resources=_node_resources(pool.machine_type, resource, per_node, gpu),
        slices=request.slice_count if tpu is not None else 1,
        tpu_topology=tpu.topology if tpu is not None else None,
        multi_host=tpu is not None and tpu.multi_host,
        vms_per_slice=tpu.vms if tpu is not None else None,
        chips_per_slice=tpu.chips if tpu is not None else None,
        tpu=tpu,
        gpu=gpu,
        gpu_driver_version=None if tpu is not None else pool.gpu_driver_version or DEFAULT_GPU_DRIVER_VERSION,
        gpu_partition_size=pool.gpu_partition_size,
        gpu_sharing=request.gpu_sharing,
        **common,
    )


def _node_resources(machine_type: str, resource: str, per_node: int, gpu: Any = None) -> dict[str, int | str]:
    if gpu is not None and gpu.family == "n1":  # an N1 VM's shape with its attached GPUs (catalog.n1_gpus)
        memory_mi = round(gpu.memory_gb * 1024)
        memory = f"{memory_mi // 1024}Gi" if memory_mi % 1024 == 0 else f"{memory_mi}Mi"
        return {resource: per_node, "cpu": gpu.vcpus, "memory": memory}
    resources = dict(node_resources(machine_type))
    # A 1-chip topology on a multi-chip VM type uses one chip (catalog slice math); keep the two in step.
    resources[resource] = per_node
    return resources


def _preemption(team: TeamSpec, fair_sharing: bool) -> PreemptionPlan:
    given = team.preemption
    reclaim = given.reclaim_within_cohort or "Any"
    within = given.within_cluster_queue or "LowerPriority"
    if given.borrow_within_cohort is not None:
        borrow = given.borrow_within_cohort
    else:
        borrow = "Never" if fair_sharing or reclaim == "Never" else "LowerPriority"
    return PreemptionPlan(reclaim, within, borrow)


def _team_plan(
    index: int,
    team: TeamSpec,
    fair_sharing: bool,
    cohort_pool_total: Mapping[tuple[str, str], int],
    order_of: Mapping[str, int],
) -> TeamPlan:
    share: dict[str, float] = {}
    if team.cohort is not None:
        for pool_name, quota in team.quota.items():
            total = cohort_pool_total.get((team.cohort, pool_name), 0)
            share[pool_name] = quota / total if total else 0.0
    used = set(team.quota) | set(team.borrowing_limit) | set(team.lending_limit)
    return TeamPlan(
        name=team.name,
        index=index,
        cohort=team.cohort,
        quotas=dict(team.quota),
        borrowing_limits=dict(team.borrowing_limit),
        lending_limits=dict(team.lending_limit),
        weight=team.weight if team.weight is not None else DEFAULT_WEIGHT,
        namespaces=tuple(team.namespaces or (team.name,)),
        members=tuple(team.members),
        preemption=_preemption(team, fair_sharing),
        cohort_share=share,
        pools=tuple(sorted(used, key=lambda name: order_of.get(name, len(order_of)))),
        existing_namespace=team.namespace is not None,
        resource_quota=team.resource_quota,
        flavor_fungibility={key: value for key, value in (
            ("whenCanBorrow", team.flavor_fungibility.when_can_borrow),
            ("whenCanPreempt", team.flavor_fungibility.when_can_preempt)) if value is not None},
    )


def allowed_priorities(given: list[str] | None, classes: list[tuple[str, int]]) -> tuple[str, ...]:
    """The WorkloadPriorityClasses a team may name: `priorities` as given, else every class below the highest
    value. A higher class preempts lower ones (Kueue's withinClusterQueue and borrowWithinCohort LowerPriority),
    so the top classes are for the teams that are given them; with a single value, every class is allowed."""
    if given is not None:
        return tuple(name for name, _ in classes if name in given)
    if not classes:
        return ()
    top = max(value for _, value in classes)
    below = tuple(name for name, value in classes if value < top)
    return below or tuple(name for name, _ in classes)


def _cohort_plans(
    spec: EnvironmentSpec, teams: tuple[TeamPlan, ...], order_of: Mapping[str, int]
) -> tuple[CohortPlan, ...]:
    children: dict[str, list[str]] = {c.name: [] for c in spec.cohorts}
    members: dict[str, list[str]] = {c.name: [] for c in spec.cohorts}
    parent_of = {c.name: c.parent for c in spec.cohorts}
    for cohort in spec.cohorts:
        if cohort.parent is not None:
            children[cohort.parent].append(cohort.name)
    for team in teams:
        if team.cohort is not None:
            members[team.cohort].append(team.name)

    depth: dict[str, int] = {}
    for name in parent_of:  # the spec guarantees no cycles; memoised walk up is linear overall
        chain = []
        node: str | None = name
        while node is not None and node not in depth:
            chain.append(node)
            node = parent_of[node]
        base = depth[node] + 1 if node is not None else 0
        for offset, item in enumerate(reversed(chain)):
            depth[item] = base + offset

    subtree: dict[str, dict[str, int]] = {c.name: dict(c.quota) for c in spec.cohorts}
    team_by_name = {t.name: t for t in teams}
    for name, names in members.items():
        for team_name in names:
            _add_into(subtree[name], team_by_name[team_name].quotas)
    for name in sorted(parent_of, key=lambda n: -depth[n]):  # deepest first: children roll up into parents
        parent = parent_of[name]
        if parent is not None:
            _add_into(subtree[parent], subtree[name])

    return tuple(
        CohortPlan(
            name=c.name,
            index=i,
            parent=c.parent,
            children=tuple(children[c.name]),
            teams=tuple(members[c.name]),
            quota=dict(c.quota),
            weight=c.weight,
            depth=depth[c.name],
            subtree_quota=subtree[c.name],
            borrowing_limits=dict(c.borrowing_limit),
            lending_limits=dict(c.lending_limit),
            pools=tuple(
                sorted(
                    set(c.quota) | set(c.borrowing_limit) | set(c.lending_limit),
                    key=lambda name: order_of.get(name, len(order_of)),
                )
            ),
        )
        for i, c in enumerate(spec.cohorts)
    )


def _totals(pools: tuple[PoolPlan, ...], spec: EnvironmentSpec) -> dict[str, PoolTotals]:
    team_quotas: dict[str, dict[str, int]] = {p.name: {} for p in pools}
    cohort_quotas: dict[str, dict[str, int]] = {p.name: {} for p in pools}
    for team in spec.teams:
        for pool_name, quota in team.quota.items():
            team_quotas[pool_name][team.name] = quota
    for cohort in spec.cohorts:
        for pool_name, quota in cohort.quota.items():
            cohort_quotas[pool_name][cohort.name] = quota
    totals = {}
    for pool in pools:
        quota_total = sum(team_quotas[pool.name].values()) + sum(cohort_quotas[pool.name].values())
        totals[pool.name] = PoolTotals(
            pool=pool.name,
            capacity_model=pool.capacity,
            resource_name=pool.resource_name,
            capacity=pool.capacity_units,
            quota_total=quota_total,
            team_quotas=team_quotas[pool.name],
            cohort_quotas=cohort_quotas[pool.name],
            overcommitted=quota_total > pool.capacity_units,
        )
    return totals


def _add_into(target: dict[str, int], source: Mapping[str, int]) -> None:
    for key, value in source.items():
        target[key] = target.get(key, 0) + value


