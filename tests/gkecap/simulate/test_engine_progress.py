"""`Simulation.progress()`: how far a run got, which `gkecap simulate --timeout` reports when it stops one."""

from __future__ import annotations

from testkit.spec_data import NOW, prod

from gkecap.components.kubernetes_objects.build import kueue_objects
from gkecap.components.model import derive
from gkecap.components.spec import load_environment
from gkecap.simulate import Progress, simulate_environment
from gkecap.simulate.workloads_file import WorkloadsFile

START = "2026-12-01T00:00:00Z"
# Two 8-GPU jobs of team-d borrow; team-b's job at 1 h reclaims quota from one of them.
STORY = [
    {"name": "d-1", "team": "team-d", "accelerators": 8, "pool": "h100-dws", "duration": "4h"},
    {"name": "d-2", "team": "team-d", "accelerators": 8, "pool": "h100-dws", "duration": "4h"},
    {"name": "b-1", "team": "team-b", "accelerators": 2, "pool": "h100-dws", "submit": "1h", "duration": "1h"},
]


class Stop(Exception):
    pass


def _run(started=None):
    model = derive(load_environment(prod(), now=NOW))
    document = WorkloadsFile.model_validate({"start": START, "workloads": STORY})
    return simulate_environment(model, kueue_objects(model), document, started=started)


def test_progress_of_a_run_stopped_midway_counts_what_happened_until_then():
    running = []

    def stop_at_one_hour(simulation):
        running.append(simulation)
        cycle = simulation.scheduler.cycle

        def guarded(now):
            if now >= 3600:
                raise Stop()  # as --timeout's DeadlineExceeded does, wherever the run is
            return cycle(now)
        simulation.scheduler.cycle = guarded

    try:
        _run(stop_at_one_hour)
    except Stop:
        pass
    progress = running[0].progress()
    assert (progress.reached, progress.last_submission) == (3600, 3600)
    assert (progress.workloads, progress.submitted, progress.finished, progress.preemptions) == (3, 3, 0, 0)
    assert progress.cycles >= 1


def test_progress_after_a_run_has_every_workload_finished_and_the_preemption():
    running = []
    result = _run(running.append)
    progress = running[0].progress()
    assert (progress.finished, progress.preemptions) == (3, 1)
    assert progress.reached >= result.end  # the last event may be a timer after the last workload event


def test_the_description_says_where_the_run_stood():
    text = Progress(reached=5400, last_submission=36000, workloads=10_000, submitted=1_500, finished=136,
                    preemptions=901, cycles=20_903).describe()
    assert text.startswith("it had simulated 1.5 h (the last submission is at 10.0 h): 1,500 of 10,000 workloads "
                           "submitted, 136 finished, 901 preemptions, 20,903 scheduling cycles run")


def test_the_status_line_is_short():
    progress = Progress(reached=5400, last_submission=36000, workloads=10_000, submitted=1_500, finished=136,
                        preemptions=901, cycles=20_903)
    assert progress.status() == "1.5 h simulated, 136/10,000 workloads finished, 901 preemptions"


def test_the_description_names_contention_only_when_preemptions_outnumber_completions():
    quiet = Progress(reached=0, last_submission=0, workloads=100, submitted=100, finished=40, preemptions=40, cycles=300)
    contended = Progress(reached=0, last_submission=0, workloads=100, submitted=100, finished=40, preemptions=41,
                         cycles=300)
    assert "contention" not in quiet.describe()
    assert "it preempted more workloads than it finished: under heavy contention" in contended.describe()
