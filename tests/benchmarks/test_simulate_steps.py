"""benchmarks/simulate.py counts Kueue's own steps (cycles, heads visited, nominations computed) and measures the
step floor over them: the counts are what the scheduler did, or the floor's ratio measures nothing."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "simulate.py"
sys.path.insert(0, str(BENCHMARK.parent))

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


def test_the_step_floor_takes_every_step_the_run_took():
    counts = _counted()
    seconds, steps = bench.step_floor(counts.heads, counts.computed)
    assert steps == sum(counts.heads) + sum(counts.computed)
    assert seconds >= 0


def _benchmark(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(BENCHMARK), "--mix", "contention", "--repeat", "1", *args],
                          capture_output=True, text=True, timeout=300)


def test_a_finished_run_reports_kueues_steps_and_the_step_floor():
    run = _benchmark("--teams", "3", "--workloads", "30", "--fair-sharing", "off")
    assert run.returncode == 0, run.stderr
    assert re.search(r"Kueue's steps: [1-9]\d* cycles, [1-9]\d* heads visited .*step floor .*simulate/step floor "
                     r"\d+x", run.stdout), run.stdout


def test_a_run_stopped_by_its_budget_reports_the_steps_it_took():
    run = _benchmark("--teams", "10", "--workloads", "1000", "--budget", "1")
    assert run.returncode == 1, run.stderr
    assert "did not finish in 1 CPU-s" in run.stdout
    assert re.search(r"Kueue's steps: [1-9]\d* cycles", run.stdout), run.stdout
