"""Which admitted workloads Kueue evicts to make room for a pending one. Pure.

Transcribed from Kueue v0.19's `pkg/scheduler/preemption` (https://github.com/kubernetes-sigs/kueue/tree/v0.19.2/
pkg/scheduler/preemption): `preemption.go` (classicalPreemptions, fillBackWorkloads, fairPreemptions with the
two fair-sharing strategies, findCandidates, workloadFits), `classical/hierarchical_preemption.go` and
`classical/candidate_generator.go` (candidate variants, hierarchical reclaim, the candidate iterator),
`common/ordering.go` (CandidatesOrdering), `common/preemption_policy.go` (SatisfiesPreemptionPolicy) and
`fairsharing/` (the ClusterQueue ordering by dominant resource share, almost-LCA shares, strategies).
"""

from __future__ import annotations

import bisect
import heapq
import math
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Mapping

from gkecap.simulate.cluster import (
    ANY,
    LOWER_OR_NEWER_EQUAL_PRIORITY,
    LOWER_PRIORITY,
    NEVER,
    Cluster,
    ClusterQueue,
    StateReads,
    Workload,
)
from gkecap.simulate.quota_tree import (
    NEGATIVE_SHARE,
    Cohort,
    FlavorResource,
    QuotaNode,
    Share,
    available,
    compare_shares,
    dominant_resource_share,
    over_nominal_children,
    quantities_fit_in_quota,
    share_order,
    within_nominal,
)
from gkecap.simulate.shortcuts import SHORTCUTS

NEGATIVE_ORDER = share_order(NEGATIVE_SHARE)  # below every share

# Preemption reasons, as Kueue writes them in the Preempted condition.
IN_CLUSTER_QUEUE = "InClusterQueue"
IN_COHORT_RECLAMATION = "InCohortReclamation"
IN_COHORT_FAIR_SHARING = "InCohortFairSharing"
IN_COHORT_RECLAIM_WHILE_BORROWING = "InCohortReclaimWhileBorrowing"

# Candidate variants (hierarchical_preemption.go)
_NEVER, _WITHIN_CQ, _HIERARCHICAL_RECLAIM, _RECLAIM_WITHOUT_BORROWING, _RECLAIM_WHILE_BORROWING = range(5)
_REASON = {
    _WITHIN_CQ: IN_CLUSTER_QUEUE,
    _HIERARCHICAL_RECLAIM: IN_COHORT_RECLAMATION,
    _RECLAIM_WITHOUT_BORROWING: IN_COHORT_RECLAMATION,
    _RECLAIM_WHILE_BORROWING: IN_COHORT_RECLAIM_WHILE_BORROWING,
}


@dataclass(frozen=True)
class Target:
    workload: Workload
    reason: str


def satisfies_policy(preemptor: Workload, candidate: Workload, policy: str) -> bool:
    lower = preemptor.priority > candidate.priority
    if policy == LOWER_PRIORITY:
        return lower
    if policy == LOWER_OR_NEWER_EQUAL_PRIORITY:
        newer_equal = preemptor.priority == candidate.priority and preemptor.timestamp < candidate.timestamp
        return lower or newer_equal
    return policy == ANY


def candidate_order_key(preemptor_queue: str, now: float) -> Callable[[Workload], tuple]:
    """CandidatesOrdering: evicted first, other queues before the preemptor's own, lower priority first, the most
    recently admitted first, then by name (Kueue's UID)."""
    def key(w: Workload) -> tuple:
        reserved = w.reserved_at if w.reserved_at is not None else now
        return (not w.evicted, w.cluster_queue == preemptor_queue, w.priority, -reserved, w.name)
    return key


def uses_resources(workload: Workload, frs: set[FlavorResource]) -> bool:
    return any(fr in frs for fr in workload.usage())


class PreemptionContext:
    """One preemption question: can `preemptor`, needing `usage` in its queue, fit after evicting some workloads
    that use the flavor-resources in `needs_preemption`?"""

    def __init__(self, cluster: Cluster, preemptor: Workload, usage: Mapping[FlavorResource, int],
                 needs_preemption: set[FlavorResource], now: float, reads: StateReads | None = None):
        self.cluster = cluster
        self.preemptor = preemptor
        self.queue = cluster.queues[preemptor.cluster_queue]
        self.usage = dict(usage)
        self.needs_preemption = needs_preemption
        self.now = now
        # Every answer reads the usage of these flavor-resources (fits, borrowing, candidates that use them).
        self.reads = reads
        self.candidates_memo: dict | None = None
        if reads is not None:
            reads.frs.update(self.usage)
            reads.frs.update(needs_preemption)
            self.candidates_memo = reads.candidates

    def read_candidates(self, candidates: Iterable[Workload], shares: bool) -> None:
        """Note that the answer depends on these candidates' order (their admission time, or `now` without one)
        and, with `shares`, on the fair-sharing shares of their queues and of the preemptor's, up the tree."""
        reads = self.reads
        if reads is None:
            return
        for w in candidates:
            if w.reserved_at is None:
                reads.cacheable = False
            if shares:
                reads.add_path(self.cluster.queues[w.cluster_queue])
        if shares:
            reads.add_path(self.queue)

    def fits(self, allow_borrowing: bool) -> bool:
        for fr, value in self.usage.items():
            if not allow_borrowing and self.queue.borrowing_with(fr, value):
                return False
            if value > max(0, available(self.queue, fr)):
                return False
        return True

    def fits_for_fair_sharing(self) -> bool:
        self.cluster.remove_usage(self.queue, self.usage)
        try:
            return self.fits(True)
        finally:
            self.cluster.add_usage(self.queue, self.usage)


