"""The capacity model: everything the components, the Kueue builders and the report need, derived once.

``derive(spec) -> CapacityModel`` is pure (no Pulumi, no clock) and expects a spec that
``gkecap.components.spec.load_environment`` accepted. It works in linear time in the size of the spec
(teams x quota entries, pools, cohorts), so an organisation of 1,000 teams derives in milliseconds.

Decisions documented here (and relied on by components and policies):

* GKE node pools per spec pool, as ``gkecap.components.gke.node_pools`` builds them (one source of truth for names
  and labels). GPU: one node pool named like the pool, autoscaled ``minNodes..maxNodes``. Single-host TPU
  (one VM per slice): one node pool named like the pool, autoscaled ``0..slices`` nodes. Multi-host TPU: one
  node pool per slice, each ``0..vms`` nodes (a slice is all-or-nothing) with COMPACT placement and the
  topology, named ``<pool>`` for one slice and ``<pool>-s0``, ``<pool>-s1``... for several.
* Calendar pools default to the whole reservation (``maxNodes`` = its VM count) and to its zone.
* Kueue flavor order: reservation, calendar, queued, flex-start, spot, on-demand; ties keep file order.
* Preemption defaults: reclaimWithinCohort ``Any`` (a team gets its own quota back from borrowers),
  withinClusterQueue ``LowerPriority``, borrowWithinCohort ``LowerPriority`` under classical preemption and
  ``Never`` under fair sharing (the Kueue CRD: borrowWithinCohort "may only be configured with Classical
  Preemption") or when reclaimWithinCohort is ``Never`` (KUEUE_VALIDATION R-CQ-10).
* Fair-sharing weight defaults to 1.
* A pool's extra taints and boot disk are carried as written (``taints``; ``node_taints`` adds the accelerator's
  and GKE's own, which the pool's Kueue flavor tolerates). A cohort's per-pool borrowing and lending limits
  (only under a parent, Kueue R-CO-2) likewise; ``CohortPlan.pools`` lists the pools a Cohort object needs
  (a quota or a limit on them).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, fields, is_dataclass
from datetime import datetime, timezone
from typing import Any, Iterable, Mapping

from pydantic import BaseModel
from pydantic.alias_generators import to_camel

from gkecap.components.catalog import (
    CAPACITY_MODELS,
    GKE_ACCELERATOR_LABEL,
    GKE_TPU_ACCELERATOR_LABEL,
    GPU_RESOURCE,
    TPU_RESOURCE,
    GpuMachine,
    TpuSlice,
    gpu_machine,
    is_tpu_machine_type,
    node_resources,
    tpu_family_of,
    tpu_slice,
)
from gkecap.components.gke.node_pools import (
    DEFAULT_GPU_DRIVER_VERSION,
    FLEX_CAPACITIES,
    POOL_LABEL,
    GpuSharing,
    Taint,
    node_labels,
    node_pool_names,
    node_selector,
    node_taints,
)
from gkecap.components.spec import (
    ClusterSpec,
    EnvironmentSpec,
    KueueSpec,
    NodePoolSpec,
    ReservationSpec,
    TeamSpec,
)

__all__ = [
    "POOL_LABEL",
    "CapacityModel",
    "CohortPlan",
    "GkeNodePoolPlan",
    "GpuSharingPlan",
    "PoolPlan",
    "PoolTotals",
    "PreemptionPlan",
    "PriorityClassPlan",
    "ReservationPlan",
    "TeamPlan",
    "derive",
    "flavor_rank",
]

DEFAULT_WEIGHT = 1.0


def flavor_rank(capacity: str) -> int:
    """Position of a capacity model in the Kueue flavor order (committed capacity first)."""
    return CAPACITY_MODELS.index(capacity)


@dataclass(frozen=True)
class GkeNodePoolPlan:
    """One ``gcp.container.NodePool``: its name and autoscaling bounds (total across zones)."""

    name: str
    min_nodes: int
    max_nodes: int
    slice_index: int | None  # multi-host TPU: which slice; else None
    placement: str | None  # "COMPACT" for multi-host TPU slices
    tpu_topology: str | None  # placement_policy.tpu_topology (None where a workload policy carries it)
    workload_policy: str | None  # e.g. HIGH_THROUGHPUT for multi-host TPU7x
    accelerators: int  # max_nodes x accelerators per node


GpuSharingPlan = GpuSharing  # strategy (TIME_SHARING | MPS), max_shared_clients_per_gpu: one type for both


@dataclass(frozen=True)
class ReservationPlan:
    """A calendar-mode future reservation, resolved."""

    name: str
    machine_type: str
    kind: str  # "gpu" | "tpu"
    zone: str
    count: int  # GPU: VMs; TPU: chips
    unit: str  # "VMs" | "chips"
    accelerator_label: str
    accelerators: int  # GPUs (VMs x GPUs per VM) or chips
    start: datetime
    end: datetime
    days: int
    submit: bool
    planning_status: str  # DRAFT | SUBMITTED
    share_with: tuple[str, ...]
    workload_type: str | None  # TPU: BATCH (default) | SERVING; GPU: None
    tpu_family: str | None
    description: str | None
    consumers: tuple[str, ...]  # calendar pools consuming it


@dataclass(frozen=True)
class PoolPlan:
    """One spec pool, with everything derived: accelerator facts, GKE node pools, capacity, reservation."""

    name: str
    index: int  # position in nodePools
    machine_type: str
    kind: str  # "gpu" | "tpu"
    family: str  # catalog family, e.g. "a3", "v6e"
    capacity: str  # capacity model
    flavor_rank: int
    accelerator_label_key: str  # cloud.google.com/gke-accelerator | cloud.google.com/gke-tpu-accelerator
    accelerator_label: str  # e.g. nvidia-h100-80gb, tpu-v6e-slice
    resource_name: str  # nvidia.com/gpu | google.com/tpu
    accelerators_per_node: int
    node_resources: dict[str, int | str]  # per node, from the catalog (accelerators, cpu, memory)
    zones: tuple[str, ...]  # node locations; () = the cluster's default
    node_pools: tuple[GkeNodePoolPlan, ...]
    min_nodes: int  # total over node_pools
    max_nodes: int
    capacity_accelerators: int
    slices: int  # TPU slices; 1 for GPU pools
    tpu_topology: str | None  # normalized, TPU only
    multi_host: bool
    vms_per_slice: int | None
    chips_per_slice: int | None
    tpu: TpuSlice | None
    gpu: GpuMachine | None
    reservation: ReservationPlan | None  # calendar pools
    reservation_name: str | None  # calendar and reservation pools
    reservation_block: str | None
    reservation_project: str | None
    max_run_duration: int | None  # seconds
    gpu_driver_version: str | None  # GPU: DEFAULT unless given
    gpu_partition_size: str | None
    gpu_sharing: GpuSharingPlan | None
    labels: dict[str, str]  # extra node labels from the spec
    node_labels: dict[str, str]  # labels the node pools set (gkecap.components.gke.node_pools.node_labels)
    node_selector: dict[str, str]  # labels selecting exactly this pool's nodes (node_settings.node_selector)
    taints: tuple[Taint, ...]  # extra node taints from the spec (AcceleratorNodePool's `taints`)
    node_taints: tuple[Taint, ...]  # every taint the nodes carry (node_settings.node_taints); flavors tolerate these
    disk_size_gb: int | None  # boot disk; None: GKE's default
    disk_type: str | None  # boot disk type; None: GKE's default for the machine type

    @property
    def is_tpu(self) -> bool:
        return self.kind == "tpu"

    @property
    def flex_start(self) -> bool:
        return self.capacity in FLEX_CAPACITIES

    @property
    def queued(self) -> bool:
        return self.capacity == "queued"

    @property
    def spot(self) -> bool:
        return self.capacity == "spot"

    def resources_for(self, accelerators: int) -> dict[str, int | str]:
        """The accelerators plus the cpu and memory of the nodes that carry them (pro rata per node)."""
        return _pro_rata(self.node_resources, self.resource_name, self.accelerators_per_node, accelerators)


@dataclass(frozen=True)
class PreemptionPlan:
    reclaim_within_cohort: str
    within_cluster_queue: str
    borrow_within_cohort: str


@dataclass(frozen=True)
class TeamPlan:
    name: str
    index: int
    cohort: str | None
    quotas: dict[str, int]  # pool -> accelerators, as written (pools without an entry have no quota)
    borrowing_limits: dict[str, int]
    lending_limits: dict[str, int]
    weight: float
    namespaces: tuple[str, ...]
    members: tuple[str, ...]
    preemption: PreemptionPlan
    cohort_share: dict[str, float]  # pool -> this team's share of its cohort's quota on that pool
    pools: tuple[str, ...]  # pools the team can use (quota, borrowing or lending entry), in flavor order

    @property
    def total_quota(self) -> int:
        return sum(self.quotas.values())


@dataclass(frozen=True)
class CohortPlan:
    name: str
    index: int
    parent: str | None
    children: tuple[str, ...]  # child cohorts
    teams: tuple[str, ...]  # teams directly in it
    quota: dict[str, int]  # the cohort's own shared quota
    weight: float | None
    depth: int  # 0 for a root
    subtree_quota: dict[str, int]  # own + teams + descendant cohorts, per pool
    borrowing_limits: dict[str, int]  # pool -> most the cohort borrows from its parent (only with a parent)
    lending_limits: dict[str, int]  # pool -> most the cohort lends to its parent (may exceed its own quota)
    pools: tuple[str, ...]  # pools of the Cohort object's flavors (quota or limit entry), in flavor order


@dataclass(frozen=True)
class PoolTotals:
    pool: str
    capacity_model: str
    resource_name: str
    capacity: int
    quota_total: int
    team_quotas: dict[str, int]
    cohort_quotas: dict[str, int]
    overcommitted: bool

    @property
    def unassigned(self) -> int:
        """Capacity no quota names (negative when over-committed)."""
        return self.capacity - self.quota_total

    @property
    def utilization(self) -> float:
        return self.quota_total / self.capacity if self.capacity else 0.0


@dataclass(frozen=True)
class PriorityClassPlan:
    name: str
    value: int
    description: str


@dataclass(frozen=True)
class CapacityModel:
    project: str | None
    region: str
    cluster: ClusterSpec
    kueue: KueueSpec
    node_service_account: str | None
    pools: tuple[PoolPlan, ...]  # file order
    reservations: tuple[ReservationPlan, ...]
    cohorts: tuple[CohortPlan, ...]
    teams: tuple[TeamPlan, ...]
    priority_classes: tuple[PriorityClassPlan, ...]
    flavor_order: tuple[str, ...]  # pool names in Kueue flavor order
    totals: dict[str, PoolTotals]  # per pool
    warnings: tuple[str, ...]
    _pools: dict[str, PoolPlan] = field(repr=False, compare=False, default_factory=dict)
    _teams: dict[str, TeamPlan] = field(repr=False, compare=False, default_factory=dict)
    _cohorts: dict[str, CohortPlan] = field(repr=False, compare=False, default_factory=dict)
    _reservations: dict[str, ReservationPlan] = field(repr=False, compare=False, default_factory=dict)

    def pool(self, name: str) -> PoolPlan:
        return self._pools[name]

    def team(self, name: str) -> TeamPlan:
        return self._teams[name]

    def cohort(self, name: str) -> CohortPlan:
        return self._cohorts[name]

    def reservation(self, name: str) -> ReservationPlan:
        return self._reservations[name]

    @property
    def root_cohorts(self) -> tuple[CohortPlan, ...]:
        return tuple(c for c in self.cohorts if c.parent is None)

    def pools_in_flavor_order(self) -> tuple[PoolPlan, ...]:
        return tuple(self._pools[name] for name in self.flavor_order)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: camelCase keys for fields, names (pools, teams) kept as keys, datetimes in UTC ISO."""
        return _json(self)


