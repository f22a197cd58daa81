"""Kueue objects that share capacity: a ClusterQueue per team, Cohorts, LocalQueues, WorkloadPriorityClasses.
Pure: CapacityModel in, object dicts out.

Quotas are accelerators (GPUs or TPU chips) per pool in the environment file. Every queue covers, in one
resource group, the accelerator resources of its flavors and the cpu and memory that come with them (the
machine type's vCPUs and memory per node, pro rata: quota / accelerators per node x per-node amount), so a
pod's cpu and memory requests never make a workload inadmissible for an uncovered resource. One group, not
one per accelerator kind: Kueue rejects a resource covered by two groups (R-CQ-2), and cpu/memory are
shared by GPU and TPU flavors. A flavor lists 0 of the accelerator it does not have.

Which flavors a team's queue lists: the pools it has quota, a borrowing limit or a lending limit on, plus,
in a cohort, every pool with quota anywhere in its cohort tree (nominal 0): borrowing happens per flavor,
so this is what lets a team run on idle GPUs of others (Run:AI's over-quota), and reclaimWithinCohort
gives the owners their quota back.
"""

from __future__ import annotations

from gkecap.components import kueue_api
from gkecap.components.catalog import GPU_RESOURCE, TPU_RESOURCE
from gkecap.components.kueue_api import Quota
from gkecap.components.kueue_api.job_management import DEFAULT_LOCAL_QUEUE, supports_default_local_queue
from gkecap.components.kubernetes_objects.flavors import admission_check_name, api_version_of
from gkecap.components.model import CapacityModel, CohortPlan, PoolPlan, TeamPlan
from gkecap.components.kubernetes_objects.team_access import MANAGED_BY, MANAGED_BY_LABEL, namespace_selector, team_labels

HOST_RESOURCES = ("cpu", "memory")
COVERED_ORDER = ("cpu", "memory", GPU_RESOURCE, TPU_RESOURCE)

# Flavor fungibility: use committed capacity first even if that means borrowing there (MayStopSearch, the
# v1beta1 spelling is Borrow), but try the next flavor before preempting anyone (TryNextFlavor).
# Kueue's defaults, written out; v1beta1 values as Kueue < v0.15 knows them (FACTS D [S2] conversion).
FLAVOR_FUNGIBILITY = {
    "v1beta2": {"whenCanBorrow": "MayStopSearch", "whenCanPreempt": "TryNextFlavor"},
    "v1beta1": {"whenCanBorrow": "Borrow", "whenCanPreempt": "TryNextFlavor"},
}
# v1beta1 spells MayStopSearch per field (Kueue's v1beta2 conversion, FACTS D [S2]).
_V1BETA1_STOP = {"whenCanBorrow": "Borrow", "whenCanPreempt": "Preempt"}


def flavor_fungibility(team: TeamPlan, api_version: str) -> dict[str, str]:
    """Kueue's defaults with what the team sets, in the API version's spelling."""
    result = dict(FLAVOR_FUNGIBILITY[api_version])
    for key, value in team.flavor_fungibility.items():
        result[key] = _V1BETA1_STOP[key] if api_version == "v1beta1" and value == "MayStopSearch" else value
    return result


def quantity(value: float) -> int | str:
    """A fair-sharing weight as a Kubernetes quantity: an int when whole, else the decimal string."""
    return int(value) if float(value).is_integer() else repr(float(value))


def covered_resources(pools: list[PoolPlan]) -> list[str]:
    """Accelerator resources of the pools, plus cpu and memory when the catalog knows them for every pool
    (a flavor cannot leave a covered resource out, and an unknown vCPU count has no honest quota)."""
    accelerators = {p.resource_name for p in pools}
    host = bool(pools) and all(all(r in p.node_resources for r in HOST_RESOURCES) for p in pools)
    return [r for r in COVERED_ORDER if r in accelerators or (host and r in HOST_RESOURCES)]


def flavor_quota(
    pool: PoolPlan, covered: list[str], nominal: int, borrowing: int | None = None, lending: int | None = None
) -> dict:
    """One flavor of a resource group: the pool's accelerators and their cpu/memory, 0 of other accelerators."""
    amounts = pool.resources_for(nominal)
    borrow = pool.resources_for(borrowing) if borrowing is not None else None
    lend = pool.resources_for(lending) if lending is not None else None
    quotas: dict[str, Quota] = {}
    for resource in covered:
        if resource in amounts:
            quotas[resource] = Quota(
                amounts[resource], borrow[resource] if borrow else None, lend[resource] if lend else None
            )
        else:
            quotas[resource] = Quota(0)
    return kueue_api.flavor_quotas(pool.name, quotas)


def root_cohort(model: CapacityModel, cohort: str) -> CohortPlan:
    """The root of the cohort tree `cohort` is in."""
    plan = model.cohort(cohort)
    while plan.parent is not None:
        plan = model.cohort(plan.parent)
    return plan


_root = root_cohort


