"""The simulator's shortcuts change no outcome: the nomination cache (a head's flavor assignment and targets reused
while what they read is unchanged) and the fair-sharing preemption test that stops a search before any candidate
is tried. Each is compared with the path without it, on random organisations with contention (derandomized)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
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


# --- every shortcut switched off (issue 21, item 6) --------------------------------------------------------------

from testkit.spec_data import NOW  # noqa: E402

from gkecap.components.kubernetes_objects.build import kueue_objects  # noqa: E402
from gkecap.components.model import derive  # noqa: E402
from gkecap.components.spec import load_environment  # noqa: E402
from gkecap.simulate import simulate_environment  # noqa: E402
from gkecap.simulate.output import to_document  # noqa: E402
from gkecap.simulate.shortcuts import ALL_OFF, NAMES, SHORTCUTS, switched  # noqa: E402
from gkecap.simulate.workloads_file import WorkloadsFile  # noqa: E402

POOLS = {"h100-a": "on-demand", "h100-q": "queued"}  # two flavors of one resource; the queued one has a check
GPUS_PER_NODE = 8  # a3-highgpu-8g


@st.composite
def scenarios(draw) -> tuple[dict, dict]:
    """A random organisation and workload, with contention: two departments (child cohorts of one root, one of them
    with quota of its own), 3 to 5 teams with weights, two GPU flavors in one resource group (one behind a ProvisioningRequest
    admission check), fair sharing on or off, two priority classes, pods pinned to a pool or free to take either
    flavor, some with `minPods` (partial admission) or cpu requests, and evictions with or without delays."""
    nodes = {pool: draw(st.integers(1, 3)) for pool in POOLS}
    teams = draw(st.integers(3, 5))
    department_quota = draw(st.sampled_from([0, 2]))
    env = {
        "region": "us-east5", "cluster": {"name": "c", "securityGroup": "gke-security-groups@acme.example"},
        "kueue": {"version": "v0.19.2", "fairSharing": draw(st.booleans())},
        "nodePools": [{"name": pool, "machineType": "a3-highgpu-8g", "capacity": capacity, "maxNodes": nodes[pool],
                       "zones": ["us-east5-a"]} for pool, capacity in POOLS.items()],
        "cohorts": [{"name": "org"}, {"name": "d1", "parent": "org"},
                    {"name": "d2", "parent": "org", **({"quota": {"h100-a": department_quota}}
                                                        if department_quota else {})}],
        "priorityClasses": [{"name": "low", "value": 100}, {"name": "high", "value": 1000}],
        "teams": [],
    }
    for i in range(teams):
        quota = {pool: draw(st.integers(1 if pool == "h100-a" else 0,
                                        (nodes[pool] * GPUS_PER_NODE - (department_quota if pool == "h100-a" else 0))
                                        // teams)) for pool in POOLS}
        env["teams"].append({"name": f"t{i}", "cohort": draw(st.sampled_from(["d1", "d2"])),
                             "quota": {p: q for p, q in quota.items() if q}, "weight": draw(st.sampled_from([1, 2])),
                             "members": [f"group:t{i}@acme.example"]})
    workloads = [{
        "name": f"w{i}", "team": f"t{draw(st.integers(0, teams - 1))}", "pods": draw(st.integers(1, 2)),
        "accelerators": draw(st.sampled_from([1, 2, 4, 8])), "priority": draw(st.sampled_from(["low", "high"])),
        "submit": 60 * draw(st.integers(0, 60)), "duration": 1200 * draw(st.integers(1, 6)),
    } for i in range(draw(st.integers(10, 30)))]
    for w in workloads:  # pinned, or free to take either flavor of its team
        team = next(t for t in env["teams"] if t["name"] == w["team"])
        pool = draw(st.sampled_from([None, *sorted(team["quota"])]))
        if pool:
            w["pool"] = pool
        if draw(st.booleans()):  # partial admission, and cpu beside the GPUs (issue 21 item 7)
            w["minPods"] = draw(st.integers(1, w["pods"]))
        if draw(st.booleans()):
            w["cpu"] = draw(st.sampled_from(["8", "26", "100"]))
    document = {"start": "2026-12-01T00:00:00Z", "workloads": workloads}
    if draw(st.booleans()):
        document["delays"] = {"termination": 0, "release": 0}
    return env, document


def _run(env: dict, document: dict) -> dict:
    model = derive(load_environment(env, now=NOW))
    result = simulate_environment(model, kueue_objects(model), WorkloadsFile.model_validate(document))
    return json.loads(json.dumps(to_document(result), sort_keys=True))


@settings(max_examples=30, deadline=None, derandomize=True, database=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(scenarios())
def test_every_shortcut_off_changes_no_outcome(scenario):
    env, document = scenario
    with switched(**ALL_OFF):
        plain = _run(env, document)
    assert _run(env, document) == plain


@pytest.mark.parametrize("name", NAMES)
def test_each_shortcut_alone_off_changes_no_outcome(name):
    # The benchmark's organisation at a small size, with contention (submissions over 5 days).
    with switched(**{name: False}):
        plain = golden.generated_json(12, 240, 5, golden.RANDOM_HORIZON)
    assert golden.generated_json(12, 240, 5, golden.RANDOM_HORIZON) == plain


def test_switches_are_restored_after_the_block():
    with switched(**ALL_OFF):
        assert not any(getattr(SHORTCUTS, name) for name in NAMES)
    assert all(getattr(SHORTCUTS, name) for name in NAMES)


def test_an_unknown_shortcut_is_an_error():
    with pytest.raises(ValueError, match="unknown shortcuts"):
        with switched(fast=False):
            pass


# --- nominations reused from an equal earlier state (issue 29's speed, repeated_states) ---------------------------


def _contention(teams: int, count: int, fair_sharing: bool) -> dict:
    """benchmarks/simulate.py's contention mix: every team over its quota, preemption and borrowing on."""
    sys.path.insert(0, str(golden.ROOT / "benchmarks"))
    import simulate as bench  # benchmarks/simulate.py

    model = derive(load_environment(bench.contention_environment(teams, fair_sharing), now=bench.NOW))
    document = WorkloadsFile.model_validate(bench.contention_workloads(teams, count))
    return json.loads(json.dumps(to_document(simulate_environment(model, kueue_objects(model), document)),
                                 sort_keys=True))