def get_targets(ctx: PreemptionContext) -> list[Target]:
    """The preemption targets, asked once per nomination and question: the flavor assigner's oracle and the search
    for the nomination's targets ask the same question (same usage, same needed flavor-resources) on the same
    snapshot (every what-if change between them is undone), so the second is the first's answer."""
    memo = ctx.candidates_memo
    key = None
    if memo is not None and SHORTCUTS.memoised_facts:
        key = ("targets", tuple(sorted(ctx.usage.items())), frozenset(ctx.needs_preemption))
        known = memo.get(key)
        if known is not None:
            return list(known)
    targets = fair_preemptions(ctx) if ctx.cluster.fair_sharing else classical_preemptions(ctx)
    if key is not None:
        memo[key] = tuple(targets)  # type: ignore[index]
    return targets


# --- classical ---------------------------------------------------------------------------------------------


@dataclass
class _Candidate:
    workload: Workload
    lca: Cohort | None
    variant: int


def _classify(ctx: PreemptionContext, w: Workload, hierarchical_advantage: bool) -> int:
    if not uses_resources(w, ctx.needs_preemption):
        return _NEVER
    queue = ctx.queue
    same_queue = w.cluster_queue == queue.name
    policy = queue.preemption.within_cluster_queue if same_queue else queue.preemption.reclaim_within_cohort
    if not satisfies_policy(ctx.preemptor, w, policy):
        return _NEVER
    if same_queue:
        return _WITHIN_CQ
    if hierarchical_advantage:
        return _HIERARCHICAL_RECLAIM
    if queue.preemption.borrow_within_cohort == NEVER:
        return _RECLAIM_WITHOUT_BORROWING
    threshold = queue.preemption.max_priority_threshold
    if w.priority >= ctx.preemptor.priority or (threshold is not None and w.priority > threshold):
        return _RECLAIM_WITHOUT_BORROWING
    return _RECLAIM_WHILE_BORROWING


def _from_queue(ctx: PreemptionContext, queue: ClusterQueue, lca: Cohort | None, advantage: bool) -> list[_Candidate]:
    """The queue's workloads that are candidates, classified (`memoised_facts`: kept on the queue while its
    workloads are the same, per everything _classify reads of the preemptor: its queue's policies, whether it is
    this queue, its priority, its timestamp where the policy compares it, the needed flavor-resources; a search in
    a 1,000-queue cohort classifies the workloads of hundreds of queues)."""
    memo: dict[tuple, tuple[_Candidate, ...]] | None = None
    key: tuple = ()
    if SHORTCUTS.memoised_facts:
        preemptor = ctx.__dict__.get("_classified_by")
        if preemptor is None:  # what _classify reads of the preemptor, once per search
            p = ctx.queue.preemption
            timed = LOWER_OR_NEWER_EQUAL_PRIORITY in (p.within_cluster_queue, p.reclaim_within_cohort)
            preemptor = ctx.__dict__["_classified_by"] = (
                p.within_cluster_queue, p.reclaim_within_cohort, p.borrow_within_cohort, p.max_priority_threshold,
                frozenset(ctx.needs_preemption), ctx.preemptor.priority, ctx.preemptor.timestamp if timed else None)
        key = (queue is ctx.queue, advantage, id(lca), preemptor)
        kept: tuple[int, dict[tuple, tuple[_Candidate, ...]]] | None = queue.__dict__.get("_from_queue")
        if kept is None or kept[0] != queue.membership:
            kept = (queue.membership, {})
            queue.__dict__["_from_queue"] = kept
        memo = kept[1]
        known = memo.get(key)
        if known is not None:
            return list(known)
    result = []
    for w in queue.workloads.values():
        variant = _classify(ctx, w, advantage)
        if variant != _NEVER:
            result.append(_Candidate(w, lca, variant))
    if memo is not None:
        memo[key] = tuple(result)
    return result


def _queues_in_subtree(ctx: PreemptionContext, cohort: Cohort, skip: Cohort | None, result: list) -> None:
    """collectCandidatesInSubtree's walk: the queues of the subtree above their nominal quota, not descending into
    `skip` nor into a cohort within its nominal quota."""
    needs = ctx.needs_preemption
    if SHORTCUTS.over_nominal_index:
        for child in over_nominal_children(cohort, needs):
            if isinstance(child, Cohort):
                if child is not skip:
                    _queues_in_subtree(ctx, child, skip, result)
            elif child is not ctx.queue:
                result.append(child)
        return
    for child in cohort.child_cohorts:
        if child is skip or within_nominal(child, needs):
            continue
        _queues_in_subtree(ctx, child, skip, result)
    for queue in cohort.child_queues:
        if queue is not ctx.queue and not within_nominal(queue, needs):
            result.append(queue)


