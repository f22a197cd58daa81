"""Benchmark `gkecap simulate`: 10,000 workloads over the 100 teams of `generate.py`'s organisation, and the
contention mix of issues 21 and 29.

    .venv/bin/python benchmarks/simulate.py                  # 10,000 workloads, 100 teams, median of 3
    .venv/bin/python benchmarks/simulate.py --workloads 2000 --teams 20 --repeat 1
    .venv/bin/python benchmarks/simulate.py --mix contention --fair-sharing off   # every team over quota
    # the issues' heavy mixes (21 item 5, 29 item 4), each with fair sharing on and off, stopped after a CPU budget:
    .venv/bin/python benchmarks/simulate.py --mix contention --teams 100 --workloads 10000 --repeat 1 --budget 600
    .venv/bin/python benchmarks/simulate.py --mix contention --teams 1000 --workloads 100000 --repeat 1 --budget 600

The contention mix (`--mix contention`): the teams in one cohort, 8 GPUs of quota each, one on-demand pool of one
8-GPU VM per team, preemption and borrowing on (the environment's defaults: reclaimWithinCohort Any, within the queue
LowerPriority, borrowWithinCohort LowerPriority without fair sharing); each team submits its share of the workloads
over 10 hours, 1 pod of 1 to 8 GPUs for 1 to 5 hours with one of three priority classes. At 100 workloads per team
(the issues' 10,000 over 100 teams) each team asks about 1,350 GPU-hours (4.5 GPUs for 3 h on average) of its
8 GPUs: about 17 GPU-hours asked per GPU-hour the pool has over the 10 hours of submissions, a backlog that takes
about 7 simulated days to drain, with every team over its quota all along. Fair sharing on or off
(`--fair-sharing`).

The organisation is `benchmarks/generate.py`'s (departments of ten teams as cohorts under one root, one GPU pool
per department cycling through queued, flex-start, spot and calendar capacity, flex-start TPU v6e 4x4 slices,
fair sharing on). Workloads are drawn with a fixed seed: each team submits about 100 over 90 days, pinned to its
department's GPU or TPU pool (not the calendar pools: generate.py's reservations are drafts, without nodes), 1 to
4 pods of 1 to 8 GPUs (at most a VM's; 4 chips per pod on TPU pools), 30 minutes to 8 hours, with one of three priority classes.

`--budget N` stops a run after N CPU-seconds and reports how far it got (simulated time, events, preemptions):
how far a mix is from its goal when it cannot finish. Every run also counts, per submitted workload, the
scheduling cycles, nominations (a head's flavor assignment and preemption search, kept ones excluded) and
preemptions: the measure of how much Kueue's own process repeats under contention, independent of the machine.

What is timed: wall and CPU time of `simulate_environment` (the Kueue objects and capacity model are built once, outside the clock, as
`gkecap plan` would have them). The floor is the bare event loop over the same submissions and completions (a heap,
no quota, no scheduler): the cost of being a discrete-event simulation at all; the ratio is the cost of Kueue's
admission logic on top of it. The step floor (`step_floor`) is measured over the Kueue steps the run took (the heads
each scheduling cycle visited, the nominations it computed): a bare visit of each head and one read-and-compare per
computed nomination. Its ratio is the simulator's cost per Kueue step, whatever the mix makes Kueue repeat; the
floor itself is the least any simulator that takes Kueue's steps one by one would spend on them.
"""

from __future__ import annotations

import argparse
import heapq
from array import array
import os
import resource
import random
import signal
import statistics
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from generate import organisation  # noqa: E402

from gkecap.components.kubernetes_objects.build import kueue_objects  # noqa: E402
from gkecap.components.model import derive  # noqa: E402
from gkecap.components.spec import load_environment  # noqa: E402
from gkecap.simulate import engine, scheduler, simulate_environment  # noqa: E402
from gkecap.simulate.shortcuts import switched  # noqa: E402
from gkecap.simulate.workloads_file import WorkloadsFile  # noqa: E402

