"""gkecap.graphs.strongly_connected against the definition: two nodes share a component exactly when each reaches
the other."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gkecap.graphs import strongly_connected

NODES = "abcdefg"
graphs = st.dictionaries(st.sampled_from(NODES), st.sets(st.sampled_from(NODES), max_size=4), max_size=len(NODES))


def _reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = {start}, [start]
    while todo:
        for child in graph.get(todo.pop(), ()):
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return seen


@settings(max_examples=200, deadline=None)
@given(graphs)
def test_components_are_the_mutually_reachable_nodes(graph):
    found = strongly_connected(sorted(graph), graph)
    reach = {node: _reachable(graph, node) for node in {*graph, *(c for cs in graph.values() for c in cs)}}
    expected = {frozenset(m for m in reach if m in reach[n] and n in reach[m]) for n in reach}
    assert {frozenset(c) for c in found} == expected


def test_each_node_is_in_exactly_one_component():
    graph = {"a": {"b"}, "b": {"a", "c"}, "c": {"d"}, "d": {"c"}, "e": set()}
    members = [node for component in strongly_connected(sorted(graph), graph) for node in component]
    assert sorted(members) == ["a", "b", "c", "d", "e"]


def test_a_component_completes_before_the_ones_that_lead_to_it():
    # Tarjan's order (reverse topological): the simulator reports cycles in this order before sorting them by time.
    graph = {"a": {"b"}, "b": {"a", "c"}, "c": {"d"}, "d": {"c"}}
    assert strongly_connected(["a"], graph) == [["c", "d"], ["a", "b"]]


def test_a_long_chain_needs_no_recursion():
    chain = {str(i): {str(i + 1)} for i in range(20_000)}
    assert len(strongly_connected(["0"], chain)) == 20_001
