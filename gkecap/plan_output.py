"""Default renderings of a PlanResult: the JSON document and a short terminal summary.

The report (gkecap/report/) renders the full capacity plan; `gkecap plan --format text` uses its
`render_plan(result, console)` when that exists, else `render_text` below.
"""

from __future__ import annotations

import json
from collections import Counter

from rich.console import Console
from rich.table import Table

from gkecap.plan import PlanResult

_LEVEL_STYLE = {"mandatory": "bold red", "advisory": "yellow", "disabled": "dim"}


def render_json(result: PlanResult) -> str:
    return json.dumps(result.to_json(), indent=2, sort_keys=False, default=str)


def render_text(result: PlanResult, console: Console) -> None:
    console.print(f"[bold]{result.project}[/bold] / stack [bold]{result.stack}[/bold]  ({result.source})")
    counts = Counter(r.type for r in result.resources)
    table = Table(title=f"Resources ({len(result.resources)})", title_justify="left")
    table.add_column("type")
    table.add_column("count", justify="right")
    for type_, count in sorted(counts.items()):
        table.add_row(type_, str(count))
    console.print(table)

    if result.policies is None:
        console.print("Policies: not run (--no-policies)")
    elif not result.violations:
        info = result.policies.info
        console.print(f"[green]Policies: no violations[/green] ({info.name} {info.version}, {len(info.policies)} policies)")
    else:
        violations = Table(title=f"Policy violations ({len(result.violations)})", title_justify="left", show_lines=True)
        violations.add_column("level")
        violations.add_column("policy")
        violations.add_column("resource")
        violations.add_column("message", overflow="fold")
        for v in result.violations:
            resource = v.urn.split("::")[-1] if v.urn else "(stack)"
            violations.add_row(f"[{_LEVEL_STYLE.get(v.enforcement_level, '')}]{v.enforcement_level}", v.policy, resource, v.message)
        console.print(violations)
    for entry in result.logs:
        console.print(f"[yellow]{entry.severity}[/yellow]: {entry.message}")
    mandatory = len(result.mandatory)
    if mandatory:
        console.print(f"[bold red]{mandatory} mandatory violation(s)[/bold red]")