def team_pools(model: CapacityModel, team: TeamPlan) -> list[PoolPlan]:
    """The pools (flavors) of a team's ClusterQueue, in flavor order."""
    names = set(team.pools)
    if team.cohort is not None:
        names |= {pool for pool, quota in _root(model, team.cohort).subtree_quota.items() if quota > 0}
    return [p for p in model.pools_in_flavor_order() if p.name in names]


def team_cluster_queue(model: CapacityModel, team: TeamPlan) -> dict:
    kueue = model.kueue
    pools = team_pools(model, team)
    covered = covered_resources(pools)
    flavors = [
        flavor_quota(
            p, covered, team.quotas.get(p.name, 0), team.borrowing_limits.get(p.name),
            team.lending_limits.get(p.name),
        )
        for p in pools
    ]
    preemption: dict = {
        "reclaimWithinCohort": team.preemption.reclaim_within_cohort,
        "withinClusterQueue": team.preemption.within_cluster_queue,
    }
    # Never is Kueue's default; leaving it out also keeps the field away from fair sharing, where Kueue
    # deprecated it ("may only be configured with Classical Preemption", CHANGELOG-0.10 #4165/#4819).
    if team.preemption.borrow_within_cohort != "Never":
        preemption["borrowWithinCohort"] = {"policy": team.preemption.borrow_within_cohort}
    checks = {admission_check_name(p.name): [p.name] for p in pools if p.queued}
    return kueue_api.cluster_queue(
        team.name,
        resource_groups=[kueue_api.resource_group(flavors, covered)] if flavors else (),
        cohort=team.cohort,
        namespace_selector=namespace_selector(team.name, team.namespaces, labelled=not team.existing_namespace),
        preemption=preemption,
        flavor_fungibility=flavor_fungibility(team, kueue.api_version),
        fair_sharing_weight=quantity(team.weight) if kueue.fair_sharing else None,
        admission_checks=checks or None,
        labels=team_labels(team.name),
        api_version=api_version_of(kueue.api_version),
    )


def cohorts_parents_first(model: CapacityModel) -> list[CohortPlan]:
    """Cohorts ordered so a parent comes before its children (file order otherwise)."""
    return sorted(model.cohorts, key=lambda c: (c.depth, c.index))


def cohort_object(model: CapacityModel, plan: CohortPlan) -> dict:
    kueue = model.kueue
    pools = [p for p in model.pools_in_flavor_order() if p.name in plan.pools]
    covered = covered_resources(pools)
    flavors = [
        flavor_quota(p, covered, plan.quota.get(p.name, 0),
                     plan.borrowing_limits.get(p.name), plan.lending_limits.get(p.name))
        for p in pools
    ]
    weight = quantity(plan.weight) if kueue.fair_sharing and plan.weight is not None else None
    return kueue_api.cohort(
        plan.name,
        parent=plan.parent,
        resource_groups=[kueue_api.resource_group(flavors, covered)] if flavors else (),
        fair_sharing_weight=weight,
        labels={MANAGED_BY_LABEL: MANAGED_BY},
        api_version=api_version_of(kueue.api_version),
    )


def local_queues(model: CapacityModel, team: TeamPlan) -> list[dict]:
    """One LocalQueue per team namespace, named like the team (jobs set kueue.x-k8s.io/queue-name: <team>), and,
    where Kueue manages every job of the team namespaces, a `default` LocalQueue to the same ClusterQueue: Kueue
    gives an unlabelled job the `default` queue of its namespace (kueue_api.job_management), so it lands in the
    team's quota instead of waiting suspended forever."""
    names = [team.name]
    if default_local_queue_on(model) and team.name != DEFAULT_LOCAL_QUEUE:
        names.append(DEFAULT_LOCAL_QUEUE)
    return [
        kueue_api.local_queue(name, ns, team.name, labels=team_labels(team.name),
                              api_version=api_version_of(model.kueue.api_version))
        for ns in team.namespaces for name in names
    ]


def default_local_queue_on(model: CapacityModel) -> bool:
    """Whether each team namespace gets a `default` LocalQueue: Kueue manages unlabelled jobs there and the
    release defaults their queue name."""
    kueue = model.kueue
    return kueue.manage_jobs_without_queue_name and supports_default_local_queue(kueue.version)


def priority_classes(model: CapacityModel) -> list[dict]:
    return [
        kueue_api.workload_priority_class(
            pc.name, pc.value, pc.description or None, labels={MANAGED_BY_LABEL: MANAGED_BY},
            api_version=api_version_of(model.kueue.api_version),
        )
        for pc in model.priority_classes
    ]


def sharing_objects(model: CapacityModel) -> dict[str, list[dict]]:
    """WorkloadPriorityClasses, Cohorts (parents first), ClusterQueues and LocalQueues, by kind."""
    return {
        "WorkloadPriorityClass": priority_classes(model),
        "Cohort": [cohort_object(model, c) for c in cohorts_parents_first(model)],
        "ClusterQueue": [team_cluster_queue(model, t) for t in model.teams],
        "LocalQueue": [lq for t in model.teams for lq in local_queues(model, t)],
    }
