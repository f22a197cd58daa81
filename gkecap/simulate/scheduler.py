"""Kueue's scheduling cycle over the pending queues of every ClusterQueue. Pure.

Transcribed from Kueue v0.19's `pkg/scheduler/scheduler.go` (schedule, nominate, processEntry, fits,
quotaResourcesToReserve, the classical entry ordering) and `fair_sharing_iterator.go` (the tournament by
dominant resource share), with the queueing of `pkg/cache/queue/cluster_queue.go` (StrictFIFO keeps a head that
does not fit at the head; BestEffortFIFO sets it aside as inadmissible until quota is freed):
https://github.com/kubernetes-sigs/kueue/tree/v0.19.2/pkg/scheduler

One cycle takes the head of every ClusterQueue, computes each head's flavor assignment and preemption targets
on the same snapshot, then processes the heads in Kueue's order: a head that fits is admitted (its quota
reserved), one that needs preemption evicts its targets and is admitted in a later cycle, one that no longer
fits after an earlier head is retried.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import Callable

from gkecap.simulate.cluster import ANY, BEST_EFFORT_FIFO, Cluster, ClusterQueue, StateReads, Workload
from gkecap.simulate.flavor_assigner import FIT, NO_FIT, PREEMPT, Assignment, assign_flavors
from gkecap.simulate.partial_admission import search
from gkecap.simulate.preemption import PreemptionContext, Target, get_targets
from gkecap.simulate.quota_tree import (
    Cohort,
    FlavorResource,
    QuotaNode,
    Share,
    available,
    dominant_resource_share,
    share_order,
    usage_path,
)
from gkecap.simulate.scan_progress import ScanProgress, outdated
from gkecap.simulate.shortcuts import SHORTCUTS


NO_TARGET = "needs preemption but no workload can be preempted"
# States remembered for Scheduler._repeated_state before the memory starts over (a bound on memory, not on results).
_MAX_REMEMBERED_STATES = 50_000


@dataclass(slots=True)
class Entry:
    workload: Workload
    queue: ClusterQueue
    assignment: Assignment
    targets: list[Target] = field(default_factory=list)
    status: str = "pending"  # pending | admitted | preempting | skipped | inadmissible
    reason: str = ""
    # Whether processing it leaves everything as it was: it cannot fit, or needs preemption without a target and
    # its queue keeps no quota for it (reclaimWithinCohort Any, see Scheduler._process).
    inert: bool = False

    def __post_init__(self) -> None:
        if not SHORTCUTS.inert_entries:
            return  # every entry is processed in order, as in Kueue
        mode = self.assignment.mode
        self.inert = mode == NO_FIT or (mode == PREEMPT and not self.targets
                                        and self.queue.preemption.reclaim_within_cohort == ANY)


@dataclass
class CycleResult:
    admitted: list[Entry] = field(default_factory=list)
    preempted: list[tuple[Target, Workload]] = field(default_factory=list)  # (target, preemptor)
    inadmissible: list[Entry] = field(default_factory=list)
    # Heads set aside on a kept inert answer without an Entry (Scheduler.cycle), BestEffortFIFO only.
    set_aside_quietly: list[Workload] = field(default_factory=list)

    @property
    def progress(self) -> bool:
        return bool(self.admitted or self.preempted or self.inadmissible or self.set_aside_quietly)


def scheduling_shape(w: Workload) -> tuple:
    """Kueue's scheduling equivalence hash (workload.computeSchedulingHash): priority and pod set shapes (with
    their minCount and topology request).

    Memoised on the workload, valid while its priority and its pod set list are the same objects (pod sets are
    never edited once a workload is built)."""
    memoised = SHORTCUTS.memoised_facts
    cached = w.__dict__.get("_shape_cache") if memoised else None
    if cached is not None and cached[0] == w.priority and cached[1] is w.pod_sets:
        return cached[2]
    shape = (w.priority, tuple((ps.name, ps.count, tuple(sorted(ps.requests.items())),
                                tuple(sorted(ps.node_selector.items())), ps.min_count, ps.topology)
                               for ps in w.pod_sets))
    if memoised:
        w.__dict__["_shape_cache"] = (w.priority, w.pod_sets, shape)
    return shape


def queue_order_key(w: Workload) -> tuple:
    """A ClusterQueue's heap order: higher priority first, then the earlier queue timestamp."""
    return (-w.priority, w.timestamp, w.seq, w.name)


