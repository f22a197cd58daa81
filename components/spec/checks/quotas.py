"""Quota against capacity: the quotas on a pool (teams' and cohorts') within what the pool can hold. An error
where capacity is fixed, a warning where DWS obtains it on demand (`gke.OVERCOMMIT_WARNS`, also the policy
pack's rule)."""

from __future__ import annotations

from gkecap.components.gke.pool_request import OVERCOMMIT_WARNS
from gkecap.components.gke.whole_vms import WHOLE_VM_CAPACITIES, whole_vm_findings
from gkecap.components.spec.checks.context import Findings
from gkecap.components.spec.checks.pools import PoolFacts


def check_quota_vs_capacity(f: Findings, facts: dict[str, PoolFacts]) -> None:
    # Partial views (some entries malformed) can only under-count quotas, so what this finds is real.
    holders: dict[str, list[tuple[str, int]]] = {}
    for _, team in f.view.teams:
        for pool_name, quota in team.quota.items():
            holders.setdefault(pool_name, []).append((team.name, quota))
    for _, cohort in f.view.cohorts:
        for pool_name, quota in cohort.quota.items():
            holders.setdefault(pool_name, []).append((f"cohort {cohort.name}", quota))
    for name, pool_facts in facts.items():
        entries = holders.get(name, [])
        if not entries:
            if f.view.teams or f.view.cohorts:
                f.warn(f"nodePools[{pool_facts.index}]",
                       f"no team or cohort has quota on pool {name!r}; Kueue admits no workload to it")
            continue
        total = sum(q for _, q in entries)
        capacity = pool_facts.capacity
        if total <= capacity:
            continue
        pool = pool_facts.pool
        raise_what = "slices" if pool_facts.kind == "tpu" else "maxNodes"
        detail = pool_facts.capacity_text()
        if pool.capacity == "calendar":
            detail += f", reservation {pool.reservation}"
            raise_what = f"{raise_what} within the reservation"
        message = (f"quotas for pool {name!r} total {total} {pool_facts.resource} ({_quota_list(entries)}) but the pool "
                   f"holds {capacity} ({detail})")
        if pool.capacity in OVERCOMMIT_WARNS:
            f.warn("teams", f"{message}; {pool.capacity} capacity is obtained on demand, so some quota may wait")
        else:
            f.error("teams", f"{message}; reduce quotas or raise {raise_what}")


def _quota_list(entries: list[tuple[str, int]], limit: int = 12) -> str:
    ordered = sorted(entries, key=lambda e: -e[1]) if len(entries) > limit else entries
    shown = ", ".join(f"{who} {quota}" for who, quota in ordered[:limit])
    return shown + (f", and {len(entries) - limit} more" if len(entries) > limit else "")


def check_whole_vm_quotas(f: Findings, facts: dict[str, PoolFacts]) -> None:
    """Warnings for quotas on flex-start and queued pools that are not whole VMs (`gke.whole_vm_findings`)."""
    paths: dict[str, dict[str, str]] = {}  # pool -> holder -> YAML path of its quota
    quotas: dict[str, list[tuple[str, int]]] = {}
    for index, team in f.view.teams:
        for pool, quota in team.quota.items():
            paths.setdefault(pool, {})[f"team {team.name!r}"] = f"teams[{index}].quota.{pool}"
            quotas.setdefault(pool, []).append((f"team {team.name!r}", quota))
    for index, cohort in f.view.cohorts:
        for pool, quota in cohort.quota.items():
            paths.setdefault(pool, {})[f"cohort {cohort.name!r}"] = f"cohorts[{index}].quota.{pool}"
            quotas.setdefault(pool, []).append((f"cohort {cohort.name!r}", quota))
    for name, pool_facts in facts.items():
        if pool_facts.pool.capacity not in WHOLE_VM_CAPACITIES or name not in quotas:
            continue
        per_vm = pool_facts.node_pools[0].node_units
        for finding in whole_vm_findings(name, per_vm, pool_facts.nodes, pool_facts.resource, quotas[name]):
            path = paths[name][finding.holder] if finding.holder else f"nodePools[{pool_facts.index}]"
            f.warn(path, finding.message)
