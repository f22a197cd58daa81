"""The report's charts, drawn with matplotlib from a CapacityModel and returned as inline SVG.

Three pictures: capacity against the quota handed out per pool (stacked bars, one segment per team),
the reservation calendar (a timeline with today and the advance window), and the cohort tree with
quotas. Each is a pure function of the model (and ``now`` for the calendar), so a report renders the
same way in a test, in CI and on a laptop. SVG keeps text as text (searchable, small) and needs no
network: the HTML report embeds it as is.

Large organisations: a pool's bar shows its largest team quotas and folds the rest into one "other
teams" segment; the tree shows at most a few teams per cohort. The tables carry every number.
"""

from __future__ import annotations

import io
import re
from datetime import datetime, timedelta

import matplotlib
import matplotlib.colors
import matplotlib.dates

# Figures are built with the object API (Figure, not pyplot): no GUI backend, no global figure registry, and
# pyplot's import (most of matplotlib's start-up) is never paid.
from matplotlib.figure import Figure
from matplotlib.patches import FancyBboxPatch, Patch, Rectangle

from gkecap.components.gke.calendar_window import advance_days
from gkecap.components.model import CapacityModel, CohortPlan  # noqa: E402
from gkecap.report.styling import CHART_STYLE

# Segments per pool bar before the smaller quotas fold into "other teams".
MAX_SEGMENTS = 10
# Teams drawn under one cohort in the tree before "+N more".
MAX_TREE_TEAMS = 6

OTHER_COLOR = "#bbbbbb"
COHORT_QUOTA_COLOR = "#444444"
_TEAM_PALETTE = matplotlib.colormaps["tab10"].colors


def _ink(color: tuple[float, float, float] | str) -> str:
    """Black or white, whichever reads better on ``color``."""
    r, g, b = matplotlib.colors.to_rgb(color)
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.6 else "white"


def team_colors(model: CapacityModel) -> dict[str, tuple[float, float, float]]:
    """One color per team, stable in file order (shared by the charts and the HTML legend)."""
    return {team.name: _TEAM_PALETTE[i % len(_TEAM_PALETTE)] for i, team in enumerate(model.teams)}


def figure_svg(fig: Figure) -> str:
    """The figure as an ``<svg>`` element for inline use (no XML prolog, no DOCTYPE, no timestamp)."""
    buffer = io.StringIO()
    with matplotlib.rc_context(CHART_STYLE):  # svg.fonttype is read when saving: text stays text (small, searchable)
        fig.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": "gkecap"})
    text = buffer.getvalue()
    start = text.find("<svg")
    return text[start:] if start >= 0 else text


# ----------------------------------------------------------------------------------------------------
# Capacity against quota


def _segments(quotas: dict[str, int]) -> list[tuple[str, int]]:
    """Team quotas largest first, the tail folded into ``("other teams", n)``; zero quotas dropped."""
    ordered = sorted(((team, q) for team, q in quotas.items() if q > 0), key=lambda item: -item[1])
    if len(ordered) <= MAX_SEGMENTS:
        return ordered
    head = ordered[: MAX_SEGMENTS - 1]
    rest = sum(q for _, q in ordered[MAX_SEGMENTS - 1 :])
    return [*head, (f"{len(ordered) - MAX_SEGMENTS + 1} other teams", rest)]