class _Queue:
    """A ClusterQueue's pending workloads in queue order, and (BestEffortFIFO) those set aside as inadmissible until
    quota is freed (Kueue's inadmissibleWorkloads).

    The members stay in one sorted list; the head is the first one not set aside. Setting a workload aside sets
    aside every member of its scheduling shape (recorded as the shape and a push count; a later arrival of that
    shape raises the count: it joins them, as in Kueue); a requeue clears them all. Between requeues members are only ever set aside,
    so a cursor remembers how far the list holds only such members (after every requeue a queue walks through its
    shapes one cycle at a time)."""

    def __init__(self, strategy: str):
        self.strategy = strategy
        self.order: list[tuple[tuple, int, tuple, Workload]] = []  # (queue_order_key, push count, shape, workload)
        self.cursor = 0  # every member before it is set aside
        self.members: dict[str, tuple[int, Workload]] = {}  # name -> (push count, workload)
        self.pushes = 0
        self.aside: dict[tuple, int] = {}  # scheduling shape -> members pushed up to this count are set aside
        # A workload that issued preemptions stays at the head until it is admitted (Kueue's sticky preemptor
        # workload, kueue#12740), so the quota it freed is not taken by the queue's next head.
        self.sticky: Workload | None = None

    def push(self, w: Workload) -> None:
        previous = self.members.get(w.name)
        if previous is not None:
            self._drop(*previous)
        self.pushes += 1
        self.members[w.name] = (self.pushes, w)
        shape = scheduling_shape(w)
        if shape in self.aside:
            # Its equivalence class was bulk-moved: it joins them among the inadmissible until the next requeue
            # (PushOrUpdate, hashToBulkMoveReason, pkg/cache/queue/cluster_queue.go @ v0.19.2).
            self.aside[shape] = self.pushes
        item = (queue_order_key(w), self.pushes, shape, w)
        index = bisect.bisect_left(self.order, item)
        self.order.insert(index, item)
        self.cursor = min(self.cursor, index)

    def remove(self, w: Workload) -> None:
        member = self.members.get(w.name)
        if member is not None and member[1] is w:
            self._drop(*member)
        if self.sticky is w:
            self.sticky = None

    def _drop(self, pushed: int, w: Workload) -> None:
        del self.members[w.name]
        index = bisect.bisect_left(self.order, (queue_order_key(w), pushed))
        del self.order[index]
        if index < self.cursor:
            self.cursor -= 1

    def head(self) -> Workload | None:
        sticky = self.sticky
        order, aside = self.order, self.aside
        if sticky is not None:
            member = self.members.get(sticky.name)
            # Sticky orders the heap only: a preemptor found inadmissible (NoFit, no candidates) leaves the heap
            # like any other until a requeue (requeueIfNotPresent, pkg/cache/queue/cluster_queue.go @ v0.19.2).
            if member is not None and member[1] is sticky and (
                    not aside or member[0] > aside.get(scheduling_shape(sticky), 0)):
                return sticky
        while self.cursor < len(order):
            _, pushed, shape, w = order[self.cursor]
            if not aside or pushed > aside.get(shape, 0):
                return w
            self.cursor += 1
        return None

    def set_aside(self, w: Workload) -> bool:
        """Inadmissible until quota is freed; with it every equivalent workload of the queue (Kueue's
        SchedulingEquivalenceHashing, on by default since v0.18, bulk-moves them for NoFit and no candidates).
        A sticky preemptor set aside leaves the head too (Kueue's sticky only orders the heap)."""
        if self.strategy != BEST_EFFORT_FIFO:
            return False
        self.aside[scheduling_shape(w)] = self.pushes
        return True

    def requeue_inadmissible(self) -> bool:
        """Put the workloads set aside back in the queue; whether there were any."""
        if not self.aside:
            return False
        self.aside = {}
        self.cursor = 0
        return True

    def __len__(self) -> int:
        return len(self.members)