# --------------------------------------------------------------------------------------------------------


def derive(spec: EnvironmentSpec) -> CapacityModel:
    """Derive the capacity model of a validated environment spec."""
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
    teams = tuple(_team_plan(i, t, fair_sharing, cohort_pool_total, order_of) for i, t in enumerate(spec.teams))

    cohorts = _cohort_plans(spec, teams, order_of)
    totals = _totals(pools, spec)

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
        _pools=pool_by_name,
        _teams={t.name: t for t in teams},
        _cohorts={c.name: c for c in cohorts},
        _reservations=reservation_by_name,
    )


def _reservation_plan(res: ReservationSpec, consumers: Iterable[str]) -> ReservationPlan:
    if is_tpu_machine_type(res.machine_type):
        # TPU calendar requests count chips (FACTS C).
        family = tpu_family_of(res.machine_type)
        kind, unit, label, accelerators = "tpu", "chips", family.accelerator_label, res.count
        workload_type, tpu_family = res.workload_type or "BATCH", family.name
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
    zones = tuple(pool.zones) if pool.zones is not None else ((reservation.zone,) if reservation else ())
    labels = dict(pool.labels)
    taints = tuple(Taint(t.key, t.value, t.effect) for t in pool.taints)
    common: dict[str, Any] = {  # the same for GPU and TPU pools
        "name": pool.name,
        "index": index,
        "machine_type": pool.machine_type,
        "capacity": pool.capacity,
        "flavor_rank": flavor_rank(pool.capacity),
        "zones": zones,
        "reservation": reservation,
        "reservation_name": pool.reservation,
        "reservation_block": pool.reservation_block,
        "reservation_project": pool.reservation_project,
        "max_run_duration": pool.max_run_duration,
        "labels": labels,
        "node_labels": node_labels(pool.name, pool.capacity, labels),
        "node_selector": node_selector(pool.name, pool.machine_type, pool.tpu_topology),
        "taints": taints,
        "node_taints": node_taints(pool.machine_type, pool.capacity, taints),
        "disk_size_gb": pool.disk_size_gb,
        "disk_type": pool.disk_type,
    }
    if is_tpu_machine_type(pool.machine_type):
        assert pool.tpu_topology is not None, "derive() expects a spec accepted by load_environment()"
        tpu = tpu_slice(pool.machine_type, pool.tpu_topology)
        slices = pool.slices or 1
        if tpu.multi_host:
            node_pools = tuple(
                GkeNodePoolPlan(
                    name=name,
                    min_nodes=0,
                    max_nodes=tpu.vms,
                    slice_index=i,
                    placement=tpu.placement_type,
                    tpu_topology=tpu.tpu_topology,
                    workload_policy=tpu.workload_policy,
                    accelerators=tpu.chips,
                )
                for i, name in enumerate(node_pool_names(pool.name, slices))
            )
        else:
            node_pools = (
                GkeNodePoolPlan(
                    name=pool.name,
                    min_nodes=0,
                    max_nodes=slices,
                    slice_index=None,
                    placement=None,
                    tpu_topology=None,
                    workload_policy=None,
                    accelerators=slices * tpu.chips,
                ),
            )
        return PoolPlan(
            kind="tpu",
            family=tpu.family,
            accelerator_label_key=GKE_TPU_ACCELERATOR_LABEL,
            accelerator_label=tpu.accelerator_label,
            resource_name=TPU_RESOURCE,
            accelerators_per_node=tpu.chips_per_vm,
            node_resources=_node_resources(pool.machine_type, TPU_RESOURCE, tpu.chips_per_vm),
            node_pools=node_pools,
            min_nodes=0,
            max_nodes=sum(n.max_nodes for n in node_pools),
            capacity_accelerators=slices * tpu.chips,
            slices=slices,
            tpu_topology=tpu.topology,
            multi_host=tpu.multi_host,
            vms_per_slice=tpu.vms,
            chips_per_slice=tpu.chips,
            tpu=tpu,
            gpu=None,
            gpu_driver_version=None,
            gpu_partition_size=None,
            gpu_sharing=None,
            **common,
        )
    gpu = gpu_machine(pool.machine_type)
    max_nodes = pool.max_nodes if pool.max_nodes is not None else (reservation.count if reservation else None)
    assert max_nodes is not None, "derive() expects a spec accepted by load_environment()"
    min_nodes = pool.min_nodes or 0
    node_pool = GkeNodePoolPlan(
        name=pool.name,
        min_nodes=min_nodes,
        max_nodes=max_nodes,
        slice_index=None,
        placement=None,
        tpu_topology=None,
        workload_policy=None,
        accelerators=max_nodes * gpu.gpus_per_vm,
    )
    sharing = pool.gpu_sharing
    return PoolPlan(
        kind="gpu",
        family=gpu.family,
        accelerator_label_key=GKE_ACCELERATOR_LABEL,
        accelerator_label=gpu.accelerator_label,
        resource_name=GPU_RESOURCE,
        accelerators_per_node=gpu.gpus_per_vm,
        node_resources=_node_resources(pool.machine_type, GPU_RESOURCE, gpu.gpus_per_vm),
        node_pools=(node_pool,),
        min_nodes=min_nodes,
        max_nodes=max_nodes,
        capacity_accelerators=max_nodes * gpu.gpus_per_vm,
        slices=1,
        tpu_topology=None,
        multi_host=False,
        vms_per_slice=None,
        chips_per_slice=None,
        tpu=None,
        gpu=gpu,
        gpu_driver_version=pool.gpu_driver_version or DEFAULT_GPU_DRIVER_VERSION,
        gpu_partition_size=pool.gpu_partition_size,
        gpu_sharing=GpuSharingPlan(sharing.strategy, sharing.max_shared_clients_per_gpu) if sharing else None,
        **common,
    )


