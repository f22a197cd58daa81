"""Which flavor each pod set of a pending workload gets, and whether it fits, must preempt or cannot fit. Pure.

Transcribed from Kueue v0.19's `pkg/scheduler/flavorassigner/flavorassigner.go` (findFlavorForPodSets,
fitsResourceQuota, isPreferred, shouldTryNextFlavor, the granular mode of preemption and borrowing level) and
`classical.FindHeightOfLowestSubtreeThatFits`, with the preemption oracle of `preemption_oracle.go`:
https://github.com/kubernetes-sigs/kueue/tree/v0.19.2/pkg/scheduler/flavorassigner
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gkecap.simulate.cluster import (
    NEVER,
    TRY_NEXT_FLAVOR,
    Cluster,
    ClusterQueue,
    Flavor,
    PodSet,
    StateReads,
    Workload,
)
from gkecap.simulate.preemption import PreemptionContext, get_targets
from gkecap.simulate.quota_tree import FlavorResource, available, local_available, potential_available

# Assignment modes (FlavorAssignmentMode), worst first.
NO_FIT, PREEMPT, FIT = "NoFit", "Preempt", "Fit"
_MODE_RANK = {NO_FIT: 0, PREEMPT: 1, FIT: 3}

# Granular preemption modes (preemptionMode), worst first.
_NO_FIT, _NO_CANDIDATES, _PREEMPT, _RECLAIM, _FIT = range(5)
_TO_MODE = {_NO_FIT: NO_FIT, _NO_CANDIDATES: PREEMPT, _PREEMPT: PREEMPT, _RECLAIM: PREEMPT, _FIT: FIT}
_WORST = (_NO_FIT, 1 << 62)
_BEST = (_FIT, 0)


@dataclass
class FlavorChoice:
    flavor: str
    mode: str
    borrow: int


@dataclass
class Assignment:
    """Per pod set: resource -> FlavorChoice. `usage` is the quota the workload would take."""

    pod_sets: list[dict[str, FlavorChoice]] = field(default_factory=list)
    usage: dict[FlavorResource, int] = field(default_factory=dict)
    reasons: list[str] = field(default_factory=list)
    no_fit: bool = False
    # Kueue's LastState.LastTriedFlavorIdx: per complete pod set, resource -> the index (in its resource group's
    # flavor list) where the scan stopped, -1 when it went through the last flavor (the next scan starts over).
    tried: list[dict[str, int]] = field(default_factory=list)
    counts: list[int] | None = None  # pods per pod set when partial admission reduced them, else None (all)

    def pending_flavors(self) -> bool:
        """AssignmentClusterQueueState.PendingFlavors: a scan stopped before the last flavor of its group."""
        return any(i != -1 for ps in self.tried for i in ps.values())

    @property
    def mode(self) -> str:
        """The worst mode of any pod set's resources (memoised: an assignment is complete once assign returns)."""
        cached = self.__dict__.get("_mode")
        if cached is not None and cached[0] == (self.no_fit, len(self.pod_sets)):
            return cached[1]
        if self.no_fit:
            mode = NO_FIT
        else:
            modes = [c.mode for ps in self.pod_sets for c in ps.values()]
            mode = min(modes, key=_MODE_RANK.__getitem__) if modes else FIT
        self.__dict__["_mode"] = ((self.no_fit, len(self.pod_sets)), mode)
        return mode

    def no_fit_reason(self) -> str:
        return "; ".join(self.reasons) or "no flavor fits"

    @property
    def borrows(self) -> int:
        return max((c.borrow for ps in self.pod_sets for c in ps.values()), default=0)

    def flavors(self) -> list[dict[str, str]]:
        return [{r: c.flavor for r, c in ps.items()} for ps in self.pod_sets]

    def needs_preemption(self) -> set[FlavorResource]:
        return {(c.flavor, r) for ps in self.pod_sets for r, c in ps.items() if c.mode == PREEMPT}


def _preferred(a: tuple[int, int], b: tuple[int, int], preference: str | None) -> bool:
    """isPreferred: whether granular mode `a` (preemption mode, borrowing level) is better than `b`."""
    if a[0] == _NO_FIT:
        return False
    if b[0] == _NO_FIT:
        return True
    if (a[0] == _NO_CANDIDATES) != (b[0] == _NO_CANDIDATES):
        return a[0] != _NO_CANDIDATES
    if preference == "PreemptionOverBorrowing":
        if a[1] != b[1]:
            return a[1] < b[1]
        return a[0] > b[0]
    if a[0] != b[0]:
        return a[0] > b[0]
    return a[1] < b[1]


