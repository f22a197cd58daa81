"""Preemption cycles (issue 29): evictions take time, cycles are found and reported with what they cost and what
breaks them, and the engine's safety limits are reported when hit.

The two reproductions (data/cycles/) are three teams in one cohort with fair sharing, mixed 1- and 8-GPU jobs, with
one priority class and with two; each step of their cycles passes Kueue's own checks."""

from __future__ import annotations

import collections
from pathlib import Path

import pytest
import yaml
from rich.console import Console
from testkit.spec_data import NOW

from gkecap.components.kubernetes_objects.build import kueue_objects
from gkecap.components.model import derive
from gkecap.components.spec import load_environment
import gkecap.simulate as simulate
from gkecap.simulate import simulate_environment
from gkecap.simulate.cycles import apply_remedy, find_cycles, remedies
from gkecap.simulate import engine
from gkecap.simulate.engine import SimEvent
from gkecap.simulate.output import render_text, to_document
from gkecap.simulate.timeline import render_html
from gkecap.simulate.workloads_file import WorkloadsFile

DATA = Path(__file__).resolve().parent / "data" / "cycles"
# name -> (quotas of teams a, b, c in GPUs, a3-highgpu-8g nodes, priority classes)
REPRODUCTIONS = {"one-priority": ((4, 16, 12), 4, False), "two-priorities": ((16, 8, 16), 5, True)}


def _environment(quotas, nodes: int, priorities: bool) -> dict:
    env = {"region": "us-east5", "cluster": {"name": "c", "securityGroup": "gke-security-groups@acme.example"},
           "kueue": {"version": "v0.19.2", "fairSharing": True},
           "nodePools": [{"name": "h100", "machineType": "a3-highgpu-8g", "capacity": "on-demand",
                          "maxNodes": nodes, "zones": ["us-east5-a"]}],
           "cohorts": [{"name": "org"}],
           "teams": [{"name": t, "cohort": "org", "quota": {"h100": q}, "members": [f"group:{t}@acme.example"]}
                     for t, q in zip("abc", quotas)]}
    if priorities:
        env["priorityClasses"] = [{"name": "low", "value": 100}, {"name": "high", "value": 1000}]
    return env


def _reproduction(name: str, **delays):
    quotas, nodes, priorities = REPRODUCTIONS[name]
    model = derive(load_environment(_environment(quotas, nodes, priorities), now=NOW))
    document = yaml.safe_load((DATA / f"{name}.yaml").read_text())
    if delays:
        document["delays"] = delays
    return model, kueue_objects(model), WorkloadsFile.model_validate(document)


@pytest.fixture(scope="module", params=sorted(REPRODUCTIONS))
def reproduction(request):
    model, objects, document = _reproduction(request.param)
    return simulate_environment(model, objects, document)


def test_a_reproduction_ends_with_a_reported_cycle_of_the_three_teams(reproduction):
    [cycle] = reproduction.cycles
    assert cycle.teams == ["a", "b", "c"] and len(cycle.workloads) >= 3


def test_a_cycles_evictions_are_spread_over_time(reproduction):
    [cycle] = reproduction.cycles
    per_instant = collections.Counter(e.time for e in reproduction.events if e.event == "preempted")
    # Each eviction waits for the release of the quota before the next step: a handful per instant at most.
    assert max(per_instant.values()) <= 10 and cycle.last_at - cycle.first_at >= 600
    assert reproduction.limits == []


def test_a_cycles_cost_is_the_accelerator_time_its_evictions_threw_away(reproduction):
    [cycle] = reproduction.cycles
    members = set(cycle.workloads)
    own = [e for e in reproduction.events if e.event == "preempted" and e.workload in members and e.by in members]
    assert cycle.evictions == len(own) and cycle.lost == sum(e.lost for e in own) > 0


def test_the_json_lists_each_cycle(reproduction):
    [row] = to_document(reproduction)["cycles"]
    assert set(row) >= {"teams", "workloads", "firstAt", "evictions", "gpuHoursLost"}
    assert row["gpuHoursLost"] == round(reproduction.cycles[0].lost / 3600, 3) and row["unit"] == "GPUs"


def test_the_text_report_names_the_cycle_and_what_may_break_it(reproduction):
    console = Console(record=True, width=400)
    render_text(reproduction, console, source="repro")
    text = console.export_text()
    assert "Preemption cycles: 1" in text and "teams a, b, c" in text
    assert "teams[a].preemption.reclaimWithinCohort: LowerPriority" in text or "withinClusterQueue: Never" in text


def test_the_timeline_has_the_cycles_table(reproduction):
    html = render_html(reproduction)
    assert "<h2>Preemption cycles</h2>" in html and "shaded: preemption cycles" in html


@pytest.mark.parametrize("name", sorted(REPRODUCTIONS))
def test_a_change_reported_to_break_the_cycle_does(name):
    model, objects, document = _reproduction(name)
    result = simulate_environment(model, objects, document, try_fixes=True)
    [cycle] = result.cycles
    [fix] = [f for f in cycle.breaks if "reclaimWithinCohort: LowerPriority" in f["change"]]
    assert fix["verified"] is True
    # The same change, applied by hand to the emitted objects, leaves no cycle among these workloads.
    team_of = {w.name: w.team for w in result.workloads}
    cluster = simulate.cluster_from_objects(objects, fair_sharing=True)
    [remedy] = [r for r in remedies(cycle, result.events, cluster, team_of, {}, {}, {}) if r.change == fix["change"]]
    again = simulate_environment(model, apply_remedy(objects, remedy), document)
    assert not any(set(c.workloads) & set(cycle.workloads) for c in again.cycles)