def _candidate_queues(ctx: PreemptionContext) -> Iterator[tuple[ClusterQueue, Cohort, bool]]:
    """The other queues whose workloads may be candidates, with the subtree root they are found under (their lowest
    common ancestor with the preemptor's queue) and whether the preemptor has the hierarchical advantage there."""
    queue = ctx.queue
    if queue.parent is None or queue.preemption.reclaim_within_cohort == NEVER:
        return
    previous = None
    advantage, remaining = quantities_fit_in_quota(queue, ctx.usage)
    for subtree_root in queue.path_to_root():
        found: list[ClusterQueue] = []
        _queues_in_subtree(ctx, subtree_root, previous, found)
        for other in found:
            yield other, subtree_root, advantage
        fits, remaining = quantities_fit_in_quota(subtree_root, remaining)
        advantage = advantage or fits
        previous = subtree_root


def _hierarchical_candidates(ctx: PreemptionContext) -> tuple[list[_Candidate], list[_Candidate]]:
    hierarchy: list[_Candidate] = []
    priority: list[_Candidate] = []
    for queue, lca, advantage in _candidate_queues(ctx):
        (hierarchy if advantage else priority).extend(_from_queue(ctx, queue, lca, advantage))
    return hierarchy, priority


class _CandidateIterator:
    def __init__(self, ctx: PreemptionContext):
        self.ctx = ctx
        same = _from_queue(ctx, ctx.queue, None, False) if ctx.queue.preemption.within_cluster_queue != NEVER else []
        hierarchy, priority = _hierarchical_candidates(ctx)
        ctx.read_candidates((c.workload for group in (same, hierarchy, priority) for c in group), shares=False)
        key = candidate_order_key(ctx.queue.name, ctx.now)
        for group in (same, hierarchy, priority):
            group.sort(key=lambda c: key(c.workload))
        evicted = lambda group: [c for c in group if c.workload.evicted]  # noqa: E731
        live = lambda group: [c for c in group if not c.workload.evicted]  # noqa: E731
        self.candidates = (evicted(hierarchy) + evicted(priority) + evicted(same)
                           + live(hierarchy) + live(priority) + live(same))
        self.no_candidate_from_other_queues = not hierarchy and not priority
        self.no_candidate_for_hierarchical_reclaim = not hierarchy

    def candidates_for(self, borrow: bool) -> Iterable[_Candidate]:
        for candidate in self.candidates:
            if self._valid(candidate, borrow):
                yield candidate

    def _valid(self, candidate: _Candidate, borrow: bool) -> bool:
        ctx = self.ctx
        if candidate.workload.cluster_queue == ctx.queue.name:
            return True
        if borrow and candidate.variant == _RECLAIM_WITHOUT_BORROWING:
            return False
        queue = ctx.cluster.queues[candidate.workload.cluster_queue]
        if within_nominal(queue, ctx.needs_preemption):
            return False
        for node in queue.path_to_root():
            if node is candidate.lca:
                break
            if within_nominal(node, ctx.needs_preemption):
                return False
        return True


def _under_nominal(ctx: PreemptionContext) -> bool:
    return all(ctx.queue.quota(fr).nominal > ctx.queue.usage.get(fr, 0) for fr in ctx.needs_preemption)


def _attempts(ctx: PreemptionContext, no_other: bool, no_hierarchical: bool) -> list[bool]:
    """classicalPreemptions' attempts, in order: whether each lets the preemptor borrow."""
    forbidden = ctx.queue.preemption.borrow_within_cohort == NEVER
    if no_other or (forbidden and not _under_nominal(ctx)):
        return [True]
    if forbidden and no_hierarchical:
        return [False, True]
    return [True, False]


def _candidate_totals(ctx: PreemptionContext) -> tuple[dict[FlavorResource, int], dict[FlavorResource, int],
                                                       dict[FlavorResource, int], bool, bool]:
    """What the classical candidates hold of the preemptor's flavor-resources: (those of its own queue, those of
    other queues an attempt that borrows may take, those only an attempt that does not borrow may take), and
    whether there is no candidate in other queues, and none with the hierarchical advantage (_CandidateIterator's
    flags). The candidates are read as the iterator reads them (`read_candidates`)."""
    queue, preemptor = ctx.queue, ctx.preemptor
    own = dict.fromkeys(ctx.usage, 0)
    while_borrowing, without_borrowing = dict(own), dict(own)
    seen: list[Workload] = []
    policy = queue.preemption.within_cluster_queue
    held = _held_by_priority(ctx, queue) if SHORTCUTS.memoised_facts and policy != NEVER else None
    if held is not None and policy in (ANY, LOWER_PRIORITY):  # from its sums by priority
        amounts = held.below(math.inf if policy == ANY else preemptor.priority)[1]
        for i, fr in enumerate(ctx.usage):
            own[fr] += amounts[i]
    elif policy != NEVER:
        for w in queue.workloads.values():
            if uses_resources(w, ctx.needs_preemption) and satisfies_policy(preemptor, w, policy):
                seen.append(w)
                _add_held(own, w)
    flags = _others_from_cohort(ctx, while_borrowing, without_borrowing) if SHORTCUTS.memoised_facts else None
    if flags is not None:
        ctx.read_candidates(seen, shares=False)
        return own, while_borrowing, without_borrowing, *flags
    no_other, no_hierarchical = True, True
    for other, _, advantage in _candidate_queues(ctx):
        held = _held_by_priority(ctx, other) if SHORTCUTS.memoised_facts else None
        if held is not None:  # summed by priority (the queue's workloads all have an admission time)
            found = _add_totals(ctx, held.below, held.rows, advantage, while_borrowing, without_borrowing)
            no_other = no_other and not found
            no_hierarchical = no_hierarchical and not (found and advantage)
            continue
        for w in other.workloads.values():
            variant = _classify(ctx, w, advantage)
            if variant == _NEVER:
                continue
            seen.append(w)
            no_other = False
            no_hierarchical = no_hierarchical and not advantage
            _add_held(without_borrowing if variant == _RECLAIM_WITHOUT_BORROWING else while_borrowing, w)
    ctx.read_candidates(seen, shares=False)
    return own, while_borrowing, without_borrowing, no_other, no_hierarchical


