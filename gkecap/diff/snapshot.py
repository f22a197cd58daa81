"""The capacity facts of a plan that a diff compares, as plain JSON-ready data keyed by name.

One entry per team, cohort, pool and reservation; numbers keep their pool's unit (`unit`: GPUs, GPU units or
chips), so a diff never adds GPUs to TPU chips. plan.json carries the same data as `capacity`, so a diff reads a
plan.json without deriving anything again.
"""

from __future__ import annotations

from datetime import timezone
from typing import Any

from gkecap.components.model import CapacityModel

SECTIONS = ("teams", "cohorts", "pools", "reservations")


def capacity_snapshot(model: CapacityModel) -> dict[str, dict[str, dict[str, Any]]]:
    """{"teams": {name: {...}}, "cohorts": ..., "pools": ..., "reservations": ...} of one capacity model."""
    units = {pool.name: pool.quota_unit for pool in model.pools}
    return {
        "teams": {
            team.name: {
                "cohort": team.cohort,
                "weight": team.weight,
                "quota": dict(team.quotas),
                "borrowingLimit": dict(team.borrowing_limits),
                "lendingLimit": dict(team.lending_limits),
            }
            for team in model.teams
        },
        "cohorts": {
            cohort.name: {
                "parent": cohort.parent,
                "weight": cohort.weight,
                "quota": dict(cohort.quota),
                "borrowingLimit": dict(cohort.borrowing_limits),
                "lendingLimit": dict(cohort.lending_limits),
            }
            for cohort in model.cohorts
        },
        "pools": {
            pool.name: {
                "machineType": pool.machine_type,
                "capacityModel": pool.capacity,
                "capacity": pool.capacity_units,
                "unit": units[pool.name],
                "size": _size(pool),
                "zones": list(pool.zones),
                "reservation": pool.reservation_name or None,
            }
            for pool in model.pools
        },
        "reservations": {
            res.name: {
                "machineType": res.machine_type,
                "zone": res.zone,
                "count": res.count,
                "unit": res.unit,
                "start": _iso(res.start),
                "end": _iso(res.end),
                "status": res.planning_status,
            }
            for res in model.reservations
        },
    }


def _size(pool: Any) -> str:
    """How the pool is sized; a calendar pool's window is its reservation's, compared there and not twice."""
    if pool.is_tpu and pool.multi_host:
        return f"{pool.slices} x {pool.tpu_topology} slices ({pool.vms_per_slice} VMs each)"
    if pool.is_tpu:
        return f"0..{pool.max_nodes} single-host {pool.tpu_topology} nodes"
    return f"{pool.min_nodes}..{pool.max_nodes} nodes"


def _iso(moment: Any) -> str:
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