NOW = datetime(2026, 11, 22, tzinfo=timezone.utc)
PRIORITIES = [{"name": "low", "value": 100}, {"name": "normal", "value": 500}, {"name": "high", "value": 1000}]
HORIZON = 90 * 86400  # submissions spread over 90 days: about 70% of the organisation's GPUs busy


def environment(teams: int) -> dict:
    env = organisation(teams, now=NOW)["config"]["gkecap:environment"]
    env["priorityClasses"] = PRIORITIES
    return env


def contention_environment(teams: int, fair_sharing: bool) -> dict:
    return {
        "region": "us-east5", "cluster": {"name": "contention", "securityGroup": "gke-security-groups@acme.example"},
        "kueue": {"version": "v0.19.2", "fairSharing": fair_sharing},
        "nodePools": [{"name": "h100", "machineType": "a3-highgpu-8g", "capacity": "on-demand", "maxNodes": teams,
                       "zones": ["us-east5-a"]}],
        "cohorts": [{"name": "org"}],
        "priorityClasses": PRIORITIES,
        "teams": [{"name": f"t{i:04d}", "cohort": "org", "quota": {"h100": 8}, "members": [f"group:t{i}@acme.example"]}
                  for i in range(teams)],
    }


def contention_workloads(teams: int, count: int, seed: int = 7) -> dict:
    rng = random.Random(seed)
    items = [{
        "name": f"w{i:06d}", "team": f"t{i % teams:04d}", "pool": "h100", "accelerators": rng.randint(1, 8),
        "priority": rng.choice(PRIORITIES)["name"], "submit": rng.randrange(10 * 3600),
        "duration": rng.randrange(3600, 5 * 3600),
    } for i in range(count)]
    return {"start": NOW.isoformat(), "workloads": items}


def workloads(env: dict, per_node: dict[str, int], count: int, seed: int = 7, horizon: float | None = None) -> dict:
    rng = random.Random(seed)
    horizon = int(horizon or HORIZON)
    teams = env["teams"]
    # generate.py's calendar reservations are drafts (no nodes): workloads go to the pools that have capacity.
    calendar = {p["name"] for p in env["nodePools"] if p["capacity"] == "calendar"}
    items = []
    for i in range(count):
        team = teams[i % len(teams)]
        pool = rng.choice(sorted(set(team["quota"]) - calendar))
        tpu = pool.startswith("v6e")
        items.append({
            "name": f"w{i:05d}", "team": team["name"], "pool": pool,
            "pods": rng.choice([1, 1, 2, 4]) if not tpu else 4,
            "accelerators": 4 if tpu else rng.choice([n for n in (1, 2, 4, 8) if n <= per_node[pool]]),
            "priority": rng.choice(PRIORITIES)["name"], "submit": rng.randrange(horizon),
            "duration": rng.randrange(1800, 8 * 3600),
        })
    return {"start": NOW.isoformat(), "workloads": items}


def floor(document: WorkloadsFile) -> float:
    """The bare event loop: every submission and completion through a heap, nothing decided."""
    started = time.process_time()
    heap = [(w.submit, i, "submit", w.duration) for i, w in enumerate(document.workloads)]
    heapq.heapify(heap)
    events = []
    while heap:
        t, i, kind, duration = heapq.heappop(heap)
        events.append((t, i, kind))
        if kind == "submit":
            heapq.heappush(heap, (t + duration, i, "finish", 0))
    return time.process_time() - started


class OverBudget(Exception):
    pass


