"""Generate an organisation as a Pulumi stack file: N teams in departments (cohorts under one root
cohort), a GPU pool and a TPU pool per department, calendar reservations, borrowing and lending.

    python benchmarks/generate.py --teams 1000 > /tmp/Pulumi.org1000.yaml

Every department of ten teams uses one GPU pool, cycling through the capacity models (queued H100,
flex-start H100, spot L4, calendar H100 with its own future reservation), and one flex-start TPU v6e
4x4 pool of multi-host slices; up to 32 GPU and 16 TPU pools, shared by departments beyond that, each
sized for the departments on it (a calendar pool for at most 8 departments: one calendar reservation holds
at most 80 GPU VMs; later departments of a full calendar pool use the next pool). Quotas split a department's share among its teams (never
over-committed); some teams get borrowing or lending limits and a fair-sharing weight. The
result is a valid environment: `gkecap plan --config FILE` plans it with exit 0.

Reservations start `--start-in-days` after `--now` (default: today), inside the GPU calendar window.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime, timedelta, timezone
from typing import Any

import yaml

from gkecap.components.gke.calendar_window import GPU_MAX_VMS  # a calendar request holds 1-80 GPU VMs (FACTS C)

TEAMS_PER_DEPARTMENT = 10
REGION = "us-east5"
ZONES = ("us-east5-a", "us-east5-b")  # v6e flex-start and calendar zones (FACTS B.3, C)

# (capacity model, machine type, accelerators per VM, VMs): each department's GPU pool, in turn.
GPU_POOL_KINDS: tuple[tuple[str, str, int, int], ...] = (
    ("queued", "a3-highgpu-8g", 8, 10),
    ("flex-start", "a3-highgpu-8g", 8, 10),
    ("spot", "g2-standard-48", 4, 10),
    ("calendar", "a3-highgpu-8g", 8, 10),
)
TPU_SLICES = 2  # per department; v6e 4x4: 16 chips, 4 VMs per slice
TPU_CHIPS = 16 * TPU_SLICES
# Kueue allows 64 flavors in a ClusterQueue resource group (FACTS D), and every team queue lists every pool
# of its resource; big organisations therefore share pools between departments (department d uses pool
# d % pools, whose capacity grows with the departments on it).
MAX_GPU_POOLS = 32
MAX_TPU_POOLS = 16


def gpu_pool_assignment(departments: int) -> list[int]:
    """The GPU pool of each department: department d uses pool d % pools, except that a calendar pool takes
    no more departments than one calendar reservation can serve (GPU_MAX_VMS VMs); the others use the next
    pool, which is not a calendar one (calendar is the last capacity model of GPU_POOL_KINDS)."""
    pools = min(departments, MAX_GPU_POOLS)
    assignment = []
    for d in range(departments):
        pool = d % pools
        capacity, _, _, vms = GPU_POOL_KINDS[pool % len(GPU_POOL_KINDS)]
        if capacity == "calendar" and (d // pools + 1) * vms > GPU_MAX_VMS:
            pool = (pool + 1) % pools
        assignment.append(pool)
    return assignment


def _split(total: int, parts: int) -> list[int]:
    """``total`` in ``parts`` whole shares, as even as possible (largest first); sums to ``total``."""
    base, extra = divmod(total, parts)
    return [base + (1 if i < extra else 0) for i in range(parts)]


def organisation(teams: int, *, now: datetime, start_in_days: int = 30) -> dict[str, Any]:
    """The ``config:`` document of a stack file for an organisation of ``teams`` teams."""
    if teams < 1:
        raise ValueError("teams: at least 1")
    departments = (teams + TEAMS_PER_DEPARTMENT - 1) // TEAMS_PER_DEPARTMENT
    gpu_pools = min(departments, MAX_GPU_POOLS)
    tpu_pools = min(departments, MAX_TPU_POOLS)
    start = (now + timedelta(days=start_in_days)).replace(hour=0, minute=0, second=0, microsecond=0)

    def sharing(index: int, pools: int) -> int:
        """Departments on pool ``index`` when department d uses pool d % pools."""
        return len(range(index, departments, pools))

    gpu_of = gpu_pool_assignment(departments)
    node_pools: list[dict[str, Any]] = []
    reservations: list[dict[str, Any]] = []
    for g in range(gpu_pools):
        capacity, machine, _, vms = GPU_POOL_KINDS[g % len(GPU_POOL_KINDS)]
        vms *= gpu_of.count(g)
        zone = ZONES[g % len(ZONES)]
        pool: dict[str, Any] = {"name": f"gpu-{g:02d}", "machineType": machine, "capacity": capacity, "zones": [zone]}
        if capacity == "calendar":
            reservations.append({
                "name": f"run-{g:02d}", "machineType": machine, "count": vms, "zone": zone,
                "start": start.strftime("%Y-%m-%dT%H:%M:%SZ"), "days": 14,
            })
            pool["reservation"] = f"run-{g:02d}"
        else:
            pool["maxNodes"] = vms
        if capacity in ("queued", "flex-start"):
            pool["maxRunDuration"] = 86400
        node_pools.append(pool)
    for t in range(tpu_pools):
        node_pools.append({"name": f"v6e-{t:02d}", "machineType": "ct6e-standard-4t", "tpuTopology": "4x4",
                           "capacity": "flex-start", "zones": [ZONES[t % len(ZONES)]],
                           "slices": TPU_SLICES * sharing(t, tpu_pools)})

    cohorts: list[dict[str, Any]] = [{"name": "org"}]
    team_specs: list[dict[str, Any]] = []
    for d in range(departments):
        dept = f"dept-{d:03d}"
        cohorts.append({"name": dept, "parent": "org"})
        gpu_pool, tpu_pool = f"gpu-{gpu_of[d]:02d}", f"v6e-{d % tpu_pools:02d}"
        _, _, per_vm, vms = GPU_POOL_KINDS[gpu_of[d] % len(GPU_POOL_KINDS)]
        members = list(range(d * TEAMS_PER_DEPARTMENT, min(teams, (d + 1) * TEAMS_PER_DEPARTMENT)))
        gpu_shares = _split(per_vm * vms, len(members))
        tpu_shares = _split(TPU_CHIPS, len(members))
        for i, t in enumerate(members):
            quota = {gpu_pool: gpu_shares[i]}
            if tpu_shares[i]:
                quota[tpu_pool] = tpu_shares[i]
            team: dict[str, Any] = {"name": f"team-{t:04d}", "cohort": dept, "quota": quota,
                                    "members": [f"group:team-{t:04d}@example.com"]}
            if t % 3 == 0:
                team["borrowingLimit"] = {gpu_pool: gpu_shares[i]}
            if t % 4 == 1:
                team["lendingLimit"] = {gpu_pool: gpu_shares[i] // 2}
            if t % 5 == 2:
                team["weight"] = 2
            team_specs.append(team)
    environment = {
        "region": REGION,
        "cluster": {"name": "ml-org", "create": True},
        "kueue": {"version": "v0.19.2", "fairSharing": True},
        "nodePools": node_pools,
        "reservations": reservations,
        "cohorts": cohorts,
        "teams": team_specs,
    }
    return {"config": {"gcp:project": "acme-ml-bench", "gkecap:environment": environment}}


def xpk_equivalent() -> dict[str, Any]:
    """What `xpk cluster create --tpu-type v6e-4x4 --flex --num-slices 1` builds: a cluster, one flex-start
    v6e 4x4 slice (4 VMs of ct6e-standard-4t, COMPACT, topology 4x4), Kueue with one ResourceFlavor, one
    ClusterQueue with 16 chips and a LocalQueue (xpk's queue admits every namespace; ours one team's)."""
    return {"config": {"gcp:project": "acme-ml-bench", "gkecap:environment": {
        "region": REGION,
        "cluster": {"name": "bench", "create": True},
        "kueue": {"version": "v0.19.2"},
        "nodePools": [{"name": "v6e-4x4", "machineType": "ct6e-standard-4t", "tpuTopology": "4x4",
                       "capacity": "flex-start", "zones": ["us-east5-a"], "slices": 1}],
        "teams": [{"name": "ml", "quota": {"v6e-4x4": 16}}],
    }}}


def dump(document: dict[str, Any]) -> str:
    return yaml.safe_dump(document, sort_keys=False, default_flow_style=None, width=120)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--teams", type=int, default=100, help="number of teams (default 100)")
    parser.add_argument("--xpk", action="store_true", help="the one-slice environment equivalent to xpk's v6e-4x4 --flex cluster")
    parser.add_argument("--now", type=lambda s: datetime.fromisoformat(s.replace("Z", "+00:00")), default=None,
                        help="reference time for reservation starts (default: now, UTC)")
    parser.add_argument("--start-in-days", type=int, default=30)
    args = parser.parse_args(argv)
    now = args.now or datetime.now(timezone.utc)
    document = xpk_equivalent() if args.xpk else organisation(args.teams, now=now, start_in_days=args.start_in_days)
    sys.stdout.write(dump(document))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