def _classical_hopeless(ctx: PreemptionContext) -> bool:
    """Whether no attempt can fit even after evicting every candidate it may take (`bounded_search`), so that the
    search, which evicts candidates one by one until the preemptor fits, finds no targets.

    Sound because an eviction only frees quota: what the preemptor's queue can use grows by at most the usage
    evicted (quota_tree.available grows by at most what is removed anywhere in the tree) and its own usage falls by
    at most what its own candidates hold; an attempt takes a subset of the candidates counted here (it also skips
    those whose queue came back within nominal meanwhile, `_CandidateIterator._valid`)."""
    queue, usage = ctx.queue, ctx.usage
    own, while_borrowing, without_borrowing, no_other, no_hierarchical = _candidate_totals(ctx)
    for borrow in _attempts(ctx, no_other, no_hierarchical):
        for fr, value in usage.items():
            freed = own[fr] + while_borrowing[fr] + (0 if borrow else without_borrowing[fr])
            if not borrow and queue.borrowing_with(fr, value - own[fr]):
                break
            if value > max(0, available(queue, fr) + freed):
                break
        else:
            return False  # this attempt might fit
    return True


class _Held:
    """What some admitted workloads hold of the preemptor's flavor-resources, summed by priority: `below(limit)` is
    (how many, what they hold) of those with a priority below `limit`; `rows` are (priority, timestamp, held)."""

    __slots__ = ("priorities", "sums", "rows", "zero")

    def __init__(self, rows: list[tuple[int, float, tuple[int, ...]]], width: int):
        rows.sort(key=lambda row: row[0])
        self.rows = rows
        self.priorities = [row[0] for row in rows]
        self.zero = (0,) * width
        self.sums: list[tuple[int, ...]] = []
        running = self.zero
        for _, _, amounts in rows:
            running = tuple(a + b for a, b in zip(running, amounts))
            self.sums.append(running)

    def below(self, limit: float) -> tuple[int, tuple[int, ...]]:
        n = bisect.bisect_left(self.priorities, limit)
        return n, (self.sums[n - 1] if n else self.zero)


def _held_by_priority(ctx: PreemptionContext, queue: ClusterQueue) -> _Held | None:
    """What the queue's workloads that use a needed flavor-resource hold of the preemptor's flavor-resources, by
    priority. Kept on the queue until a workload comes or goes (`membership`); None when one of them has no
    admission time (its candidacy makes the answer depend on the clock, `read_candidates`: counted one by one)."""
    frs = tuple(ctx.usage)
    key = (queue.membership, frozenset(ctx.needs_preemption), frs)
    cached = queue.__dict__.get("_held_by_priority")
    if cached is not None and cached[0] == key:
        return cached[1]
    rows = []
    for w in queue.workloads.values():
        if not uses_resources(w, ctx.needs_preemption):
            continue
        if w.reserved_at is None:
            queue.__dict__["_held_by_priority"] = (key, None)
            return None
        usage = w.usage()
        rows.append((w.priority, w.timestamp, tuple(usage.get(fr, 0) for fr in frs)))
    held = _Held(rows, len(frs))
    queue.__dict__["_held_by_priority"] = (key, held)
    return held


def _cohort_held(ctx: PreemptionContext, cohort: Cohort) -> _Held | None:
    """_held_by_priority over every child queue of the cohort above its nominal quota, kept while nothing in the
    cluster changed (`Cluster.version`: the heads of one cycle are nominated on the same state, and a search that
    finds no target changes nothing). None when a child is a cohort or a queue has to be counted one by one."""
    needs = ctx.needs_preemption
    key = (ctx.cluster.version, frozenset(needs), tuple(ctx.usage))
    cached = cohort.__dict__.get("_cohort_held")
    if cached is not None and cached[0] == key:
        return cached[1]
    above = (over_nominal_children(cohort, needs) if SHORTCUTS.over_nominal_index
             else [c for c in (*cohort.child_cohorts, *cohort.child_queues) if not within_nominal(c, needs)])
    rows: list[tuple[int, float, tuple[int, ...]]] | None = []
    for child in above:
        held = None if isinstance(child, Cohort) else _held_by_priority(ctx, child)  # type: ignore[arg-type]
        if held is None:
            rows = None
            break
        rows.extend(held.rows)  # type: ignore[union-attr]
    result = None if rows is None else _Held(rows, len(ctx.usage))
    cohort.__dict__["_cohort_held"] = (key, result)
    return result


