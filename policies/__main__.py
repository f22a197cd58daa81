"""Entry point of the gke-capacity policy pack.

The Pulumi CLI runs a Python pack as `python -u -m pulumi.policy <engine address> .` with this directory
as the working directory. The rules are the installed `gkecap.policies` (and the pure layers of
`gkecap.components` they import), so the pack's virtualenv must hold the gke-capacity distribution
(requirements.txt).
"""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, PolicyPack

from gkecap.policies.registry import ALL_POLICIES
from gkecap.policies.rule_runner import pack_policies

PolicyPack(
    "gke-capacity",
    # Every rule by name, run by one resource and one stack policy that read each resource once (rule_runner).
    policies=pack_policies(ALL_POLICIES),
    # Each policy sets its own level; this is the fallback for one that does not.
    enforcement_level=EnforcementLevel.ADVISORY,
    description="Guardrails for GKE accelerator capacity and Kueue: TPU slices, GPU pools, DWS, reservations, quotas.",
)
