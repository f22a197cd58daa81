"""Topology-aware placement: which nodes of a pool take a workload's pods when its pod set asks for a topology
level (Kueue's TAS, BestFit, the subset the simulator models). Pure.

Transcribed from Kueue v0.19.2 `pkg/cache/scheduler/tas_flavor_snapshot.go` findTopologyAssignment for one pod set
without leaders or slices: phase 1 counts, per node and summed up each level, how many of its pods fit; phase 2a
(findLevelWithFitDomains) sorts the domains of the requested level by those counts (most first, then by their
label values) and takes the one that fits all pods with the fewest to spare; a `required` level with no such domain
fails (the workload waits), a `preferred` one tries the level above, and above the top level the pods are spread
over the fewest domains; phase 2b (updateCountsToMinimum) walks down the levels, filling the children of the chosen
domains most-room first, with the last one the best fit. The levels are gke-default's (block, sub-block, host,
node); a pool's layout says which nodes share a block and a sub-block (one VM per host).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

# gke-default's levels, coarsest first (gkecap.components.kubernetes_objects.flavors.TOPOLOGY_LEVELS).
LEVELS = ("block", "subblock", "host", "hostname")


@dataclass(frozen=True)
class TopologyRequest:
    """kueue.x-k8s.io/podset-required-topology (required) or podset-preferred-topology, at one of LEVELS."""

    level: str
    required: bool

    @property
    def index(self) -> int:
        return LEVELS.index(self.level)


@dataclass(frozen=True)
class Layout:
    """Which nodes share a block and a sub-block: nodes are numbered in the order the pool has them."""

    nodes_per_block: int
    nodes_per_subblock: int

    def path(self, slot: int) -> tuple[int, ...]:
        """A node's domain at each level: (block, sub-block, host, node); a host holds one VM."""
        return (slot // self.nodes_per_block, slot // self.nodes_per_subblock, slot, slot)


@dataclass
class _Domain:
    key: tuple[int, ...]  # its path down to its level: the label values it is sorted by
    pods: int  # how many of the pods fit in it
    children: list["_Domain"]
    node: int | None = None  # the index of the node, at the node level


def _order(domains: list[_Domain]) -> list[_Domain]:
    """sortedDomains (BestFit): the most pods first, then by label values."""
    return sorted(domains, key=lambda d: (-d.pods, d.key))


def _best_fit(domains: list[_Domain], count: int) -> _Domain:
    """findBestFitDomain: the first domain with the fewest pods that still hold `count`."""
    best = domains[0]
    for domain in domains:
        if count <= domain.pods < best.pods:
            best = domain
    return best


def _fill(domains: list[_Domain], count: int) -> list[tuple[_Domain, int]]:
    """updateCountsToMinimum: take sorted domains until `count` pods are placed, the last one a best fit."""
    chosen = []
    remaining = count
    for i, domain in enumerate(domains):
        if domain.pods >= remaining:
            chosen.append((_best_fit(domains[i:], remaining), remaining))
            return chosen
        if domain.pods:
            chosen.append((domain, domain.pods))
            remaining -= domain.pods
    return chosen


def place(paths: Sequence[tuple], fits: Sequence[int], count: int, level: int, required: bool) -> dict[int, int] | None:
    """Pods per leaf (by index) for `count` pods, where leaf i is at `paths[i]` (its label value at every level,
    coarsest first; the last level is the leaf's) and holds `fits[i]` more of them, for a request at level index
    `level`; None when the request cannot be met now."""
    if not paths or sum(fits) < count:
        return None
    depth = len(paths[0])
    levels: list[dict[tuple, _Domain]] = [{} for _ in range(depth)]
    for index, (path, room) in enumerate(zip(paths, fits)):
        parent = None
        for at in range(depth):
            key = tuple(path[:at + 1])
            domain = levels[at].get(key)
            if domain is None:
                domain = levels[at][key] = _Domain(key, 0, [])
                if parent is not None:
                    parent.children.append(domain)
            domain.pods += room
            parent = domain
        parent.node = index  # type: ignore[union-attr]
    while True:  # findLevelWithFitDomains
        ordered = _order(list(levels[level].values()))
        if ordered[0].pods >= count:
            chosen = [(_best_fit(ordered, count), count)]
            break
        if required:
            return None
        if level == 0:
            chosen = _fill(ordered, count)
            break
        level -= 1
    while level < depth - 1:  # down to the leaves, the children of every chosen domain together
        chosen = _fill(_order([child for domain, _ in chosen for child in domain.children]), count)
        level += 1
    return {domain.node: pods for domain, pods in chosen}  # type: ignore[misc]
