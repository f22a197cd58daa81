"""The discrete-event simulation: workloads are submitted, Kueue's scheduler reserves quota for them, admission
checks and node capacity decide when they run, and they finish, are preempted or are deactivated. Pure.

Time is seconds from the scenario start. Events (submissions, completions, capacity changes, the end of a calendar
reservation, provisioning retries) sit in a heap; at each instant the simulator handles the events due, then runs
scheduling cycles until nothing changes (Kueue runs its cycles back to back while they make progress).

- Quota first, checks after (as in Kueue): a workload on a queued pool holds its quota while its ProvisioningRequest
  waits; the request is provisioned when the pool can supply every node at once (whole VMs). A request that the pool
  can never satisfy fails; the check is retried with the ProvisioningRequestConfig's backoff (the workload gives its
  quota back meanwhile) and after `backoffLimitCount` retries the workload is deactivated.
- Pools without a check: the workload is admitted with its quota; its pods then need room on the pool's nodes,
  shared with the pods of other workloads (`nodes.PoolNodes`: kube-scheduler's fit, the cluster autoscaler's
  scale-up and scale-down, a calendar pool's window). It starts when every pod runs.
- waitForPodsReady (when the environment sets `kueue.waitForPodsReady`, as `gkecap plan` configures Kueue): a workload
  admitted whose pods are not all running within the timeout is evicted and requeued after Kueue's back-off.
- A preempted workload's pods terminate gracefully: it keeps its nodes and its quota for `EvictionDelays.termination`
  (`gkecap.simulate.timing`), marked as evicted (Kueue's preemption takes such workloads as targets first and issues
  nothing new for them); then it gives both back and is requeued after `EvictionDelays.requeue`. It starts over: its
  duration counts again from its next start, and the accelerator time of the run it lost is counted.
- A safety limit of the engine that is hit is recorded in `SimulationResult.limits`, never passed over silently.
- At the end of a calendar reservation, workloads on its pool are evicted and requeued.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import Mapping

from gkecap.simulate.cluster import Cluster, Workload
from gkecap.simulate.environment import PlannedWorkload, PodsReady, PoolCapacity
from gkecap.simulate.nodes import Delays, PoolNodes
from gkecap.simulate.periods import PeriodJump
from gkecap.simulate.scheduler import Scheduler, evict
from gkecap.simulate.shortcuts import SHORTCUTS
from gkecap.simulate.timing import INADMISSIBLE_REQUEUE_BATCH_SECONDS, EvictionDelays

HOST_RESOURCES = ("cpu", "memory")
# A guard: cycles at one instant stop when nothing changes, far sooner. Reaching it is reported (`limits`).
MAX_CYCLES_PER_INSTANT = 1_000
# Workloads that preempt one another at one instant (eviction delays of 0): once the workloads changed at the instant
# come back to the same phases and pools a third time, the instant is a livelock (`_settle`).
LIVELOCK_REPEATS = 3
# A guard on a whole run: events handled per workload (a normal run handles a few dozen). Reaching it ends the run,
# reported (`limits`).
MAX_EVENTS_PER_WORKLOAD = 2_000


@dataclass
class SimEvent:
    time: float
    workload: str
    event: str  # submitted | admitted | preempted | evicted | finished | deactivated
    pool: str | None = None
    borrowed: int = 0
    reason: str = ""
    by: str | None = None  # preempted: the preemptor
    lost: float = 0.0  # preempted: accelerator-seconds of the run it cut short (its work starts over)


@dataclass
class WorkloadOutcome:
    name: str
    team: str
    submitted: float
    accelerators: int  # units of its pool's kind (`unit`)
    admitted: float | None = None
    started: float | None = None  # first time every pod ran
    finished: float | None = None
    pool: str | None = None
    preemptions: int = 0
    deactivated: bool = False
    unit: str = ""
    evictions: int = 0  # by waitForPodsReady
    lost: float = 0.0  # accelerator-seconds of runs cut short by preemption or eviction
    min_pods: int | None = None  # the workloads file's minPods (Kueue's minCount): partial admission allowed
    admitted_pods: int | None = None  # pods of its latest admission (fewer than requested when partially admitted)

    @property
    def wait_seconds(self) -> float | None:
        """Wait to admission (quota reserved and admission checks passed)."""
        return None if self.admitted is None else self.admitted - self.submitted

    @property
    def wait_to_start(self) -> float | None:
        """Wait until every pod ran: what its users wait for."""
        return None if self.started is None else self.started - self.submitted


@dataclass
class Run:
    """A workload's stay on a pool's nodes, for the timeline."""

    pool: str
    workload: str
    team: str
    start: float
    end: float | None
    outcome: str  # finished | preempted | evicted


@dataclass
class SimulationResult:
    start_iso: str
    workloads: list[WorkloadOutcome]
    events: list[SimEvent]
    runs: list[Run]
    # team -> unit kind -> [(time, units reserved, borrowed)]; units of different kinds are never added up
    usage: dict[str, dict[str, list[tuple[float, int, int]]]]
    quotas: dict[str, dict[str, int]]  # team -> unit kind -> nominal
    pool_nodes: dict[str, list[tuple[float, int, int, int]]]  # pool -> [(time, ready VMs, VMs with pods, units used)]
    end: float
    fair_sharing: bool
    pools: dict[str, PoolCapacity] = field(default_factory=dict)
    delays: Delays = Delays()
    pods_ready: PodsReady | None = None
    eviction: EvictionDelays = EvictionDelays()
    # Safety limits hit: [{"limit", "value", "at", "message"}] (none in a normal run)
    limits: list[dict] = field(default_factory=list)
    cycles: list = field(default_factory=list)  # gkecap.simulate.cycles.Cycle, filled by simulate_environment
    # MultiKueue (gkecap.simulate.multicluster): pool -> (worker, cluster, region) where its workloads run
    clusters: dict[str, tuple[str, str, str]] = field(default_factory=dict)


@dataclass(frozen=True)
class Progress:
    """How far a simulation got: what `gkecap simulate` reports when its `--timeout` stops one, so that a run
    that cannot finish in time still says where it stood and what it was spending its time on."""

    reached: float  # simulated seconds from the start
    last_submission: float  # simulated seconds from the start
    workloads: int
    submitted: int
    finished: int
    preemptions: int
    cycles: int  # Kueue scheduling cycles run (those with heads; periods the period jump replayed not counted)

    def status(self) -> str:
        """One line while the run goes on (`gkecap simulate`'s progress indicator on a terminal)."""
        return (f"{_hours(self.reached)} simulated, {self.finished:,}/{self.workloads:,} workloads finished, "
                f"{self.preemptions:,} preemptions")

    def describe(self) -> str:
        text = (f"it had simulated {_hours(self.reached)} (the last submission is at {_hours(self.last_submission)}): "
                f"{self.submitted:,} of {self.workloads:,} workloads submitted, {self.finished:,} finished, "
                f"{self.preemptions:,} preemptions, {self.cycles:,} scheduling cycles run")
        if self.preemptions > self.finished:
            # README "Speed": every release sends the cohort's inadmissible heads back, one winner per cycle.
            text += ("; it preempted more workloads than it finished: under heavy contention Kueue repeats its "
                     "scheduling cycles and preemptions for as long as the contention lasts, and the simulator runs "
                     "each one (simulate fewer workloads or a shorter span)")
        return text


def _hours(seconds: float) -> str:
    return f"{seconds / 3600:,.1f} h"


@dataclass
class _State:
    planned: PlannedWorkload
    outcome: WorkloadOutcome
    phase: str = "new"  # new | pending | reserved | running | backoff | finished | deactivated
    token: int = 0
    pool: str | None = None
    nodes: int = 0
    failures: int = 0
    run: Run | None = None
    reserved_at: float = 0.0
    borrowed: int = 0
    requeues: int = 0  # waitForPodsReady evictions so far (Kueue's requeueState.count)
    pods: int = 0  # pods of its latest admission (fewer than requested after a partial admission)
    units: int = 0  # accelerator units of its latest admission


class Simulation:
    def __init__(self, cluster: Cluster, pools: Mapping[str, PoolCapacity], planned: list[PlannedWorkload],
                 retry: tuple[int, float, float], *, start_iso: str = "", delays: Delays = Delays(),
                 pods_ready: PodsReady | None = None, eviction: EvictionDelays = EvictionDelays(),
                 preserve_scan_progress: bool = True):
        self.cluster = cluster
        self.eviction = eviction
        self.limits: list[dict] = []
        self.pools = dict(pools)
        self.delays = delays
        self.pods_ready = pods_ready
        # Pools whose nodes are shared by the pods of many workloads (every pool but the queued ones).
        self.placement = {name: PoolNodes(name, p.units_per_node, p.node_unit, p.nodes_at, autoscaled=p.autoscaled,
                                          min_nodes=p.min_nodes, delays=delays, host=p.host, layout=p.layout)
                          for name, p in self.pools.items() if not p.queued}
        self.wakeups: set[tuple[float, str]] = set()
        self.queued_samples: dict[str, list[tuple[float, int, int, int]]] = {
            name: [(0.0, 0, 0, 0)] for name, p in self.pools.items() if p.queued}
        self.queued_units = {name: 0 for name in self.queued_samples}
        self.scheduler = Scheduler(cluster, preserve_scan_progress=preserve_scan_progress)
        self.topology_requests = any(p.topology is not None for p in planned)
        if self.topology_requests:
            self.scheduler.topology_fits = self._topology_fits
        self.retry_limit, self.backoff_base, self.backoff_max = retry
        self.start_iso = start_iso
        self.states = {p.workload.name: _State(p, WorkloadOutcome(p.workload.name, p.team, p.submit, p.accelerators,
                                                                  min_pods=p.workload.pod_sets[0].min_count))
                       for p in planned}
        self.units = {pool: p.unit for pool, p in self.pools.items()}
        self.order = [p.workload.name for p in planned]
        self.heap: list[tuple[float, int, str, str, int]] = []
        self.seq = 0
        self.events: list[SimEvent] = []
        self.runs: list[Run] = []
        self.in_use = {name: 0 for name in self.pools}
        self.usage: dict[str, dict[str, list[tuple[float, int, int]]]] = {
            name: {kind: [(0.0, 0, 0)] for kind in self._kinds(q)} for name, q in cluster.queues.items()}
        self.reserved: dict[str, _State] = {}  # quota reserved, not yet running, in reservation order
        self.now = 0.0
        # Trees (root names) whose inadmissible workloads are due to be requeued (timing: Kueue's batch period).
        self.requeue_batch = INADMISSIBLE_REQUEUE_BATCH_SECONDS
        self.requeue_due: set[int] = set()  # id of the root
        # Trees (root ids) held after a livelock at one instant: their requeues alone do not run the scheduler again,
        # the next other event does (`_settle`).
        self.held: set[int] = set()
        self.livelocks: set[frozenset[str]] = set()
        self.unsettled = False  # the last settle stopped at MAX_CYCLES_PER_INSTANT with progress still to make
        self.budget = 0  # events the run may still handle (MAX_EVENTS_PER_WORKLOAD per workload)
        # Whole periods of a loop that repeats exactly are replayed, not run (gkecap.simulate.periods).
        self.period_jump = PeriodJump(self) if SHORTCUTS.period_jump else None

    # -- the loop -------------------------------------------------------------------------------------------

    def _push(self, time: float, kind: str, subject: str, token: int = 0) -> None:
        self.seq += 1
        heapq.heappush(self.heap, (time, self.seq, kind, subject, token))

    def run(self) -> SimulationResult:
        for name in self.order:
            self._push(self.states[name].planned.submit, "submit", name)
        for pool in self.pools.values():
            for start, _ in pool.steps:
                if start > 0:
                    self._push(start, "capacity", pool.name)
            if pool.calendar_end is not None and pool.calendar_end > 0:
                self._push(pool.calendar_end, "calendar-end", pool.name)
        self.budget = MAX_EVENTS_PER_WORKLOAD * max(1, len(self.order))
        jump = self.period_jump
        while self.heap:
            self.now = self.heap[0][0]
            moved = False  # an event that changed something, other than a held tree's requeue
            live = False  # an event that was not a stale timer
            recorded, pushed = len(self.events), self.seq
            while self.heap and self.heap[0][0] == self.now:
                entry = heapq.heappop(self.heap)
                _, _, kind, subject, token = entry
                self.budget -= 1
                changed = getattr(self, "_on_" + kind.replace("-", "_"))(subject, token)
                if changed is not False:
                    live = True
                    if not (kind == "requeue" and self._held(subject)):
                        moved = True
                if jump is not None:
                    jump.handled(entry, changed is not False)
            if self.held and not moved:
                continue  # a livelock held: only its own requeues and stale timers came (`_settle`)
            settled = live or self.unsettled
            if settled:
                self.held.clear()
                self._settle()
            # else only stale timers came (a completion, timeout or retry of a workload that moved on): nothing
            # changed since the last settle, which ended without progress (else `unsettled`), so Kueue has no
            # reason to run a cycle.
            if self.budget <= 0 and self.heap:
                self.limits.append({
                    "limit": "MAX_EVENTS_PER_WORKLOAD", "value": MAX_EVENTS_PER_WORKLOAD, "at": self.now,
                    "message": f"the run handled {MAX_EVENTS_PER_WORKLOAD} events per workload; the simulation "
                               "stopped here (workloads not finished by now have no finish time)"})
                break
            if jump is not None and settled:
                jump.after_instant(any(e.event == "preempted" for e in self.events[recorded:]), pushed)
        # The scenario ends with its last workload event (capacity steps after it change nothing).
        end = max((e.time for e in self.events), default=0.0)
        nodes = {name: p.samples for name, p in self.placement.items()}
        nodes.update(self.queued_samples)
        return SimulationResult(
            self.start_iso, [self.states[n].outcome for n in self.order], self.events, self.runs, self.usage,
            {name: self._nominal(name) for name in self.cluster.queues},
            {name: nodes[name] for name in self.pools}, end, self.cluster.fair_sharing,
            self.pools, self.delays, self.pods_ready, self.eviction, self.limits)

    def progress(self) -> Progress:
        """Where the run stands now (it may be stopped from outside at any event: `gkecap simulate --timeout`)."""
        states = list(self.states.values())
        return Progress(
            reached=self.now, last_submission=max((s.planned.submit for s in states), default=0.0),
            workloads=len(states), submitted=sum(1 for s in states if s.phase != "new"),
            finished=sum(1 for s in states if s.phase == "finished"),
            preemptions=sum(1 for e in list(self.events) if e.event == "preempted"),
            cycles=self.scheduler.scheduling_cycle)

    def _settle(self) -> None:
        # Victims released at once (no pods running, or `termination: 0s`) re-enter their queues after the next
        # cycle: the preemptor, requeued at once, is first to see the quota they free (in Kueue the release takes a
        # few API round trips); without this the two could take the quota from each other forever at one instant.
        # Victims with running pods keep their quota until their pods have terminated (a later event).
        released: list[_State] = []
        changed: dict[str, None] = {}  # workloads preempted or admitted at this instant, in order
        seen: dict[tuple, int] = {}
        self.unsettled = False
        for _ in range(MAX_CYCLES_PER_INSTANT):
            started = self._provision()
            result = self.scheduler.cycle(self.now)
            victims, evicting = [], False
            for target, preemptor in result.preempted:
                state = self.states[target.workload.name]
                changed[target.workload.name] = None
                if state.phase == "terminating":
                    continue  # evicted already: Kueue's IssuePreemptions skips it, the preemptor waits for it
                reason = f"{target.reason} by {preemptor.name} ({preemptor.cluster_queue})"
                if self._preempt(state, reason, preemptor.name):
                    victims.append(state)
                else:
                    evicting = True
            for entry in result.admitted:
                changed[entry.workload.name] = None
                self._reserved(self.states[entry.workload.name])
            requeued = bool(released)
            self._resubmit(released)
            released = victims
            if not (started or result.admitted or result.inadmissible or result.set_aside_quietly or requeued
                    or released or evicting):
                return
            if victims:
                # With eviction delays of 0 a victim can come back and preempt its preemptor at the same instant,
                # as fast as Kueue's API round trips allow (kueue#7101). The same phases and pools coming back
                # again and again is that loop: hold it as it stands until something else happens.
                # With each one's flavor-scan progress: a workload that resumes at its next flavor is not looping.
                key = tuple((name, s.phase, s.pool, s.pods, self._scan_key(name))
                            for name in changed for s in (self.states[name],))
                seen[key] = seen.get(key, 0) + 1
                if seen[key] >= LIVELOCK_REPEATS:
                    self._resubmit(released)
                    self._hold(list(changed))
                    return
        self._resubmit(released)
        self.unsettled = True
        self.limits.append({
            "limit": "MAX_CYCLES_PER_INSTANT", "value": MAX_CYCLES_PER_INSTANT, "at": self.now,
            "message": f"{MAX_CYCLES_PER_INSTANT} scheduling cycles at one instant still changed something; the "
                       "simulator moved on to the next event (admissions may be missing at this instant)"})

    def _resubmit(self, released: list[_State]) -> None:
        for state in released:
            if state.phase == "pending":
                self.scheduler.submit(state.planned.workload)
        released.clear()

    def _scan_key(self, name: str) -> tuple | None:
        progress = self.scheduler.scan_progress(name)
        return None if progress is None else tuple(tuple(sorted(t.items())) for t in progress.tried)

    def _held(self, queue: str) -> bool:
        return id(self.cluster.queues[queue].root()) in self.held

    def _hold(self, names: list[str]) -> None:
        """A livelock at one instant: its trees are held until an event other than their own requeues (reported
        once per set of workloads)."""
        for name in names:
            self.held.add(id(self.cluster.queues[self.states[name].planned.workload.cluster_queue].root()))
        members = frozenset(names)
        if members in self.livelocks:
            return
        self.livelocks.add(members)
        shown = ", ".join(sorted(members)[:8]) + (f" and {len(members) - 8} more" if len(members) > 8 else "")
        self.limits.append({
            "limit": "LIVELOCK_REPEATS", "value": LIVELOCK_REPEATS, "at": self.now,
            "message": f"{shown} preempt one another at one instant without end (eviction delays of 0: Kueue would "
                       "repeat this as fast as its API allows); the simulator holds them as they are until the next "
                       "event"})

    # -- event handlers ---------------------------------------------------------------------------------------

    def _on_submit(self, name: str, token: int) -> None:
        state = self.states[name]
        state.phase = "pending"
        self.scheduler.submit(state.planned.workload)
        self.events.append(SimEvent(self.now, name, "submitted"))

    def _on_finish(self, name: str, token: int) -> bool:
        state = self.states[name]
        if state.token != token or state.phase != "running":
            return False  # preempted or evicted since this completion was scheduled
        state.phase = "finished"
        state.outcome.finished = self.now
        self._release(state, "finished")
        self.events.append(SimEvent(self.now, name, "finished", state.pool))
        return True

    def _on_capacity(self, pool: str, token: int) -> None:
        """What the pool can have changes: nothing for Kueue's quota; the settle that follows starts workloads that
        wait for nodes (and, on a topology-aware pool, lets those that waited for a domain try again)."""
        if pool in self.placement:
            self.placement[pool].touch()
        self._topology_changed(pool)

    def _topology_fits(self, w: Workload, assignment) -> str | None:
        """Scheduler.topology_fits: for a workload with a topology request, "" when TAS places its pods on its
        flavor's nodes now, else why not; None for the others."""
        topology = self.states[w.name].planned.topology
        if topology is None:
            return None
        planned = self.states[w.name].planned
        pool = next(f for r, f in assignment.flavors()[0].items() if r not in HOST_RESOURCES)
        pods = assignment.counts[0] if assignment.counts else planned.pods
        if self.placement[pool].topology_placement(pods, planned.per_pod, planned.host, topology, self.now):
            return ""
        how = "one" if topology.required else "the fewest"
        return f"topology: {pool} has no room now for its {pods} pods in {how} {topology.level}"

    def _topology_changed(self, pool: str | None) -> None:
        """Room on a topology-aware pool's nodes changed: workloads set aside for want of a domain compete again.
        Kueue's TAS flavor reconciler asks for every active ClusterQueue's inadmissible workloads
        (NotifyRetryInadmissible, pkg/controller/tas/resource_flavor.go @ v0.19.2), through the same batched
        requeue per cohort tree as a release of quota (gkecap.simulate.timing)."""
        if self.topology_requests and pool is not None and self.pools[pool].topology_aware:
            roots: set[int] = set()
            for name, queue in self.cluster.queues.items():
                if id(queue.root()) not in roots:
                    roots.add(id(queue.root()))
                    self._notify_requeue(name)

    def _on_nodes(self, pool: str, token: int) -> None:
        """Nodes of an autoscaled pool come up, or an empty one is due to be removed."""
        self.wakeups.discard((self.now, pool))
        self.placement[pool].touch()

    def _on_pods_ready(self, name: str, token: int) -> bool:
        """waitForPodsReady's timeout: a workload admitted this long ago whose pods do not all run is evicted and
        requeued after Kueue's back-off (UpdateRequeueState, pkg/workload/workload.go @ v0.19.2: base x 2^(n-1),
        at most the maximum; no limit on the count: gkecap sets none)."""
        state = self.states[name]
        if state.token != token or state.phase != "reserved" or self.pods_ready is None:
            return False
        state.requeues += 1
        state.outcome.evictions += 1
        delay = min(self.pods_ready.backoff_base * 2.0 ** min(state.requeues - 1, 62), self.pods_ready.backoff_max)
        pool = self.pools[state.pool]  # type: ignore[index]
        self._release(state, "evicted")
        state.phase = "backoff"
        # requeuingStrategy.timestamp Eviction: the queue orders it by the eviction time (GetQueueOrderTimestamp).
        state.planned.workload.timestamp = self.now
        reason = f"PodsReadyTimeout: pods not all running {self.pods_ready.timeout:g} s after admission; "
        if not pool.ever_at_least(self.now, pool.nodes_for(state.units)):
            # Kueue requeues it forever; the pool never has the nodes again, so the simulation stops here.
            state.phase = "stranded"
            self.events.append(SimEvent(self.now, name, "evicted", pool.name, reason=reason + (
                f"{pool.name} never has the nodes again: requeued forever without running")))
            return True
        self.events.append(SimEvent(self.now, name, "evicted", pool.name, reason=reason + f"requeued in {delay:g} s"))
        self._push(self.now + delay, "retry", name, state.token)
        return True

    def _on_calendar_end(self, pool: str, token: int) -> None:
        for state in [s for s in self.states.values() if s.pool == pool and s.phase in ("reserved", "running")]:
            self._evict(state, "preempted", "the calendar reservation's window ended")
        for state in [s for s in self.states.values() if s.pool == pool and s.phase == "terminating"]:
            state.run.end = max(self.now, state.run.start)  # type: ignore[union-attr]  # its nodes are gone
            self._on_terminated(state.planned.workload.name, state.token)

    def _on_requeue(self, queue: str, token: int) -> None:
        """The batched requeue of a cohort tree's inadmissible workloads (`_notify_requeue`)."""
        self.requeue_due.discard(id(self.cluster.queues[queue].root()))
        self.scheduler.requeue_inadmissible(queue)

    def _notify_requeue(self, queue: str) -> None:
        """Quota was released in `queue`'s tree: its inadmissible workloads compete again after Kueue's batch
        period, one requeue for every release of the tree meanwhile (gkecap.simulate.timing)."""
        if self.requeue_batch <= 0:
            self.scheduler.requeue_inadmissible(queue)
            return
        root = id(self.cluster.queues[queue].root())
        if root not in self.requeue_due:
            self.requeue_due.add(root)
            self._push(self.now + self.requeue_batch, "requeue", queue)

    def _on_retry(self, name: str, token: int) -> bool:
        state = self.states[name]
        if state.token != token or state.phase != "backoff":
            return False
        state.phase = "pending"
        self.scheduler.submit(state.planned.workload)
        return True

    def _on_terminated(self, name: str, token: int) -> bool:
        """A preempted workload's pods are gone: it gives back its nodes and quota and is requeued."""
        state = self.states[name]
        if state.token != token or state.phase != "terminating":
            return False
        w = state.planned.workload
        self._release(state, "preempted")
        self.cluster.mark_evicted(w, False)
        if self.eviction.requeue > 0:
            state.phase = "backoff"
            self._push(self.now + self.eviction.requeue, "retry", name, state.token)
        else:
            state.phase = "pending"
            self.scheduler.submit(w)
        return True

    # -- transitions ------------------------------------------------------------------------------------------

    def _accelerator_pool(self, w: Workload) -> str:
        flavors = (w.flavors or [{}])[0]
        return next(f for r, f in flavors.items() if r not in HOST_RESOURCES)

    def _reserved(self, state: _State) -> None:
        """The scheduler reserved quota: admitted now unless an admission check runs for the pool."""
        w = state.planned.workload
        state.pool = self._accelerator_pool(w)
        state.pods = w.counts[0] if w.counts else state.planned.pods
        state.units = state.pods * state.planned.per_pod
        state.outcome.admitted_pods = state.pods
        state.outcome.pool = state.pool
        state.outcome.unit = self.units[state.pool]
        state.phase = "reserved"
        state.token += 1
        state.reserved_at = self.now
        self.reserved[w.name] = state
        borrowed = self._record_usage(w.cluster_queue, (state.pool, state.planned.resource), state.units)
        state.borrowed = borrowed
        if not self.pools[state.pool].queued:
            self._admitted(state, borrowed)

    def _admitted(self, state: _State, borrowed: int) -> None:
        if state.outcome.admitted is None:
            state.outcome.admitted = self.now
        name = state.planned.workload.name
        partial = (f"partial admission: {state.pods} of {state.planned.pods} pods"
                   if state.pods < state.planned.pods else "")
        self.events.append(SimEvent(self.now, name, "admitted", state.pool, borrowed, reason=partial))
        nodes = self.placement.get(state.pool)  # type: ignore[arg-type]
        if nodes is not None:
            w = state.planned.workload
            nodes.admit(name, state.pods, state.planned.per_pod, (-w.priority, self.now, w.seq),
                        host=state.planned.host, topology=state.planned.topology)
            if self.pods_ready is not None:
                self._push(self.now + self.pods_ready.timeout, "pods-ready", name, state.token)

    def _provision(self) -> bool:
        """Start the admitted workloads whose pods all found room on shared nodes; provision the queued pools'
        requests whose whole VMs the pool can supply now (oldest reservation first) and fail those the pool can
        never satisfy."""
        changed = False
        for pool_name, nodes in self.placement.items():
            if not nodes.dirty:  # nothing bound, freed, obtainable or due since its last look
                continue
            for name in nodes.schedule(self.now):
                state = self.states[name]
                del self.reserved[name]
                self._start(state, 0)
                changed = True
            wake = nodes.next_change(self.now)
            if wake is not None and (wake, pool_name) not in self.wakeups:
                self.wakeups.add((wake, pool_name))
                self._push(wake, "nodes", pool_name)
        for name, state in list(self.reserved.items()):
            pool = self.pools[state.pool]  # type: ignore[index]
            if not pool.queued:
                continue
            need = pool.nodes_for(state.units)
            free = pool.nodes_at(self.now) - self.in_use[pool.name]
            if free >= need:
                del self.reserved[name]
                if pool.queued:
                    self._admitted(state, state.borrowed)
                self._start(state, need)
                changed = True
            elif pool.queued and not pool.ever_at_least(self.now, need):
                del self.reserved[name]
                self._provisioning_failed(state)
                changed = True
        return changed

    def _start(self, state: _State, nodes: int) -> None:
        """Every pod is bound (`nodes`: the VMs of a queued pool's request): running after the pod start delay."""
        state.phase = "running"
        running = self.now + self.delays.pod_start
        if state.outcome.started is None:
            state.outcome.started = running
        state.nodes = nodes
        if nodes:
            self.in_use[state.pool] += nodes  # type: ignore[index]
            self._queued_sample(state.pool, state.units)  # type: ignore[arg-type]
        state.run = Run(state.pool, state.planned.workload.name, state.planned.team, running, None, "")  # type: ignore[arg-type]
        self.runs.append(state.run)
        self._push(running + state.planned.duration, "finish", state.planned.workload.name, state.token)

    def _queued_sample(self, pool: str, units: int) -> None:
        self.queued_units[pool] += units
        nodes = self.in_use[pool]
        samples = self.queued_samples[pool]
        entry = (self.now, nodes, nodes, self.queued_units[pool])
        if samples[-1][0] == self.now:
            samples[-1] = entry
        else:
            samples.append(entry)

    def _provisioning_failed(self, state: _State) -> None:
        pool = state.pool
        assert pool is not None  # a ProvisioningRequest is for the pool the workload was admitted to
        state.failures += 1
        name = state.planned.workload.name
        if state.failures > self.retry_limit:
            state.phase = "deactivated"
            state.outcome.deactivated = True
            self._release(state, "")
            self.scheduler.withdraw(state.planned.workload)
            self.events.append(SimEvent(self.now, name, "deactivated", state.pool, reason=(
                f"ProvisioningRequest failed {state.failures} times (backoffLimitCount {self.retry_limit}): "
                f"{pool} cannot supply {self.pools[pool].nodes_for(state.units)} nodes")))
            return
        self._release(state, "")
        state.phase = "backoff"
        delay = min(self.backoff_base * 2 ** (state.failures - 1), self.backoff_max)
        self._push(self.now + delay, "retry", name, state.token)

    def _preempt(self, state: _State, reason: str, preemptor: str) -> bool:
        """Evict a preemption's target; whether it was released at once (else its pods terminate first)."""
        run = state.run if state.phase == "running" else None
        delay = self.eviction.termination if run is not None else self.eviction.release
        if delay <= 0:
            self._evict(state, "preempted", reason, requeue=False, by=preemptor)
            return True
        name = state.planned.workload.name
        end = self.now + delay
        lost = 0.0
        if run is not None:
            run.end, run.outcome = max(end, run.start), "preempted"
            lost = state.units * max(0.0, end - run.start)
        self.reserved.pop(name, None)  # its pods, if any were pending, are deleted: they no longer wait for nodes
        if run is None and state.pool in self.placement:
            self.placement[state.pool].release(name, self.now)
        state.outcome.preemptions += 1
        state.outcome.lost += lost
        state.phase = "terminating"
        state.token += 1  # its completion (and its waitForPodsReady timeout) no longer come
        self.cluster.mark_evicted(state.planned.workload, True)
        self.events.append(SimEvent(self.now, name, "preempted", state.pool, reason=reason, by=preemptor, lost=lost))
        self._push(end, "terminated", name, state.token)
        return False

    def _evict(self, state: _State, event: str, reason: str, *, requeue: bool = True, by: str | None = None) -> None:
        pool = state.pool
        lost = 0.0
        if state.phase == "running" and state.run is not None:
            lost = state.units * max(0.0, self.now - state.run.start)
        state.outcome.preemptions += 1
        state.outcome.lost += lost
        self.reserved.pop(state.planned.workload.name, None)
        self._release(state, "preempted")
        state.phase = "pending"
        self.events.append(SimEvent(self.now, state.planned.workload.name, event, pool, reason=reason, by=by,
                                    lost=lost))
        if requeue:
            self.scheduler.submit(state.planned.workload)

    def _release(self, state: _State, outcome: str) -> None:
        """Give back the quota and the nodes."""
        w = state.planned.workload
        if state.run is not None and state.run.end is None:
            state.run.end, state.run.outcome = max(self.now, state.run.start), outcome
        if state.nodes:
            self.in_use[state.pool] -= state.nodes  # type: ignore[index]
            self._queued_sample(state.pool, -state.units)  # type: ignore[arg-type]
            state.nodes = 0
        if state.pool in self.placement:
            self.placement[state.pool].release(w.name, self.now)
        state.token += 1
        self.reserved.pop(w.name, None)
        self._topology_changed(state.pool)
        if w.flavors is not None:
            pool = state.pool
            evict(self.cluster, w)
            self._record_usage(w.cluster_queue, (pool, state.planned.resource), 0)  # type: ignore[arg-type]
            self._notify_requeue(w.cluster_queue)

    # -- accounting -----------------------------------------------------------------------------------------

    def _kind(self, fr: tuple[str, str]) -> str | None:
        """The unit kind of a flavor-resource's quota (its pool's), None for host resources."""
        flavor, resource = fr
        if resource in HOST_RESOURCES:
            return None
        return self.units.get(flavor, resource)

    def _kinds(self, q) -> list[str]:
        return list(dict.fromkeys(k for fr in q.quotas if (k := self._kind(fr)) is not None))

    def _nominal(self, queue: str) -> dict[str, int]:
        q = self.cluster.queues[queue]
        result: dict[str, int] = {}
        for fr, quota in q.quotas.items():
            kind = self._kind(fr)
            if kind is not None:
                result[kind] = result.get(kind, 0) + quota.nominal
        return result

    def _record_usage(self, queue_name: str, fr: tuple[str, str], added: int) -> int:
        """Note the queue's usage of `fr`'s unit kind now; returns what `added` borrows beyond the nominal quota of
        `fr`."""
        q = self.cluster.queues[queue_name]
        kind = self._kind(fr)
        used = borrowed = 0
        for other, v in q.usage.items():
            if self._kind(other) == kind:
                used += v
                borrowed += max(0, v - q.quota(other).nominal)
        samples = self.usage[queue_name].setdefault(kind, [(0.0, 0, 0)])  # type: ignore[arg-type]
        if samples[-1][0] == self.now:
            samples[-1] = (self.now, used, borrowed)
        else:
            samples.append((self.now, used, borrowed))
        after = q.usage.get(fr, 0)
        nominal = q.quota(fr).nominal
        return max(0, after - nominal) - max(0, after - added - nominal)
