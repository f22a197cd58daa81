"""Quota against capacity: the quotas on a pool (teams' and cohorts') within what the pool can hold. An error
where capacity is fixed, a warning where DWS obtains it on demand (`gke.OVERCOMMIT_WARNS`, also the policy
pack's rule)."""

from __future__ import annotations

from gkecap.components.gke.pool_request import OVERCOMMIT_WARNS
from gkecap.components.spec.checks.context import Findings
from gkecap.components.spec.checks.pools import PoolFacts


def check_quota_vs_capacity(f: Findings, facts: dict[str, PoolFacts]) -> None:
    # Partial views (some entries malformed) can only under-count quotas, so what this finds is real.
    holders: dict[str, list[tuple[str, int]]] = {}
    for _, team in f.view.teams:
        for pool, quota in team.quota.items():
            holders.setdefault(pool, []).append((team.name, quota))
    for _, cohort in f.view.cohorts:
        for pool, quota in cohort.quota.items():
            holders.setdefault(pool, []).append((f"cohort {cohort.name}", quota))
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
