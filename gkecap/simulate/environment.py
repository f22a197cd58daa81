"""The simulated cluster of an environment, built from the Kueue objects `gkecap plan` emits (so what is simulated
is what is deployed), the pools' capacity from the capacity model, and the workloads file checked against both.

- ClusterQueues (resourceGroups, cohortName, preemption, flavorFungibility, fairSharing.weight, queueingStrategy,
  admissionChecksStrategy), Cohorts (parentName, resourceGroups, fairSharing.weight), ResourceFlavors (nodeLabels)
  and WorkloadPriorityClasses are read from the emitted object dicts, v1beta2 or v1beta1.
- Fair sharing is Kueue's manager configuration (`kueue.fairSharing` of the environment), not an object.
- A pool's capacity in nodes over time: its maximum (reserved, spot and on-demand pools), the `capacity` entries of
  the workloads file (flex-start and queued pools; default their maximum), or its calendar reservation's window
  (only when submitted).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime
from typing import Iterable, Mapping

from gkecap.components.k8s.quantity import parse_quantity
from gkecap.components.kubernetes_objects.admission_policy import policy_name
from gkecap.components.kubernetes_objects.flavors import RETRY_STRATEGY, uses_topology
from gkecap.components.k8s.duration import parse_duration as parse_go_duration
from gkecap.components.kubernetes_objects.kueue_chart import install_args
from gkecap.components.kueue_api.releases import parse_kueue_release
from gkecap.components.model import CapacityModel, PoolPlan
from gkecap.components.gke import POOL_LABEL
from gkecap.simulate.cluster import (
    Cluster,
    ClusterQueue,
    Flavor,
    Fungibility,
    PodSet,
    Preemption,
    ResourceGroup,
    Workload,
)
from gkecap.simulate.quota_tree import Cohort, ResourceQuota, resource_value
from gkecap.simulate.timing import Delays
from gkecap.simulate.topology import Layout, TopologyRequest
from gkecap.simulate.workloads_file import WorkloadsFile, WorkloadsFileError, parse_duration
from gkecap.components.issues import Issue

# Capacity models whose obtainable nodes the workloads file may describe (obtained on demand).
ON_DEMAND_OBTAINED = ("flex-start", "queued")
# What a workload's pods may request besides accelerators (the workloads file's `cpu` and `memory`).
HOST_RESOURCES = ("cpu", "memory")


def _amount(resource: str, raw) -> int:
    return resource_value(resource, parse_quantity(raw).value)


def _quotas(resource_groups: Iterable[Mapping]) -> tuple[list[ResourceGroup], dict]:
    groups, quotas = [], {}
    for group in resource_groups:
        flavors = []
        for flavor in group.get("flavors", ()):
            flavors.append(flavor["name"])
            for res in flavor.get("resources", ()):
                name = res["name"]
                borrowing = res.get("borrowingLimit")
                lending = res.get("lendingLimit")
                quotas[(flavor["name"], name)] = ResourceQuota(
                    _amount(name, res.get("nominalQuota", 0)),
                    None if borrowing is None else _amount(name, borrowing),
                    None if lending is None else _amount(name, lending))
        groups.append(ResourceGroup(tuple(group.get("coveredResources", ())), tuple(flavors)))
    return groups, quotas


def _weight(spec: Mapping) -> float:
    weight = (spec.get("fairSharing") or {}).get("weight")
    return 1.0 if weight is None else float(parse_quantity(weight).value)


def _preemption(spec: Mapping) -> Preemption:
    p = spec.get("preemption") or {}
    borrow = p.get("borrowWithinCohort") or {}
    return Preemption(p.get("withinClusterQueue", "Never"), p.get("reclaimWithinCohort", "Never"),
                      borrow.get("policy", "Never"), borrow.get("maxPriorityThreshold"))


def _checks(spec: Mapping) -> dict[str, tuple[str, ...]]:
    """flavor -> admission checks ("" = every flavor), from admissionChecksStrategy or the v1beta1 list."""
    result: dict[str, tuple[str, ...]] = {}
    for name in spec.get("admissionChecks") or ():
        result[""] = result.get("", ()) + (name,)
    for rule in (spec.get("admissionChecksStrategy") or {}).get("admissionChecks") or ():
        for flavor in rule.get("onFlavors") or [""]:
            result[flavor] = result.get(flavor, ()) + (rule["name"],)
    return result


def cluster_from_objects(objects: Iterable[Mapping], *, fair_sharing: bool) -> Cluster:
    """The simulator's cluster from emitted Kueue objects (v1beta2 or v1beta1 spelling)."""
    flavors, queues, cohorts, parents, memberships = [], [], [], {}, {}
    for obj in objects:
        kind, name, spec = obj.get("kind"), obj["metadata"]["name"], obj.get("spec") or {}
        if kind == "ResourceFlavor":
            flavors.append(Flavor(name, dict(spec.get("nodeLabels") or {})))
        elif kind == "Cohort":
            _, quotas = _quotas(spec.get("resourceGroups") or ())
            cohorts.append(Cohort(name, quotas=quotas, weight=_weight(spec)))
            parent = spec.get("parentName") or spec.get("parent")
            if parent:
                parents[name] = parent
        elif kind == "ClusterQueue":
            groups, quotas = _quotas(spec.get("resourceGroups") or ())
            fungibility = spec.get("flavorFungibility") or {}
            queues.append(ClusterQueue(
                name, quotas=quotas, weight=_weight(spec), resource_groups=groups, preemption=_preemption(spec),
                fungibility=Fungibility.of(fungibility.get("whenCanBorrow", "MayStopSearch"),
                                           fungibility.get("whenCanPreempt", "TryNextFlavor"),
                                           fungibility.get("preference")),
                queueing_strategy=spec.get("queueingStrategy", "BestEffortFIFO"), admission_checks=_checks(spec)))
            cohort = spec.get("cohortName") or spec.get("cohort")
            if cohort:
                memberships[name] = cohort
    return Cluster(flavors, queues, cohorts, cohort_parents=parents, queue_cohorts=memberships,
                   fair_sharing=fair_sharing)


