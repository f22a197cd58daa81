"""The gke-capacity pack as pulumi_policy serves it: name, description, default level and the policies.

Shared by the pack's entry point (`__main__.py`, which the Pulumi CLI and gkecap run as a process and
speak the Analyzer gRPC protocol to) and gkecap's in-process mode (`gkecap.policy_pack.in_process`), so
both serve the same policies.
"""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, Policy

from gkecap.policies.registry import ALL_POLICIES
from gkecap.policies.rule_runner import pack_policies

NAME = "gke-capacity"
DESCRIPTION = "Guardrails for GKE accelerator capacity and Kueue: TPU slices, GPU pools, DWS, reservations, quotas."
# Each policy sets its own level; this is the fallback for one that does not.
ENFORCEMENT_LEVEL = EnforcementLevel.ADVISORY


def policies() -> list[Policy]:
    """Every rule by name, run by one resource and one stack policy that read each resource once (rule_runner)."""
    return pack_policies(ALL_POLICIES)
