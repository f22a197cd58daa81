"""The simulator's shortcuts change no outcome: the nomination cache (a head's flavor assignment and targets reused
while what they read is unchanged) and the fair-sharing preemption test that stops a search before any candidate
is tried. Each is compared with the path without it, on random organisations with contention (derandomized)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent))

import golden  # noqa: E402

from gkecap.simulate import preemption  # noqa: E402
from gkecap.simulate.engine import Simulation  # noqa: E402

# No shrinking: a failing organisation is reported as drawn (shrinking whole simulations takes minutes).
SETTINGS = settings(max_examples=6, deadline=None, derandomize=True, database=None,
                    phases=[Phase.explicit, Phase.generate],
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
# Two or three departments (generate.py makes departments of ten teams), so that the cache has answers to reuse.
ORGANISATIONS = st.tuples(st.integers(11, 26), st.integers(100, 260), st.integers(0, 10_000))


def _simulate(monkeypatch, teams: int, count: int, seed: int, *, cache: bool, horizon: int | None = golden.RANDOM_HORIZON) -> dict:
    """benchmarks/simulate.py's organisation (by default with submissions squeezed into 5 days), with or without the
    cache."""
    original = Simulation.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        self.scheduler.cache_nominations = cache

    with monkeypatch.context() as patch:
        patch.setattr(Simulation, "__init__", init)
        return json.loads(json.dumps(golden.generated_json(teams, count, seed, horizon), sort_keys=True))


@SETTINGS
@given(ORGANISATIONS)
def test_nomination_cache_changes_no_outcome(monkeypatch, organisation):
    teams, count, seed = organisation
    assert _simulate(monkeypatch, teams, count, seed, cache=True) == _simulate(monkeypatch, teams, count, seed, cache=False)


@SETTINGS
@given(ORGANISATIONS)
def test_no_target_test_agrees_with_the_full_search(monkeypatch, organisation):
    """Wherever the test says no candidate can pass, the full search (both strategies) finds no target either."""
    original = preemption._no_target_passes
    checked = []

    def test_then_search(ctx, candidates):
        verdict = original(ctx, candidates)
        if verdict:
            ctx.cluster.remove_usage(ctx.queue, ctx.usage)  # fair_preemptions adds it again
            with monkeypatch.context() as inner:
                inner.setattr(preemption, "_no_target_passes", lambda *_: False)
                assert preemption.fair_preemptions(ctx) == []
            ctx.cluster.add_usage(ctx.queue, ctx.usage)
            checked.append(ctx.preemptor.name)
        return verdict

    monkeypatch.setattr(preemption, "_no_target_passes", test_then_search)
    golden.generated_json(*organisation, golden.RANDOM_HORIZON)
    assert checked, "the organisation had no search that the test cut short"


def _nominations(monkeypatch, teams: int, count: int, seed: int, *, cache: bool) -> tuple[int, int]:
    """(heads nominated, nominations computed) in one simulation."""
    from gkecap.simulate import scheduler

    computed, asked = [], []
    assign, heads = scheduler.assign_flavors, scheduler.Scheduler.heads
    monkeypatch.setattr(scheduler, "assign_flavors", lambda *a, **k: computed.append(1) or assign(*a, **k))

    def counted_heads(self):
        result = heads(self)
        asked.extend(result)
        return result

    monkeypatch.setattr(scheduler.Scheduler, "heads", counted_heads)
    _simulate(monkeypatch, teams, count, seed, cache=cache, horizon=None)
    return len(asked), len(computed)


def test_most_nominations_come_from_the_cache(monkeypatch):
    # Three departments: a release in one sends every inadmissible workload of the organisation back to its queue,
    # and only its own department's answers can have changed.
    asked, computed = _nominations(monkeypatch, 30, 1500, 7, cache=True)
    assert computed < asked / 2


def test_without_the_cache_every_nomination_is_computed(monkeypatch):
    asked, computed = _nominations(monkeypatch, 4, 200, 7, cache=False)
    assert computed == asked
