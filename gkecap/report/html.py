"""The capacity plan as one self-contained HTML page: inline CSS, charts as inline SVG, an inline script
(gkecap.report.interactive: search, filters, sortable tables, the collapsible cohort tree), no link to anything
outside the file, so it opens offline (file://) and can be attached to a CI run as is.

Sections: summary, search and filters, charts (capacity against quota per pool, reservation calendar), pools,
teams, the cohort tree, warnings, violations by enforcement level with their fix, resources. A plan of a bare
program (no environment in its config) has the summary, violations and resources only.
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timezone
from html import escape
from typing import Any

from gkecap.components.model import CapacityModel
from gkecap.report import facts, interactive
from gkecap.report.styling import PAGE_CSS
from gkecap.report.vertex import vertex_section


def _td(value: Any, cls: str = "") -> str:
    attr = f' class="{cls}"' if cls else ""
    return f"<td{attr}>{escape(str(value))}</td>"


def _units(counts: dict[str, int]) -> str:
    return interactive.unit_totals(counts)  # listed apart: GPUs and TPU chips are never one number


def _summary(result: Any, model: CapacityModel | None, rows: list[facts.ViolationRow]) -> str:
    mandatory = sum(1 for r in rows if r.level == "mandatory")
    advisory = sum(1 for r in rows if r.level == "advisory")
    cards = [("resources", str(len(result.resources)), "")]
    if model is not None:
        cards += [
            ("pools", str(len(model.pools)), ""),
            ("capacity", _units(facts.accelerator_totals(model)), ""),
            ("teams", str(len(model.teams)), ""),
            ("cohorts", str(len(model.cohorts)), ""),
            ("reservations", str(len(model.reservations)), ""),
        ]
    policies_run = getattr(result, "policies", None) is not None
    cards += [
        ("mandatory violations", str(mandatory) if policies_run else "not run", "bad" if mandatory else "ok"),
        ("advisory violations", str(advisory) if policies_run else "not run", "warn" if advisory else "ok"),
    ]
    return '<div class="cards">' + "".join(
        f'<div class="card"><b class="{cls}">{escape(value)}</b>{escape(label)}</div>' for label, value, cls in cards
    ) + "</div>"


def _charts(model: CapacityModel, now: datetime) -> str:
    from gkecap.report import charts

    titles = {"capacity": "Capacity against quota per pool", "calendar": "Reservation calendar"}
    parts = ['<h2 id="charts">Charts</h2><div class="charts">']
    for key, svg in charts.chart_svgs(model, now).items():  # the cohort tree is a tree table (interactive.cohort_tree)
        parts.append(f'<figure class="chart" id="chart-{key}" aria-label="{escape(titles[key])}">{svg}</figure>')
    parts.append("</div>")
    return "".join(parts)


def _pools(model: CapacityModel) -> str:
    head = ("pool", "machine", "accelerator", "capacity model", "slices / nodes", "accelerators", "quota", "zones", "reservation window")
    out = ['<h2 id="pools">Capacity per pool</h2>', interactive.count("pools-table"),
           '<table id="pools-table" class="sortable filterable"><thead><tr>']
    out += [f'<th class="{"n" if h in ("accelerators", "quota") else ""}">{h}</th>' for h in head]
    out.append("</tr></thead><tbody>")
    for row in facts.pool_rows(model):
        quota_cls = "n bad" if row.overcommitted else "n"
        out.append(
            f"<tr{interactive.data(pool=row.pool, model=row.capacity_model)}>" + _td(row.pool) + _td(row.machine_type) + _td(row.accelerator) + _td(row.capacity_model)
            + _td(row.size) + _td(f"{row.accelerators} {row.unit}", "n") + _td(row.quota_total, quota_cls)
            + _td(row.zones) + _td(row.reservation) + "</tr>"
        )
    out.append(
        '</tbody><tfoot><tr class="total"><td>total</td><td></td><td></td><td></td><td></td>'
        + _td(_units(facts.accelerator_totals(model)), "n") + _td(_units(facts.quota_totals(model)), "n")
        + "<td></td><td></td></tr></tfoot></table>"
    )
    return "".join(out)


def _clusters(model: CapacityModel) -> str:
    """MultiKueue: capacity and quota per cluster and region."""
    head = ("cluster", "name", "region", "pools", "accelerators", "quota")
    out = ['<h2 id="clusters">Clusters</h2><p>The manager keeps the queues and dispatches each admitted job to a '
           'worker (Kueue MultiKueue).</p><table id="clusters-table"><thead><tr>']
    out += [f'<th class="{"n" if h in ("accelerators", "quota") else ""}">{h}</th>' for h in head]
    out.append("</tr></thead><tbody>")
    for row in facts.cluster_rows(model):
        out.append("<tr>" + _td(row.name) + _td(row.cluster) + _td(row.region) + _td(", ".join(row.pools) or
                   "(dispatch only)") + _td(_units(row.accelerators) if row.pools else "-", "n")
                   + _td(_units(row.quota) if row.pools else "-", "n") + "</tr>")
    out.append("</tbody></table><p>Per region: " + escape("; ".join(
        f"{region} {_units(units)}" for region, units in facts.region_totals(model).items())) + "</p>")
    return "".join(out)


def _teams(model: CapacityModel) -> str:
    head = ("team", "cohort", "weight", "pool", "quota", "borrowing limit", "lending limit", "share of cohort")
    out = ['<h2 id="teams">Quotas per team</h2>', interactive.count("teams-table"),
           '<table id="teams-table" class="sortable filterable"><thead><tr>']
    out += [f'<th class="{"n" if h in ("weight", "quota", "borrowing limit", "lending limit", "share of cohort") else ""}">{h}</th>' for h in head]
    out.append("</tr></thead><tbody>")
    previous = None
    models = {pool.name: pool.capacity for pool in model.pools}
    for row in facts.team_rows(model):
        first = row.team != previous
        previous = row.team
        # Every row names its team (sorted or filtered, a row stands alone); repeated names are greyed.
        repeat = "" if first else "rep"
        out.append(
            f'<tr{" class=first" if first else ""}'
            + interactive.data(team=row.team, cohort=row.cohort if row.cohort != "-" else None, pool=row.pool, model=models.get(row.pool)) + ">"
            + _td(row.team, repeat) + _td(row.cohort, repeat) + _td(f"{row.weight:g}", f"n {repeat}".strip())
            + _td(row.pool) + _td(f"{row.quota} {row.unit}", "n") + _td(row.borrowing_limit, "n")
            + _td(row.lending_limit, "n") + _td(row.cohort_share, "n") + "</tr>"
        )
    out.append("</tbody><tfoot>")
    for pool in model.pools:
        totals = model.totals[pool.name]
        cls = "n bad" if totals.overcommitted else "n"
        out.append(
            '<tr class="total"><td>total</td><td></td><td></td>' + _td(pool.name)
            + _td(f"{totals.quota_total} of {totals.capacity} {facts.unit_of(pool)}", cls) + "<td></td><td></td><td></td></tr>"
        )
    out.append("</tfoot></table>")
    out.append(interactive.cohort_tree(model))
    return "".join(out)


def _warnings(model: CapacityModel | None, logs: list[Any]) -> str:
    lines = list(model.warnings) if model is not None else []
    lines += [f"{entry.severity}: {entry.message}" for entry in logs]
    if not lines:
        return ""
    return '<h2 id="warnings">Warnings</h2><ul>' + "".join(f'<li class="warn">{escape(w)}</li>' for w in lines) + "</ul>"


def _violations(result: Any, rows: list[facts.ViolationRow]) -> str:
    out = ['<h2 id="violations">Policy violations</h2>']
    if getattr(result, "policies", None) is None:
        out.append("<p>The policy pack was not run.</p>")
        return "".join(out)
    if not rows:
        info = result.policies.info
        out.append(f'<p class="ok">No violations ({escape(info.name)} {escape(info.version)}, {len(info.policies)} policies).</p>')
        return "".join(out)
    for level, group in facts.grouped(rows).items():
        out.append(f'<h3 class="level-{escape(level)}">{escape(level.capitalize())} ({len(group)})</h3>')
        out.append('<table class="violations sortable filterable"><thead><tr><th>policy</th><th>resource</th><th>problem</th><th>fix</th></tr></thead><tbody>')
        for row in group:
            resource = f"{row.resource} ({row.resource_type})" if row.resource_type else row.resource
            out.append("<tr>" + _td(row.policy) + _td(resource) + _td(row.problem) + _td(row.fix, "fix") + "</tr>")
        out.append("</tbody></table>")
    return "".join(out)


def _changes(diff: Any) -> str:
    """`gkecap plan --base`: each changed fact per team, cohort, pool and reservation, and the new findings."""
    from gkecap.diff.render import change_text, finding_text

    out = [f'<h2 id="changes">Changes since {escape(diff.base)}</h2>']
    if diff.empty:
        return out[0] + "<p>No change to teams, cohorts, pools, reservations or findings.</p>"
    out.append('<table id="changes-table"><thead><tr><th>object</th><th>name</th><th>change</th></tr></thead><tbody>')
    out += ["<tr>" + _td(c.kind) + _td(c.name) + _td(change_text(c)) + "</tr>" for c in diff.changes]
    out.append("</tbody></table>")
    for title, findings in (("New findings", diff.new_findings), ("Resolved findings", diff.resolved_findings)):
        if findings:
            out.append(f"<h3>{title} ({len(findings)})</h3><ul>" + "".join(f"<li>{escape(finding_text(f))}</li>" for f in findings) + "</ul>")
    return "".join(out)


def _resources(resources: list[Any]) -> str:
    counts = Counter(r.type for r in resources)
    out = [f'<h2 id="resources">Resources ({len(resources)})</h2><table id="resource-types" class="sortable"><thead><tr><th>type</th><th class="n">count</th></tr></thead><tbody>']
    out += ["<tr>" + _td(t) + _td(n, "n") + "</tr>" for t, n in counts.most_common()]
    out.append("</tbody></table>")
    out.append(f"<details><summary>All {len(resources)} resources</summary><table><thead><tr><th>type</th><th>name</th><th>parent</th></tr></thead><tbody>")
    for record in resources:
        parent = record.parent.split("::")[-1] if record.parent else ""
        out.append("<tr>" + _td(record.type) + _td(record.name) + _td(parent) + "</tr>")
    out.append("</tbody></table></details>")
    return "".join(out)


def _enforcement(model: CapacityModel, resources: list[Any]) -> str:
    """How each team's quota is enforced (gkecap.report.enforcement)."""
    from gkecap.report.enforcement import HEAD, enforcement_rows

    out = ['<h2 id="enforcement">How each team\'s quota is enforced</h2>', interactive.count("enforcement-table"),
           '<table id="enforcement-table" class="sortable filterable"><thead><tr>']
    out += [f"<th>{escape(h)}</th>" for h in HEAD]
    out.append("</tr></thead><tbody>")
    for row in enforcement_rows(model, resources):
        out.append(f"<tr{interactive.data(team=row.team)}>" + "".join(_td(v) for v in (row.team, row.namespaces, row.kueue, row.admission, row.rbac,
                                                       row.resource_quota)) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def render_html(result: Any, model: CapacityModel | None = None, *, now: datetime | None = None) -> str:
    """The report page of a plan (a PlanResult or anything with the same attributes)."""
    now = now or datetime.now(timezone.utc)
    rows = facts.violation_rows(result.violations, facts.remediations_of(result))
    title = f"{(model.project if model is not None else None) or result.project} / {result.stack}: capacity plan"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title><style>{PAGE_CSS}{interactive.CSS}</style></head><body><main>",
        f"<h1>{escape(title)}</h1>",
    ]
    if model is not None:
        cluster, kueue = model.cluster, model.kueue
        parts.append(
            f'<p class="sub">project {escape(model.project or "-")}, region {escape(model.region)}, cluster '
            f"{escape(cluster.name)} ({'created by this stack' if cluster.create else 'existing'}), Kueue "
            f"{escape(kueue.version)} ({escape(kueue.api_version)}{', fair sharing' if kueue.fair_sharing else ''}). "
            f"Generated {escape(now.strftime('%Y-%m-%d %H:%M UTC'))} by gkecap plan.</p>"
        )
    else:
        parts.append(f'<p class="sub">Program {escape(str(getattr(result, "source", "")))}: no gkecap:environment in its config, '
                     "so this report lists resources and violations only.</p>")
    parts.append(_summary(result, model, rows))
    if model is not None:
        parts.append(interactive.controls(model))
        parts.append(_charts(model, now))
        if model.workers:
            parts.append(_clusters(model))
        parts.append(_pools(model))
        parts.append(_teams(model))
        parts.append(_enforcement(model, result.resources))
        parts.append(vertex_section(model))
    if (diff := getattr(result, "diff", None)) is not None:
        parts.append(_changes(diff))
    parts.append(_warnings(model, list(getattr(result, "logs", ()))))
    parts.append(_violations(result, rows))
    parts.append(_resources(result.resources))
    parts.append(interactive.script())
    parts.append("</main></body></html>")
    return "\n".join(p for p in parts if p)
