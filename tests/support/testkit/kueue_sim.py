"""Builders that spell Kueue's test fixtures (MakeClusterQueue, MakeCohort, MakeWorkload in
`pkg/util/testing`) for the simulator's direct API, so transcribed cases read like the Go tables they come from.

Quantities are written as in the Go tests ("6", "3Gi", "2000m") and converted to Kueue's integer units.
Times are seconds relative to the test's `now`; a workload without `creation` has Go's zero time (earliest).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from gkecap.components.k8s.quantity import parse_quantity
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

ZERO_TIME = -1e12  # Go's zero time.Time: before any `now`


def amount(resource: str, raw: str | int) -> int:
    return resource_value(resource, parse_quantity(raw).value)


def _quota(resource: str, spec: Any) -> ResourceQuota:
    """"6" -> nominal; ("6", "12") -> nominal, borrowingLimit; ("6", None, "4") -> nominal, lendingLimit."""
    if not isinstance(spec, tuple):
        spec = (spec,)
    values = [None if v in (None, "") else amount(resource, v) for v in spec] + [None, None]
    return ResourceQuota(values[0] or 0, values[1], values[2])


def _groups(groups: list[Mapping[str, Mapping[str, Any]]]):
    resource_groups, quotas = [], {}
    for group in groups:
        covered: list[str] = []
        for flavor, resources in group.items():
            for resource, spec in resources.items():
                if resource not in covered:
                    covered.append(resource)
                quotas[(flavor, resource)] = _quota(resource, spec)
        resource_groups.append(ResourceGroup(tuple(covered), tuple(group)))
    return resource_groups, quotas


@dataclass
class QueueSpec:
    name: str
    cohort: str | None
    groups: list
    preemption: Preemption
    fungibility: Fungibility
    weight: float
    strategy: str


def cq(name: str, cohort: str | None = None, groups: list | None = None, within: str = "Never",
       reclaim: str = "Never", borrow: str = "Never", threshold: int | None = None, weight: str | float = 1.0,
       when_can_borrow: str = "MayStopSearch", when_can_preempt: str = "TryNextFlavor",
       preference: str | None = None, strategy: str = "BestEffortFIFO") -> QueueSpec:
    return QueueSpec(name, cohort, groups or [], Preemption(within, reclaim, borrow, threshold),
                     Fungibility.of(when_can_borrow, when_can_preempt, preference),
                     float(parse_quantity(weight).value) if isinstance(weight, str) else weight, strategy)


@dataclass
class CohortSpec:
    name: str
    parent: str | None = None
    groups: list = field(default_factory=list)
    weight: float = 1.0


def cohort(name: str, parent: str | None = None, groups: list | None = None, weight: str | float = 1.0) -> CohortSpec:
    return CohortSpec(name, parent, groups or [],
                      float(parse_quantity(weight).value) if isinstance(weight, str) else weight)


def wl(name: str, queue: str | None = None, requests: Mapping[str, str] | None = None, *, priority: int = 0,
       flavors: Mapping[str, str] | list[Mapping[str, str]] | None = None, reserved: float | None = None,
       creation: float | None = None, pod_sets: list[tuple[str, int, Mapping[str, str]]] | None = None,
       evicted: bool = False, node_selector: Mapping[str, str] | None = None) -> Workload:
    """A workload with one pod set of one pod (`requests`) or several (`pod_sets`: (name, count, requests per pod)
    or (name, count, requests per pod, minCount)). `flavors` (per pod set) marks it admitted, with quota reserved at
    `reserved` (default: now)."""
    if pod_sets is None:
        pod_sets = [("main", 1, requests or {})]
    sets = [PodSet(n, count, {r: amount(r, v) for r, v in reqs.items()}, node_selector or {},
                   min_count=rest[0] if rest else None)
            for n, count, reqs, *rest in pod_sets]
    if isinstance(flavors, Mapping):
        flavors = [dict(flavors)]
    return Workload(name, queue or "", sets, priority=priority,
                    timestamp=ZERO_TIME if creation is None else creation,
                    flavors=[dict(f) for f in flavors] if flavors is not None else None,
                    reserved_at=(0.0 if reserved is None else reserved) if flavors is not None else None,
                    evicted=evicted)


def build_cluster(queues: list[QueueSpec], cohorts: list[CohortSpec] = (), flavors: list[Flavor] = (),
                  fair_sharing: bool = False, strategies: tuple[str, ...] | None = None) -> Cluster:
    cohort_objects = []
    parents = {}
    for spec in cohorts:
        resource_groups, quotas = _groups(spec.groups)
        cohort_objects.append(Cohort(spec.name, quotas=quotas, weight=spec.weight))
        if spec.parent:
            parents[spec.name] = spec.parent
    queue_objects, memberships = [], {}
    for spec in queues:
        resource_groups, quotas = _groups(spec.groups)
        queue_objects.append(ClusterQueue(
            spec.name, quotas=quotas, weight=spec.weight, resource_groups=resource_groups,
            preemption=spec.preemption, fungibility=spec.fungibility, queueing_strategy=spec.strategy))
        if spec.cohort:
            memberships[spec.name] = spec.cohort
    names = {f.name for f in flavors}
    all_flavors = list(flavors) + [Flavor(f) for q in queue_objects for g in q.resource_groups for f in g.flavors
                                   if f not in names]
    return Cluster(all_flavors, queue_objects, cohort_objects, cohort_parents=parents, queue_cohorts=memberships,
                   fair_sharing=fair_sharing, **({"fair_strategies": strategies} if strategies else {}))


@dataclass
class PreemptionCase:
    """A case of Kueue's preemption tests: admitted workloads, an incoming one with its flavor assignment, and the
    workloads Kueue preempts (name -> reason)."""

    test: str
    name: str
    queues: list[QueueSpec]
    admitted: list[Workload]
    incoming: Workload
    target: str
    assignment: list[Mapping[str, tuple[str, str]]]
    want: Mapping[str, str]
    cohorts: list[CohortSpec] = field(default_factory=list)
    fair_sharing: bool = False
    strategies: tuple[str, ...] | None = None  # Kueue's fairSharing.preemptionStrategies

    @property
    def id(self) -> str:
        return f"{self.test}/{self.name}"


@dataclass
class ScheduleCase:
    """A case of Kueue's TestSchedule-style tests: admitted and pending workloads; after scheduling cycles, which
    workloads are admitted (name -> {resource: flavor}) and which are preempted."""

    test: str
    name: str
    queues: list[QueueSpec]
    admitted: list[Workload]
    pending: list[Workload]
    want_admitted: Mapping[str, Mapping[str, str]]
    want_preempted: set[str] = field(default_factory=set)
    cohorts: list[CohortSpec] = field(default_factory=list)
    flavors: list[Flavor] = field(default_factory=list)
    fair_sharing: bool = False
    cycles: int = 1

    @property
    def id(self) -> str:
        return f"{self.test}/{self.name}"