def priority_values(objects: Iterable[Mapping]) -> dict[str, int]:
    return {o["metadata"]["name"]: int(o["value"]) for o in objects if o.get("kind") == "WorkloadPriorityClass"}


# --- pools -----------------------------------------------------------------------------------------------


# Capacity models whose nodes the cluster autoscaler adds for pending pods and removes when empty; reservation and
# calendar pools have their reserved VMs (a calendar pool inside its window), queued pools one ProvisioningRequest
# per workload.
AUTOSCALED = ("on-demand", "spot", "flex-start")


@dataclass
class PoolCapacity:
    """A pool's nodes over time (seconds from the scenario start): `steps` is [(from, nodes)], sorted: what it
    can have (autoscaled pools) or has (reservation and calendar pools)."""

    name: str
    capacity_model: str
    resource: str
    units_per_node: int  # what a node advertises: GPUs, TPU chips, or MIG partitions x sharing clients
    node_unit: int  # nodes provisioned together: a multi-host TPU slice's VMs, else 1
    max_nodes: int
    steps: list[tuple[float, int]] = field(default_factory=list)
    queued: bool = False
    calendar_end: float | None = None
    min_nodes: int = 0
    unit: str = "GPUs"  # the kind of its units (`unit_kind`): units of different kinds are never added up
    # What one VM offers pods besides its accelerators, in Kueue units (cpu in milli-units, memory in bytes): the
    # machine type's vCPUs and memory from the catalog, as the ClusterQueues' pro-rata quota; {} when unknown.
    host: dict[str, int] = field(default_factory=dict)
    # Topology-aware (its flavor names the gke-default Topology) and which of its nodes share a block and sub-block
    # (the workloads file's `layout`; without one, all of them: the most a required level can hope for).
    topology_aware: bool = False
    layout: Layout | None = None

    @property
    def autoscaled(self) -> bool:
        return self.capacity_model in AUTOSCALED

    def nodes_at(self, t: float) -> int:
        nodes = 0
        for start, count in self.steps:
            if start <= t:
                nodes = count
            else:
                break
        return nodes

    def ever_at_least(self, t: float, nodes: int) -> bool:
        """Whether the pool has (now or later) at least `nodes` nodes."""
        return self.nodes_at(t) >= nodes or any(start > t and count >= nodes for start, count in self.steps)

    def nodes_for(self, accelerators: int) -> int:
        """Whole VMs (whole slices for a multi-host TPU pool) that hold `accelerators`."""
        per_unit = self.units_per_node * self.node_unit
        return math.ceil(accelerators / per_unit) * self.node_unit


