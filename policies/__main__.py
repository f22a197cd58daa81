"""Entry point of the gke-capacity policy pack.

The Pulumi CLI runs a Python pack as `python -u -m pulumi.policy <engine address> .` with this directory
as the working directory, which executes this file with this directory (not the repository root) on
sys.path. The rules import gke-capacity's pure modules (`components.catalog`, ...): when gke-capacity
is not installed, the repository root (this directory's parent) goes on sys.path so a clone works as is.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

if importlib.util.find_spec("components") is None or importlib.util.find_spec("policies") is None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pulumi_policy import EnforcementLevel, PolicyPack  # noqa: E402

from policies.registry import ALL_POLICIES  # noqa: E402

PolicyPack(
    "gke-capacity",
    policies=ALL_POLICIES,
    # Each policy sets its own level; this is the fallback for one that does not.
    enforcement_level=EnforcementLevel.ADVISORY,
    description="Guardrails for GKE accelerator capacity and Kueue: TPU slices, GPU pools, DWS, reservations, quotas.",
)