@pytest.mark.parametrize("fair_sharing", [True, False], ids=["fair-sharing", "classical"])
def test_nominations_from_repeated_states_change_no_outcome_under_contention(monkeypatch, fair_sharing):
    schedulers = []
    original = Simulation.__init__

    def init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        schedulers.append(self.scheduler)

    with switched(repeated_states=False):
        plain = _contention(3, 100, fair_sharing)
    monkeypatch.setattr(Simulation, "__init__", init)
    assert _contention(3, 100, fair_sharing) == plain
    assert schedulers[0].reused_nominations > 0, "no nomination came from an equal earlier state: not exercised"


def _within_queue_preemption():
    """One queue of 2 GPUs whose higher-priority arrival preempts within the queue: Kueue takes the most recently
    admitted of two equal candidates (CandidatesOrdering)."""
    from testkit.kueue_sim import build_cluster, cq, wl

    from gkecap.simulate.scheduler import Scheduler

    cluster = build_cluster([cq("q", groups=[{"f": {"gpu": "2"}}], within="LowerPriority")])
    scheduler = Scheduler(cluster)
    a, b = wl("a", "q", {"gpu": "1"}), wl("b", "q", {"gpu": "1"})
    preemptor = wl("p", "q", {"gpu": "1"}, priority=10)
    return cluster, scheduler, a, b, preemptor


def _admit(cluster, *workloads, at: float) -> None:
    for w in workloads:
        w.flavors, w.reserved_at = [{"gpu": "f"}], at
        cluster.add_workload(w)
        at += 1


def _target(scheduler, preemptor) -> str:
    [target] = scheduler._nominate(preemptor, 100.0).targets
    return target.workload.name


def test_an_equal_state_is_equal_in_the_order_of_admission_too():
    cluster, scheduler, a, b, preemptor = _within_queue_preemption()
    _admit(cluster, a, b, at=1.0)
    assert _target(scheduler, preemptor) == "b"
    for evicted in (True, False):  # the same content again: its answers are kept from now on
        cluster.mark_evicted(a, evicted)
    assert _target(scheduler, preemptor) == "b"
    for w in (a, b):
        cluster.remove_workload(w)
    _admit(cluster, b, a, at=10.0)  # the same workloads, admitted in the other order
    assert _target(scheduler, preemptor) == "a"
    assert scheduler.reused_nominations == 0


def test_an_equal_state_answers_from_its_second_visit():
    cluster, scheduler, a, b, preemptor = _within_queue_preemption()
    _admit(cluster, a, b, at=1.0)
    for _ in range(3):
        cluster.mark_evicted(a, True)
        cluster.mark_evicted(a, False)
        assert _target(scheduler, preemptor) == "b"
    assert scheduler.reused_nominations == 1


def test_an_evicted_mark_makes_another_state():
    # Candidates being evicted come first: with `a` marked, `a` is the target although `b` is newer.
    cluster, scheduler, a, b, preemptor = _within_queue_preemption()
    _admit(cluster, a, b, at=1.0)
    for _ in range(2):
        cluster.mark_evicted(b, True)
        cluster.mark_evicted(b, False)
        assert _target(scheduler, preemptor) == "b"
    cluster.mark_evicted(a, True)
    assert _target(scheduler, preemptor) == "a"


# --- preemption searches bounded by everything their candidates hold (bounded_search) ------------------------------