def capacity_vs_quota(model: CapacityModel) -> Figure:
    """Per pool: a bar of team quotas stacked (plus cohort quotas), against an outline of its capacity."""
    colors = team_colors(model)
    pools = list(model.pools)
    with matplotlib.rc_context(CHART_STYLE):
        fig = Figure(figsize=(8.0, 0.55 * max(len(pools), 2) + 1.2))
        ax = fig.subplots()
        labels = []
        drawn: dict[str, object] = {}  # legend entries, in the order first drawn
        for row, pool in enumerate(pools):
            totals = model.totals[pool.name]
            left = 0
            for team, quota in _segments(totals.team_quotas):
                color = colors.get(team, OTHER_COLOR)
                drawn.setdefault(team if team in colors else "other teams", color)
                ax.barh(row, quota, left=left, height=0.6, color=color, edgecolor="white", linewidth=0.5)
                if quota >= max(totals.capacity, totals.quota_total, 1) * 0.08:
                    ax.text(left + quota / 2, row, str(quota), ha="center", va="center", fontsize=7, color=_ink(color))
                left += quota
            cohort_quota = sum(totals.cohort_quotas.values())
            if cohort_quota:
                ax.barh(row, cohort_quota, left=left, height=0.6, color=COHORT_QUOTA_COLOR, edgecolor="white", hatch="//")
                left += cohort_quota
            edge = "#c0392b" if totals.overcommitted else "black"
            ax.add_patch(Rectangle((0, row - 0.4), totals.capacity, 0.8, fill=False, edgecolor=edge, linewidth=1.4))
            unit = "chips" if pool.is_tpu else "GPUs"
            note = f"{totals.quota_total}/{totals.capacity} {unit}"
            if totals.overcommitted:
                note += " over-committed"
            ax.text(max(totals.capacity, left) * 1.01 + 0.2, row, note, va="center", fontsize=8, color=edge)
            labels.append(f"{pool.name}\n{pool.capacity}")
        ax.set_yticks(range(len(pools)), labels)
        ax.invert_yaxis()
        ax.set_xlabel("accelerators (GPUs or TPU chips): bars = quotas, outline = pool capacity")
        widest = max((max(model.totals[p.name].capacity, model.totals[p.name].quota_total) for p in pools), default=1)
        ax.set_xlim(0, widest * 1.3 + 1)
        ax.set_title("Capacity and quota per pool")
        handles = [Patch(color=color, label=name) for name, color in drawn.items() if name != "other teams"][:MAX_SEGMENTS * 2]
        if "other teams" in drawn:
            handles.append(Patch(color=OTHER_COLOR, label="other teams"))
        if any(sum(t.cohort_quotas.values()) for t in model.totals.values()):
            handles.append(Patch(facecolor=COHORT_QUOTA_COLOR, hatch="//", label="cohort quota"))
        if handles:
            ax.legend(handles=handles, loc="lower right", fontsize=7, frameon=False, ncol=2)
        if not pools:
            ax.text(0.5, 0.5, "no accelerator pools", transform=ax.transAxes, ha="center")
    return fig


# ----------------------------------------------------------------------------------------------------
# Reservation calendar


def reservation_calendar(model: CapacityModel, now: datetime) -> Figure:
    """Each calendar reservation as a bar from start to end; today and the advance window marked."""
    reservations = list(model.reservations)
    with matplotlib.rc_context(CHART_STYLE):
        fig = Figure(figsize=(8.0, 0.6 * max(len(reservations), 1) + 1.4))
        ax = fig.subplots()
        if not reservations:
            ax.text(0.5, 0.5, "no calendar reservations", transform=ax.transAxes, ha="center", va="center")
            ax.set_axis_off()
            return fig
        kinds = {r.kind for r in reservations}
        earliest = min([now, *(r.start for r in reservations)])
        latest = max([now + timedelta(days=1), *(r.end for r in reservations)])
        for kind in sorted(kinds):
            limit = now + timedelta(days=advance_days(kind))  # type: ignore[arg-type]
            ax.axvspan(matplotlib.dates.date2num(now), matplotlib.dates.date2num(limit), color="#eef3fb", zorder=0)
            ax.axvline(limit, color="#7f9cc9", linestyle=":", linewidth=1)
            ax.text(limit, -0.6, f" {kind.upper()} booking limit (+{advance_days(kind)} d)", fontsize=7,
                    color="#5a7bb0", va="bottom")
            latest = max(latest, limit)
        for row, res in enumerate(reservations):
            color = "#2e7d32" if res.submit else "#9e9e9e"
            start = matplotlib.dates.date2num(res.start)
            width = matplotlib.dates.date2num(res.end) - start
            ax.barh(row, width, left=start, height=0.5, color=color, edgecolor="black", linewidth=0.6,
                    hatch=None if res.submit else "..")
            what = f"{res.count} {res.unit} {res.machine_type}, {res.days} d, {res.planning_status} "
            ax.text(start, row, what, ha="right", va="center", fontsize=7)
        ax.axvline(now, color="#c0392b", linewidth=1.2)
        ax.text(now, len(reservations) - 0.4, " today", color="#c0392b", fontsize=7, va="top")
        ax.set_yticks(range(len(reservations)), [f"{r.name}\n{r.zone}" for r in reservations])
        ax.set_ylim(len(reservations) - 0.3, -0.9)
        ax.set_xlim(earliest - timedelta(days=3), latest + timedelta(days=3))
        ax.xaxis.set_major_formatter(matplotlib.dates.DateFormatter("%Y-%m-%d"))
        fig.autofmt_xdate()
        ax.set_title("Calendar-mode reservations (grey dotted = draft, green = submitted)")
    return fig


# ----------------------------------------------------------------------------------------------------
# Cohort tree


def _quota_text(quota: dict[str, int], limit: int = 5) -> str:
    items = [f"{pool} {n}" for pool, n in sorted(quota.items(), key=lambda item: -item[1]) if n]
    if len(items) > limit:
        items = [*items[:limit], f"+{len(items) - limit} pools"]
    return "\n".join(items) if items else "no quota"