def pool_capacities(model: CapacityModel, workloads: WorkloadsFile) -> dict[str, PoolCapacity]:
    start = workloads.start
    result = {}
    for pool in model.pools:
        capacity = PoolCapacity(
            pool.name, pool.capacity, pool.resource_name, pool.units_per_node or pool.accelerators_per_node,
            pool.vms_per_slice if pool.multi_host and pool.vms_per_slice else 1, pool.max_nodes,
            queued=pool.queued, min_nodes=pool.min_nodes, unit=unit_kind(pool),
            host={r: _amount(r, pool.node_resources[r]) for r in HOST_RESOURCES if r in pool.node_resources},
            topology_aware=uses_topology(pool, model.kueue.topology_aware_scheduling))
        if capacity.topology_aware:
            layout = next((e for e in workloads.layout if e.pool == pool.name), None)
            capacity.layout = Layout(layout.nodes_per_block, layout.nodes_per_subblock) if layout else \
                Layout(max(1, pool.max_nodes), max(1, pool.max_nodes))
        entries = sorted((c for c in workloads.capacity if c.pool == pool.name), key=lambda c: c.start)
        if pool.capacity == "calendar":
            if start is None:  # load_workloads_file gives every file one
                raise ValueError("a calendar pool's window needs the workloads file's start")
            capacity.steps = _calendar_steps(pool, start)
            if pool.reservation is not None and pool.reservation.submit:
                capacity.calendar_end = (pool.reservation.end - start).total_seconds()
        elif entries:
            capacity.steps = _entry_steps(entries)
        else:
            capacity.steps = [(0.0, pool.max_nodes)]
        result[pool.name] = capacity
    return result


def unit_kind(pool: PoolPlan) -> str:
    """What a pool's quota and capacity count: whole GPUs, TPU chips, or GPU units of one MIG profile and sharing
    (a node's advertised devices, catalog.gpu_units_per_vm). Units of different kinds are never added up."""
    if pool.is_tpu:
        return "TPU chips"
    parts = []
    if pool.gpu_partition_size:
        parts.append(f"MIG {pool.gpu_partition_size}")
    sharing = pool.gpu_sharing
    if sharing is not None and sharing.max_shared_clients_per_gpu and sharing.max_shared_clients_per_gpu > 1:
        parts.append(f"{sharing.strategy.lower().replace('_', '-')} x{sharing.max_shared_clients_per_gpu}")
    return f"GPU units ({', '.join(parts)})" if parts else "GPUs"


def _calendar_steps(pool: PoolPlan, start: datetime) -> list[tuple[float, int]]:
    reservation = pool.reservation
    if reservation is None or not reservation.submit:
        return [(0.0, 0)]  # a draft reservation provides nothing
    begin = max(0.0, (reservation.start - start).total_seconds())
    end = (reservation.end - start).total_seconds()
    if end <= 0:
        return [(0.0, 0)]
    return [(0.0, 0), (begin, pool.max_nodes), (end, 0)]


def _entry_steps(entries) -> list[tuple[float, int]]:
    """Nodes obtainable from `capacity` entries: the sum of the entries covering each instant, 0 elsewhere."""
    bounds = sorted({0.0} | {e.start for e in entries} | {e.until for e in entries})
    steps: list[tuple[float, int]] = []
    for t in bounds:
        nodes = sum(e.nodes for e in entries if e.start <= t < e.until)
        if not steps or steps[-1][1] != nodes:
            steps.append((t, nodes))
    return steps


# --- workloads ---------------------------------------------------------------------------------------------