def _others_from_cohort(ctx: PreemptionContext, while_borrowing: dict[FlavorResource, int],
                        without_borrowing: dict[FlavorResource, int]) -> tuple[bool, bool] | None:
    """The other queues' part of _candidate_totals from the cohort's sums by priority, less the preemptor queue's
    own (when it is above nominal, the cohort's sums count it): for a queue directly under a root cohort of queues,
    whose candidates from other queues are that cohort's queues above nominal, under a policy that reads priorities
    only. (no candidate in other queues, no candidate with the hierarchical advantage), or None when not applicable."""
    queue = ctx.queue
    cohort = queue.parent
    policy = queue.preemption.reclaim_within_cohort
    if cohort is None or cohort.parent is not None or policy not in (ANY, LOWER_PRIORITY):
        return None
    held = _cohort_held(ctx, cohort)
    if held is None:
        return None
    own = None if within_nominal(queue, ctx.needs_preemption) else _held_by_priority(ctx, queue)
    if own is None and not within_nominal(queue, ctx.needs_preemption):
        return None

    def below(limit: float) -> tuple[int, tuple[int, ...]]:
        count, amounts = held.below(limit)
        if own is None:
            return count, amounts
        mine, mine_amounts = own.below(limit)
        return count - mine, tuple(a - b for a, b in zip(amounts, mine_amounts))

    advantage = quantities_fit_in_quota(queue, ctx.usage)[0]
    found = _add_totals(ctx, below, None, advantage, while_borrowing, without_borrowing)
    return not found, not (found and advantage)


def _add_totals(ctx: PreemptionContext, below: Callable[[float], tuple[int, tuple[int, ...]]],
                rows: list[tuple[int, float, tuple[int, ...]]] | None, advantage: bool,
                while_borrowing: dict[FlavorResource, int], without_borrowing: dict[FlavorResource, int]) -> bool:
    """_classify over workloads from their sums by priority (`below`; `rows` for the equal-priority test of
    LowerOrNewerEqualPriority): add what the candidates hold to the variant's totals; whether there was any."""
    preemption, preemptor = ctx.queue.preemption, ctx.preemptor
    policy, p = preemption.reclaim_within_cohort, preemptor.priority
    if policy not in (ANY, LOWER_PRIORITY, LOWER_OR_NEWER_EQUAL_PRIORITY):
        return False  # satisfies_policy accepts no candidate
    count, satisfying = below(math.inf if policy == ANY else p)
    if policy == LOWER_OR_NEWER_EQUAL_PRIORITY:  # and those of equal priority but newer than the preemptor
        assert rows is not None
        equal = [held for priority, timestamp, held in rows if priority == p and preemptor.timestamp < timestamp]
        if equal:
            count += len(equal)
            satisfying = tuple(map(sum, zip(satisfying, *equal)))
    if not count:
        return False
    if advantage:
        borrowing_part = satisfying
    elif preemption.borrow_within_cohort == NEVER:
        borrowing_part = (0,) * len(satisfying)
    else:
        threshold = preemption.max_priority_threshold
        borrowing_part = below(p if threshold is None else min(p, threshold + 1))[1]
    for i, fr in enumerate(ctx.usage):
        while_borrowing[fr] += borrowing_part[i]
        without_borrowing[fr] += satisfying[i] - borrowing_part[i]
    return True


def _add_held(totals: dict[FlavorResource, int], w: Workload) -> None:
    held = w.usage()
    for fr in totals:
        totals[fr] += held.get(fr, 0)


def classical_preemptions(ctx: PreemptionContext) -> list[Target]:
    if SHORTCUTS.bounded_search and _classical_hopeless(ctx):
        return []
    iterator = _CandidateIterator(ctx)
    attempts = _attempts(ctx, iterator.no_candidate_from_other_queues, iterator.no_candidate_for_hierarchical_reclaim)
    cluster = ctx.cluster
    for borrowing in attempts:
        targets: list[Target] = []
        for candidate in iterator.candidates_for(borrowing):
            cluster.remove_workload(candidate.workload)
            targets.append(Target(candidate.workload, _REASON[candidate.variant]))
            if ctx.fits(borrowing):
                targets = _fill_back(ctx, targets, borrowing)
                _restore(cluster, targets)
                return targets
        _restore(cluster, targets)
    return []


def _fill_back(ctx: PreemptionContext, targets: list[Target], allow_borrowing: bool) -> list[Target]:
    """Give back every target but the last that is not needed after all (newest-evicted first)."""
    for i in range(len(targets) - 2, -1, -1):
        ctx.cluster.add_workload(targets[i].workload)
        if ctx.fits(allow_borrowing):
            targets[i] = targets[-1]
            targets.pop()
        else:
            ctx.cluster.remove_workload(targets[i].workload)
    return targets


def _restore(cluster: Cluster, targets: list[Target]) -> None:
    for target in targets:
        cluster.add_workload(target.workload)


# --- fair sharing ------------------------------------------------------------------------------------------


