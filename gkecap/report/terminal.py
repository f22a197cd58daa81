"""The capacity plan in the terminal (rich): pools, teams, warnings, violations with their fix.

Long organisations are cut to `MAX_TEAMS` teams in the terminal (the HTML report has them all).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from gkecap.components.model import CapacityModel
from gkecap.report import facts
from gkecap.report.fit import fitted

MAX_TEAMS = 40
MAX_RESOURCE_TYPES = 30
_LEVEL_STYLE = {"mandatory": "bold red", "advisory": "yellow", "disabled": "dim"}


def _units(counts: dict[str, int], sep: str = " + ") -> str:
    return sep.join(f"{n} {unit}" for unit, n in sorted(counts.items())) or "0"


def pools_table(model: CapacityModel) -> Table:
    table = Table(title="Capacity per pool", title_justify="left", box=box.SIMPLE_HEAD, show_footer=True, pad_edge=False)
    # Names and numbers never wrap; the descriptive columns take what width is left.
    table.add_column("pool", footer="total", no_wrap=True)
    table.add_column("machine", no_wrap=True)
    table.add_column("accelerator", no_wrap=True)
    table.add_column("capacity model")
    table.add_column("slices / nodes")
    # Totals wrap ("32 GPUs in reservation windows"); a number and its unit are narrower than the longest word.
    table.add_column("accelerators", justify="right", footer=_units(facts.accelerator_totals(model), "\n"))
    table.add_column("quota", justify="right", footer=_units(facts.quota_totals(model), "\n"))
    table.add_column("zones")
    rows = facts.pool_rows(model)
    windows = any(row.reservation for row in rows)  # the column only where some pool has a reservation
    if windows:
        table.add_column("reservation window")
    for row in rows:
        quota = Text(f"{row.quota_total} {row.unit}", style="bold red" if row.overcommitted else "")
        cells: list[str | Text] = [row.pool, row.machine_type, row.accelerator, row.capacity_model, row.size,
                 f"{row.accelerators} {row.unit}", quota, row.zones]
        table.add_row(*cells, *([row.reservation] if windows else []))
    return table


def clusters_table(model: CapacityModel) -> Table:
    """MultiKueue: capacity and quota per cluster and region (the manager dispatches, the workers run)."""
    table = Table(title="Clusters (MultiKueue: the manager dispatches to the workers)", title_justify="left",
                  box=box.SIMPLE_HEAD, pad_edge=False)
    for column in ("cluster", "name", "region", "pools", "accelerators", "quota"):
        table.add_column(column, justify="right" if column in ("accelerators", "quota") else "left")
    for row in facts.cluster_rows(model):
        table.add_row(row.name, row.cluster, row.region, ", ".join(row.pools) or "(dispatch only)",
                      _units(row.accelerators, "\n") if row.pools else "-", _units(row.quota, "\n") if row.pools else "-")
    regions = facts.region_totals(model)
    table.caption = "per region: " + "; ".join(f"{region} {_units(units)}" for region, units in regions.items())
    return table


def teams_table(model: CapacityModel, limit: int = MAX_TEAMS) -> Table:
    shown = {t.name for t in model.teams[:limit]}
    table = Table(title="Quotas per team", title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    for name, justify in (
        ("team", "left"), ("cohort", "left"), ("weight", "right"), ("pool", "left"), ("quota", "right"),
        ("borrowing limit", "right"), ("lending limit", "right"), ("share of cohort", "right"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    previous = None
    for row in facts.team_rows(model):
        if row.team not in shown:
            continue
        first = row.team != previous
        if first and previous is not None:
            table.add_section()
        previous = row.team
        table.add_row(
            row.team if first else "", row.cohort if first else "", f"{row.weight:g}" if first else "",
            row.pool, f"{row.quota} {row.unit}", row.borrowing_limit, row.lending_limit, row.cohort_share,
        )
    hidden = len(model.teams) - len(shown)
    if hidden > 0:
        table.caption = f"{hidden} more teams in report.html"
    table.add_section()
    for i, pool in enumerate(model.pools):
        totals = model.totals[pool.name]
        style = "bold red" if totals.overcommitted else "bold"
        table.add_row(
            Text("total" if i == 0 else "", style="bold"), "", "", pool.name,
            Text(f"{totals.quota_total} of {totals.capacity} {facts.unit_of(pool)}", style=style), "", "", "",
        )
    return table


def violations_section(console: Console, rows: list[facts.ViolationRow]) -> None:
    if not rows:
        return
    for level, group in facts.grouped(rows).items():
        style = _LEVEL_STYLE.get(level, "")
        table = Table(
            title=Text(f"{level.capitalize()} violations ({len(group)})", style=style),
            title_justify="left", box=box.SIMPLE_HEAD, show_lines=True,
        )
        table.add_column("policy")
        table.add_column("resource")
        table.add_column("problem", overflow="fold", ratio=3)
        table.add_column("fix", overflow="fold", ratio=2)
        for row in group:
            table.add_row(Text(row.policy), Text(row.resource), Text(row.problem), Text(row.fix, style="green"))
        console.print(fitted(table, keys=(0, 1)))  # a policy on a resource


def resources_table(resources: list[Any]) -> Table:
    counts = Counter(r.type for r in resources)
    table = Table(title=f"Resources ({len(resources)})", title_justify="left", box=box.SIMPLE_HEAD)
    table.add_column("type")
    table.add_column("count", justify="right")
    for type_, count in counts.most_common(MAX_RESOURCE_TYPES):
        table.add_row(Text(type_), str(count))
    if len(counts) > MAX_RESOURCE_TYPES:
        table.caption = f"{len(counts) - MAX_RESOURCE_TYPES} more types in plan.json"
    return table


def render(result: Any, console: Console, *, model: CapacityModel | None = None, written: dict[str, Path] | None = None) -> None:
    """The whole plan: header, capacity tables (when there is an environment), warnings, violations, files."""
    # Text from users and programs (names, messages) is escaped: `[/x]` in a name is text, not markup.
    header = f"[bold]{escape(result.project)}[/bold] / stack [bold]{escape(result.stack)}[/bold]"
    if model is not None:
        header += f"  project [bold]{model.project or '-'}[/bold], region {model.region},"
        cluster = model.cluster
        kueue = model.kueue
        header += (
            f" cluster [bold]{cluster.name}[/bold] ({cluster.location}{', created here' if cluster.create else ''}),"
            f" Kueue {kueue.version} {kueue.api_version}{', fair sharing' if kueue.fair_sharing else ''}"
        )
    console.print(header)
    if model is not None:
        if model.workers:
            console.print(fitted(clusters_table(model)))
        console.print(fitted(pools_table(model)))
        console.print(fitted(teams_table(model), keys=(0, 3)))  # a row is a team's pool
        from gkecap.report.enforcement import enforcement_table  # per team: Kueue, admission policy, RBAC, quota

        console.print(fitted(enforcement_table(model, result.resources, MAX_TEAMS)))
        from gkecap.report.vertex import vertex_table  # Vertex AI FLEX_START profiles, when there are any

        if (vertex := vertex_table(model)) is not None:
            console.print(fitted(vertex))
        for warning in model.warnings:
            console.print(f"[yellow]warning[/yellow]: {escape(str(warning))}")
    console.print(fitted(resources_table(result.resources)))
    for entry in getattr(result, "logs", ()):
        console.print(f"[yellow]{entry.severity}[/yellow]: {escape(entry.message)}")
    if (diff := getattr(result, "diff", None)) is not None:  # `gkecap plan --base`: what this change does
        from gkecap.diff import render_text

        console.print(render_text(diff), markup=False, highlight=False, end="")
    rows = facts.violation_rows(result.violations, facts.remediations_of(result))
    violations_section(console, rows)
    if getattr(result, "policies", None) is None:
        console.print("Policies: not run (--no-policies)")
    elif not rows:
        info = result.policies.info
        console.print(f"[green]Policies: no violations[/green] ({escape(info.name)} {escape(info.version)}, {len(info.policies)} policies)")
    if written:
        console.print("Wrote " + ", ".join(str(path) for path in written.values()), markup=False)
    mandatory = sum(1 for r in rows if r.level == "mandatory")
    if mandatory:
        console.print(f"[bold red]{mandatory} mandatory violation(s): fix them before `pulumi up`[/bold red]")
    else:
        console.print("[bold green]No mandatory violation.[/bold green]")
