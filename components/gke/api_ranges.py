"""The numbers GKE's API can hold: its node pool counts and sizes are 32-bit integers.

GKE API v1 (https://cloud.google.com/kubernetes-engine/docs/reference/rest/v1/projects.locations.clusters.nodePools):
`NodePool.initialNodeCount`, `NodePoolAutoscaling.minNodeCount`/`maxNodeCount`/`totalMinNodeCount`/
`totalMaxNodeCount`, `NodeConfig.diskSizeGb` and `NodeConfig.localSsdCount` are `integer (int32 format)`;
`setSize`'s `nodeCount` too. A larger value cannot be sent at all (pulumi-gcp fails at `up`, after the plan
said yes), so it is refused where it is declared: the environment spec bounds its own numbers with the same
limits (`spec.fields`), and the pack checks hand-written node pools (`node_pool_range_issues`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from gkecap.components.issues import Issue

INT32_MAX = 2**31 - 1
INT32_MIN = -(2**31)

# pulumi-gcp NodePool inputs (camelCase) that are int32 in the GKE API (the module docstring's source).
NODE_POOL_INT32_FIELDS = (
    "initialNodeCount",
    "nodeCount",
    "autoscaling.minNodeCount",
    "autoscaling.maxNodeCount",
    "autoscaling.totalMinNodeCount",
    "autoscaling.totalMaxNodeCount",
    "nodeConfig.diskSizeGb",
    "nodeConfig.localSsdCount",
)


def node_pool_range_issues(pool: Mapping[str, Any], prefix: str = "") -> list[Issue]:
    """An issue for each int32 field of a node pool's inputs holding a whole number outside int32."""
    issues = []
    for path, value in _numbers(pool):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        if value != value or value in (float("inf"), float("-inf")) or not INT32_MIN <= value <= INT32_MAX:
            issues.append(Issue(f"{prefix}{path}", f"{value!r} does not fit the GKE API's 32-bit field; allowed: up to {INT32_MAX}"))
    return issues


def _numbers(pool: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    for path in NODE_POOL_INT32_FIELDS:
        value: Any = pool
        for part in path.split("."):
            value = value.get(part) if isinstance(value, Mapping) else None
        if value is not None:
            yield path, value