class Counting:
    """Counts scheduling cycles and nominations, and keeps the running simulation, for the report. Per cycle it
    also records Kueue's own steps: the heads the cycle visited and the nominations it computed (flavor assignment
    and preemption search run, not answered from a kept or equal-state nomination), for `step_floor`."""

    def __init__(self):
        self.cycles = self.nominations = 0
        self.simulation = None
        self.heads = array("I")  # per cycle
        self.computed = array("I")  # per cycle

    def __enter__(self):
        counts, Scheduler = self, scheduler.Scheduler
        cycle, nominate, heads, assignment = Scheduler.cycle, Scheduler._nominate, Scheduler.heads, Scheduler._assignment
        run = engine.Simulation.run
        self.saved = (cycle, nominate, heads, assignment, run)
        computed = [0]

        def counted_cycle(sched, now):
            counts.cycles += 1
            computed[0] = 0
            try:
                return cycle(sched, now)
            finally:
                counts.computed.append(computed[0])

        def counted_heads(sched):
            found = heads(sched)
            counts.heads.append(len(found))
            return found

        def counted_nominate(sched, *args, **kwargs):
            counts.nominations += 1
            return nominate(sched, *args, **kwargs)

        def counted_assignment(sched, w, now, reads, resume, counts_=None, accepted_only=False):
            if not accepted_only:  # a partial-admission search's tries are part of the same nomination
                computed[0] += 1
            return assignment(sched, w, now, reads, resume, counts_, accepted_only)

        def kept_run(sim):
            counts.simulation = sim
            return run(sim)

        Scheduler.cycle, Scheduler._nominate, Scheduler.heads = counted_cycle, counted_nominate, counted_heads
        Scheduler._assignment = counted_assignment
        engine.Simulation.run = kept_run
        return self

    def __exit__(self, *exc):
        Scheduler = scheduler.Scheduler
        Scheduler.cycle, Scheduler._nominate, Scheduler.heads, Scheduler._assignment, engine.Simulation.run = self.saved

    def steps(self) -> str:
        heads, computed = sum(self.heads), sum(self.computed)
        return (f"Kueue's steps: {self.cycles} cycles, {heads} heads visited ({heads / max(self.cycles, 1):.0f} a "
                f"cycle), {computed} nominations computed")


def step_floor(heads: array, computed: array) -> tuple[float, int]:
    """The least an exact simulator does per Kueue step, over the steps the run took (CPU-s): per cycle, visit
    each head (its queue's first workload, a look-up of its kept answer, the cycle's list of entries); per computed
    nomination, one call that reads a usage and compares it with the request (the cheapest nomination there is: one
    flavor, one resource, no preemption). A simulator that reproduces Kueue's decisions one by one, as issue 21
    item 6 requires with every shortcut on or off, pays at least this unless it proves whole runs of steps
    unchanged without taking them (the period jump does, for loops that come back exactly). Returns the CPU-s and
    the steps taken (heads visited plus nominations), which must be the run's."""
    width = max(max(heads, default=0), 1)
    queues = [[(i, j) for j in range(4)] for i in range(width)]
    kept = {q[0]: None for q in queues}
    usage = {"gpu": 5}

    def nominate(entry, request=3, quota=8):
        return usage.get("gpu", 0) + request <= quota

    steps = 0
    started = time.process_time()
    for n, c in zip(heads, computed):
        entries = []
        for q in queues[:n]:
            w = q[0]
            entries.append((w, kept.get(w)))
        for _ in range(c):
            nominate(entries)
        steps += len(entries) + c
    return time.process_time() - started, steps