def _find_candidates(ctx: PreemptionContext) -> list[Workload]:
    queue = ctx.queue
    candidates = []

    def matching(q: ClusterQueue, policy: str) -> list[Workload]:
        return [w for w in q.workloads.values()
                if satisfies_policy(ctx.preemptor, w, policy) and uses_resources(w, ctx.needs_preemption)]

    if queue.preemption.within_cluster_queue != NEVER:
        candidates += matching(queue, queue.preemption.within_cluster_queue)
    if queue.parent is not None and queue.preemption.reclaim_within_cohort != NEVER:
        # Only queues with a workload on a needed flavor-resource can hold candidates: those of the tree, taken
        # from the cluster's index (the order does not matter, candidates are sorted by a total order after).
        root = queue.parent.root()
        users = ctx.cluster.users
        names = {name for fr in ctx.needs_preemption for name in users.get(fr, ())}
        for name in names:
            other = ctx.cluster.queues[name]
            if other is queue or other.root() is not root or not any(other.borrowing(fr) for fr in ctx.needs_preemption):
                continue
            candidates += matching(other, queue.preemption.reclaim_within_cohort)
    return candidates


class _QueueOrdering:
    """fairsharing.TargetClusterQueueOrdering: yields the ClusterQueue with the highest share, descending the
    cohort tree by the highest share, pruning nodes that do not borrow."""

    def __init__(self, ctx: PreemptionContext, candidates: list[Workload]):
        self.ctx = ctx
        self.preemptor_queue = ctx.queue
        self.ancestors = set(map(id, ctx.queue.path_to_root()))
        self.targets: dict[str, list[Workload]] = {}
        for w in candidates:
            self.targets.setdefault(w.cluster_queue, []).append(w)
        self.pruned_queues: set[str] = set()
        self.pruned_cohorts: set[int] = set()
        self.candidate_key = candidate_order_key(ctx.queue.name, ctx.now)
        self._heaps: dict[int, list[tuple]] = {}  # cohort id -> its child queues' keys (`_best_queue`)
        self._entries = 0
        # The children of each cohort that hold candidates, in the cohort's order. Kueue's walk also descends
        # into subtrees without candidates, finds no target there and prunes them: the targets it yields, and
        # their order, are the same when those subtrees are left out, and their shares are not computed.
        self.queues_with: dict[int, list[QuotaNode]] = {}
        self.cohorts_with: dict[int, list[Cohort]] = {}
        holding = {id(ctx.cluster.queues[name]) for name in self.targets}
        bearing: set[int] = set()
        for name in self.targets:
            node: QuotaNode = ctx.cluster.queues[name]
            while node.parent is not None and id(node) not in bearing:
                bearing.add(id(node))
                node = node.parent
        for cohort in {id(p): p for name in self.targets for p in ctx.cluster.queues[name].path_to_root()}.values():
            self.queues_with[id(cohort)] = [q for q in cohort.child_queues if id(q) in holding]
            self.cohorts_with[id(cohort)] = [c for c in cohort.child_cohorts if id(c) in bearing]

    def has_workload(self, queue: QuotaNode) -> bool:
        return bool(self.targets.get(queue.name))

    def pop(self, queue: QuotaNode) -> Workload:
        return self.targets[queue.name].pop(0)

    def drop(self, queue: QuotaNode) -> None:
        self.pruned_queues.add(queue.name)

    def __iter__(self):
        queue = self.preemptor_queue
        if queue.parent is None:
            while queue.name not in self.pruned_queues and self.has_workload(queue):
                yield queue
            return
        root = queue.parent.root()
        while id(root) not in self.pruned_cohorts:
            target = self._next(root)
            if target is not None:
                yield target

    def _best_queue(self, cohort: Cohort) -> tuple[QuotaNode | None, tuple]:
        """The cohort's child queue with the highest share, ties to the one whose next candidate comes first
        (candidate order), pruning those without candidates or not borrowing (but the preemptor's): the scan of
        `_next`, from a heap of the queues' keys (`share_heap`).

        A queue's key changes only when its usage (its version) or its next candidate changes; its entry is then
        stale and replaced when it comes to the top. Pruning only when a queue comes to the top prunes the same
        queues before they could be chosen: during a search usage only falls, so a queue that does not borrow
        never will, and candidates are only taken."""
        heap = self._heaps.get(id(cohort))
        key = self.candidate_key
        pruned, targets = self.pruned_queues, self.targets
        if heap is None:
            heap = self._heaps[id(cohort)] = []
            for queue in self.queues_with.get(id(cohort), ()):
                if targets.get(queue.name):
                    heap.append(self._entry(queue, key))
            heapq.heapify(heap)
        while heap:
            unchoosable, _, _, version, left, _, queue, borrowing, order = heap[0]
            if unchoosable:
                break  # neither it nor any after it can be chosen
            if queue.name in pruned:
                heapq.heappop(heap)
                continue
            queued = targets.get(queue.name)
            if not queued:
                pruned.add(queue.name)
                heapq.heappop(heap)
                continue
            if version != queue.version or left != len(queued):
                heapq.heapreplace(heap, self._entry(queue, key))
                continue
            if not borrowing and queue is not self.preemptor_queue:
                pruned.add(queue.name)
                heapq.heappop(heap)
                continue
            return queue, order
        return None, NEGATIVE_ORDER

    def _entry(self, queue: QuotaNode, key: Callable[[Workload], tuple]) -> tuple:
        share = dominant_resource_share(queue)
        queued = self.targets[queue.name]
        self._entries += 1
        # Highest share first (share_order negated); a queue whose share is not above NEGATIVE_ORDER is never
        # chosen by the scan (`order > best` from it), so it sorts last.
        order = share_order(share)
        return (order <= NEGATIVE_ORDER, tuple(-x for x in order), key(queued[0]), queue.version, len(queued),
                self._entries, queue, share.borrowing, order)

    def _next(self, cohort: Cohort) -> QuotaNode | None:
        # Shares are compared by share_order, whose comparison is compare_shares's (one key per node, not a call
        # per pair: this walk runs once per target tried, over every queue holding candidates).
        best_queue, best_queue_share = None, NEGATIVE_ORDER
        key = candidate_order_key(self.preemptor_queue.name, self.ctx.now)
        pruned, targets = self.pruned_queues, self.targets
        if SHORTCUTS.share_heap:
            best_queue, best_queue_share = self._best_queue(cohort)
        for queue in (() if SHORTCUTS.share_heap else self.queues_with.get(id(cohort), ())):
            if queue.name in pruned:
                continue
            if not targets.get(queue.name):
                pruned.add(queue.name)
                continue
            share = dominant_resource_share(queue)
            if not share.borrowing and queue is not self.preemptor_queue:
                pruned.add(queue.name)
                continue
            order = share_order(share)
            if best_queue is not None and order == best_queue_share:
                if key(targets[queue.name][0]) < key(targets[best_queue.name][0]):
                    best_queue = queue
            elif order > best_queue_share:
                best_queue, best_queue_share = queue, order
        best_cohort, best_cohort_share = None, NEGATIVE_ORDER
        for child in self.cohorts_with.get(id(cohort), ()):
            if id(child) in self.pruned_cohorts:
                continue
            share = dominant_resource_share(child)
            if not share.borrowing and id(child) not in self.ancestors:
                self.pruned_cohorts.add(id(child))
                continue
            order = share_order(share)
            if order >= best_cohort_share:
                best_cohort, best_cohort_share = child, order
        if best_cohort is None and best_queue is None:
            self.pruned_cohorts.add(id(cohort))
            return None
        if best_cohort is not None and best_cohort_share >= best_queue_share:
            return self._next(best_cohort)
        return best_queue

    def almost_lcas(self, target: QuotaNode) -> tuple[QuotaNode, QuotaNode]:
        return almost_lcas(self.preemptor_queue, target)

    def shares(self, target: QuotaNode) -> tuple[Share, Share]:
        preemptor_side, target_side = self.almost_lcas(target)
        return dominant_resource_share(preemptor_side), dominant_resource_share(target_side)

    def target_share_after_removal(self, target: QuotaNode, w: Workload) -> Share:
        return share_after_removal(self.ctx.cluster, target, self.almost_lcas(target)[1], w)