def _try_next_flavor(mode: tuple[int, int], queue: ClusterQueue) -> bool:
    if mode[0] in (_NO_FIT, _NO_CANDIDATES):
        return True
    if mode[0] in (_PREEMPT, _RECLAIM) and queue.fungibility.when_can_preempt == TRY_NEXT_FLAVOR:
        return True
    return mode[1] != 0 and queue.fungibility.when_can_borrow == TRY_NEXT_FLAVOR


def lowest_subtree_that_fits(queue: ClusterQueue, fr: FlavorResource, value: int) -> tuple[int, bool]:
    """FindHeightOfLowestSubtreeThatFits: the borrowing level (0 = within the queue's own quota) and whether a
    subtree below the root could reclaim."""
    if not queue.borrowing_with(fr, value) or queue.parent is None:
        return 0, queue.parent is not None
    remaining = value - local_available(queue, fr)
    for node in queue.path_to_root():
        if not node.borrowing_with(fr, remaining):
            return node.height(), node.parent is not None
        remaining -= local_available(node, fr)
    return queue.parent.root().height(), False  # type: ignore[attr-defined]


def flavor_matches(flavor: Flavor, pod_set: PodSet) -> bool:
    """The pod set's node selector, restricted to the keys the flavor labels, matches the flavor's labels."""
    return all(flavor.node_labels[k] == v for k, v in pod_set.node_selector.items() if k in flavor.node_labels)