def test_each_trial_of_try_fixes_is_handed_to_started_after_the_scenario():
    started = []
    result = simulate_environment(*_reproduction("two-priorities"), try_fixes=True, started=started.append)
    tried = {f["change"] for c in result.cycles for f in c.breaks if f["verified"] is not None}
    assert len(started) == 1 + len(tried)  # the scenario, then one run per change tried
    assert started[0].progress().finished == sum(1 for w in result.workloads if w.finished is not None)


def test_a_safety_cap_that_is_hit_is_reported(monkeypatch):
    monkeypatch.setattr(engine, "MAX_CYCLES_PER_INSTANT", 2)
    result = simulate_environment(*_reproduction("one-priority"))
    [limit, *_] = result.limits
    assert limit["limit"] == "MAX_CYCLES_PER_INSTANT" and limit["value"] == 2
    console = Console(record=True, width=400)
    render_text(result, console, source="repro")
    assert "Limit reached (MAX_CYCLES_PER_INSTANT = 2) at " in console.export_text()


def test_without_eviction_delays_kueues_requeue_batch_keeps_the_cycle_from_spinning_at_one_instant():
    # Quota released at once still puts the inadmissible workloads back only after Kueue's 1 s batch period
    # (gkecap.simulate.timing): the preemptor takes the quota first, and the cycle does not close at that instant.
    result = simulate_environment(*_reproduction("one-priority", termination=0, release=0))
    per_instant = collections.Counter(e.time for e in result.events if e.event == "preempted")
    assert not result.limits and max(per_instant.values()) <= 10


def test_trying_fixes_beyond_the_workload_limit_is_reported(monkeypatch):
    monkeypatch.setattr(simulate, "MAX_TRIAL_WORKLOADS", 5)
    result = simulate_environment(*_reproduction("two-priorities"), try_fixes=True)
    assert [limit["limit"] for limit in result.limits] == ["MAX_TRIAL_WORKLOADS"]
    assert all(fix["verified"] is None for fix in result.cycles[0].breaks)


# --- find_cycles on hand-made preemptions ---------------------------------------------------------------------


def _preempted(t: float, victim: str, by: str) -> SimEvent:
    return SimEvent(t, victim, "preempted", "h100", reason=f"InCohortReclamation by {by} (q)", by=by, lost=3600.0)


TEAMS = {"x": "a", "y": "b", "z": "c"}


def test_two_workloads_evicting_each_other_repeatedly_are_a_cycle():
    events = [_preempted(0, "x", "y"), _preempted(30, "y", "x"), _preempted(60, "x", "y")]
    [cycle] = find_cycles(events, TEAMS)
    assert (cycle.workloads, cycle.teams, cycle.evictions, cycle.first_at, cycle.last_at) == (
        ["x", "y"], ["a", "b"], 3, 0, 60)


def test_evicting_each_other_once_is_not_a_cycle():
    assert find_cycles([_preempted(0, "x", "y"), _preempted(30, "y", "x")], TEAMS) == []


def test_a_chain_of_preemptions_is_not_a_cycle():
    events = [_preempted(0, "x", "y"), _preempted(30, "y", "z"), _preempted(60, "x", "z"), _preempted(90, "x", "y")]
    assert find_cycles(events, TEAMS) == []


def _livelock():
    data = yaml.safe_load((DATA / "livelock.yaml").read_text())
    model = derive(load_environment(data["environment"], now=NOW))
    return model, kueue_objects(model), WorkloadsFile.model_validate(data["workloads"])


def test_a_livelock_at_one_instant_is_held_reported_and_the_run_ends():
    # Without eviction delays a victim can take its quota back at the same instant, as fast as Kueue's API allows;
    # the simulator holds the loop as it stands until another event (it used to replay it every second, forever).
    result = simulate_environment(*_livelock())
    [limit] = [limit for limit in result.limits if limit["limit"] == "LIVELOCK_REPEATS"]
    assert limit["at"] == 6961 and {"w3", "w21", "w25"} <= set(limit["message"].replace(",", " ").split())
    per_instant = collections.Counter(e.time for e in result.events if e.event == "preempted")
    assert max(per_instant.values()) < 100  # not engine.MAX_CYCLES_PER_INSTANT's 1,000 at every second


def test_a_held_livelock_resumes_with_the_next_event_and_its_workloads_finish():
    result = simulate_environment(*_livelock())
    admitted_later = {e.workload for e in result.events if e.event == "admitted" and e.time > 6961}
    assert {"w3", "w21", "w25"} <= admitted_later
    # Every workload that ever got quota finishes (the others never fit: 16 GPUs beyond their teams' reach).
    assert all(w.finished is not None for w in result.workloads if w.admitted is not None)


def test_the_event_guard_ends_a_run_and_says_so(monkeypatch):
    monkeypatch.setattr(engine, "MAX_EVENTS_PER_WORKLOAD", 2)
    result = simulate_environment(*_reproduction("one-priority"))
    [limit] = [limit for limit in result.limits if limit["limit"] == "MAX_EVENTS_PER_WORKLOAD"]
    assert limit["value"] == 2 and "stopped" in limit["message"]
    assert any(w.finished is None for w in result.workloads)
