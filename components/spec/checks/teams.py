"""Cohorts, teams and priority classes: unique names, references (pools, cohorts), cohort cycles, limits that
need a parent or a cohort, namespaces a team may own, and preemption settings Kueue accepts."""

from __future__ import annotations

import difflib
from typing import Mapping

from gkecap.components.issues import key_path
from gkecap.components.kueue_api.cluster_queue import MAX_FLAVORS_PER_GROUP
from gkecap.components.spec.checks.context import Findings, listing
from gkecap.components.spec.models import CohortSpec, TeamSpec

# Namespaces a team must never own (its members get write rights there, Secrets and pods included): Kubernetes' own
# (`kube-` is reserved, kubernetes.io/docs/concepts/overview/working-with-objects/namespaces), Kueue's, the prefixes
# GKE and Managed Prometheus use, and the system namespaces of the controllers a GKE cluster commonly runs, where
# those rights would hand a team the controller's own credentials or policies: Config Connector (cnrm-system), Policy Controller /
# Gatekeeper (gatekeeper-system), Config Sync (config-management-system, config-management-monitoring,
# resource-group-system), Cloud Service Mesh (istio-system, asm-system), GKE Identity Service
# (anthos-identity-service), cert-manager, and the JobSet and LeaderWorkerSet controllers Kueue works with
# (jobset-system, lws-system). Sources: docs/sources.md "Reserved namespaces".
RESERVED_NAMESPACES = frozenset({
    "default", "kueue-system", "cnrm-system", "gatekeeper-system", "config-management-system",
    "config-management-monitoring", "resource-group-system", "istio-system", "asm-system",
    "anthos-identity-service", "cert-manager", "jobset-system", "lws-system",
})
RESERVED_NAMESPACE_PREFIXES = ("kube-", "gke-", "gmp-")


def check_cohorts(f: Findings) -> None:
    seen: dict[str, int] = {}
    parents: dict[str, str | None] = {}
    fair_sharing = f.view.kueue.fair_sharing if f.view.kueue is not None else True
    for index, cohort in f.view.cohorts:
        path = f"cohorts[{index}]"
        if not f.unique("cohorts", index, cohort.name, seen, "cohort"):
            continue
        parents[cohort.name] = cohort.parent
        if cohort.weight is not None and not fair_sharing:
            f.warn(f"{path}.weight", "has no effect while kueue.fairSharing is false")
        names = f.view.cohort_names
        if cohort.parent is not None and names is not None and cohort.parent not in names:
            f.error(f"{path}.parent", f"{cohort.parent!r} is not a declared cohort; declared: {listing(sorted(names))}")
        _check_pool_keys(f, f"{path}.quota", cohort.quota)
        _check_cohort_limits(f, path, cohort)
    _check_cycles(f, parents, seen)


def _check_cohort_limits(f: Findings, path: str, cohort: CohortSpec) -> None:
    """Per-pool borrowingLimit and lendingLimit of a Cohort: only under a parent (KUEUE_VALIDATION R-CO-2: "must
    be nil when parent is empty"). Unlike a team's, a Cohort's lendingLimit may exceed its own quota (R-CO-2):
    it lends what its whole subtree holds, so it is not compared with the quota."""
    for key, limits in (("borrowingLimit", cohort.borrowing_limit), ("lendingLimit", cohort.lending_limit)):
        _check_pool_keys(f, f"{path}.{key}", limits)
        if limits and cohort.parent is None:
            what = "borrows from" if key == "borrowingLimit" else "lends to"
            f.error(f"{path}.{key}", f"needs a parent: a cohort {what} its parent cohort, and Kueue rejects {key} on a "
                    "cohort without parent (R-CO-2); set parent or remove it")


def _check_cycles(f: Findings, parents: Mapping[str, str | None], index_of: Mapping[str, int]) -> None:
    state: dict[str, int] = {}  # 1 visiting, 2 done
    for start in parents:
        path: list[str] = []
        node: str | None = start
        while node is not None and node in parents and state.get(node) != 2:
            if state.get(node) == 1:
                loop = path[path.index(node):] + [node]
                f.error(f"cohorts[{index_of[node]}].parent",
                        f"cohorts form a cycle ({' -> '.join(loop)}); a cohort cannot be its own ancestor")
                break
            state[node] = 1
            path.append(node)
            node = parents[node]
        for visited in path:
            state[visited] = 2


def check_teams(f: Findings) -> None:
    fair_sharing = f.view.kueue.fair_sharing if f.view.kueue is not None else True
    seen: dict[str, int] = {}
    namespace_owner: dict[str, int] = {}
    for index, team in f.view.teams:
        path = f"teams[{index}]"
        f.unique("teams", index, team.name, seen, "team")
        names = f.view.cohort_names
        if team.cohort is not None and names is not None and team.cohort not in names:
            f.error(f"{path}.cohort", f"{team.cohort!r} is not a declared cohort; declared: {listing(sorted(names))}")
        for key, values in (("quota", team.quota), ("borrowingLimit", team.borrowing_limit),
                            ("lendingLimit", team.lending_limit)):
            _check_pool_keys(f, f"{path}.{key}", values)
        if team.cohort is None:
            for key, limits in (("borrowingLimit", team.borrowing_limit), ("lendingLimit", team.lending_limit)):
                if limits:
                    f.error(f"{path}.{key}", "needs a cohort: borrowing and lending happen between teams of one "
                            "cohort; set cohort or remove it")
        for pool, limit in team.lending_limit.items():
            quota = team.quota.get(pool, 0)
            if limit > quota:
                f.error(key_path(f"{path}.lendingLimit", pool),
                        f"{limit} exceeds the team's quota {quota} on pool {pool!r}; lendingLimit must be at most the quota")
        if team.weight is not None and not fair_sharing:
            f.warn(f"{path}.weight", "has no effect while kueue.fairSharing is false")
        _check_namespaces(f, index, team, namespace_owner)
        _check_preemption(f, index, team, fair_sharing)
        _check_priorities(f, index, team)


