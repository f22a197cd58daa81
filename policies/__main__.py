"""Entry point of the gke-capacity policy pack.

The Pulumi CLI runs a Python pack as `python -u -m pulumi.policy <engine address> .` with this directory
as the working directory. The rules are the installed `gkecap.policies` (and the pure layers of
`gkecap.components` they import), so the pack's virtualenv must hold the gke-capacity distribution
(requirements.txt). What the pack serves is defined in `pack_definition.py`.
"""

from __future__ import annotations

import gc

from pulumi_policy import PolicyPack

from gkecap.compat import policy_servicer
from gkecap.policies import pack_definition
from gkecap.collector import THRESHOLDS
from gkecap.policies.stack_servicer import servicer_class

# PolicyPack serves an instance of this class: pulumi_policy's servicer, or its subclass whose AnalyzeStack reads
# the stack once, straight from the request (stack_servicer.py: same findings, a fraction of the memory).
if (servicer := servicer_class()) is not None:
    policy_servicer.serve(servicer)

# The pack's modules stay loaded for its life: out of the collector's way; and fewer collections (collector.py).
gc.freeze()
gc.set_threshold(*THRESHOLDS)
PolicyPack(
    pack_definition.NAME,
    policies=pack_definition.policies(),
    enforcement_level=pack_definition.ENFORCEMENT_LEVEL,
    description=pack_definition.DESCRIPTION,
)
