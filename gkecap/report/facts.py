"""What the report shows, computed once from a plan: rows of the pool and team tables, violations grouped
by enforcement level with their fix. Pure data (no rich, no HTML), shared by the terminal and HTML views.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from gkecap.components.model import CapacityModel, PoolPlan, derive

LEVELS = ("mandatory", "advisory", "disabled")


@dataclass(frozen=True)
class PoolRow:
    pool: str
    machine_type: str
    accelerator: str
    capacity_model: str
    size: str  # "2 slices of 4x4 (4 VMs each)" | "0..2 nodes"
    accelerators: int
    unit: str  # "GPUs" | "chips"
    zones: str
    reservation: str  # "llm-pretrain: 2027-01-18 to 2027-02-01 (14 d, DRAFT)" or ""
    quota_total: int
    overcommitted: bool


@dataclass(frozen=True)
class TeamPoolRow:
    team: str
    cohort: str
    weight: float
    pool: str
    unit: str
    quota: int
    borrowing_limit: str  # "8", "unlimited" (in a cohort, no limit) or "-" (no cohort)
    lending_limit: str
    cohort_share: str  # "25%" or "-"


@dataclass(frozen=True)
class ViolationRow:
    level: str
    policy: str
    resource: str  # the resource name, "(stack)" for stack-level findings
    resource_type: str
    urn: str | None
    problem: str
    fix: str


def unit_of(pool: PoolPlan) -> str:
    """The unit of a pool's capacity and quotas (PoolPlan.quota_unit)."""
    return pool.quota_unit


def pool_size(pool: PoolPlan) -> str:
    """How a pool is sized, in the words of the environment file."""
    if pool.is_tpu:
        if pool.multi_host:
            plural = "slice" if pool.slices == 1 else "slices"
            return f"{pool.slices} {plural} of {pool.tpu_topology} ({pool.vms_per_slice} VMs each)"
        return f"0..{pool.max_nodes} single-host {pool.tpu_topology} nodes"
    if pool.reservation is not None:  # calendar: nodes exist only in the reservation's window
        return f"{pool.min_nodes}..{pool.max_nodes} nodes, {_day(pool.reservation.start)} to {_day(pool.reservation.end)} only"
    return f"{pool.min_nodes}..{pool.max_nodes} nodes"


def _day(moment: datetime) -> str:
    moment = moment.astimezone(timezone.utc)
    return moment.strftime("%Y-%m-%d") if moment.time() == datetime.min.time() else moment.strftime("%Y-%m-%d %H:%M")


def reservation_window(pool: PoolPlan) -> str:
    res = pool.reservation
    if res is not None:
        return f"{res.name}: {_day(res.start)} to {_day(res.end)} ({res.days} d, {res.planning_status})"
    if pool.reservation_name:
        return f"existing reservation {pool.reservation_name}"
    return ""


def pool_rows(model: CapacityModel) -> list[PoolRow]:
    rows = []
    for pool in model.pools:
        totals = model.totals[pool.name]
        rows.append(
            PoolRow(
                pool=pool.name,
                machine_type=pool.machine_type,
                accelerator=pool.accelerator_label,
                capacity_model=pool.capacity,
                size=pool_size(pool),
                accelerators=pool.capacity_units,
                unit=unit_of(pool),
                zones=", ".join(pool.zones) or "cluster default",
                reservation=reservation_window(pool),
                quota_total=totals.quota_total,
                overcommitted=totals.overcommitted,
            )
        )
    return rows


@dataclass(frozen=True)
class ClusterRow:
    """A cluster of an environment with MultiKueue workers: the manager (no pools) or a worker."""

    name: str  # "manager" or the worker's name
    cluster: str
    region: str
    pools: tuple[str, ...]
    accelerators: dict[str, int]  # unit -> capacity (calendar capacity apart, as in accelerator_totals)
    quota: dict[str, int]  # unit -> the teams' nominal quota on its pools


def cluster_rows(model: CapacityModel) -> list[ClusterRow]:
    """Capacity and quota per cluster ([] for a single-cluster environment): the manager first, then the workers."""
    if not model.workers:
        return []
    rows = [ClusterRow("manager", model.cluster.name, model.region, (), {}, {})]
    for worker in model.workers:
        capacity: Counter[str] = Counter()
        quota: Counter[str] = Counter()
        for name in worker.pools:
            pool = model.pool(name)
            capacity[_total_unit(pool)] += pool.capacity_units
            quota[_total_unit(pool)] += model.totals[name].quota_total
        rows.append(ClusterRow(worker.name, worker.cluster, worker.region, worker.pools, dict(capacity), dict(quota)))
    return rows


def region_totals(model: CapacityModel) -> dict[str, dict[str, int]]:
    """Region -> unit -> capacity over the workers there."""
    totals: dict[str, Counter[str]] = {}
    for row in cluster_rows(model):
        totals.setdefault(row.region, Counter()).update(row.accelerators)
    return {region: dict(units) for region, units in totals.items()}


