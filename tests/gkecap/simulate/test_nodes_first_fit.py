"""The `node_first_fit` shortcut (gkecap.simulate.nodes.FirstFit): the node a pod gets and the nodes the cluster
autoscaler adds are what the plain scan in node order gives, on random pools and random pod traffic."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gkecap.simulate.nodes import Delays, FirstFit, PoolNodes
from gkecap.simulate.shortcuts import switched


def _scan(values: list[int], need: int) -> int:
    return next((i for i, v in enumerate(values) if v >= need), -1)


@given(st.lists(st.integers(0, 16), max_size=40), st.lists(st.tuples(st.integers(0, 39), st.integers(0, 16))),
       st.integers(0, 17))
def test_first_fit_finds_what_a_scan_from_the_start_finds(values, changes, need):
    fit = FirstFit(values)
    assert fit.first(need) == _scan(values, need)
    for index, value in changes:
        if index < len(values):
            values[index] = value
            fit.set(index, value)
            assert fit.first(need) == _scan(values, need)


def test_places_not_yet_taken_never_fit():
    fit = FirstFit([], capacity=5)
    assert fit.first(0) == -1
    fit.set(2, 0)
    assert fit.first(0) == 2


# One pool's traffic: each step admits pods (units per pod, cpu or none), releases an earlier workload, or lets time
# pass; every step schedules.
STEPS = st.lists(st.one_of(
    st.tuples(st.just("admit"), st.integers(1, 4), st.sampled_from([1, 2, 3, 4, 8]), st.sampled_from([0, 0, 0, 40])),
    st.tuples(st.just("release"), st.integers(0, 30), st.just(0), st.just(0)),
    st.tuples(st.just("wait"), st.sampled_from([60, 300, 900]), st.just(0), st.just(0)),
), max_size=40)


def _run(autoscaled: bool, max_nodes: int, steps) -> list:
    pool = PoolNodes("p", 8, 1, lambda t: max_nodes, autoscaled=autoscaled, min_nodes=1 if autoscaled else 0,
                     delays=Delays(provisioning=240, scale_down=600), host={"cpu": 100, "memory": 1 << 40})
    now, admitted, trace = 0.0, [], []
    for i, (kind, a, b, c) in enumerate(steps):
        if kind == "admit":
            name = f"w{i}"
            pool.admit(name, a, b, (0, now, i), host={"cpu": c} if c else None)
            admitted.append(name)
        elif kind == "release" and admitted:
            pool.release(admitted.pop(a % len(admitted)), now)
        else:
            now += a
        started = pool.schedule(now)
        trace.append((started, [(n.free, n.cpu, n.ready_at) for n in pool.nodes],
                      {name: [pool.nodes.index(n) for n in claim.bound] for name, claim in pool.claims.items()}))
    return trace


@settings(max_examples=60, deadline=None)
@given(st.booleans(), st.integers(1, 12), STEPS)
def test_pods_get_the_nodes_the_scan_gives(autoscaled, max_nodes, steps):
    with switched(node_first_fit=False):
        plain = _run(autoscaled, max_nodes, steps)
    assert _run(autoscaled, max_nodes, steps) == plain
