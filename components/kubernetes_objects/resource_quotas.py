"""Defence in depth: a ResourceQuota on accelerator requests in each team namespace (`teams[i].resourceQuota`).

Kueue admits at most a team's nominal quota plus what it may borrow; a ResourceQuota of that size stops pods
beyond it even when another layer fails (a namespace left out of Kueue's management, a controller the admission
policy does not know). Extended resources are quota'd by their `requests.` name only
(https://kubernetes.io/docs/concepts/policy/resource-quotas/#resource-quota-for-extended-resources), in the units
the nodes advertise (the project's quota units). A resource the team can never be admitted to gets 0.

Caveats the README repeats: the quota holds per namespace (a team with two namespaces could reach it in each,
Kueue still bounds the sum), and pods that exist before admission count against it (Kueue's pod integration
creates gated pods), so pending plain pods can be refused by the quota instead of waiting in the queue.
"""

from __future__ import annotations

from gkecap.components.catalog import GPU_RESOURCE, TPU_RESOURCE
from gkecap.components.kubernetes_objects.queues import root_cohort, team_pools
from gkecap.components.kubernetes_objects.team_access import team_labels
from gkecap.components.model import CapacityModel, TeamPlan

ACCELERATOR_RESOURCES = (GPU_RESOURCE, TPU_RESOURCE)


def admissible_units(model: CapacityModel, team: TeamPlan) -> dict[str, int]:
    """Per accelerator resource, the most Kueue can ever admit for the team: on each flavor of its ClusterQueue,
    its nominal quota plus what it may borrow there: what its cohort tree holds of that pool, less its own quota
    and what the other teams keep back (quota above their lendingLimit), at most its borrowingLimit. A cohort's own
    lending limit is not subtracted, so the figure never undercounts."""
    totals = {resource: 0 for resource in ACCELERATOR_RESOURCES}
    root = root_cohort(model, team.cohort).name if team.cohort is not None else None
    tree = model.cohort(root).subtree_quota if root is not None else {}
    kept: dict[str, int] = {}  # pool -> quota the other teams of the tree do not lend
    for other in model.teams:
        if other.name == team.name or other.cohort is None or root_cohort(model, other.cohort).name != root:
            continue
        for pool_name, limit in other.lending_limits.items():
            kept[pool_name] = kept.get(pool_name, 0) + max(other.quotas.get(pool_name, 0) - limit, 0)
    for pool in team_pools(model, team):
        nominal = team.quotas.get(pool.name, 0)
        borrowable = max(tree.get(pool.name, 0) - nominal - kept.get(pool.name, 0), 0) if root is not None else 0
        borrowing_limit = team.borrowing_limits.get(pool.name)
        if borrowing_limit is not None:
            borrowable = min(borrowable, borrowing_limit)
        totals[pool.resource_name] = totals.get(pool.resource_name, 0) + nominal + borrowable
    return totals


def resource_quota_name(team: str) -> str:
    return f"gkecap-{team}-accelerators"


def resource_quotas(model: CapacityModel, team: TeamPlan) -> list[dict]:
    """The team's ResourceQuotas (one per namespace), or none when `resourceQuota` is off."""
    if not team.resource_quota:
        return []
    hard = {f"requests.{resource}": str(units) for resource, units in admissible_units(model, team).items()}
    return [
        {
            "apiVersion": "v1",
            "kind": "ResourceQuota",
            "metadata": {"name": resource_quota_name(team.name), "namespace": ns, "labels": team_labels(team.name)},
            "spec": {"hard": hard},
        }
        for ns in team.namespaces
    ]
