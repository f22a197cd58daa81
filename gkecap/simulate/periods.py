"""Jumping over the periods of a loop that repeats exactly (the `period_jump` shortcut). Pure.

Under contention two pending workloads can take the quota from each other for hours of simulated time: each step
passes Kueue's checks and waits for the victim's release and the batched requeue, so the simulation comes back to
the same state every few seconds until an event from outside the loop (a completion, a submission) changes it.

After each instant the engine hands the state to `PeriodJump.after_instant`, which computes a signature of
everything that decides the future *relative to now*: the cluster's lasting content, each queue's pending order and
workloads set aside, sticky heads, preemptors, flavor-scan progress relative to the scheduling cycle, each
workload's engine state, the pools' nodes and pods, and the events pushed since the loop was first suspected (the
anchor: an instant with a preemption) as (time - now, kind, subject, whether its token is current). Times set since
the anchor enter as offsets from now, older ones as themselves, so two equal signatures mean the same state shifted
by the time between them. Events pushed before the anchor ("external": completions of running workloads, later
submissions) are not in the signature; one that fires and changes something starts over.

When a signature comes back after a period P, the k next periods are known without running them: their records
(events, usage and node samples, preemption counts) are the period's shifted by P, 2P ... kP, and the state after
them is the current one with every time set since the anchor (pending events, admission times, nodes' timers)
moved by kP. k is the largest that keeps every jumped instant before the earliest external event that is still
live and leaves the run's event budget unspent. Counters that are only compared with one another (scheduling
cycles, tokens, queue push counts, allocatable generations) stay as they are: the signature holds only their
relations. Runs started in the period are copied, and a run that was going when the period began and ended in it
ends, in each copy, the run its workload has then; the accelerator time lost is added once per preemption, in
order. Anything the replay cannot reproduce exactly refuses the jump: a period that finishes or deactivates a
workload, records a limit, or whose times are not whole seconds (so that shifting them is exact); topology-aware
requests.
"""

from __future__ import annotations

import heapq
from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gkecap.simulate.engine import Run, Simulation

HISTORY_LIMIT = 64  # distinct states kept after an anchor before starting over (a loop repeats within a few instants)
# Visits of the cheap key before full signatures are taken: a state met twice is common without any loop (quiet
# instants between two changes); a loop meets it every period, and jumps from the visit after this one.
CHEAP_VISITS = 3
TOKENED = frozenset({"finish", "pods-ready", "retry", "terminated"})  # events that carry their workload's token
REPLAYED = frozenset({"preempted", "admitted"})  # the only events a jumped period may record
INACTIVE = frozenset({"new", "finished", "deactivated"})
WAITING = frozenset({"pending", "backoff", "stranded"})  # phases that hold no quota