class FlavorAssigner:
    """`resume`: the scan progress a previous cycle left (LastTriedFlavorIdx per pod set, see `scan_progress`);
    each resource group's scan starts after the recorded flavor (NextFlavorToTryForPodSetResource)."""

    def __init__(self, cluster: Cluster, workload: Workload, now: float, reads: StateReads | None = None,
                 resume: tuple[dict[str, int], ...] | None = None):
        self.cluster = cluster
        self.workload = workload
        self.queue = cluster.queues[workload.cluster_queue]
        self.now = now
        self.reads = reads
        self.resume = resume or ()

    def can_preempt_while_borrowing(self) -> bool:
        preemption = self.queue.preemption
        return preemption.borrow_within_cohort != NEVER or (
            self.cluster.fair_sharing and preemption.reclaim_within_cohort != NEVER)

    def _start(self, index: int, requests: dict[str, int]) -> int:
        """NextFlavorToTryForPodSetResource: after the flavor recorded for the pod set's group, else the first."""
        if index >= len(self.resume):
            return 0
        recorded = self.resume[index]
        for resource in requests:
            if resource in recorded:
                return recorded[resource] + 1
        return 0

    def assign(self, counts: list[int] | None = None) -> Assignment:
        """assignFlavors; `counts`: pods per pod set (a partial admission's attempt), else every pod."""
        assignment = Assignment(counts=list(counts) if counts is not None else None)
        for index, pod_set in enumerate(self.workload.pod_sets):
            requests = pod_set.total() if counts is None else pod_set.scaled(counts[index])
            chosen: dict[str, FlavorChoice] = {}
            tried: dict[str, int] = {}
            for resource in requests:
                if self.queue.group_of(resource) is None:
                    assignment.no_fit = True
                    assignment.reasons.append(f"resource {resource} unavailable in ClusterQueue")
            if assignment.no_fit:
                assignment.pod_sets.append(chosen)
                return assignment
            for group in self.queue.resource_groups:
                group_requests = {r: v for r, v in requests.items() if r in group.covered}
                if not group_requests:
                    continue
                result, stopped = self._find_flavor(pod_set, group.flavors, group_requests, assignment.usage,
                                                    self._start(index, group_requests))
                if result is None:
                    assignment.no_fit = True
                    assignment.pod_sets.append(chosen)
                    return assignment
                chosen.update(result)
                tried.update(dict.fromkeys(result, stopped))
            for resource, choice in chosen.items():
                fr = (choice.flavor, resource)
                assignment.usage[fr] = assignment.usage.get(fr, 0) + requests[resource]
            assignment.pod_sets.append(chosen)
            assignment.tried.append(tried)
        return assignment

    def _find_flavor(self, pod_set: PodSet, flavors: tuple[str, ...], requests: dict[str, int],
                     assumed: dict[FlavorResource, int], start: int = 0) -> tuple[dict[str, FlavorChoice] | None, int]:
        """findFlavorForPodSets from flavor index `start`: the choice, and where the scan stopped (TriedFlavorIdx:
        the index of the flavor it stopped at, -1 when it went through the group's last flavor)."""
        best: dict[str, FlavorChoice] | None = None
        best_mode = _WORST
        preference = self.queue.fungibility.preference
        reads = self.reads
        for index, name in self._matching(pod_set, flavors):
            if index < start:
                continue
            choices: dict[str, FlavorChoice] = {}
            mode = _BEST
            # What this flavor's answer read. A flavor that cannot fit depends only on the resource that did not
            # fit; when that one does not fit the quota the queue could ever use, on nothing that changes.
            self.reads = StateReads(candidates=reads.candidates) if reads is not None else None
            fr = None
            for resource, value in requests.items():
                fr = (name, resource)
                preemption_mode, borrow = self._fits_quota(fr, assumed.get(fr, 0) + value)
                this = (preemption_mode, borrow)
                if _preferred(mode, this, preference):
                    mode = this
                if mode[0] == _NO_FIT:
                    break
                choices[resource] = FlavorChoice(name, _TO_MODE[preemption_mode], borrow)
            flavor_reads, self.reads = self.reads, reads
            if reads is not None and flavor_reads is not None:
                if mode[0] == _NO_FIT:
                    if fr is not None:  # the resource that did not fit
                        reads.frs.update({fr} & flavor_reads.frs)
                else:
                    reads.merge(flavor_reads)
            if not _try_next_flavor(mode, self.queue):
                return choices, (index if index < len(flavors) - 1 else -1)
            if _preferred(mode, best_mode, preference):
                best, best_mode = choices, mode
        if best_mode[0] == _NO_FIT:
            return None, -1
        return best, -1  # the scan went through the last flavor (flavors the selector excludes count as tried)

    def _matching(self, pod_set: PodSet, flavors: tuple[str, ...]) -> list[tuple[int, str]]:
        """The flavors whose labels the pod set's node selector allows, with their index in the group, in order
        (fixed: memoised on the pod set)."""
        cache = pod_set.__dict__.setdefault("_matching", {})
        result = cache.get(flavors)
        if result is None:
            result = cache[flavors] = [(i, name) for i, name in enumerate(flavors)
                                       if flavor_matches(self.cluster.flavors.get(name) or Flavor(name), pod_set)]
        return result

    def _fits_quota(self, fr: FlavorResource, value: int) -> tuple[int, int]:
        queue = self.queue
        if value > potential_available(queue, fr):
            return _NO_FIT, 0  # a function of quotas and the tree only
        if self.reads is not None:
            self.reads.frs.add(fr)  # the usage of `fr` along the queue's path
        borrow, may_reclaim = lowest_subtree_that_fits(queue, fr, value)
        if value <= max(0, available(queue, fr)):
            return _FIT, borrow
        if queue.quota(fr).nominal >= value or may_reclaim or self.can_preempt_while_borrowing():
            return self._simulate_preemption(fr, value)
        return _NO_FIT, borrow

    def _simulate_preemption(self, fr: FlavorResource, value: int) -> tuple[int, int]:
        """The preemption oracle: would evicting someone make `value` of `fr` fit, and at what borrowing level."""
        ctx = PreemptionContext(self.cluster, self.workload, {fr: value}, {fr}, self.now, self.reads)
        targets = get_targets(ctx)
        if not targets:
            return _NO_CANDIDATES, lowest_subtree_that_fits(self.queue, fr, value)[0]
        for t in targets:
            self.cluster.remove_workload(t.workload)
        borrow = lowest_subtree_that_fits(self.queue, fr, value)[0]
        for t in targets:
            self.cluster.add_workload(t.workload)
        if any(t.workload.cluster_queue == self.queue.name for t in targets):
            return _PREEMPT, borrow
        return _RECLAIM, borrow


def assign_flavors(cluster: Cluster, workload: Workload, now: float, reads: StateReads | None = None,
                   resume: tuple[dict[str, int], ...] | None = None, counts: list[int] | None = None) -> Assignment:
    return FlavorAssigner(cluster, workload, now, reads, resume).assign(counts)