class Scheduler:
    """Pending workloads per ClusterQueue and the cycle that admits them into `cluster`.

    `preserve_scan_progress`: Kueue's FlavorFungibilityPreserveScanProgress feature gate (beta, on by default
    since v0.19: pkg/features/kube_features.go @ v0.19.2); off, Kueue's earlier behaviour (see `_resume`)."""

    def __init__(self, cluster: Cluster, *, preserve_scan_progress: bool = True):
        self.cluster = cluster
        self.preserve_scan_progress = preserve_scan_progress
        # Kueue's schedulingCycle (one per cycle that has heads) and the pending workloads' flavor-scan progress
        # (their LastAssignment, gkecap.simulate.scan_progress), with the workload it was recorded for.
        self.scheduling_cycle = 0
        self._scan: dict[str, tuple[Workload, ScanProgress]] = {}
        # Topology-aware scheduling: (workload, an assignment that fits its quota) -> None when the workload asks
        # for no topology, "" when its pods can be placed now, else why not (the engine asks its pools' nodes).
        self.topology_fits: Callable[[Workload, Assignment], str | None] | None = None
        self.queues = {name: _Queue(q.queueing_strategy) for name, q in cluster.queues.items()}
        # Queues that may have a head (all others are empty or hold only workloads set aside), and the queues'
        # order, which is the order of a cycle's entries.
        self._maybe_head: set[str] = set()
        self._head_order: list[str] | None = []  # _maybe_head in the queues' order, rebuilt after it grows
        self._rank = {name: i for i, name in enumerate(self.queues)}
        self._with_aside: set[str] = set()  # queues holding workloads set aside
        self._top = {name: id(_root_child(q)) for name, q in cluster.queues.items()}  # queue -> its root's child
        self._trees: dict[str, frozenset[str]] = {}  # root name -> the names of its tree's queues
        # Workloads that issued preemptions and wait for the freed quota. Kueue's PrioritizePreemptorWorkloads
        # (alpha in v0.19) processes them first; the simulator always does, because its evictions take no time.
        self.preemptors: set[str] = set()
        # Nominations kept with what they read (see _nominate); `cache_nominations=False` recomputes every one,
        # for the differential test of the cache.
        self.cache_nominations = SHORTCUTS.kept_nominations
        self._nominations: dict[str, tuple] = {}
        self._readers: dict[object, set[str]] = {}  # a flavor-resource or id(quota node) -> nominations that read it
        cluster.listeners.append(self._lasting_change)
        self._tournament_keys: dict[str, tuple] = {}
        # Nominations by the content of the lasting state (see _repeated_state).
        self.repeated_states = SHORTCUTS.repeated_states
        self._repeats: dict[int, tuple] = {}  # content hash -> () seen once, or (content, {name: answer})
        self._repeat_at = -1  # Cluster.lasting when _repeat_answers was looked up
        self._repeat_answers: dict | None = None
        self.reused_nominations = 0  # answered from an equal earlier state (for benchmarks and tests)

    def submit(self, workload: Workload) -> None:
        self.queues[workload.cluster_queue].push(workload)
        if workload.cluster_queue not in self._maybe_head:
            self._maybe_head.add(workload.cluster_queue)
            self._head_order = None

    def withdraw(self, workload: Workload) -> None:
        self.queues[workload.cluster_queue].remove(workload)
        self.preemptors.discard(workload.name)

    def pending(self) -> int:
        return sum(len(q) for q in self.queues.values())

    def requeue_inadmissible(self, queue_name: str | None = None) -> None:
        """Quota was freed (or capacity changed): inadmissible workloads of the queue's cohort tree compete again
        (Kueue's QueueInadmissibleWorkloads); with no queue, of every queue."""
        if queue_name is None:
            names = set(self._with_aside)
        else:
            queue = self.cluster.queues[queue_name]
            root = queue.root()
            tree = self._trees.get(root.name)
            if tree is None:
                tree = self._trees[root.name] = frozenset(
                    q.name for q in (root.subtree_queues() if isinstance(root, Cohort) else (queue,)))
            names = self._with_aside & tree
        for name in names:
            self.queues[name].requeue_inadmissible()
        self._with_aside -= names
        if not names <= self._maybe_head:
            self._maybe_head |= names
            self._head_order = None

    def heads(self) -> list[Workload]:
        """The head of every queue that has one, in the queues' order."""
        if self._head_order is None:
            self._head_order = sorted(self._maybe_head, key=self._rank.__getitem__)
        result, empty = [], []
        queues = self.queues
        for name in self._head_order:
            w = queues[name].head()
            if w is None:
                empty.append(name)
            else:
                result.append(w)
        if empty:
            self._maybe_head.difference_update(empty)
            self._head_order = [name for name in self._head_order if name in self._maybe_head]
        return result

    # -- one cycle ------------------------------------------------------------------------------------------

    def cycle(self, now: float) -> CycleResult:
        cluster = self.cluster
        result = CycleResult()
        # Heads with a kept inert answer change nothing when processed; they matter only through the tournament's
        # order, and only under a root's child that also holds an entry that can change something (see
        # _tournament). Elsewhere they are set aside without an Entry: most heads, after every release.
        entries, quiet = [], []
        kept = self._nominations if self.cache_nominations else {}
        heads = self.heads()
        if heads:
            self.scheduling_cycle += 1
        for w in heads:
            resume = self._resume(w)
            answer = kept.get(w.name)
            if (answer is not None and answer[0] is w and answer[3] and answer[4] == resume
                    and not answer[1].pending_flavors()):
                quiet.append((w, answer))
            else:
                entries.append(self._nominate(w, now, resume))
        if quiet:
            top = self._top
            busy = {top[e.queue.name] for e in entries if not e.inert}
            for w, answer in quiet:
                queue = cluster.queues[w.cluster_queue]
                if busy and top[queue.name] in busy:
                    entries.append(Entry(w, queue, answer[1], list(answer[2])))
                else:
                    self._scan.pop(w.name, None)  # its scan went through every flavor: the next one starts over
                    if self.queues[queue.name].set_aside(w):
                        self._with_aside.add(queue.name)
                        result.set_aside_quietly.append(w)
        if not entries:
            return result
        preempted: dict[str, Workload] = {}
        reserved: list[tuple[ClusterQueue, dict[FlavorResource, int]]] = []
        inert = [e for e in entries if e.inert]
        for entry in inert:  # what processing them does, in any order
            entry.status, entry.reason = "inadmissible", (
                entry.assignment.no_fit_reason() if entry.assignment.mode == NO_FIT else NO_TARGET)
        if len(inert) < len(entries):
            for entry in self._ordered(entries):
                if not entry.inert:
                    self._process(entry, preempted, reserved)
        for queue, usage in reserved:
            cluster.remove_usage(queue, usage)
        for entry in entries:
            self._record_scan(entry)
            if entry.status == "inadmissible":
                result.inadmissible.append(entry)
            elif entry.status == "admitted":
                result.admitted.append(entry)
            elif entry.status == "preempting":
                self.preemptors.add(entry.workload.name)
                self.queues[entry.queue.name].sticky = entry.workload
                for target in entry.targets:
                    result.preempted.append((target, entry.workload))
        for entry in result.admitted:
            entry.workload.reserved_at = now
            self.withdraw(entry.workload)
        for entry in result.inadmissible:
            if entry.assignment.pending_flavors():
                continue  # requeueIfNotPresent: back in the heap at once, its scan resumes in the next cycle
            if self.queues[entry.queue.name].set_aside(entry.workload):
                self._with_aside.add(entry.queue.name)
        # In StrictFIFO a head that does not fit stays at the head: no progress from it.
        result.inadmissible = [e for e in result.inadmissible if e.queue.queueing_strategy == BEST_EFFORT_FIFO]
        return result

    def _resume(self, w: Workload) -> tuple[dict[str, int], ...] | None:
        """The scan progress the workload's nomination resumes from, or None (from the first flavor): Kueue's
        getAssignments and lastAssignmentOutdated (pkg/scheduler/scheduler.go @ v0.19.2). With the gate, progress
        recorded for the same scheduling shape in this cycle or the one before is kept whatever changed meanwhile;
        otherwise (and always without the gate) it is dropped once the queue's allocatable generation advanced."""
        recorded = self._scan.get(w.name)
        if recorded is None:
            return None
        if recorded[0] is not w or outdated(recorded[1], self.cluster.queues[w.cluster_queue].allocatable_generation,
                                            self.scheduling_cycle, scheduling_shape(w),
                                            preserve=self.preserve_scan_progress):
            del self._scan[w.name]
            return None
        return recorded[1].tried

    def _record_scan(self, entry: Entry) -> None:
        """What the cycle leaves of the entry's LastAssignment: nothing once admitted or preempting
        (markPreemptionOutcome), nor for a skipped entry without the gate (markSkipped); else its assignment's scan
        progress (recordAssignment). A scan that went through every flavor is the same as none (the next starts
        over), so only one that stopped early is kept."""
        w = entry.workload
        keep = entry.status == "inadmissible" or (entry.status == "skipped" and self.preserve_scan_progress)
        if not keep or not entry.assignment.pending_flavors():
            self._scan.pop(w.name, None)
            return
        self._scan[w.name] = (w, ScanProgress(tuple(entry.assignment.tried), self.scheduling_cycle,
                                              entry.queue.allocatable_generation, scheduling_shape(w)))

    def scan_progress(self, name: str) -> ScanProgress | None:
        """The flavor-scan progress recorded for a pending workload (None: its next scan starts at the first
        flavor)."""
        recorded = self._scan.get(name)
        return None if recorded is None else recorded[1]

    def _nominate(self, w: Workload, now: float, resume: tuple[dict[str, int], ...] | None = None) -> Entry:
        """The head's flavor assignment and preemption targets on the current snapshot.

        A nomination is a function of the workload and of the lasting state it read: the usage of some
        flavor-resources, the shares of some quota nodes, the order of some preemption candidates (StateReads).
        It is kept until an admission or eviction changes one of these (Cluster.listeners), and reused meanwhile:
        the answer would be the same. This matters because Kueue sends every
        inadmissible workload of a cohort tree back to its queue whenever quota is freed anywhere in the tree."""
        cluster = self.cluster
        queue = cluster.queues[w.cluster_queue]
        cached = self._nominations.get(w.name) if self.cache_nominations else None
        if cached is not None and cached[0] is w and cached[4] == resume:
            return Entry(w, queue, cached[1], list(cached[2]))
        answers = self._repeated_state() if self.repeated_states else None
        if answers is not None:
            known = answers.get(w.name)
            if known is not None and known[0] is w and known[1] == (resume, w.timestamp, w.priority):
                assignment, targets, reads = known[2]
                self.reused_nominations += 1
                return self._kept(Entry(w, queue, assignment, list(targets)), reads, resume)
        reads = StateReads()
        with cluster.tentative():
            found = self._assignment(w, now, reads, resume)
            assert found is not None  # only an accepted_only search may find none
            assignment, targets = found
            if assignment.mode != FIT and not targets and w.can_be_partially_admitted():
                # getInitialAssignments: fewer pods, down to minCount, when all of them neither fit nor find targets
                partial = search(w.pod_sets, lambda counts: self._assignment(w, now, reads, resume, counts, True))
                if partial is not None:
                    assignment, targets = partial
        entry = Entry(w, queue, assignment, targets)
        if answers is not None and reads.cacheable:
            answers[w.name] = (w, (resume, w.timestamp, w.priority), (assignment, tuple(targets), reads))
        return self._kept(entry, reads, resume)

    def _kept(self, entry: Entry, reads: StateReads, resume) -> Entry:
        """Keep the nomination until what it read changes (see _nominate)."""
        if self.cache_nominations and reads.cacheable:
            w = entry.workload
            self._nominations[w.name] = (w, entry.assignment, tuple(entry.targets), entry.inert, resume)
            readers = self._readers
            for key in (*reads.frs, *map(id, reads.nodes)):
                readers.setdefault(key, set()).add(w.name)
        return entry

    def _repeated_state(self) -> dict | None:
        """The nominations computed earlier in a lasting state equal to the current one (Cluster.content), to be
        reused and completed; None when the state is met for the first time.

        Under contention the same states come back: in a preemption loop two workloads take the same quota from
        each other in turn, and between their steps every other head of the tree is nominated again on one of the
        same few states (kept nominations are dropped at every change). A nomination is a function of the workload,
        its scan progress and that content, so an answer from an equal state is the answer. States are told apart
        by a hash kept up to date with every admission and eviction; a state is compared in full (and its answers
        kept) only from the second time its hash is met."""
        cluster = self.cluster
        if self._repeat_at == cluster.lasting:
            return self._repeat_answers
        self._repeat_at = cluster.lasting
        memo = self._repeats
        slot = memo.get(cluster.content_hash)
        answers = None
        if slot is None:
            if len(memo) >= _MAX_REMEMBERED_STATES:
                memo.clear()
            memo[cluster.content_hash] = ()
        else:
            content = cluster.content()
            if slot and slot[0] == content:
                answers = slot[1]
            else:  # met a second time (or another state with the same hash): compared from now on
                answers = {}
                memo[cluster.content_hash] = (content, answers)
        self._repeat_answers = answers
        return answers

    def _assignment(self, w: Workload, now: float, reads: StateReads, resume, counts: list[int] | None = None,
                    accepted_only: bool = False) -> tuple[Assignment, list[Target]] | None:
        """A flavor assignment of `counts` pods (all: None) and its preemption targets; with `accepted_only`, None
        unless it fits or found targets (the partial-admission search's test)."""
        assignment = assign_flavors(self.cluster, w, now, reads, resume, counts)
        if self.topology_fits is not None and assignment.mode == FIT:
            refused = self.topology_fits(w, assignment)
            if refused is not None:
                reads.cacheable = False  # the answer depends on the nodes, which nominations do not track
            if refused:
                # Kueue: the quota fits, the topology does not (Preempt, or NoFit when even an empty pool would
                # not hold it); TAS-aware preemption is not modelled, so it waits like a workload that cannot fit.
                assignment.no_fit = True
                assignment.reasons.append(refused)
        targets = []
        if assignment.mode == PREEMPT:
            targets = get_targets(PreemptionContext(
                self.cluster, w, assignment.usage, assignment.needs_preemption(), now, reads))
        if accepted_only and assignment.mode != FIT and not targets:
            return None
        return assignment, targets

    def _lasting_change(self, frs: list[FlavorResource], nodes: list[QuotaNode]) -> None:
        """Drop the nominations that read what an admission or eviction changed (Cluster.listeners)."""
        readers, nominations = self._readers, self._nominations
        for key in (*frs, *map(id, nodes)):
            for name in readers.pop(key, ()):
                nominations.pop(name, None)

    def _ordered(self, entries: list[Entry]):
        if sum(1 for e in entries if not e.inert) <= 1:
            # Processing an inert entry changes nothing, so with at most one other entry the order cannot matter.
            yield from entries
            return
        if self.cluster.fair_sharing:
            yield from self._tournament(entries)
            return
        # makeClassicalIterator: not borrowing first, then priority (PrioritySortingWithinCohort), then time.
        yield from sorted(entries, key=lambda e: (e.workload.name not in self.preemptors, e.assignment.borrows,
                                                  -e.workload.priority,
                                                  e.workload.timestamp, e.workload.seq, e.workload.name))

    def _reserve_usage(self, entry: Entry) -> dict[FlavorResource, int]:
        """quotaResourcesToReserve: a preempting workload holds only what its queue can use without the
        preemptions (up to nominal, or up to its borrowing limit when it borrows)."""
        assignment, queue = entry.assignment, entry.queue
        if assignment.mode != PREEMPT:
            return dict(assignment.usage)
        result = {}
        for fr, value in assignment.usage.items():
            quota = queue.quota(fr)
            used = queue.usage.get(fr, 0)
            if assignment.borrows > 0:
                result[fr] = value if quota.borrowing_limit is None else min(
                    value, quota.nominal + quota.borrowing_limit - used)
            else:
                result[fr] = max(0, min(value, quota.nominal - used))
        return result

    def _fits(self, entry: Entry, usage: dict[FlavorResource, int], preempted: dict[str, Workload]) -> bool:
        cluster = self.cluster
        victims = dict(preempted)
        victims.update({t.workload.name: t.workload for t in entry.targets})
        removed = [w for w in victims.values() if w.name in cluster.queues[w.cluster_queue].workloads]
        with cluster.tentative():
            for w in removed:
                cluster.remove_workload(w)
            try:
                return all(max(0, available(entry.queue, fr)) >= v for fr, v in usage.items())
            finally:
                for w in removed:
                    cluster.add_workload(w)

    def _process(self, entry: Entry, preempted: dict[str, Workload],
                 reserved: list[tuple[ClusterQueue, dict[FlavorResource, int]]]) -> None:
        mode = entry.assignment.mode
        if mode == NO_FIT:
            entry.status, entry.reason = "inadmissible", entry.assignment.no_fit_reason()
            return
        if mode == PREEMPT and not entry.targets:
            entry.status, entry.reason = "inadmissible", NO_TARGET
            # reserveCapacityForUnreclaimablePreempt: hold the quota unless the queue can always reclaim it.
            if entry.queue.preemption.reclaim_within_cohort != ANY:
                usage = self._reserve_usage(entry)
                self.cluster.add_usage(entry.queue, usage)
                reserved.append((entry.queue, usage))
            return
        if any(t.workload.name in preempted for t in entry.targets):
            entry.status, entry.reason = "skipped", "overlapping preemption targets"
            return
        usage = self._reserve_usage(entry)
        if not self._fits(entry, usage, preempted):
            entry.status, entry.reason = "skipped", "no longer fits after another workload"
            return
        for t in entry.targets:
            preempted[t.workload.name] = t.workload
        if mode == PREEMPT:
            self.cluster.add_usage(entry.queue, usage)
            reserved.append((entry.queue, usage))
            entry.status = "preempting"
            return
        entry.workload.counts = entry.assignment.counts
        entry.workload.flavors = entry.assignment.flavors()
        self.cluster.add_workload(entry.workload)
        entry.status = "admitted"

    # -- fair sharing: the tournament (fair_sharing_iterator.go) ---------------------------------------------

    def _tournament(self, entries: list[Entry]):
        """Kueue's fair-sharing iterator: before every pop, a tournament up the cohort tree picks at each cohort the
        child with the lowest share (as if the child's entry were admitted), non-borrowing and preemptors first.

        Kueue recomputes every share and reruns the whole tournament before each pop; the result is the same when
        only what can have changed is recomputed: popping an entry changes the winners of its ancestors only, and
        processing it changes usage on its own path only, hence the shares of the entries below its topmost
        non-root ancestor. Once no entry that can change anything is left (see Entry.inert), the order of the rest
        cannot matter and they are yielded as they are."""
        by_queue = {e.queue.name: e for e in entries}
        # Queues without a cohort come first, in entry order (the choice depends on nothing that processing an
        # entry changes, so they are taken in one pass rather than searched for before every pop).
        for entry in [e for e in by_queue.values() if e.queue.parent is None]:
            del by_queue[entry.queue.name]
            yield entry
        # A subtree under a root whose entries are all inert takes no part: at the root the tournament is a plain
        # minimum over the children's winners, so such a child's winner, when it is the minimum, is popped and
        # changes nothing, and it never stands in for another entry (it does lower down, so only whole children of
        # a root are left out). Its entries are yielded at the end.
        top = self._top
        inert_children: dict[int, bool] = {}
        for entry in by_queue.values():
            child = top[entry.queue.name]
            inert_children[child] = inert_children.get(child, True) and entry.inert
        left_out = [e for e in by_queue.values() if inert_children[top[e.queue.name]]]
        for entry in left_out:
            del by_queue[entry.queue.name]
        # Keys may come from an equal earlier state (Scheduler._repeated_state) only while the usage is the lasting
        # state's: before any entry of this cycle was processed.
        tournament = _Tournament(self, by_queue, at_cycle_start=len(by_queue) + len(left_out) == len(entries))
        active = sum(1 for e in by_queue.values() if not e.inert)
        while by_queue and active:
            root = next(iter(by_queue.values())).queue.root()
            entry = tournament.pop(root)  # type: ignore[arg-type]
            active -= not entry.inert
            version = self.cluster.version
            yield entry
            if not SHORTCUTS.incremental_tournament:
                tournament.recompute_all()
            elif self.cluster.version != version:
                tournament.usage_changed(entry)
        yield from list(by_queue.values())
        yield from left_out