def _over_budget(signum, frame):
    raise OverBudget()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=100)
    parser.add_argument("--workloads", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--mix", choices=("light", "contention"), default="light")
    parser.add_argument("--fair-sharing", choices=("on", "off"), default="on")
    parser.add_argument("--budget", type=float, default=0.0, help="stop a run after this many CPU-seconds (0: none)")
    parser.add_argument("--days", type=float, default=HORIZON / 86400,
                        help="light mix: submissions spread over this many days (issue 29's scenario: --teams 10 "
                             "--workloads 1000 --days 14)")
    parser.add_argument("--off", action="append", default=[], metavar="SHORTCUT",
                        help="switch a shortcut of gkecap.simulate.shortcuts off (repeatable)")
    args = parser.parse_args(argv)
    if args.mix == "contention":
        env = contention_environment(args.teams, args.fair_sharing == "on")
        model = derive(load_environment(env, now=NOW))
        document = WorkloadsFile.model_validate(contention_workloads(args.teams, args.workloads))
    else:
        env = environment(args.teams)
        env["kueue"]["fairSharing"] = args.fair_sharing == "on"
        model = derive(load_environment(env, now=NOW))
        per_node = {p.name: p.accelerators_per_node for p in model.pools}
        document = WorkloadsFile.model_validate(workloads(env, per_node, args.workloads, horizon=args.days * 86400))
    objects = kueue_objects(model)
    times, cpu, floors, result = [], [], [], None
    print(f"mix={args.mix} fairSharing={args.fair_sharing} teams={args.teams} workloads={args.workloads}; "
          f"uptime load average before: {os.getloadavg()[0]:.1f}", flush=True)
    for _ in range(args.repeat):
        floors.append(floor(document))
        started, started_cpu = time.perf_counter(), time.process_time()
        with Counting() as counts, switched(**{name: False for name in args.off}):
            signal.signal(signal.SIGPROF, _over_budget)
            signal.setitimer(signal.ITIMER_PROF, args.budget)
            try:
                result = simulate_environment(model, objects, document)
            except OverBudget:
                sim = counts.simulation
                progress = sim.progress()  # what `gkecap simulate --timeout` reports
                print(f"did not finish in {args.budget:g} CPU-s (wall {time.perf_counter() - started:.0f} s): reached "
                      f"simulated {progress.reached / 3600:.2f} h (submissions end at "
                      f"{progress.last_submission / 3600:.0f} h), {progress.finished} of {progress.workloads} "
                      f"finished, {len(sim.events)} events, {progress.preemptions} preemptions, {counts.cycles} cycles, "
                      f"{counts.nominations} nominations ({sim.scheduler.reused_nominations} from an equal earlier "
                      f"state); floor {floors[-1]:.3f} CPU-s; load average now "
                      f"{os.getloadavg()[0]:.1f}; peak RSS "
                      f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
                spent = time.process_time() - started_cpu
                print(_steps_report(counts, spent))
                return 1
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
    sim, bare = statistics.median(times), statistics.median(floors)
    sim_cpu = statistics.median(cpu)
    facts = {k: v for k, v in __import__("gkecap.simulate.output", fromlist=["summary"]).summary(result).items()
             if k in ("admitted", "finished", "preemptions", "deactivated", "neverAdmitted", "cycles")}
    print(f"mix={args.mix} fairSharing={args.fair_sharing} teams={args.teams} workloads={args.workloads} "
          f"resources: {len(objects)} Kueue objects; load average before: {os.getloadavg()[0]:.1f}")
    print(f"simulate: median {sim:.2f} s wall of {args.repeat} ({', '.join(f'{t:.2f}' for t in times)}); "
          f"CPU {statistics.median(cpu):.2f} s (the machine is shared: CPU time is what the simulation costs)")
    print(f"floor (bare event loop): median {bare:.3f} s CPU; simulate/floor {sim_cpu / max(bare, 1e-6):.0f}x (CPU)")
    print(f"events: {len(result.events)}; {facts}; limits hit: {len(result.limits)}")
    n = args.workloads
    print(f"per submitted workload (last run): {counts.cycles / n:.1f} scheduling cycles, {counts.nominations / n:.1f} "
          f"nominations ({counts.simulation.scheduler.reused_nominations / n:.1f} of them from an equal earlier state), "
          f"{facts.get('preemptions', 0) / n:.2f} preemptions, {len(result.events) / n:.1f} events")
    jump = counts.simulation.period_jump
    if jump is not None:
        print(f"period jumps: {jump.jumps}, {jump.periods} periods replayed; signatures met again but not jumped: "
              f"{jump.refused or 'none'}")
    print(_steps_report(counts, cpu[-1]))
    print(f"process peak RSS: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    return 0


def _steps_report(counts: Counting, spent: float) -> str:
    """Kueue's steps in the (last) run and the step floor over them: how much of the time is the simulator's own
    cost per step, and the least any exact simulator would take on the same steps."""
    least, _ = step_floor(counts.heads, counts.computed)
    return (f"{counts.steps()}; step floor (bare visit of each head, one read and compare per computed nomination): "
            f"{least:.2f} CPU-s; simulate/step floor {spent / max(least, 1e-6):.0f}x (CPU)")


if __name__ == "__main__":
    raise SystemExit(main())