def _check_priorities(f: Findings, index: int, team: TeamSpec) -> None:
    """`priorities` name declared priority classes (the admission policy allows exactly those)."""
    declared = [pc.name for _, pc in f.view.priority_classes]
    seen: set[str] = set()
    for position, name in enumerate(team.priorities or []):
        path = f"teams[{index}].priorities[{position}]"
        if name in seen:
            f.error(path, f"{name!r} is listed twice")
        elif name not in declared:
            f.error(path, f"{name!r} is not a priority class of this environment; declared: "
                    f"{listing(declared) if declared else '(none)'}")
        seen.add(name)


# An existing namespace (`namespace:`) may be `default`, which gke-capacity never creates nor labels.
EXISTING_NAMESPACES_ALLOWED = frozenset({"default"})


def _check_namespaces(f: Findings, index: int, team: TeamSpec, owner: dict[str, int]) -> None:
    existing = team.namespace is not None  # both `namespace` and `namespaces`: refused by the model
    for ns_index, namespace in enumerate(team.namespaces or []):
        path = f"teams[{index}].namespace" if existing else f"teams[{index}].namespaces[{ns_index}]"
        if existing and namespace in EXISTING_NAMESPACES_ALLOWED:
            pass
        elif namespace in RESERVED_NAMESPACES or namespace.startswith(RESERVED_NAMESPACE_PREFIXES):
            f.error(path, f"{namespace!r} is reserved for the cluster, GKE or Kueue, or a system controller; a team "
                    f"namespace cannot be one of {', '.join(sorted(RESERVED_NAMESPACES))} or start with "
                    f"{', '.join(RESERVED_NAMESPACE_PREFIXES)}")
        other = owner.get(namespace)
        if other is not None and other != index:
            f.error(path, f"{namespace!r} already belongs to teams[{other}]; a namespace belongs to one team only")
        elif other == index:
            f.error(path, f"{namespace!r} is listed twice")
        else:
            owner[namespace] = index


def _check_preemption(f: Findings, index: int, team: TeamSpec, fair_sharing: bool) -> None:
    preemption = team.preemption
    path = f"teams[{index}].preemption"
    if preemption.reclaim_within_cohort == "Never" and preemption.borrow_within_cohort not in (None, "Never"):
        # KUEUE_VALIDATION R-CQ-10 (webhook + CEL)
        f.error(f"{path}.borrowWithinCohort",
                f"{preemption.borrow_within_cohort!r} requires reclaimWithinCohort other than Never (Kueue R-CQ-10); "
                "allowed with reclaimWithinCohort: Never: Never")
    elif fair_sharing and preemption.borrow_within_cohort not in (None, "Never"):
        # The Kueue CRD: "May only be configured with Classical Preemption, and not with Fair Sharing."
        f.warn(f"{path}.borrowWithinCohort",
               f"{preemption.borrow_within_cohort!r} has no effect with kueue.fairSharing: true (Kueue applies it to "
               "classical preemption only)")


def _check_pool_keys(f: Findings, path: str, quotas: Mapping[str, int]) -> None:
    names = f.view.pool_names
    if names is None:
        return
    for pool in quotas:
        if pool not in names:
            hint = difflib.get_close_matches(pool, sorted(names), n=1)
            did_you_mean = f"did you mean {hint[0]!r}? " if hint else ""
            f.error(key_path(path, pool), f"no node pool named {pool!r}; {did_you_mean}pools: {listing(sorted(names))}")


def check_priority_classes(f: Findings) -> None:
    seen: dict[str, int] = {}
    for index, pc in f.view.priority_classes:
        f.unique("priorityClasses", index, pc.name, seen, "priority class")


def check_flavor_limits(f: Findings) -> None:
    """A team's ClusterQueue lists every pool it can use: its own quota and limit entries, and in a cohort every
    pool with quota anywhere in its cohort tree (it may borrow them). Kueue's one resource group holds at most
    MAX_FLAVORS_PER_GROUP flavors (R-CQ-19), so a larger set could never be applied."""
    parent = {cohort.name: cohort.parent for _, cohort in f.view.cohorts}

    def root(name: str) -> str:
        seen: set[str] = set()
        while parent.get(name) is not None and name not in seen:  # cycles are reported elsewhere
            seen.add(name)
            name = parent[name]  # type: ignore[assignment]
        return name

    tree_pools: dict[str, set[str]] = {}
    for _, cohort in f.view.cohorts:
        tree_pools.setdefault(root(cohort.name), set()).update(p for p, q in cohort.quota.items() if q > 0)
    for _, team in f.view.teams:
        if team.cohort is not None:
            tree_pools.setdefault(root(team.cohort), set()).update(p for p, q in team.quota.items() if q > 0)
    declared = f.view.pool_names
    for index, team in f.view.teams:
        pools = set(team.quota) | set(team.borrowing_limit) | set(team.lending_limit)
        tree = root(team.cohort) if team.cohort is not None else None
        if tree is not None:
            pools |= tree_pools.get(tree, set())
        if declared is not None:
            pools &= declared
        if len(pools) > MAX_FLAVORS_PER_GROUP:
            via = f" (its own and every pool with quota in cohort tree {tree!r})" if tree else ""
            f.error(f"teams[{index}]", f"team {team.name!r} would use {len(pools)} pools{via}, but a Kueue ClusterQueue "
                    f"holds at most {MAX_FLAVORS_PER_GROUP} flavors per resource group; split the cohort tree or use "
                    "fewer, larger pools")