def share_after_removal(cluster: Cluster, target: QuotaNode, side: QuotaNode, w: Workload) -> Share:
    """The share of `side` (the target's side of the almost-LCA) if `w` were evicted from `target`."""
    cluster.remove_usage(target, w.usage())  # type: ignore[arg-type]
    try:
        return dominant_resource_share(side)
    finally:
        cluster.add_usage(target, w.usage())  # type: ignore[arg-type]


def almost_lcas(preemptor_queue: QuotaNode, target: QuotaNode) -> tuple[QuotaNode, QuotaNode]:
    """The children of the two queues' lowest common ancestor on the preemptor's side and on the target's. A
    function of the tree alone (fixed once the Cluster is built): memoised on the preemptor's queue."""
    cache = preemptor_queue.__dict__.setdefault("_almost_lcas", {}) if SHORTCUTS.memoised_facts else {}
    result = cache.get(target.name)
    if result is None:
        ancestors = set(map(id, preemptor_queue.path_to_root()))
        lca = next(a for a in target.path_to_root() if id(a) in ancestors)
        result = cache[target.name] = (_almost_lca(preemptor_queue, lca), _almost_lca(target, lca))
    return result


def _almost_lca(queue: QuotaNode, lca: Cohort) -> QuotaNode:
    node = queue
    for ancestor in queue.path_to_root():
        if ancestor is lca:
            return node
        node = ancestor
    raise AssertionError("no least common ancestor")


def less_or_equal_to_final_share(preemptor_new: Share, target_old: Share, target_new: Share) -> bool:
    return compare_shares(preemptor_new, target_new) <= 0


def less_than_initial_share(preemptor_new: Share, target_old: Share, target_new: Share | None = None) -> bool:
    return compare_shares(preemptor_new, target_old) < 0


STRATEGIES = {
    "LessThanOrEqualToFinalShare": less_or_equal_to_final_share,
    "LessThanInitialShare": less_than_initial_share,
}


def _queue_within_nominal(ctx: PreemptionContext) -> bool:
    return not any(ctx.queue.borrowing(fr) for fr in ctx.needs_preemption)


