"""node-pool-field-ranges: a hand-written node pool's counts and sizes fit the GKE API's 32-bit fields.

The limits are gke's (`gkecap.components.gke.api_ranges`, the same the environment spec applies); a pool with
`totalMaxNodeCount: 10**30` cannot be sent to GKE at all, so it must not pass a plan.
"""

from __future__ import annotations

from gkecap.components.gke.api_ranges import node_pool_range_issues
from gkecap.policies.resource_view import ResourceView
from gkecap.policies.rules.node_pool_props import node_pools


def check_node_pool_ranges(resource: ResourceView, config: dict) -> list[str]:
    """node-pool-field-ranges: int32 fields of every node pool the resource declares."""
    messages = []
    for pool in node_pools(resource):
        for issue in node_pool_range_issues(pool.props, pool.field_prefix):
            messages.append(f"{pool.label}: {issue.path}: {issue.message}.")
    return messages
