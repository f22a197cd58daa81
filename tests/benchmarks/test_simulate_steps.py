"""benchmarks/simulate.py counts Kueue's own steps (cycles, heads visited, nominations computed) and measures the
step floor over them: the counts are what the scheduler did, or the floor's ratio measures nothing."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import simulate as bench  # noqa: E402

from gkecap.components.kubernetes_objects.build import kueue_objects  # noqa: E402
from gkecap.components.model import derive  # noqa: E402
from gkecap.components.spec import load_environment  # noqa: E402
from gkecap.simulate import scheduler, simulate_environment  # noqa: E402
from gkecap.simulate.shortcuts import ALL_OFF, switched  # noqa: E402
from gkecap.simulate.workloads_file import WorkloadsFile  # noqa: E402


def _counted(teams: int = 3, count: int = 60, **shortcuts: bool) -> bench.Counting:
    model = derive(load_environment(bench.contention_environment(teams, False), now=bench.NOW))
    document = WorkloadsFile.model_validate(bench.contention_workloads(teams, count))
    with bench.Counting() as counts, switched(**shortcuts):
        simulate_environment(model, kueue_objects(model), document)
    return counts


def test_every_cycle_records_its_heads_and_computed_nominations():
    counts = _counted()
    assert counts.cycles > 0
    assert len(counts.heads) == len(counts.computed) == counts.cycles
    # at most one computed nomination per head visited (a partial admission's tries are part of it)
    assert all(c <= h for h, c in zip(counts.heads, counts.computed))
    assert sum(counts.heads) > sum(counts.computed) > 0


def test_with_every_shortcut_off_each_nomination_is_computed():
    counts = _counted(**ALL_OFF)
    assert sum(counts.computed) == counts.nominations


def test_kept_nominations_are_not_counted_as_computed():
    counts = _counted()
    assert 0 < sum(counts.computed) < counts.nominations


def test_the_scheduler_is_restored_after_counting():
    saved = (scheduler.Scheduler.cycle, scheduler.Scheduler.heads, scheduler.Scheduler._assignment)
    _counted(2, 10)
    assert (scheduler.Scheduler.cycle, scheduler.Scheduler.heads, scheduler.Scheduler._assignment) == saved


def test_the_step_floor_grows_with_the_steps():
    small, large = bench.array("I", [5] * 2_000), bench.array("I", [5] * 40_000)
    assert 0 < bench.step_floor(small, small) < bench.step_floor(large, large)
