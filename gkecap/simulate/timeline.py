"""The simulation as a self-contained HTML timeline in the capacity report's style (its CSS and chart settings,
matplotlib figures as inline SVG (gkecap.simulate.figures), its inline script: search, team and pool filters,
sortable tables): a Gantt chart per pool (which workload ran on its nodes when, and how it ended), and each team's
accelerator usage against its nominal quota over time, then the tables.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

import matplotlib
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from gkecap.atomic_files import contained, write_text_atomic
from gkecap.report import interactive
from gkecap.report.styling import CHART_STYLE, PAGE_CSS
from gkecap.simulate import figures
from gkecap.simulate.engine import SimulationResult
from gkecap.simulate.output import clock, pool_rows, summary, team_rows, units_text

MAX_GANTT_ROWS = 60  # workloads per pool chart before the rest are folded into one row
# tab10's ten colors as RGB tuples (the colormap at each of its entries).
_TAB10 = matplotlib.colormaps["tab10"]
_PALETTE: tuple[tuple[float, float, float], ...] = tuple(
    (float(r), float(g), float(b)) for r, g, b, _ in (_TAB10(i) for i in range(_TAB10.N)))
_OUTCOME_HATCH = {"preempted": "xx", "evicted": "xx"}


def _hours(seconds: float) -> float:
    return seconds / 3600.0


def _team_colors(result: SimulationResult) -> dict[str, tuple[float, float, float]]:
    return {team: _PALETTE[i % len(_PALETTE)] for i, team in enumerate(result.usage)}


def pool_gantt(result: SimulationResult, pool: str) -> Figure:
    """One row per workload that ran on the pool; a bar per run, hatched when it was cut short."""
    colors = _team_colors(result)
    runs = [r for r in result.runs if r.pool == pool]
    names = list(dict.fromkeys(r.workload for r in runs))
    shown = names[:MAX_GANTT_ROWS]
    rows = {name: i for i, name in enumerate(shown)}
    folded = len(names) > len(shown)
    with matplotlib.rc_context(CHART_STYLE):
        fig = Figure(figsize=(8.0, 0.28 * (len(shown) + folded) + 1.3))
        ax = fig.subplots()
        for run in runs:
            row = rows.get(run.workload, len(shown))
            end = run.end if run.end is not None else result.end
            ax.barh(row, _hours(end - run.start), left=_hours(run.start), height=0.7,
                    color=colors.get(run.team, figures.OTHER_COLOR), edgecolor="white",
                    hatch=_OUTCOME_HATCH.get(run.outcome))
        labels = shown + ([f"{len(names) - len(shown)} more"] if folded else [])
        ax.set_yticks(range(len(labels)), labels, fontsize=7)
        ax.invert_yaxis()
        ax.set_xlabel("hours from the scenario start (hatched: preempted or evicted)")
        where = ""
        if pool in result.clusters:  # MultiKueue: the worker and region the pool's workloads were dispatched to
            worker, _, region = result.clusters[pool]
            where = f" (worker {worker}, {region})"
        ax.set_title(f"Pool {pool}{where}: workloads on its nodes")
        teams = list(dict.fromkeys(r.team for r in runs))
        if teams:
            ax.legend(handles=[Patch(color=colors[t], label=t) for t in teams[:12]], loc="lower right",
                      fontsize=7, frameon=False, ncol=2)
        else:
            ax.text(0.5, 0.5, "nothing ran on this pool", transform=ax.transAxes, ha="center")
    return fig


def usage_against_quota(result: SimulationResult, teams: list[str], unit: str) -> Figure:
    """Units of one kind each team holds (quota reserved) over time, with its nominal quota as a dashed line."""
    colors = _team_colors(result)
    with matplotlib.rc_context(CHART_STYLE):
        fig = Figure(figsize=(8.0, 3.2))
        ax = fig.subplots()
        for team in teams:
            samples = result.usage[team][unit]
            times = [_hours(t) for t, _, _ in samples] + [_hours(result.end)]
            values = [u for _, u, _ in samples] + [samples[-1][1]]
            ax.step(times, values, where="post", color=colors[team], label=team, linewidth=1.4)
            ax.axhline(result.quotas[team].get(unit, 0), color=colors[team], linestyle="--", linewidth=0.8)
        for cycle in result.cycles:  # preemption cycles, shaded from their first eviction to their last
            ax.axvspan(_hours(cycle.first_at), _hours(max(cycle.last_at, cycle.first_at + 60)), color="#d62728",
                       alpha=0.12, linewidth=0)
        ax.set_xlabel("hours from the scenario start")
        ax.set_ylabel(f"{unit} reserved")
        ax.set_title(f"Usage against quota per team, {unit} (dashed: nominal quota"
                     + ("; shaded: preemption cycles)" if result.cycles else ")"))
        if teams:
            ax.legend(loc="upper right", fontsize=7, frameon=False, ncol=2)
    return fig


def render_html(result: SimulationResult, *, source: str = "") -> str:
    facts = summary(result)
    title = f"gkecap simulate: {source}" if source else "gkecap simulate"
    cards = "".join(f'<div class="card">{escape(label)}<b>{escape(str(value))}</b></div>' for label, value in (
        ("workloads", facts["workloads"]), ("admitted", facts["admitted"]), ("finished", facts["finished"]),
        ("preemptions", facts["preemptions"]), ("deactivated", facts["deactivated"]),
        ("mean wait to start", clock(facts["waitToStart"]["mean"])),
        ("p95 wait to start", clock(facts["waitToStart"]["p95"])),
        ("mean wait to admission", clock(facts["waitToAdmission"]["mean"])), ("evictions", facts["evictions"])))
    parts = [
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">",
        f"<title>{escape(title)}</title><style>{PAGE_CSS}{interactive.CSS}</style></head><body><main>",
        f"<h1>{escape(title)}</h1>",
        f'<p class="sub">Scenario start {escape(result.start_iso)}; Kueue v0.19 admission simulated over the '
        f"environment's own ClusterQueues{' with fair sharing' if result.fair_sharing else ''}.</p>",
        f'<div class="cards">{cards}</div>',
        interactive.search_controls(team=list(result.usage), pool=list(result.pool_nodes)),
        "<h2>Usage against quota</h2>",
    ]
    # One chart per unit kind (never added up); teams that held anything, largest quota first (a chart of 100 idle
    # teams says nothing).
    kinds = list(dict.fromkeys(k for team in result.usage.values() for k in team))
    for unit in kinds:
        active = [t for t in sorted(result.usage, key=lambda t: -result.quotas[t].get(unit, 0))
                  if any(u for _, u, _ in result.usage[t].get(unit, ()))]
        if active:
            figure = usage_against_quota(result, active[:10], unit)
            parts.append(f'<div class="chart">{figures.figure_svg(figure)}</div>')
    parts.append("<h2>Pools</h2>")
    for pool in result.pool_nodes:
        if any(r.pool == pool for r in result.runs):
            parts.append(f'<div class="chart">{figures.figure_svg(pool_gantt(result, pool))}</div>')
    parts.extend(_cycles_html(result))
    parts.append("<h2>Teams</h2><p>Waits to start: until every pod ran; waits to admission: until Kueue admitted.</p>"
                 '<table id="sim-teams" class="sortable filterable"><thead><tr><th>team</th><th class=n>quota</th>'
                 "<th class=n>peak usage</th><th class=n>borrowed for</th>"
                 "<th class=n>wait to start: mean</th><th class=n>p50</th><th class=n>p95</th><th class=n>max</th>"
                 "<th class=n>wait to admission: mean</th><th class=n>max</th></tr></thead><tbody>")
    for row in team_rows(result):
        start, admission = row["waitToStart"], row["waitToAdmission"]
        seconds = [row["borrowedSeconds"], start["mean"], start["p50"], start["p95"], start["max"], admission["mean"],
                   admission["max"]]
        parts.append(f"<tr{interactive.data(team=row['name'])}><td>{escape(row['name'])}</td>"
                     f"<td class=n>{escape(units_text(row['quota']))}</td><td class=n>{escape(units_text(row['peakUsage']))}</td>"
                     + "".join(_clock_cell(value) for value in seconds) + "</tr>")
    parts.append('</tbody></table><h2>Idle capacity</h2><table id="sim-pools" class="sortable filterable"><thead><tr>'
                 "<th>pool</th><th>capacity</th><th>unit</th>"
                 "<th class=n>node-hours</th><th class=n>used</th><th class=n>idle</th><th class=n>reserved</th>"
                 "<th class=n>reserved idle</th></tr></thead><tbody>")
    for row in pool_rows(result):
        cells = [str(row["capacityModel"]), str(row["unit"]), str(row["nodeHours"]), str(row["usedNodeHours"]),
                 str(row["idleNodeHours"]), "-" if row["reservedNodeHours"] is None else str(row["reservedNodeHours"]),
                 "-" if row["idleReservedNodeHours"] is None else str(row["idleReservedNodeHours"])]
        parts.append(f"<tr{interactive.data(pool=row['name'])}><td>{escape(row['name'])}</td>" + "".join(
            f"<td{'' if i < 2 else ' class=n'}>{escape(c)}</td>" for i, c in enumerate(cells)) + "</tr>")
    parts.append('</tbody></table><h2>Workloads</h2><table id="sim-workloads" class="sortable filterable"><thead><tr>'
                 "<th>workload</th><th>team</th><th>pool</th><th class=n>submitted</th>"
                 "<th class=n>admitted</th><th class=n>started</th><th class=n>finished</th><th class=n>preemptions</th>"
                 "<th class=n>evictions</th></tr></thead><tbody>")
    for w in result.workloads:
        parts.append(f"<tr{interactive.data(team=w.team, pool=w.pool)}><td>{escape(w.name)}</td><td>{escape(w.team)}</td>"
                     f"<td>{escape(w.pool or '-')}</td>"
                     + "".join(_clock_cell(value) for value in (w.submitted, w.admitted, w.started, w.finished))
                     + f"<td class=n>{w.preemptions}</td><td class=n>{w.evictions}</td></tr>")
    parts.append("</tbody></table>")
    parts.append(interactive.script())
    parts.append("</main></body></html>")
    return "\n".join(parts)


def _cycles_html(result: SimulationResult) -> list[str]:
    from gkecap.simulate.output import cycle_rows

    parts = []
    for limit in result.limits:
        parts.append(f'<p class="sub">Limit reached ({escape(limit["limit"])} = {limit["value"]}): '
                     f'{escape(limit["message"])}</p>')
    if not result.cycles:
        return parts
    parts.append("<h2>Preemption cycles</h2><p class=\"sub\">The same workloads evicted and readmitted in turn; "
                 "each eviction of a running workload throws its run away.</p><table><tr><th>teams</th>"
                 "<th>workloads</th><th class=n>first</th><th class=n>last</th><th class=n>evictions</th>"
                 "<th class=n>hours lost</th><th>what may break it</th></tr>")
    for row in cycle_rows(result):
        fixes = "<br>".join(escape(f["change"]) + {True: " (tried: breaks it)", False: " (tried: does not)",
                                                     None: ""}[f["verified"]] for f in row["breaks"])
        parts.append(f"<tr><td>{escape(', '.join(row['teams']))}</td><td>{escape(', '.join(row['workloads']))}</td>"
                     f"<td class=n>{clock(row['firstAt'])}</td><td class=n>{clock(row['lastAt'])}</td>"
                     f"<td class=n>{row['evictions']}</td><td class=n>{row['gpuHoursLost']} {escape(row['unit'])}</td>"
                     f"<td>{fixes}</td></tr>")
    parts.append("</table>")
    return parts


def _clock_cell(seconds: float | None) -> str:
    """A time as the table shows it (`1d 02:00:00`), sorted by its seconds (never reached: last)."""
    key = "Infinity" if seconds is None else f"{seconds:g}"
    return f'<td class=n data-sort="{key}">{escape(clock(seconds))}</td>'


def write_timeline(result: SimulationResult, directory: Path, *, source: str = "") -> Path:
    """Write `directory/simulation.html` atomically (a failed write keeps the previous file), never through a
    link that leads out of `directory`."""
    path = directory / "simulation.html"
    directory.mkdir(parents=True, exist_ok=True)
    contained(directory, path)
    return write_text_atomic(path, render_html(result, source=source), root=directory)
