"""How each team's quota is enforced (issue 23), read from the objects the plan registered: Kueue managing its
jobs without a queue name, the admission policy requiring the queue label (and the priority classes it allows),
the team's RBAC, and the optional ResourceQuota. One row per team; a separate block of the report.

The layers come from `gkecap.policies.rules.quota_enforcement.namespace_layers`, the computation the pack's rules
use, so the report and the pack never disagree about a namespace.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich import box
from rich.table import Table

from gkecap.components.model import CapacityModel
from gkecap.policies.resource_view import ResourceView
from gkecap.policies.rules.quota_enforcement import namespace_layers

HEAD = ("team", "namespaces", "Kueue manages unlabelled jobs", "admission policy", "RBAC", "ResourceQuota")


@dataclass(frozen=True)
class EnforcementRow:
    team: str
    namespaces: str
    kueue: str  # "yes" | "no: only jobs with kueue.x-k8s.io/queue-name" | "partly (...)"
    admission: str  # "gkecap-queue-vision (priority classes: high, normal, low)" | "none: ..."
    rbac: str
    resource_quota: str


def _views(resources: list[Any]) -> list[ResourceView]:
    return [ResourceView(r.type, r.name, props=r.inputs if isinstance(r.inputs, dict) else {}, urn=r.urn)
            for r in resources]


def _all_or_some(flags: list[bool], yes: str, no: str) -> str:
    if all(flags):
        return yes
    return no if not any(flags) else f"partly ({sum(flags)} of {len(flags)} namespaces)"


def enforcement_rows(model: CapacityModel, resources: list[Any]) -> list[EnforcementRow]:
    namespaces = sorted({ns for team in model.teams for ns in team.namespaces})
    layers = namespace_layers(_views(resources), namespaces)
    rows = []
    for team in model.teams:
        mine = [layers[ns] for ns in team.namespaces]
        kueue = _all_or_some([l.kueue_managed for l in mine], "yes",
                             "no: only jobs labelled kueue.x-k8s.io/queue-name")
        policies = sorted({p for l in mine for p in l.policies})
        if policies and all(l.policies for l in mine):
            classes = next((l.priorities for l in mine if l.priorities is not None), None)
            admission = ", ".join(policies) + (f" (priority classes: {classes.replace(',', ', ') or 'none'})"
                                               if classes is not None else "")
        else:
            admission = _all_or_some([bool(l.policies) for l in mine], "", "none: unlabelled GPU work is admitted")
        roles = sorted({r for l in mine for r in l.roles})
        rbac = ", ".join(roles) if roles else "no members bound"
        quotas = [l.resource_quota for l in mine]
        first = quotas[0] if quotas else None
        if first is not None and all(quotas):
            resource_quota = ", ".join(f"{key.removeprefix('requests.')} <= {value}"
                                       for key, value in sorted(first.items())) + " per namespace"
        else:
            resource_quota = _all_or_some([bool(q) for q in quotas], "", "off")
        rows.append(EnforcementRow(team.name, ", ".join(team.namespaces), kueue, admission, rbac, resource_quota))
    return rows


def enforcement_table(model: CapacityModel, resources: list[Any], limit: int) -> Table:
    table = Table(title="How each team's quota is enforced", title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    for name in HEAD:
        table.add_column(name)
    rows = enforcement_rows(model, resources)
    for row in rows[:limit]:
        table.add_row(row.team, row.namespaces, row.kueue, row.admission, row.rbac, row.resource_quota)
    if len(rows) > limit:
        table.caption = f"{len(rows) - limit} more teams in report.html"
    return table
