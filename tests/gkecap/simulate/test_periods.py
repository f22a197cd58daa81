"""Whole periods of an exactly repeating loop are replayed, not run (gkecap.simulate.periods, the `period_jump`
shortcut), and stale timers run no scheduling cycle: the output is the plain path's, byte for byte."""

from __future__ import annotations

import heapq
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import golden  # noqa: E402

from gkecap.simulate.engine import Simulation  # noqa: E402
from gkecap.simulate.shortcuts import switched  # noqa: E402

# benchmarks/simulate.py's organisation, 4 teams, 200 workloads submitted over 2 days: two pending workloads of two
# teams take the quota from each other every few seconds (fair sharing, release 1 s + batched requeue 1 s) for
# stretches of simulated hours, as in issue 29's 14-day scenario.
LOOPING = (4, 200, 7, 2 * 86400)


def _simulations(monkeypatch) -> list[Simulation]:
    made: list[Simulation] = []
    original = Simulation.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(Simulation, "__init__", init)
    return made


def _document() -> str:
    return json.dumps(golden.generated_json(*LOOPING), sort_keys=True)


def test_jumped_periods_give_the_same_output_as_running_them(monkeypatch):
    with switched(period_jump=False):
        plain = _document()
    made = _simulations(monkeypatch)
    assert _document() == plain
    assert made[0].period_jump is not None and made[0].period_jump.periods > 0, "no period was jumped: not exercised"


def test_without_the_switch_no_period_is_jumped(monkeypatch):
    made = _simulations(monkeypatch)
    with switched(period_jump=False):
        _document()
    assert made[0].period_jump is None


def test_an_instant_of_stale_timers_alone_runs_no_scheduling_cycle(monkeypatch):
    """A completion, timeout or retry of a workload that moved on since it was set changes nothing: no cycle."""
    stale_only, settled = [], []
    original_settle = Simulation._settle
    original_pop = heapq.heappop
    instant: dict[float, list[bool]] = {}

    def settle(self):
        settled.append(self.now)
        return original_settle(self)

    def pop(heap):
        entry = original_pop(heap)
        if len(entry) == 5 and isinstance(entry[2], str):
            t, _, kind, subject, token = entry
            instant.setdefault(t, [])
            owner = next((s for s in made if s.heap is heap), None)
            if owner is not None:
                state = owner.states.get(subject)
                stale = kind in ("finish", "pods-ready", "retry", "terminated") and state is not None \
                    and state.token != token
                instant[t].append(stale)
        return entry

    made = _simulations(monkeypatch)
    monkeypatch.setattr(Simulation, "_settle", settle)
    monkeypatch.setattr(heapq, "heappop", pop)
    with switched(period_jump=False):
        _document()
    stale_only = [t for t, popped in instant.items() if popped and all(popped)]
    assert stale_only, "no instant held only stale timers: not exercised"
    assert not set(stale_only) & set(settled)


def _contention(teams: int, count: int, fair_sharing: bool) -> str:
    """benchmarks/simulate.py's contention mix: running workloads preempted (30 s of termination) and restarted in
    a loop, so each period starts runs, ends others and loses accelerator time."""
    sys.path.insert(0, str(golden.ROOT / "benchmarks"))
    import simulate as bench  # benchmarks/simulate.py

    from gkecap.components.kubernetes_objects.build import kueue_objects
    from gkecap.components.model import derive
    from gkecap.components.spec import load_environment
    from gkecap.simulate import simulate_environment
    from gkecap.simulate.output import to_document
    from gkecap.simulate.workloads_file import WorkloadsFile

    model = derive(load_environment(bench.contention_environment(teams, fair_sharing), now=bench.NOW))
    document = WorkloadsFile.model_validate(bench.contention_workloads(teams, count))
    return json.dumps(to_document(simulate_environment(model, kueue_objects(model), document)), sort_keys=True)


@pytest.mark.parametrize("fair_sharing", [True, False], ids=["fair-sharing", "classical"])
def test_jumped_periods_with_runs_give_the_same_output_as_running_them(monkeypatch, fair_sharing):
    with switched(period_jump=False):
        plain = _contention(3, 100, fair_sharing)
    made = _simulations(monkeypatch)
    assert _contention(3, 100, fair_sharing) == plain
    jump = made[0].period_jump
    assert jump is not None and jump.periods > 0, "no period was jumped: not exercised"


def test_a_loop_beside_pods_terminating_since_before_it_is_jumped_with_the_same_output(monkeypatch):
    """A victim preempted before the loop began terminates at a fixed time, an event from outside the loop: the
    loop's state is the same from period to period meanwhile (the signature takes that end as it is, not relative to
    now), and the jump stops before it."""
    from gkecap.simulate import periods

    beside = []
    original = periods.PeriodJump._jump

    def jump(self, earlier, marks):
        seq = self.anchor[1]
        outside = {e[3] for e in self.sim.heap if e[2] == "terminated" and e[1] <= seq and not self._dead(e)}
        jumped = original(self, earlier, marks)
        if jumped and outside:
            beside.append(self.sim.now)
        return jumped

    scenario = (4, 200, 3, 2 * 86400)  # LOOPING drawn with another seed: such loops, in 3 CPU-s
    with switched(period_jump=False):
        plain = json.dumps(golden.generated_json(*scenario), sort_keys=True)
    monkeypatch.setattr(periods.PeriodJump, "_jump", jump)
    assert json.dumps(golden.generated_json(*scenario), sort_keys=True) == plain
    assert beside, "no loop was jumped beside pods terminating since before it: not exercised"