@dataclass
class PlannedWorkload:
    """One workload of the scenario, checked: its Kueue workload and what the simulator needs besides."""

    workload: Workload
    team: str
    submit: float
    duration: float
    accelerators: int  # total
    resource: str
    pods: int = 1
    host: dict[str, int] = field(default_factory=dict)  # per pod: cpu (milli-units), memory (bytes) requested
    topology: TopologyRequest | None = None

    @property
    def per_pod(self) -> int:
        return self.accelerators // self.pods


# Kueue's LocalQueueDefaulting (GA in v0.17): a job without kueue.x-k8s.io/queue-name in a managed namespace gets
# the LocalQueue named "default" of its namespace, when there is one (v0.19.2 pkg/controller/constants/constants.go
# DefaultLocalQueueName, pkg/controller/jobframework/defaults.go).
DEFAULT_LOCAL_QUEUE = "default"


def default_local_queues(objects: Iterable[Mapping]) -> dict[str, str]:
    """Namespace -> the ClusterQueue of its LocalQueue named `default`, from the emitted objects."""
    return {
        o["metadata"]["namespace"]: o["spec"]["clusterQueue"]
        for o in objects
        if o.get("kind") == "LocalQueue" and o["metadata"].get("name") == DEFAULT_LOCAL_QUEUE
    }