def cohort_tree(model: CapacityModel) -> Figure:
    """Cohorts (with the quota of their whole subtree) above their child cohorts and teams."""
    colors = team_colors(model)
    # Leaves, left to right: (label, quota text, color, is_team); internal nodes centre over their leaves.
    positions: dict[str, tuple[float, int]] = {}
    nodes: list[tuple[str, str, float, int, str, bool]] = []  # key, text, x, depth, color, is_team
    edges: list[tuple[str, str]] = []
    cursor = [0.0]

    def place_team(key: str, text: str, depth: int, color: str, parent: str | None) -> None:
        positions[key] = (cursor[0], depth)
        nodes.append((key, text, cursor[0], depth, color, True))
        if parent is not None:
            edges.append((parent, key))
        cursor[0] += 1.0

    def place_cohort(cohort: CohortPlan, parent: str | None) -> None:
        key = f"cohort:{cohort.name}"
        first = cursor[0]
        for child in cohort.children:
            place_cohort(model.cohort(child), key)
        teams = list(cohort.teams)
        for name in teams[:MAX_TREE_TEAMS]:
            team = model.team(name)
            place_team(f"team:{name}", f"{name}\n{_quota_text(team.quotas)}", cohort.depth + 1, colors[name], key)
        if len(teams) > MAX_TREE_TEAMS:
            place_team(f"more:{cohort.name}", f"+{len(teams) - MAX_TREE_TEAMS} more teams", cohort.depth + 1, OTHER_COLOR, key)
        if cursor[0] == first:  # an empty cohort still takes a slot
            cursor[0] += 1.0
        x = (first + cursor[0] - 1.0) / 2
        positions[key] = (x, cohort.depth)
        title = f"cohort {cohort.name}"
        if cohort.quota:
            title += " (shares " + ", ".join(f"{p} {n}" for p, n in cohort.quota.items()) + ")"
        nodes.append((key, f"{title}\n{_quota_text(cohort.subtree_quota)}", x, cohort.depth, "#f4f4f4", False))
        if parent is not None:
            edges.append((parent, key))

    for root in model.root_cohorts:
        place_cohort(root, None)
    loners = [t for t in model.teams if t.cohort is None]
    for team in loners[:MAX_TREE_TEAMS]:
        place_team(f"team:{team.name}", f"{team.name}\n(no cohort)\n{_quota_text(team.quotas)}", 0, colors[team.name], None)
    if len(loners) > MAX_TREE_TEAMS:
        place_team("more:", f"+{len(loners) - MAX_TREE_TEAMS} teams without cohort", 0, OTHER_COLOR, None)

    depth = max((d for _, _, _, d, _, _ in nodes), default=0)
    width = max(cursor[0], 1.0)
    with matplotlib.rc_context(CHART_STYLE):
        fig = Figure(figsize=(min(2.0 + 1.7 * width, 18.0), 1.1 + 1.5 * (depth + 1)))
        ax = fig.subplots()
        ax.set_axis_off()
        if not nodes:
            ax.text(0.5, 0.5, "no cohorts or teams", transform=ax.transAxes, ha="center")
            return fig
        for parent, child in edges:
            (x0, d0), (x1, d1) = positions[parent], positions[child]
            ax.plot([x0, x1], [-d0 - 0.32, -d1 + 0.32], color="#888888", linewidth=0.8, zorder=1)
        for _key, text, x, d, color, is_team in nodes:
            box = FancyBboxPatch((x - 0.45, -d - 0.32), 0.9, 0.64, boxstyle="round,pad=0.02",
                                 facecolor=color, edgecolor="#333333", linewidth=0.7, zorder=2)
            ax.add_patch(box)
            ax.text(x, -d, text, ha="center", va="center", fontsize=6.5, zorder=3,
                    color=_ink(color), fontweight="normal" if is_team else "bold")
        ax.set_xlim(-0.6, width - 0.4)
        ax.set_ylim(-depth - 0.5, 0.5)
        ax.set_title("Cohorts and teams (quotas in accelerators per pool)")
    return fig


def chart_svgs(model: CapacityModel, now: datetime) -> dict[str, str]:
    """All charts of a model, as inline SVG, keyed ``capacity``, ``calendar``, ``cohorts``."""
    return {
        "capacity": figure_svg(capacity_vs_quota(model)),
        "calendar": figure_svg(reservation_calendar(model, now)),
        "cohorts": figure_svg(cohort_tree(model)),
    }


_SVG_SIZE = re.compile(r'(<svg[^>]*?)\s(width|height)="[^"]*"')


def responsive(svg: str) -> str:
    """Drop the fixed width/height of an SVG so CSS sizes it (the viewBox keeps the aspect ratio)."""
    previous = None
    while previous != svg:
        previous, svg = svg, _SVG_SIZE.sub(r"\1", svg, count=1)
    return svg