class _Tournament:
    """The tournament's winners per cohort, and each entry's comparison key at each of its ancestors."""

    def __init__(self, scheduler: Scheduler, by_queue: dict[str, Entry], at_cycle_start: bool = False):
        self.scheduler = scheduler
        self.by_queue = by_queue
        self.keys: dict[tuple[int, str], tuple] = {}
        self.best: dict[int, Entry | None] = {}  # cohort id -> winner, while valid
        # At the start of a cycle the usage is the lasting state: an entry's keys are a function of its assignment,
        # whether it is a preemptor and the usage of its path below the root (the nodes' real_version), so keys
        # from an earlier cycle are reused when these are the same.
        memo = scheduler._tournament_keys if SHORTCUTS.incremental_tournament else {}
        # The same keys on an equal lasting state: a function of the entry and of the usage on its path.
        answers = scheduler._repeated_state() if at_cycle_start and scheduler.repeated_states else None
        for entry in by_queue.values():
            w = entry.workload
            path = [entry.queue] + [a for a in entry.queue.path_to_root() if a.parent is not None]
            not_preemptor = w.name not in scheduler.preemptors
            state = (entry.assignment, not_preemptor, tuple([n.real_version for n in path]))
            cached = memo.get(w.name)
            if cached is not None and cached[0] == state:
                self.keys.update(cached[1])
                continue
            asked = (w, entry.assignment, not_preemptor, w.priority, w.timestamp)
            known = answers.get(("keys", w.name)) if answers is not None else None
            if known is not None and known[0][0] is w and known[0] == asked:
                keys = known[1]
                self.keys.update(keys)
            else:
                keys = self._entry_keys(entry)
                if answers is not None:
                    answers[("keys", w.name)] = (asked, keys)
            memo[w.name] = (state, keys)

    def _entry_keys(self, entry: Entry) -> dict[tuple[int, str], tuple]:
        """computeDRS for one entry: its share at every ancestor cohort, as if its usage were added, folded with
        the rest of entryComparer.less into a key (lower wins; equal keys keep the earlier candidate)."""
        queue, w = entry.queue, entry.workload
        requested = entry.assignment.usage
        added = dict(usage_path(queue, requested))
        not_preemptor = w.name not in self.scheduler.preemptors
        share = dominant_resource_share(queue, added.get(queue))
        keys = {}
        for ancestor in queue.path_to_root():
            # FairSharingPrioritizeNonBorrowing (on by default in v0.19): not borrowing at that level first.
            keys[(id(ancestor), w.name)] = (not_preemptor, share.borrowing_on(requested), share_order(share),
                                            -w.priority, w.timestamp)
            share = dominant_resource_share(ancestor, added.get(ancestor))
        self.keys.update(keys)
        return keys

    def _winner(self, cohort: Cohort) -> Entry | None:
        cid = id(cohort)
        if cid in self.best:
            return self.best[cid]
        candidates = [c for c in (self._winner(child) for child in cohort.child_cohorts) if c is not None]
        by_queue = self.by_queue
        candidates += [by_queue[q.name] for q in cohort.child_queues if q.name in by_queue]
        keys = self.keys
        best = min(candidates, key=lambda e: keys[(cid, e.workload.name)]) if candidates else None
        self.best[cid] = best
        return best

    def _invalidate(self, queue: QuotaNode) -> None:
        for ancestor in queue.path_to_root():
            self.best.pop(id(ancestor), None)

    def pop(self, root: Cohort) -> Entry:
        entry = self._winner(root)
        assert entry is not None
        del self.by_queue[entry.queue.name]
        self._invalidate(entry.queue)
        return entry

    def recompute_all(self) -> None:
        """Kueue's way: every remaining entry's keys and every winner recomputed before the next pop."""
        for entry in self.by_queue.values():
            self._entry_keys(entry)
        self.best.clear()

    def usage_changed(self, processed: Entry) -> None:
        """Processing `processed` changed usage on its queue's path: recompute the keys of the entries below its
        topmost non-root ancestor (the only ones whose shares read a changed node) and their winners."""
        top: QuotaNode = processed.queue
        while top.parent is not None and top.parent.parent is not None:
            top = top.parent
        queues = top.subtree_queues() if isinstance(top, Cohort) else (top,)
        for queue in queues:
            entry = self.by_queue.get(queue.name)
            if entry is not None:
                self._entry_keys(entry)
                self._invalidate(queue)


def _root_child(queue: QuotaNode) -> QuotaNode:
    """The queue's ancestor (or the queue) whose parent is the root of its tree."""
    node = queue
    while node.parent is not None and node.parent.parent is not None:
        node = node.parent
    return node


def evict(cluster: Cluster, workload: Workload) -> None:
    """Release a workload's quota (preempted, finished or deactivated)."""
    if workload.name in cluster.queues[workload.cluster_queue].workloads:
        cluster.remove_workload(workload)
    workload.flavors = None
    workload.counts = None
    workload.reserved_at = None
