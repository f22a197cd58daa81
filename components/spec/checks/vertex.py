"""The `vertex` section's cross-field rules: each profile's machine configuration is one FLEX_START serves (the
catalog's GPU, machine type and count), its timeout is at most 7 days, its team exists, names are unique.

The rules are `vertex_api`'s, the ones the policy pack runs over any training profile, placed at the profile's
YAML path (`vertex.profiles[0].timeout`). `vertex_issues` is the same list for `VertexTrainingQuota`'s arguments.
"""

from __future__ import annotations

from collections.abc import Set

from gkecap.components.catalog.vertex import MAX_TIMEOUT_SECONDS
from gkecap.components.issues import Issue
from gkecap.components.spec.checks.context import Findings, listing
from gkecap.components.spec.vertex import VertexSpec
from gkecap.components.vertex_api import format_duration, machine_issues


def check_vertex(findings: Findings) -> None:
    vertex = findings.view.vertex
    if vertex is None:
        return
    teams = {team.name for _, team in findings.view.teams}
    findings.errors.extend(vertex_issues(vertex, teams))


def vertex_issues(vertex: VertexSpec, teams: Set[str] | None) -> list[Issue]:
    """Every problem of the profiles (`teams`: the environment's teams; None when there are none to check)."""
    issues: list[Issue] = []
    seen: dict[str, int] = {}
    for index, profile in enumerate(vertex.profiles):
        where = f"vertex.profiles[{index}]"
        first = seen.setdefault(profile.name, index)
        if first != index:
            issues.append(Issue(f"{where}.name", f"{profile.name!r} is already used by vertex.profiles[{first}]; "
                                                 "profile names must be unique"))
        if teams is not None and profile.team is not None and profile.team not in teams:
            issues.append(Issue(f"{where}.team", f"{profile.team!r} is not a team of this environment; teams: "
                                                 f"{listing(sorted(teams))}"))
        issues += [issue.under(where) for issue in
                   machine_issues(profile.machine_type, profile.accelerator_type, profile.accelerator_count)]
        if profile.timeout > MAX_TIMEOUT_SECONDS:
            issues.append(Issue(f"{where}.timeout", f"{format_duration(profile.timeout)} is longer than the "
                                                    f"{format_duration(MAX_TIMEOUT_SECONDS)} a FLEX_START training job may run"))
        elif profile.timeout == 0:
            issues.append(Issue(f"{where}.timeout", "a FLEX_START training job needs a timeout above 0 (at most 7d)"))
    return issues
