"""Cross-field rules of an environment: each pool's and the cluster's rule sets placed at their YAML paths, and
what needs the whole file (references, windows, quotas against capacity).

`check_environment` runs on a parsed `EnvironmentSpec` or, when pydantic rejected parts of the file, on
whatever entries still parse (`context.View.lenient`), so one run reports every problem. Pure: no Pulumi.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Mapping

from gkecap.components.issues import Issue
from gkecap.components.spec.checks.context import Findings, View
from gkecap.components.spec.checks.environment import check_cluster, check_kueue, check_topology_aware_scheduling
from gkecap.components.spec.checks.pools import check_calendar_consumption, check_pools
from gkecap.components.spec.checks.quotas import check_quota_vs_capacity, check_whole_vm_quotas
from gkecap.components.spec.checks.reservations import check_reservations, index_reservations
from gkecap.components.spec.checks.teams import (
    check_cohorts,
    check_flavor_limits,
    check_priority_classes,
    check_teams,
)
from gkecap.components.spec.checks.vertex import check_vertex
from gkecap.components.spec.models import EnvironmentSpec


def check_environment(
    spec: EnvironmentSpec | None, data: Mapping[str, Any], now: datetime
) -> tuple[list[Issue], list[Issue]]:
    """(errors, warnings) of the cross-field rules. `spec` is None when pydantic rejected part of `data`."""
    findings = Findings(View.of(spec) if spec is not None else View.lenient(data), now)
    check_kueue(findings)
    reservations = index_reservations(findings)
    facts = check_pools(findings, reservations)
    check_reservations(findings)
    check_calendar_consumption(findings, reservations, facts)
    check_cluster(findings, facts)
    check_topology_aware_scheduling(findings, facts)
    check_cohorts(findings)
    check_teams(findings)
    check_flavor_limits(findings)
    check_priority_classes(findings)
    check_quota_vs_capacity(findings, facts)
    check_whole_vm_quotas(findings, facts)
    check_vertex(findings)
    return findings.errors, findings.warnings