class PeriodJump:
    def __init__(self, sim: "Simulation"):
        self.sim = sim
        self.anchor: tuple[float, int] | None = None  # (time, last heap sequence number before it)
        # cheap key -> {signature -> marks of the instant it was seen at, "visits": times the key was met}
        self.history: dict[tuple, dict] = {}
        self.log: list[tuple] = []  # events handled since the anchor: (heap entry, whether it changed something)
        self.jumps = 0  # jumps made (for tests and benchmarks)
        self.periods = 0  # periods skipped
        self.refused: dict[str, int] = {}  # signatures that came back but could not be jumped, by reason

    def reset(self) -> None:
        self.anchor = None
        self.history = {}
        self.log = []

    def handled(self, entry: tuple, live: bool) -> None:
        """A heap entry was handled (`live`: it changed something)."""
        if self.anchor is None:
            return
        if live and entry[1] <= self.anchor[1]:
            self.reset()  # an event from outside the loop changed the state
        else:
            self.log.append((entry, live))

    def after_instant(self, preempted: bool, pushed: int) -> None:
        """The instant is settled; `preempted`: it preempted a workload; `pushed`: the last event pushed before it."""
        sim = self.sim
        if self.anchor is None:
            if preempted and not sim.topology_requests:
                self.anchor = (sim.now, pushed)  # what this instant pushed belongs to the loop
            return
        # A cheap necessary condition first: the full signature costs a walk over every workload and event, and is
        # taken only once this key comes back (a loop meets it every period).
        key = (sim.cluster.content_hash, sim.scheduler.pending(), len(sim.scheduler.preemptors), len(sim.reserved))
        seen = self.history.get(key)
        if seen is None:
            if len(self.history) >= HISTORY_LIMIT:
                self.reset()
            else:
                self.history[key] = {"visits": 1}
            return
        seen["visits"] += 1
        if seen["visits"] < CHEAP_VISITS:
            return
        if seen["visits"] > CHEAP_VISITS + 2:
            # The key keeps coming back but the state does not: something set since the anchor, before the loop
            # began, moves on (a run's completion, say). Start over: the next anchor is inside the loop.
            self.reset()
            return
        signature = self._signature()
        marks = self._marks()
        earlier = seen.get(signature)
        if earlier is not None and self._jump(earlier, marks):
            self.reset()
            return
        seen[signature] = marks

    def _no(self, why: str) -> bool:
        """Refuse a jump, counting why (for benchmarks)."""
        self.refused[why] = self.refused.get(why, 0) + 1
        return False

    def _dead(self, entry: tuple) -> bool:
        """A timer whose workload moved on since it was set: it changes nothing, ever (tokens only grow)."""
        return entry[2] in TOKENED and entry[4] != self.sim.states[entry[3]].token

    # -- the state, relative to now ---------------------------------------------------------------------------

    def _signature(self) -> tuple:
        sim = self.sim
        now = sim.now
        since, seq = self.anchor  # type: ignore[misc]

        def past(v: float) -> object:  # a time set at or before the instant it was set
            return ("o", v) if v <= since else v - now

        def ahead(v: float) -> object:  # a time things wait for
            return None if v <= now else v - now

        # Pods terminating since before the anchor: their end is the time of an event from outside the loop, which
        # bounds the jump, and it does not move with the loop (nor does the jump move it).
        outside_ends = {e[3] for e in sim.heap if e[2] == "terminated" and e[1] <= seq and not self._dead(e)}
        states: list[object] = []
        for name in sim.order:
            s = sim.states[name]
            if s.phase in INACTIVE:
                states.append(s.phase)
                continue
            w, o, run = s.planned.workload, s.outcome, s.run
            if s.phase in WAITING:  # what its last admission left (pool, run, admission time) is read no more
                states.append((s.phase, s.failures, s.requeues, o.admitted is None, o.started is None, w.timestamp,
                               w.reserved_at, w.evicted, w.flavors is None, None if w.counts is None else tuple(w.counts)))
                continue
            states.append((
                s.phase, s.pool, s.nodes, s.failures, s.borrowed, s.requeues, s.pods, s.units, past(s.reserved_at),
                None if run is None else (past(run.start), None if run.end is None else (
                    ("o", run.end) if name in outside_ends else past(run.end))),
                o.admitted is None, o.started is None,
                w.timestamp, None if w.reserved_at is None else past(w.reserved_at), w.evicted,
                w.flavors is None, None if w.counts is None else tuple(w.counts)))
        sch = sim.scheduler
        queues = []
        for qname, q in sch.queues.items():
            if not q.members and not q.aside and q.sticky is None:
                continue
            members = tuple((w.name, w.timestamp, pushed > q.aside.get(shape, 0)) for _, pushed, shape, w in q.order)
            sticky = None if q.sticky is None else (
                q.sticky.name, q.members.get(q.sticky.name, (0, None))[1] is q.sticky)
            queues.append((qname, members, frozenset(q.aside), sticky))
        scan = []
        for name, (w, progress) in sorted(sch._scan.items()):
            scan.append((name, w is sim.states[name].planned.workload, tuple(tuple(sorted(t.items()))
                                                                            for t in progress.tried),
                         min(sch.scheduling_cycle - progress.cycle, 2),
                         sim.cluster.queues[w.cluster_queue].allocatable_generation > progress.generation,
                         progress.shape))
        pools = []
        for pname, p in sim.placement.items():
            index = {id(n): i for i, n in enumerate(p.nodes)}
            nodes = tuple((n.capacity, n.free, ahead(n.ready_at), n.pods,
                           None if n.empty_since is None else past(n.empty_since), n.seen_ready, n.cpu, n.memory,
                           n.slot) for n in p.nodes)
            claims = tuple((c.name, c.order[0], past(c.order[1]), c.order[2:], c.per_pod, c.waiting,
                            tuple(index[id(n)] for n in c.bound), c.cpu, c.memory) for c in p.claims.values())
            pools.append((pname, nodes, claims, tuple(p.waiting), p.dirty, p.used, p.busy,
                          past(p.samples[-1][0]), p.samples[-1][1:]))
        queued = tuple((pname, past(samples[-1][0]), samples[-1][1:]) for pname, samples in sim.queued_samples.items())
        # The loop's pending events that can still change something (stale timers change nothing).
        loop = sorted(e for e in sim.heap if e[1] > seq and not self._dead(e))
        events = tuple((e[0] - now, e[2], e[3]) for e in loop)
        wakes = {(e[0], e[3]) for e in loop if e[2] == "nodes"}  # the others are for events from before the anchor
        return (tuple(states), sim.cluster.content(), tuple(queues), tuple(scan), frozenset(sch.preemptors),
                frozenset(sch._with_aside), tuple(pools), queued, events, tuple(sim.reserved),
                tuple(sim.in_use.items()), tuple(sim.queued_units.items()),
                frozenset((t - now if (t, pool) in wakes else ("o", t), pool) for t, pool in sim.wakeups), frozenset(sim.requeue_due),
                frozenset(sim.held), sim.unsettled, len(sim.limits), len(sim.livelocks))

    def _marks(self) -> tuple:
        sim = self.sim
        return (sim.now, len(sim.events), len(sim.runs),
                {(q, kind): len(samples) for q, kinds in sim.usage.items() for kind, samples in kinds.items()},
                {name: len(p.samples) for name, p in sim.placement.items()},
                {name: len(samples) for name, samples in sim.queued_samples.items()},
                len(self.log), sim.seq, {name: s.token for name, s in sim.states.items() if s.phase not in INACTIVE},
                _open_runs(sim))

    # -- the jump ---------------------------------------------------------------------------------------------

    def _jump(self, earlier: tuple, marks: tuple) -> bool:
        sim = self.sim
        t0, events0, runs0, usage0, nodes0, queued0, log0, seq0, tokens0, open0 = earlier
        t1, _, _, usage1, *_, open1 = marks
        period = t1 - t0
        since, anchor_seq = self.anchor  # type: ignore[misc]
        records = sim.events[events0:]
        if period <= 0 or usage1.keys() != usage0.keys() or sim.unsettled:
            return self._no('other')
        if not all(e.event in REPLAYED for e in records):
            return self._no('other records')
        # Runs: those started in the period, and those running when it began that it ended (each later period ends
        # the run its workload has then, the same way).
        started = sim.runs[runs0:]
        ended = [(name, run) for name, run in open0.items() if run.end is not None]
        if open0.keys() != open1.keys():
            return self._no('other runs')
        if not _whole(t0, t1, *(e.time for e in records), *(e.lost for e in records),
                      *(r.start for r in started), *(r.end for r in started if r.end is not None),
                      *(r.end for _, r in ended)):
            return self._no('fractional times')

        def recurs(entry: tuple) -> bool:
            """Pushed in the period, or live when it began: each later period has its own copy of it."""
            return entry[1] > seq0 or (entry[2] not in TOKENED or entry[4] == tokens0.get(entry[3]))

        # What each period handles: every event that recurs (live ones and the timers it leaves stale).
        handled = [entry for entry, live in self.log[log0:] if live or recurs(entry)]
        if not handled or any(e[1] <= anchor_seq for e in handled):
            return self._no('outside event died')  # an event from before the anchor died in the period: its role is not in the signature
        # The pending events: the loop's live ones move on; its stale ones recur in every period; the rest stay.
        limit = float("inf")
        moving, born, still = [], [], []
        for entry in sim.heap:
            if not self._dead(entry):
                if entry[1] > anchor_seq:
                    moving.append(entry)
                else:
                    limit = min(limit, entry[0])  # the earliest event from outside the loop bounds the jump
                    still.append(entry)
            elif entry[1] > anchor_seq and recurs(entry):
                born.append(entry)
            elif entry[1] <= anchor_seq and entry[4] == tokens0.get(entry[3]):
                return self._no('outside event died')  # an event from before the anchor died in the period
            else:
                still.append(entry)
        if limit == float("inf"):
            k = sim.budget // len(handled)
        else:
            k = int((limit - t1) // period)
            while k > 0 and t1 + k * period >= limit:
                k -= 1
        if k <= 0:
            return self._no('next outside event within a period')
        shift = k * period
        states = [(s, s.planned.workload) for s in sim.states.values() if s.phase not in INACTIVE]
        if not _whole(*(e[0] for e in sim.heap), *(t for t, _ in sim.wakeups),
                      *(e[0][0] for e in self.log[log0:]),
                      *(s.reserved_at for s, _ in states if s.reserved_at > since),
                      *(w.reserved_at for _, w in states if w.reserved_at is not None and w.reserved_at > since),
                      *(n.ready_at for p in sim.placement.values() for n in p.nodes if n.ready_at > t1),
                      *(n.empty_since for p in sim.placement.values() for n in p.nodes
                        if n.empty_since is not None and n.empty_since > since),
                      *(c.order[1] for p in sim.placement.values() for c in p.claims.values() if c.order[1] > since)):
            return self._no('fractional times')
        end = t1 + shift
        # The stale timers the skipped periods leave: handled by the end of the jump, or still pending after it.
        copies = [(b[0] + m * period, b) for m in range(1, k + 1) for b in born]
        spent = (k * len(handled) + sum(1 for t, _ in copies if t <= end)
                 + sum(1 for b in born + still if b[0] <= end))
        if sim.budget - spent <= 0:
            return self._no('event budget')  # the run's event budget runs out within the jump: run it as it comes
        # The records of the k periods skipped.
        for m in range(1, k + 1):
            sim.events.extend(replace(e, time=e.time + m * period) for e in records)
        for e in records:
            if e.event == "preempted":
                sim.states[e.workload].outcome.preemptions += k
        if any(e.lost for e in records):
            for _ in range(k):  # one addition per preemption, in order, as the periods would have made them
                for e in records:
                    if e.lost:
                        sim.states[e.workload].outcome.lost += e.lost
        current = dict(open1)  # workload -> its run open when the next period begins
        made: dict[int, Run] = {}
        for m in range(1, k + 1):
            for name, run in ended:
                current[name].end, current[name].outcome = run.end + m * period, run.outcome
            made = {}
            for run in started:
                made[id(run)] = copy = replace(run, start=run.start + m * period,
                                               end=None if run.end is None else run.end + m * period)
                sim.runs.append(copy)
            current = {name: made.get(id(run), run) for name, run in open1.items()}
        for s, _ in states:
            if s.run is not None and id(s.run) in made:
                s.run = made[id(s.run)]
        for (q, kind), start in usage0.items():
            _repeat(sim.usage[q][kind], start, period, k)
        for name, start in nodes0.items():
            _repeat(sim.placement[name].samples, start, period, k)
        for name, start in queued0.items():
            _repeat(sim.queued_samples[name], start, period, k)
        # The state after them: every time set since the anchor moves on by k periods.
        pending = {(m[0], m[3]) for m in moving if m[2] == "nodes"}
        sim.wakeups = {(t + shift, pool) if (t, pool) in pending else (t, pool) for t, pool in sim.wakeups}
        heap = [(m[0] + shift, *m[1:]) for m in moving]
        heap += [b for b in born + still if b[0] > end]
        for t, entry in copies:
            if t > end:
                sim.seq += 1
                heap.append((t, sim.seq, *entry[2:]))
        heapq.heapify(heap)
        sim.heap = heap
        sim.budget -= spent
        for s, w in states:
            if s.reserved_at > since:
                s.reserved_at += shift
            if w.reserved_at is not None and w.reserved_at > since:
                w.reserved_at += shift
        for p in sim.placement.values():
            for n in p.nodes:
                if n.ready_at > t1:
                    n.ready_at += shift
                if n.empty_since is not None and n.empty_since > since:
                    n.empty_since += shift
            for c in p.claims.values():
                if c.order[1] > since:
                    c.order = (c.order[0], c.order[1] + shift, *c.order[2:])
        sim.now = end
        self.jumps += 1
        self.periods += k
        return True


def _open_runs(sim: "Simulation") -> dict[str, Run]:
    """Each workload's run that has not ended."""
    return {name: s.run for name, s in sim.states.items() if s.run is not None and s.run.end is None}


def _whole(*times: float) -> bool:
    """Whole seconds: adding whole periods to them is exact, as the loop's own additions would be."""
    return all(float(t).is_integer() for t in times)


def _repeat(samples: list, start: int, period: float, k: int) -> None:
    """Append k copies of the samples taken in the period (from `start`), each shifted by one more period."""
    taken = samples[start:]
    for m in range(1, k + 1):
        samples.extend((t + m * period, *rest) for t, *rest in taken)
