"""Whole periods of an exactly repeating loop are replayed, not run (gkecap.simulate.periods, the `period_jump`
shortcut), and stale timers run no scheduling cycle: the output is the plain path's, byte for byte."""

from __future__ import annotations

import heapq
import json
import sys
from pathlib import Path

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