def _first_strategy(ctx: PreemptionContext, candidates: list[Workload], strategy) -> tuple[bool, list[Target], list[Workload]]:
    ordering = _QueueOrdering(ctx, candidates)
    targets: list[Target] = []
    retry: list[Workload] = []
    # FairSharingPreemptWithinNominal (on by default in v0.19)
    within_nominal_preemptor = _queue_within_nominal(ctx)
    for queue in ordering:
        if queue is ctx.queue:
            w = ordering.pop(queue)
            ctx.cluster.remove_workload(w)
            targets.append(Target(w, IN_CLUSTER_QUEUE))
            if ctx.fits_for_fair_sharing():
                return True, targets, []
            continue
        if within_nominal_preemptor:
            w = ordering.pop(queue)
            ctx.cluster.remove_workload(w)
            targets.append(Target(w, IN_COHORT_RECLAMATION))
            if ctx.fits_for_fair_sharing():
                return True, targets, []
            continue
        preemptor_new, target_old = ordering.shares(queue)
        if math.isinf(preemptor_new.weighted()) and not math.isinf(target_old.weighted()):
            while ordering.has_workload(queue):
                retry.append(ordering.pop(queue))
            continue
        while ordering.has_workload(queue):
            w = ordering.pop(queue)
            target_new = ordering.target_share_after_removal(queue, w)
            if strategy(preemptor_new, target_old, target_new):
                ctx.cluster.remove_workload(w)
                targets.append(Target(w, IN_COHORT_FAIR_SHARING))
                if ctx.fits_for_fair_sharing():
                    return True, targets, []
                break
            retry.append(w)
    return False, targets, retry


def _second_strategy(ctx: PreemptionContext, retry: list[Workload], targets: list[Target]) -> tuple[bool, list[Target]]:
    ordering = _QueueOrdering(ctx, retry)
    for queue in ordering:
        preemptor_new, target_old = ordering.shares(queue)
        w = ordering.pop(queue)
        if less_than_initial_share(preemptor_new, target_old):
            ctx.cluster.remove_workload(w)
            targets.append(Target(w, IN_COHORT_FAIR_SHARING))
            if ctx.fits_for_fair_sharing():
                return True, targets
        ordering.drop(queue)
    return False, targets


def _candidates_once(ctx: PreemptionContext) -> list[Workload]:
    """_find_candidates, once per nomination and set of needed flavor-resources: the flavor assigner's oracle and
    the search for targets ask on the same snapshot (every what-if change between them is undone)."""
    memo = ctx.candidates_memo
    if memo is None or not SHORTCUTS.memoised_facts:
        return _find_candidates(ctx)
    key = frozenset(ctx.needs_preemption)
    if key not in memo:
        memo[key] = _find_candidates(ctx)
    return list(memo[key])


def _no_target_passes(ctx: PreemptionContext, candidates: list[Workload]) -> bool:
    """Whether the strategies must reject every candidate, before any is tried (the preemptor's usage is added).

    Without candidates in its own queue and while it borrows, a preemptor evicts a candidate only when its share
    is at most the candidate side's share after that eviction (LessThanOrEqualToFinalShare) or below that side's
    share before it (LessThanInitialShare). Until a first candidate is evicted nothing changes, so when no candidate
    passes either test now, none is ever evicted and there are no targets, whichever strategies are configured."""
    queue = ctx.queue
    if not SHORTCUTS.early_stop or queue.parent is None or _queue_within_nominal(ctx):
        return False
    cluster = ctx.cluster
    for w in candidates:
        if w.cluster_queue == queue.name:
            return False
        target = cluster.queues[w.cluster_queue]
        mine, theirs = almost_lcas(queue, target)
        preemptor_new, target_old = dominant_resource_share(mine), dominant_resource_share(theirs)
        compared = compare_shares(preemptor_new, target_old)
        if compared < 0:
            return False
        # Evicting lowers the target's share: only from an equal share can the final share still pass.
        if compared == 0 and compare_shares(preemptor_new, share_after_removal(cluster, target, theirs, w)) <= 0:
            return False
    return True


def _fair_hopeless(ctx: PreemptionContext, candidates: list[Workload]) -> bool:
    """Whether the preemptor cannot fit even with every candidate evicted (`bounded_search`): a fair-sharing search
    tests fits with borrowing allowed on the state without the preemptor (fits_for_fair_sharing), and each eviction
    frees at most the candidate's usage (see _classical_hopeless)."""
    freed = dict.fromkeys(ctx.usage, 0)
    for w in candidates:
        held = w.usage()
        for fr in freed:
            freed[fr] += held.get(fr, 0)
    return any(value > max(0, available(ctx.queue, fr) + freed[fr]) for fr, value in ctx.usage.items())


def fair_preemptions(ctx: PreemptionContext) -> list[Target]:
    strategies = [STRATEGIES[name] for name in ctx.cluster.fair_strategies]
    candidates = _candidates_once(ctx)
    if not candidates:
        return []
    ctx.read_candidates(candidates, shares=True)
    if SHORTCUTS.bounded_search and _fair_hopeless(ctx, candidates):
        return []
    candidates.sort(key=candidate_order_key(ctx.queue.name, ctx.now))
    cluster = ctx.cluster
    cluster.add_usage(ctx.queue, ctx.usage)
    if _no_target_passes(ctx, candidates):
        cluster.remove_usage(ctx.queue, ctx.usage)
        return []
    fits, targets, retry = _first_strategy(ctx, candidates, strategies[0])
    if not fits and len(strategies) > 1:
        fits, targets = _second_strategy(ctx, retry, targets)
    cluster.remove_usage(ctx.queue, ctx.usage)
    if not fits:
        _restore(cluster, targets)
        return []
    targets = _fill_back(ctx, targets, True)
    _restore(cluster, targets)
    return targets