def plan_workloads(cluster: Cluster, model: CapacityModel, pools: Mapping[str, PoolCapacity],
                   workloads: WorkloadsFile, priorities: Mapping[str, int], *, where: str = "",
                   default_queues: Mapping[str, str] | None = None) -> list[PlannedWorkload]:
    """The workloads of the file, one per copy; WorkloadsFileError with every problem at its YAML path.

    A workload with `queueLabel: false` is submitted in its team's first namespace without a queue name: it goes
    to that namespace's default LocalQueue (`default_queues`), or, without one, the team's admission policy
    refuses it (an error naming the policy)."""
    issues: list[Issue] = []
    teams = sorted(cluster.queues)
    result: list[PlannedWorkload] = []
    names: dict[str, int] = {}
    for i, entry in enumerate(workloads.workloads):
        path = f"workloads[{i}]"
        queue = cluster.queues.get(entry.team)
        if queue is None:
            issues.append(Issue(f"{path}.team", f"{entry.team!r} is not a team of the environment; teams: {', '.join(teams)}"))
            continue
        if not entry.queue_label:
            namespace = model.team(entry.team).namespaces[0]
            target = (default_queues or {}).get(namespace)
            if target != entry.team:
                issues.append(Issue(f"{path}.queueLabel", (
                    f"a job without kueue.x-k8s.io/queue-name in namespace {namespace!r} has no default LocalQueue to "
                    f"go to, so the admission policy {policy_name(entry.team)} refuses it; give it the queue label")
                    if target is None else (
                    f"a job without kueue.x-k8s.io/queue-name in namespace {namespace!r} would go to ClusterQueue "
                    f"{target!r}, not team {entry.team!r}'s")))
                continue
        queue_pools = [f for g in queue.resource_groups for f in g.flavors if f in pools]
        if entry.pool is not None and entry.pool not in queue_pools:
            known = ", ".join(queue_pools) or "none"
            what = "a pool of the environment" if entry.pool not in pools else f"a pool team {entry.team!r} can use"
            issues.append(Issue(f"{path}.pool", f"{entry.pool!r} is not {what}; allowed: {known}"))
            continue
        if entry.priority is not None and entry.priority not in priorities:
            allowed = ", ".join(priorities) or "none (the environment declares no priorityClasses)"
            issues.append(Issue(f"{path}.priority", f"{entry.priority!r} is not a priority class of the environment; allowed: {allowed}"))
        candidates = [entry.pool] if entry.pool else queue_pools
        # `accelerators` counts one kind of unit: a team with quota in several kinds names the pool.
        units = sorted({pools[p].unit for p in candidates})
        kinds = sorted({pools[p].resource for p in candidates})
        if len(units) > 1 or len(kinds) > 1:
            issues.append(Issue(f"{path}.pool", f"team {entry.team!r} has quota on pools of {' and '.join(units)}; "
                                f"name the pool (allowed: {', '.join(candidates)})"))
            continue
        if not kinds:
            issues.append(Issue(f"{path}.team", f"team {entry.team!r} has no quota on any pool; name a `pool`"))
            continue
        largest = max(pools[p].units_per_node * pools[p].node_unit for p in candidates)
        if entry.accelerators > largest:
            where_ = entry.pool or "any pool of the team"
            issues.append(Issue(f"{path}.accelerators", f"{entry.accelerators} per pod do not fit on one node of {where_} "
                                f"(at most {largest} per node)"))
            continue
        host, host_issues = _host_requests(entry, path, queue, [pools[p] for p in candidates])
        if host_issues:
            issues.extend(host_issues)
            continue
        topology = None
        if entry.topology is not None:
            topology = TopologyRequest(entry.topology.level(), entry.topology.required is not None)  # type: ignore[arg-type]
            refused = _topology_refusal([pools[p] for p in candidates])
            if refused:
                issues.append(Issue(f"{path}.topology", refused))
                continue
        if entry.name in names:
            issues.append(Issue(f"{path}.name", f"{entry.name!r} is also workloads[{names[entry.name]}]; names must be unique"))
            continue
        names[entry.name] = i
        for copy in range(entry.count):
            name = entry.name if entry.count == 1 else f"{entry.name}-{copy + 1}"
            submit = entry.submit + copy * entry.every
            selector = {POOL_LABEL: entry.pool} if entry.pool else {}
            pod_set = PodSet("main", entry.pods, {kinds[0]: entry.accelerators, **host}, selector,
                             min_count=entry.min_pods)
            workload = Workload(name, entry.team, [pod_set], priority=priorities.get(entry.priority or "", 0),
                                timestamp=submit)
            workload.seq = len(result)
            result.append(PlannedWorkload(workload, entry.team, submit, entry.duration,
                                          entry.pods * entry.accelerators, kinds[0], entry.pods, host, topology))
    for i, layout in enumerate(workloads.layout):
        pool = pools.get(layout.pool)
        if pool is None:
            issues.append(Issue(f"layout[{i}].pool", f"{layout.pool!r} is not a pool of the environment; pools: {', '.join(pools)}"))
        elif not pool.topology_aware or pool.queued:
            issues.append(Issue(f"layout[{i}].pool", f"{layout.pool!r} is not a topology-aware reservation or calendar "
                                f"pool; {_topology_refusal([pool])}"))
    for i, obtained in enumerate(workloads.capacity):
        pool = pools.get(obtained.pool)
        if pool is None:
            issues.append(Issue(f"capacity[{i}].pool", f"{obtained.pool!r} is not a pool of the environment; pools: {', '.join(pools)}"))
        elif pool.capacity_model not in ON_DEMAND_OBTAINED:
            issues.append(Issue(f"capacity[{i}].pool", f"{obtained.pool!r} is a {pool.capacity_model} pool; `capacity` describes "
                                f"what {' and '.join(ON_DEMAND_OBTAINED)} pools obtain"))
        elif obtained.nodes > pool.max_nodes:
            issues.append(Issue(f"capacity[{i}].nodes", f"{obtained.nodes} is more than the pool's {pool.max_nodes} nodes at most"))
    if issues:
        raise WorkloadsFileError(issues, subject=where)
    return result


def _host_requests(entry, path: str, queue: ClusterQueue, pools: list[PoolCapacity]) -> tuple[dict[str, int], list[Issue]]:
    """A pod's cpu and memory requests in Kueue units, and what is wrong with them: the team's ClusterQueue must
    cover the resource (else Kueue leaves the workload pending: "resource cpu unavailable in ClusterQueue",
    flavorassigner.go findFlavorForPodSets @ v0.19.2) and one node of a pool it may use must hold it."""
    requests, issues = {}, []
    for resource in HOST_RESOURCES:
        raw = getattr(entry, resource)
        if raw is None:
            continue
        value = _amount(resource, raw)
        if queue.group_of(resource) is None:
            issues.append(Issue(f"{path}.{resource}", (
                f"team {entry.team!r}'s ClusterQueue has no {resource} quota (the catalog does not know the "
                f"{resource} of every pool it lists), so Kueue would keep the workload pending: \"resource "
                f"{resource} unavailable in ClusterQueue\"; leave `{resource}` out")))
            continue
        largest = max((p.host.get(resource, 0) for p in pools), default=0)
        if value > largest:
            issues.append(Issue(f"{path}.{resource}", f"{raw} per pod does not fit on one node of "
                                f"{entry.pool or 'any pool of the team'} (at most {_written(resource, largest)})"))
            continue
        requests[resource] = value
    return requests, issues


