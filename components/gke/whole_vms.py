"""Flex-start and queued capacity comes in whole VMs: quotas that hold on such a pool.

A ProvisioningRequest creates VMs for one workload, and the `autoscaling.gke.io/provisioning-request`
podSetUpdates node selector keeps that workload's pods on its own request's nodes; the flex-start autoscaler
likewise adds whole VMs for pending pods. FACTS D [S14] and the audit in FACTS (corrections 2026-11-23). So a
team whose quota is not a multiple of a VM's units lets Kueue admit workloads the pool cannot build: 2-GPU
quotas on 8-GPU VMs admit four workloads per VM of quota, each asking for a whole VM; the ones the pool cannot
build exhaust the ProvisioningRequest retries and are deactivated (FACTS D, retryStrategy). One computation,
used by the environment spec's checks and by the policy pack's quota rules.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from gkecap.components.gke.pool_request import FLEX_CAPACITIES

WHOLE_VM_CAPACITIES = FLEX_CAPACITIES  # flex-start and queued: capacity obtained per VM, on demand


@dataclass(frozen=True)
class WholeVmFinding:
    holder: str | None  # "team vision" for a quota that is not whole VMs; None for the pool total
    message: str


def whole_vm_findings(
    pool: str, units_per_vm: int, vms: int, resource: str, quotas: list[tuple[str, int]]
) -> list[WholeVmFinding]:
    """Findings for quotas `[(holder, units)]` on a whole-VM pool of at most `vms` VMs of `units_per_vm` each.

    One finding per holder whose quota is not a multiple of `units_per_vm`, and one when the quotas rounded up to
    whole VMs need more VMs than the pool can build although they fit it as written (quotas above the pool as
    written are the over-commit check's finding, not repeated here). Quotas of 0 need no VM.
    """
    if units_per_vm <= 0:
        return []
    findings: list[WholeVmFinding] = []
    needed: list[tuple[str, int]] = []
    for holder, quota in quotas:
        whole = math.ceil(quota / units_per_vm)
        needed.append((holder, whole))
        if quota % units_per_vm:
            findings.append(WholeVmFinding(holder, (
                f"{holder} quota {quota} {resource} on pool {pool!r} is not a whole number of VMs ({units_per_vm} "
                f"each): capacity there is provisioned as whole VMs per workload, so each admitted workload may hold "
                f"a whole VM; use a multiple of {units_per_vm}")))
    total = sum(n for _, n in needed)
    if total > vms and sum(q for _, q in quotas) <= vms * units_per_vm:
        parts = ", ".join(f"{holder} {n}" for holder, n in needed if n)
        findings.append(WholeVmFinding(None, (
            f"quotas on pool {pool!r} rounded up to whole VMs need {total} VMs ({parts}) but the pool builds at most "
            f"{vms} ({vms * units_per_vm} {resource}): workloads admitted beyond that wait, exhaust their "
            f"provisioning retries and are deactivated; give quotas in whole VMs within the pool")))
    return findings
