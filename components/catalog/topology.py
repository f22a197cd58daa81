"""Parsing topology strings ("4x4", "2x2x1") and the cube rule of 3D TPU families."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

from gkecap.components.catalog.errors import CatalogError

_TOPOLOGY = re.compile(r"^[0-9]+(x[0-9]+)+$")


def normalize_topology(topology: str) -> str:
    """'4 X 4' -> '4x4'. Lenient on spaces and on the case of the separator (gcloud documents lower case 'x')."""
    if not isinstance(topology, str):
        raise CatalogError(f"topology must be a string like '2x4' or '2x2x1', got {topology!r}")
    return re.sub(r"\s+", "", topology).lower()


def topology_problem(topology: str, dims: int | None = None) -> str | None:
    """Why `topology` is not a well-formed topology string (of `dims` dimensions), or None if it is."""
    text = normalize_topology(topology)
    if not _TOPOLOGY.match(text):
        return "expected sizes joined by 'x', like " + {2: "'2x4'", 3: "'2x2x1'"}.get(dims or 0, "'2x4' or '2x2x1'")
    sizes = [int(part) for part in text.split("x")]
    if any(size < 1 for size in sizes):
        return "every size must be at least 1"
    if dims is not None and len(sizes) != dims:
        return f"it has {len(sizes)} dimensions, expected {dims}"
    return None


def parse_topology(topology: str, dims: int | None = None) -> tuple[int, ...]:
    """'2x2x1' -> (2, 2, 1). Raises CatalogError for malformed strings, zero sizes, or the wrong dimension count."""
    problem = topology_problem(topology, dims)
    if problem is not None:
        raise CatalogError(f"{topology!r} is not a valid topology: {problem}")
    return tuple(int(part) for part in normalize_topology(topology).split("x"))


def format_topology(sizes: tuple[int, ...]) -> str:
    return "x".join(str(s) for s in sizes)


def chips_in(sizes: tuple[int, ...]) -> int:
    return math.prod(sizes)


@dataclass(frozen=True)
class CubeRule:
    """xpk's generate_tpu_topologies(max_cubes, enforce_nondecreasing). FACTS A.2 [S1 L207-227]

    Valid: the sub-cube shapes 2x2x1, 2x2x2, 2x2x4, 2x4x4, plus every AxBxC with A, B, C multiples of 4
    up to 256, at most ``max_cubes`` 4x4x4 cubes, and A <= B <= C when ``enforce_nondecreasing``.
    """

    max_cubes: int
    enforce_nondecreasing: bool = True
    small_shapes: tuple[str, ...] = ("2x2x1", "2x2x2", "2x2x4", "2x4x4")
    cube_edge: int = 4
    max_edge: int = 256

    def allows(self, sizes: tuple[int, ...]) -> bool:
        if format_topology(sizes) in self.small_shapes:
            return True
        if len(sizes) != 3 or any(s % self.cube_edge or s > self.max_edge for s in sizes):
            return False
        if self.enforce_nondecreasing and list(sizes) != sorted(sizes):
            return False
        return math.prod(s // self.cube_edge for s in sizes) <= self.max_cubes

    def topologies(self) -> tuple[str, ...]:
        return _generate(self)

    def describe(self) -> str:
        order = ", A<=B<=C" if self.enforce_nondecreasing else " (any order)"
        max_chips = self.max_cubes * self.cube_edge**3
        return (
            f"{', '.join(self.small_shapes)}, or AxBxC with A,B,C multiples of {self.cube_edge} "
            f"(up to {self.max_edge}){order} and (A/4)*(B/4)*(C/4) <= {self.max_cubes} cubes "
            f"(at most {max_chips} chips), e.g. {', '.join(self.examples())}"
        )

    def examples(self) -> tuple[str, ...]:
        generated = [t for t in self.topologies() if t not in self.small_shapes]
        return tuple(generated[:4])


@lru_cache(maxsize=None)
def _generate(rule: CubeRule) -> tuple[str, ...]:
    max_cubes_per_edge = rule.max_edge // rule.cube_edge
    shapes = [tuple(int(p) for p in t.split("x")) for t in rule.small_shapes]
    for x in range(1, min(rule.max_cubes, max_cubes_per_edge) + 1):
        for y in range(1, min(rule.max_cubes // x, max_cubes_per_edge) + 1):
            for z in range(1, min(rule.max_cubes // (x * y), max_cubes_per_edge) + 1):
                sizes = (x * rule.cube_edge, y * rule.cube_edge, z * rule.cube_edge)
                if rule.allows(sizes):
                    shapes.append(sizes)
    # Sorted by chip count, then lexicographically, so listings read small to large.
    unique = sorted(set(shapes), key=lambda s: (math.prod(s), s))
    return tuple(format_topology(s) for s in unique)