def _bound_checked(monkeypatch) -> list[str]:
    """Wrap both bounds: wherever one says no attempt can fit, run the full search with the bound off and require
    that it finds no target either. Returns the preemptors checked."""
    checked: list[str] = []
    for name, search in (("_classical_hopeless", "classical_preemptions"), ("_fair_hopeless", "fair_preemptions")):
        original = getattr(preemption, name)

        def bound_then_search(ctx, *args, _original=original, _search=search):
            verdict = _original(ctx, *args)
            if verdict:
                with switched(bounded_search=False), ctx.cluster.tentative():
                    assert getattr(preemption, _search)(ctx) == [], f"{ctx.preemptor.name}: the bound cut a search short"
                checked.append(ctx.preemptor.name)
            return verdict

        monkeypatch.setattr(preemption, name, bound_then_search)
    return checked


@settings(max_examples=30, deadline=None, derandomize=True, database=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture])
@given(scenarios())
def test_a_hopeless_search_finds_no_target_in_full(monkeypatch, scenario):
    """Hierarchical cohorts, department quota, two flavors, priorities, fair sharing on and off (the scenarios above)."""
    with monkeypatch.context() as patch:
        _bound_checked(patch)
        _run(*scenario)


@pytest.mark.parametrize("fair_sharing", [True, False], ids=["fair-sharing", "classical"])
def test_a_hopeless_search_finds_no_target_in_full_under_contention(monkeypatch, fair_sharing):
    checked = _bound_checked(monkeypatch)
    _contention(4, 120, fair_sharing)
    assert checked, "no search was bounded: not exercised"


@pytest.mark.parametrize("fair_sharing", [True, False], ids=["fair-sharing", "classical"])
def test_bounded_searches_change_no_outcome_under_contention(fair_sharing):
    with switched(bounded_search=False):
        plain = _contention(4, 120, fair_sharing)
    assert _contention(4, 120, fair_sharing) == plain


def test_candidate_totals_by_priority_are_the_candidates_counted_one_by_one(monkeypatch):
    """The classical bound sums what other queues' candidates hold from their sums by priority (memoised_facts);
    it must be the sum over the candidates _classify accepts, variant by variant (threshold and policies included)."""
    compared = []
    original = preemption._candidate_totals

    def both(ctx):
        with switched(memoised_facts=False):
            plain = original(ctx)
        memoised = original(ctx)
        assert memoised == plain, ctx.preemptor.name
        compared.append(plain)
        return memoised

    monkeypatch.setattr(preemption, "_candidate_totals", both)
    _contention(4, 120, False)
    assert any(totals[1] != totals[2] and any(totals[1].values()) for totals in compared), "not exercised"


@settings(max_examples=15, deadline=None, derandomize=True, database=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture])
@given(scenarios())
def test_candidate_totals_by_priority_agree_in_hierarchical_cohorts(monkeypatch, scenario):
    original = preemption._candidate_totals

    def both(ctx):
        with switched(memoised_facts=False):
            plain = original(ctx)
        assert original(ctx) == plain, ctx.preemptor.name
        return plain

    with monkeypatch.context() as patch:
        patch.setattr(preemption, "_candidate_totals", both)
        _run(*scenario)


def _classified_both_ways(hits: list):
    """_from_queue that also classifies afresh (memoised_facts off) and requires the same candidates."""
    original = preemption._from_queue

    def both(ctx, queue, lca, advantage):
        kept = queue.__dict__.get("_from_queue")
        hits.append(kept is not None and kept[0] == queue.membership and bool(kept[1]))
        with switched(memoised_facts=False):
            plain = original(ctx, queue, lca, advantage)
        memoised = original(ctx, queue, lca, advantage)
        assert [(c.workload.name, c.lca, c.variant) for c in memoised] == \
            [(c.workload.name, c.lca, c.variant) for c in plain], (ctx.preemptor.name, queue.name)
        return memoised

    return both


def test_classified_candidates_kept_per_queue_are_the_ones_classified_afresh(monkeypatch):
    """Classical searches in a cohort of many queues reuse each queue's classified candidates while its workloads
    are the same (memoised_facts); they must be what _classify gives now, preemptor by preemptor."""
    hits: list[bool] = []
    monkeypatch.setattr(preemption, "_from_queue", _classified_both_ways(hits))
    _contention(6, 180, False)
    assert any(hits), "no queue's candidates were reused: not exercised"


@settings(max_examples=15, deadline=None, derandomize=True, database=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture])
@given(scenarios())
def test_classified_candidates_kept_per_queue_agree_in_hierarchical_cohorts(monkeypatch, scenario):
    with monkeypatch.context() as patch:
        patch.setattr(preemption, "_from_queue", _classified_both_ways([]))
        _run(*scenario)


def test_the_share_heap_changes_no_outcome_under_contention(monkeypatch):
    """Fair sharing with every team over quota: many queues hold candidates in every preemption search."""
    refreshed = []
    original = preemption._QueueOrdering._entry
    with switched(share_heap=False):
        plain = _contention(5, 150, True)
    monkeypatch.setattr(preemption._QueueOrdering, "_entry",
                        lambda self, *a: refreshed.append(1) or original(self, *a))
    assert _contention(5, 150, True) == plain
    assert refreshed, "no search used the heap: not exercised"