def accelerator_totals(model: CapacityModel) -> dict[str, int]:
    """Capacity summed per unit: {"GPUs": 80, "chips": 32, "GPUs in reservation windows": 32}. Calendar capacity
    exists only in its reservation's window, so it is never added to the standing capacity."""
    totals: Counter[str] = Counter()
    for pool in model.pools:
        totals[_total_unit(pool)] += pool.capacity_units
    return dict(totals)


def _total_unit(pool: PoolPlan) -> str:
    return f"{unit_of(pool)} in reservation windows" if pool.capacity == "calendar" else unit_of(pool)


def quota_totals(model: CapacityModel) -> dict[str, int]:
    totals: Counter[str] = Counter()
    for pool in model.pools:
        totals[_total_unit(pool)] += model.totals[pool.name].quota_total
    return dict(totals)


def _limit(limits: dict[str, int], pool: str, in_cohort: bool) -> str:
    if not in_cohort:
        return "-"
    return str(limits[pool]) if pool in limits else "no limit"


def percent(fraction: float) -> str:
    """12.5% -> "12.5%", 0.25 -> "25%" (three significant digits at most)."""
    return f"{fraction * 100:.3g}%"


def team_rows(model: CapacityModel) -> list[TeamPoolRow]:
    """One row per team and pool it can use (quota, borrowing or lending entry), in flavor order."""
    rows = []
    for team in model.teams:
        in_cohort = team.cohort is not None
        for pool_name in team.pools:
            pool = model.pool(pool_name)
            share = team.cohort_share.get(pool_name)
            rows.append(
                TeamPoolRow(
                    team=team.name,
                    cohort=team.cohort or "-",
                    weight=team.weight,
                    pool=pool_name,
                    unit=unit_of(pool),
                    quota=team.quotas.get(pool_name, 0),
                    borrowing_limit=_limit(team.borrowing_limits, pool_name, in_cohort),
                    lending_limit=_limit(team.lending_limits, pool_name, in_cohort),
                    cohort_share=percent(share) if share is not None else "-",
                )
            )
    return rows


def split_fix(message: str, remediation: str = "") -> tuple[str, str]:
    """(problem, fix) of a policy message. The pack's messages end with the fix after the last "; "
    ("...; DWS capacity never comes from a reservation: set it to NO_RESERVATION."); otherwise the
    policy's remediation steps (or nothing) are the fix."""
    head, sep, tail = message.rpartition("; ")
    if sep and head and tail:
        return head, tail[:1].upper() + tail[1:]
    return message, remediation


def _resource_of(urn: str | None) -> tuple[str, str]:
    if not urn:
        return "(stack)", ""
    parts = urn.split("::")
    name = parts[-1] if len(parts) >= 4 else urn
    type_ = parts[2].rsplit("$", 1)[-1] if len(parts) >= 4 else ""
    return name, type_


def violation_rows(violations: list[Any], remediations: dict[str, str] | None = None) -> list[ViolationRow]:
    """Violations (Diagnostics or their JSON form) in enforcement order, each split into problem and fix."""
    remediations = remediations or {}
    rows = []
    for v in violations:
        if isinstance(v, dict):
            policy, level, urn, message = v.get("policy", ""), v.get("enforcementLevel", ""), v.get("urn"), v.get("message", "")
        else:
            policy, level, urn, message = v.policy, v.enforcement_level, v.urn, v.message
        name, type_ = _resource_of(urn)
        problem, fix = split_fix(message, remediations.get(policy, ""))
        rows.append(ViolationRow(level, policy, name, type_, urn, problem, fix))
    order = {level: i for i, level in enumerate(LEVELS)}
    return sorted(rows, key=lambda r: order.get(r.level, len(order)))


def grouped(rows: list[ViolationRow]) -> dict[str, list[ViolationRow]]:
    """Rows by enforcement level, mandatory first; only levels that have rows."""
    groups: dict[str, list[ViolationRow]] = {}
    for row in rows:
        groups.setdefault(row.level, []).append(row)
    return groups


def remediations_of(result: Any) -> dict[str, str]:
    """policy name -> remediation steps the pack declares (empty where it declares none)."""
    policies = getattr(result, "policies", None)
    info = getattr(policies, "info", None)
    return {p.name: p.remediation_steps for p in getattr(info, "policies", ()) if p.remediation_steps}


def model_of(result: Any) -> CapacityModel | None:
    """The capacity model of a plan whose config held an environment (None for a bare program)."""
    if hasattr(result, "capacity_model"):  # a PlanResult derives it once for every output
        return result.capacity_model
    spec = getattr(result, "spec", None)
    return derive(spec) if spec is not None else None
