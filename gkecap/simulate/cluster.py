"""The simulator's direct description of a Kueue cluster: ResourceFlavors, ClusterQueues and Cohorts as a quota
tree, and Workloads with their pod sets, priority and (once admitted) flavors. Pure.

This is the API below the environment-derived one (`gkecap.simulate.environment.cluster_from_objects` builds it from the objects
`gkecap plan` emits): Kueue's own scheduler tests are transcribed against it.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Mapping

from gkecap.simulate.quota_tree import (
    Cohort,
    FlavorResource,
    QuotaNode,
    ResourceQuota,
    add_usage,
    compute_subtree,
    remove_usage,
)
from gkecap.simulate.shortcuts import SHORTCUTS

NEVER = "Never"
LOWER_PRIORITY = "LowerPriority"
LOWER_OR_NEWER_EQUAL_PRIORITY = "LowerOrNewerEqualPriority"
ANY = "Any"
BEST_EFFORT_FIFO = "BestEffortFIFO"
STRICT_FIFO = "StrictFIFO"
# Flavor fungibility values; v1beta1 spells MayStopSearch as Borrow / Preempt (Kueue's conversion).
MAY_STOP_SEARCH = "MayStopSearch"
TRY_NEXT_FLAVOR = "TryNextFlavor"
# Kueue's fairSharing.preemptionStrategies default (config API, v0.19).
DEFAULT_FAIR_STRATEGIES = ("LessThanOrEqualToFinalShare", "LessThanInitialShare")
_FUNGIBILITY_ALIASES = {"Borrow": MAY_STOP_SEARCH, "Preempt": MAY_STOP_SEARCH}


@dataclass(frozen=True)
class Preemption:
    within_cluster_queue: str = NEVER
    reclaim_within_cohort: str = NEVER
    borrow_within_cohort: str = NEVER  # Never | LowerPriority
    max_priority_threshold: int | None = None


@dataclass(frozen=True)
class Fungibility:
    when_can_borrow: str = MAY_STOP_SEARCH
    when_can_preempt: str = TRY_NEXT_FLAVOR
    preference: str | None = None  # BorrowingOverPreemption | PreemptionOverBorrowing

    @classmethod
    def of(cls, when_can_borrow: str = MAY_STOP_SEARCH, when_can_preempt: str = TRY_NEXT_FLAVOR,
           preference: str | None = None) -> "Fungibility":
        return cls(_FUNGIBILITY_ALIASES.get(when_can_borrow, when_can_borrow),
                   _FUNGIBILITY_ALIASES.get(when_can_preempt, when_can_preempt), preference)


@dataclass(frozen=True)
class ResourceGroup:
    covered: tuple[str, ...]
    flavors: tuple[str, ...]


@dataclass(frozen=True)
class Flavor:
    name: str
    node_labels: Mapping[str, str] = field(default_factory=dict)


@dataclass
class PodSet:
    name: str
    count: int
    requests: dict[str, int]  # per pod, Kueue units (quota_tree.resource_value)
    node_selector: Mapping[str, str] = field(default_factory=dict)
    min_count: int | None = None  # Kueue's minCount: partial admission may reduce `count` down to it
    topology: object = None  # its topology request (gkecap.simulate.topology.TopologyRequest), if any

    def scaled(self, count: int) -> dict[str, int]:
        """Requests of `count` of its pods (ScaledTo: a partially admitted pod set)."""
        return {r: v * count for r, v in self.requests.items()}

    def total(self) -> dict[str, int]:
        """Requests of all its pods (memoised: a pod set is not edited once its workload is built)."""
        memoised = SHORTCUTS.memoised_facts
        cached = self.__dict__.get("_total") if memoised else None
        if cached is not None and cached[0] == self.count and cached[1] is self.requests:
            return cached[2]
        result = {r: v * self.count for r, v in self.requests.items()}
        if memoised:
            self.__dict__["_total"] = (self.count, self.requests, result)
        return result


@dataclass(eq=False)
class Workload:
    """One Kueue Workload. `timestamp` orders the queue (creation time, seconds); `reserved_at` is when quota was
    reserved; `flavors` (one mapping resource -> flavor per pod set) is set while it holds quota."""

    name: str
    cluster_queue: str
    pod_sets: list[PodSet]
    priority: int = 0
    timestamp: float = 0.0
    flavors: list[dict[str, str]] | None = None
    reserved_at: float | None = None
    evicted: bool = False
    seq: int = 0  # submission order, breaks ties between equal timestamps
    counts: list[int] | None = None  # pods admitted per pod set while it holds quota (partial admission), else all

    def can_be_partially_admitted(self) -> bool:
        """CanBePartiallyAdmitted (pkg/workload/workload.go @ v0.19.2): a pod set may have fewer pods."""
        return any(ps.min_count is not None and ps.min_count < ps.count for ps in self.pod_sets)

    def usage(self) -> dict[FlavorResource, int]:
        """Quota it holds per flavor-resource (computed once per admission: `flavors` is replaced, never edited)."""
        memoised = SHORTCUTS.memoised_facts
        cached = self.__dict__.get("_usage_cache") if memoised else None
        if cached is not None and cached[0] is self.flavors:
            return cached[1]
        result = self._usage()
        if memoised:
            self.__dict__["_usage_cache"] = (self.flavors, result)
        return result

    def _usage(self) -> dict[FlavorResource, int]:
        result: dict[FlavorResource, int] = {}
        counts = self.counts
        for i, (pod_set, flavors) in enumerate(zip(self.pod_sets, self.flavors or ())):
            totals = pod_set.total() if counts is None else pod_set.scaled(counts[i])
            for resource, amount in totals.items():
                flavor = flavors.get(resource)
                if flavor is not None:
                    key = (flavor, resource)
                    result[key] = result.get(key, 0) + amount
        return result


@dataclass(eq=False)
class ClusterQueue(QuotaNode):
    resource_groups: list[ResourceGroup] = field(default_factory=list)
    preemption: Preemption = Preemption()
    fungibility: Fungibility = Fungibility()
    queueing_strategy: str = BEST_EFFORT_FIFO
    # flavor -> admission checks that run for it (an entry with no flavors applies to all: key "")
    admission_checks: dict[str, tuple[str, ...]] = field(default_factory=dict)
    workloads: dict[str, Workload] = field(default_factory=dict)
    # Kueue's AllocatableResourceGeneration: advances when one of its admitted workloads goes (deleteWorkload,
    # pkg/cache/scheduler/clusterqueue.go @ v0.19.2; quotas never change during a simulation).
    allocatable_generation: int = 0
    # Bumped whenever a workload is added or removed, tentatively or not (keys facts about its workloads).
    membership: int = 0

    def nominal_for_borrowing(self, fr: FlavorResource) -> int:
        return self.quota(fr).nominal

    def group_of(self, resource: str) -> ResourceGroup | None:
        for group in self.resource_groups:
            if resource in group.covered:
                return group
        return None


def flavor_quotas(flavors: Mapping[str, Mapping[str, ResourceQuota | int | tuple]]) -> dict[FlavorResource, ResourceQuota]:
    """{flavor: {resource: quota}} -> {(flavor, resource): ResourceQuota}; a quota may be an int (nominal) or a
    (nominal, borrowingLimit, lendingLimit) tuple."""
    result = {}
    for flavor, resources in flavors.items():
        for resource, quota in resources.items():
            if isinstance(quota, int):
                quota = ResourceQuota(quota)
            elif isinstance(quota, tuple):
                quota = ResourceQuota(*quota)
            result[(flavor, resource)] = quota
    return result


_HASH_MASK = (1 << 64) - 1


def _fingerprint(w: Workload) -> tuple:
    """What a nomination can read of an admitted workload, but its admission time (see Cluster.content)."""
    flavors = None if w.flavors is None else tuple(tuple(sorted(f.items())) for f in w.flavors)
    return (w, flavors, None if w.counts is None else tuple(w.counts), w.evicted, w.timestamp, w.priority)


@dataclass
class StateReads:
    """What one nomination read of the cluster's lasting state: the flavor-resources whose usage (anywhere in the
    tree) and the quota nodes whose whole usage (their fair-sharing share) it depended on. `cacheable` is False
    when the answer also depended on the clock (a candidate with no admission time is ordered by `now`)."""

    frs: set[FlavorResource] = field(default_factory=set)
    nodes: set[QuotaNode] = field(default_factory=set)
    cacheable: bool = True
    # The nomination's preemption candidates per set of needed flavor-resources (preemption._candidates_once).
    candidates: dict = field(default_factory=dict)

    def merge(self, other: "StateReads") -> None:
        self.frs |= other.frs
        self.nodes |= other.nodes
        self.cacheable = self.cacheable and other.cacheable

    def add_path(self, node: QuotaNode) -> None:
        """The node and its ancestors below the root (a root's share is constant: it has nothing to borrow from)."""
        current: QuotaNode | None = node
        while current is not None and current.parent is not None:
            self.nodes.add(current)
            current = current.parent


class Cluster:
    """Flavors, the quota forest and the admitted workloads: what Kueue's scheduler snapshot holds."""

    def __init__(self, flavors: Iterable[Flavor], queues: Iterable[ClusterQueue], cohorts: Iterable[Cohort] = (),
                 cohort_parents: Mapping[str, str] | None = None, queue_cohorts: Mapping[str, str] | None = None,
                 fair_sharing: bool = False, fair_strategies: tuple[str, ...] = DEFAULT_FAIR_STRATEGIES):
        self.fair_strategies = fair_strategies
        self.version = 0  # bumped on every usage change
        # Lasting changes are admissions and evictions: they bump the usage version of each quota node they change
        # (`QuotaNode.real_version`) and are told to `listeners` as (flavor-resources, quota nodes), so that the
        # scheduler drops the nominations that read them. Changes made inside `tentative()` (a preemption search, a
        # fit check) are undone before it ends and are not lasting; nor are usage reservations, which last one
        # scheduling cycle.
        self._tentative = 0
        self.listeners: list[Callable[[list[FlavorResource], list[QuotaNode]], None]] = []
        # flavor-resource -> {queue name: how many of its admitted workloads use it}: the queues a preemption
        # search must look at, without walking every queue of the tree.
        self.users: dict[FlavorResource, dict[str, int]] = {}
        # The lasting state's content, for answers kept by content (Scheduler._repeated_state): each admitted
        # workload's fingerprint, the sum of their hashes (order-free, updated per change) and a counter of lasting
        # changes.
        self.fingerprints: dict[str, tuple] = {}
        self.content_hash = 0
        self.lasting = 0
        self.flavors = {f.name: f for f in flavors}
        self.queues = {q.name: q for q in queues}
        self.cohorts = {c.name: c for c in cohorts}
        self.fair_sharing = fair_sharing
        for child, parent in (cohort_parents or {}).items():
            self._cohort(child).parent = self._cohort(parent)
            self._cohort(parent).child_cohorts.append(self._cohort(child))
        for queue_name, cohort in (queue_cohorts or {}).items():
            queue = self.queues[queue_name]
            queue.parent = self._cohort(cohort)
            queue.parent.child_queues.append(queue)
        for node in self.cohorts.values():
            if node.parent is None:
                compute_subtree(node)
        for queue in self.queues.values():
            if queue.parent is None:
                queue.subtree_quota = {fr: q.nominal for fr, q in queue.quotas.items()}

    def _cohort(self, name: str) -> Cohort:
        """A cohort named by a queue or another cohort but not declared exists implicitly, without quota."""
        if name not in self.cohorts:
            self.cohorts[name] = Cohort(name)
        return self.cohorts[name]

    @contextmanager
    def tentative(self) -> Iterator[None]:
        """A scope whose workload additions and removals are all undone before it ends (what-if questions)."""
        self._tentative += 1
        try:
            yield
        finally:
            self._tentative -= 1

    def add_workload(self, workload: Workload) -> None:
        self.version += 1
        queue = self.queues[workload.cluster_queue]
        queue.workloads[workload.name] = workload
        queue.membership += 1
        for fr, value in workload.usage().items():
            add_usage(queue, fr, value)
            users = self.users.setdefault(fr, {})
            users[queue.name] = users.get(queue.name, 0) + 1
        if not self._tentative:
            self._lasting_change(queue, workload)

    def remove_workload(self, workload: Workload) -> None:
        self.version += 1
        queue = self.queues[workload.cluster_queue]
        del queue.workloads[workload.name]
        queue.membership += 1
        for fr, value in workload.usage().items():
            remove_usage(queue, fr, value)
            users = self.users[fr]
            if users[queue.name] == 1:
                del users[queue.name]
            else:
                users[queue.name] -= 1
        if not self._tentative:
            queue.allocatable_generation += 1
            self._lasting_change(queue, workload)

    def _lasting_change(self, queue: ClusterQueue, workload: Workload) -> None:
        self.lasting += 1
        old = self.fingerprints.pop(workload.name, None)
        if old is not None:
            self.content_hash = (self.content_hash - hash(old)) & _HASH_MASK
        if workload.name in queue.workloads:
            new = _fingerprint(workload)
            self.fingerprints[workload.name] = new
            self.content_hash = (self.content_hash + hash(new)) & _HASH_MASK
        frs = list(workload.usage())
        nodes = []
        node: QuotaNode | None = queue
        while node is not None:  # usage flows up at most to the root: every ancestor may have changed
            node.real_version += 1
            nodes.append(node)
            node = node.parent
        for listener in self.listeners:
            listener(frs, nodes)

    def mark_evicted(self, workload: Workload, evicted: bool) -> None:
        """Set whether an admitted workload is being evicted (its pods terminating): preemption orders such
        candidates first, so the nominations that read its queue are dropped as after a lasting change."""
        workload.evicted = evicted
        queue = self.queues[workload.cluster_queue]
        if workload.name in queue.workloads:
            self._lasting_change(queue, workload)

    def content(self) -> tuple:
        """The lasting state as a nomination reads it: the admitted workloads' fingerprints and the order of their
        admission times (candidates are ordered by it, `preemption.candidate_order_key`; its absolute value is read
        only for a workload without one, and such answers are not kept). Equal contents give equal nominations."""
        timed = sorted((w.reserved_at, w.name) for w in (fp[0] for fp in self.fingerprints.values())
                       if w.reserved_at is not None)
        order, rank, last = [], -1, None
        for at, name in timed:
            if at != last:
                rank, last = rank + 1, at
            order.append((rank, name))
        untimed = frozenset(fp[0].name for fp in self.fingerprints.values() if fp[0].reserved_at is None)
        return frozenset(self.fingerprints.values()), tuple(order), untimed

    def add_usage(self, queue: ClusterQueue, usage: Mapping[FlavorResource, int]) -> None:
        self.version += 1
        for fr, value in usage.items():
            add_usage(queue, fr, value)

    def remove_usage(self, queue: ClusterQueue, usage: Mapping[FlavorResource, int]) -> None:
        self.version += 1
        for fr, value in usage.items():
            remove_usage(queue, fr, value)
