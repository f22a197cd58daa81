"""Strongly connected components of a directed graph (Tarjan's algorithm, iterative). Stdlib only.

One implementation for the simulator's preemption cycles (gkecap.simulate.cycles) and the import-graph checks of
tests/test_layers.py. Iterative, so a graph of thousands of nodes (a run's preemptions) never meets Python's
recursion limit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping


def strongly_connected(nodes: Iterable[str], successors: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """Every strongly connected component (each sorted), in the order Tarjan's algorithm completes them: roots
    visited in the order of `nodes`, successors in sorted order, so the result does not depend on set order.
    A node only named as a successor is visited too (a component of its own unless it leads back)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []

    def visit(node: str) -> Iterable[str]:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        return iter(sorted(successors.get(node, ())))

    for root in nodes:
        if root in index:
            continue
        work = [(root, visit(root))]
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    work.append((child, visit(child)))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    components.append(sorted(component))
    return components