def _node_resources(machine_type: str, resource: str, per_node: int) -> dict[str, int | str]:
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
    )


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
            capacity=pool.capacity_accelerators,
            quota_total=quota_total,
            team_quotas=team_quotas[pool.name],
            cohort_quotas=cohort_quotas[pool.name],
            overcommitted=quota_total > pool.capacity_accelerators,
        )
    return totals


def _add_into(target: dict[str, int], source: Mapping[str, int]) -> None:
    for key, value in source.items():
        target[key] = target.get(key, 0) + value


# --------------------------------------------------------------------------------------------------------
# cpu / memory that come with a number of accelerators

_MEMORY = re.compile(r"^(\d+)(Mi|Gi)$")


def _pro_rata(
    per_node: Mapping[str, int | str], resource: str, per_node_accelerators: int, accelerators: int
) -> dict[str, int | str]:
    result: dict[str, int | str] = {resource: accelerators}
    if "cpu" in per_node:
        millicores = math.ceil(int(per_node["cpu"]) * 1000 * accelerators / per_node_accelerators)
        result["cpu"] = millicores // 1000 if millicores % 1000 == 0 else f"{millicores}m"
    memory = _MEMORY.match(str(per_node.get("memory", "")))
    if memory:
        mebibytes = int(memory.group(1)) * (1024 if memory.group(2) == "Gi" else 1)
        total = math.ceil(mebibytes * accelerators / per_node_accelerators)
        result["memory"] = f"{total // 1024}Gi" if total % 1024 == 0 else f"{total}Mi"
    return result


# --------------------------------------------------------------------------------------------------------
# to_dict


def _json(value: Any) -> Any:
    if hasattr(value, "to_dict") and not isinstance(value, CapacityModel):
        return value.to_dict()  # catalog objects (TpuSlice, GpuMachine) have their own camelCase form
    if is_dataclass(value) and not isinstance(value, type):
        return {to_camel(f.name): _json(getattr(value, f.name)) for f in fields(value) if not f.name.startswith("_")}
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True)
    if isinstance(value, dict):
        return {key: _json(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json(item) for item in value]
    if isinstance(value, (set, frozenset)):
        return sorted(_json(item) for item in value)
    if isinstance(value, datetime):
        return value.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return value