def _topology_refusal(pools: list[PoolCapacity]) -> str:
    """Why a topology request cannot be simulated on these pools ("" when it can): Kueue gives a pod set with one
    only a topology-aware flavor (checkFlavorForPodSets); the simulator places such pods on the fixed nodes of
    reservation and calendar pools (a queued pool's VMs come from its ProvisioningRequest, not modelled with TAS)."""
    names = ", ".join(p.name for p in pools)
    if not all(p.topology_aware for p in pools):
        return (f"{names}: a topology request needs topology-aware pools (kueue.topologyAwareScheduling on, and GPU "
                "machines whose nodes carry GKE's topology labels on reserved or queued capacity); name such a `pool`")
    if any(p.queued for p in pools):
        return (f"{names}: topology-aware placement on queued (ProvisioningRequest) pools is not simulated; it is on "
                "reservation and calendar pools")
    return ""


def _written(resource: str, value: int) -> str:
    """A Kueue amount as a user writes it: cpu in cores, memory in GiB when whole."""
    if resource == "cpu":
        return f"{value / 1000:g} cpu"
    gib = value / 2**30
    return f"{gib:g}Gi" if gib == int(gib) else f"{value} bytes"


@dataclass(frozen=True)
class PodsReady:
    """Kueue's waitForPodsReady as the environment configures it (`kueue.waitForPodsReady`), in seconds."""

    timeout: float
    backoff_base: float
    backoff_max: float


# Kueue's defaults for the requeuing back-off (apis/config/v1beta2/defaults.go @ v0.19.2:
# DefaultRequeuingBackoffBaseSeconds 60, DefaultRequeuingBackoffMaxSeconds 3600).
DEFAULT_BACKOFF_BASE_SECONDS = 60
DEFAULT_BACKOFF_MAX_SECONDS = 3600


def pods_ready(model: CapacityModel) -> PodsReady | None:
    """waitForPodsReady of the environment's Kueue: the section `gkecap plan` installs (kueue_chart.install_args),
    None when the environment does not set it."""
    settings = install_args(model).get("wait_for_pods_ready")
    if settings is None:
        return None
    requeuing = settings.get("requeuingStrategy", {})
    return PodsReady(parse_go_duration(settings["timeout"]),
                     float(requeuing.get("backoffBaseSeconds", DEFAULT_BACKOFF_BASE_SECONDS)),
                     float(requeuing.get("backoffMaxSeconds", DEFAULT_BACKOFF_MAX_SECONDS)))


# FlavorFungibilityPreserveScanProgress: declared in v0.19.0, beta and on by default (pkg/features/kube_features.go
# @ v0.19.2); the environment's Kueue sets no other value for it, so an older release scans without it.
SCAN_PROGRESS_SINCE = (0, 19, 0)


def preserves_scan_progress(model: CapacityModel) -> bool:
    """Whether the environment's Kueue keeps a pending workload's flavor-scan progress between cycles."""
    release = parse_kueue_release(model.kueue.version)
    return release is not None and release >= SCAN_PROGRESS_SINCE


def delays(workloads: WorkloadsFile) -> Delays:
    """The documented default delays (gkecap.simulate.timing), with the workloads file's overrides."""
    return Delays().overridden(workloads.delays)


def provisioning_retry() -> tuple[int, float, float]:
    """(backoffLimitCount, backoffBaseSeconds, backoffMaxSeconds) of the queued pools' ProvisioningRequestConfig."""
    return (RETRY_STRATEGY["backoffLimitCount"], float(RETRY_STRATEGY["backoffBaseSeconds"]),
            float(RETRY_STRATEGY["backoffMaxSeconds"]))
