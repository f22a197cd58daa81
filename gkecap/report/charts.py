"""The report's two charts, drawn as inline SVG from a CapacityModel: pure string building, no plotting library.

* Capacity against quota per pool: a row per pool, its team quotas stacked (plus cohort quotas, hatched) against
  an outline of its capacity, with `quota/capacity unit` beside it. Each row is scaled to its own pool, so GPUs,
  GPU units and TPU chips never share an axis.
* The reservation calendar: each calendar-mode reservation from start to end on a time axis, today and each
  kind's booking limit marked.

Each is a pure function of the model (and `now` for the calendar): the same plan gives the same bytes (no random
element ids), so a plan written again leaves report.html as it is (`gkecap.atomic_files`). Text is text
(searchable, small), user text is escaped, and the page sizes the picture (a viewBox, no fixed size). Drawn by
hand, not with matplotlib: two simple pictures cost a plan about 0.3 CPU-s of import and 0.6 of drawing at 100
teams with it (benchmarks/RESULTS.md), a few milliseconds without.

Large organisations: a pool's bar shows its largest team quotas and folds the rest into one "other teams"
segment; the tables carry every number.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from html import escape

from gkecap.components.gke.calendar_window import advance_days
from gkecap.components.model import CapacityModel
from gkecap.report.facts import unit_of

# Segments per pool bar before the smaller quotas fold into "other teams".
MAX_SEGMENTS = 10

OTHER_COLOR = "#bbbbbb"
COHORT_QUOTA_COLOR = "#444444"
OVER_COLOR = "#c0392b"
# matplotlib's tab10, the palette the charts have always used: one color per team, stable in file order.
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf")

WIDTH = 760  # viewBox units; the page scales the picture to its column
FONT = "font-family=\"'DejaVu Sans',system-ui,sans-serif\""
_CHAR = 6.2  # average width of a character at the 11-unit font, for laying out labels


def team_colors(model: CapacityModel) -> dict[str, str]:
    """One color per team, stable in file order."""
    return {team.name: PALETTE[i % len(PALETTE)] for i, team in enumerate(model.teams)}


def _ink(color: str) -> str:
    """Black or white, whichever reads better on `color` (#rrggbb)."""
    r, g, b = (int(color[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.6 else "white"


def _text(x: float, y: float, text: str, *, size: float = 11, anchor: str = "start", fill: str = "#1f2328",
          bold: bool = False) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:g}" text-anchor="{anchor}" dominant-baseline="middle" '
            f'fill="{fill}"{weight}>{escape(text)}</text>')


def _svg(height: float, title: str, body: list[str]) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height:.0f}" role="img" {FONT}>'
            f"<title>{escape(title)}</title>" + "".join(body) + "</svg>")


_HATCH = ('<defs><pattern id="{id}" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
          '<rect width="6" height="6" fill="{fill}"/><line x1="0" y1="0" x2="0" y2="6" stroke="{stroke}" stroke-width="2"/>'
          "</pattern></defs>")


# ----------------------------------------------------------------------------------------------------
# Capacity against quota


def _segments(quotas: dict[str, int]) -> list[tuple[str, int]]:
    """Team quotas largest first, the tail folded into ``("N other teams", n)``; zero quotas dropped."""
    ordered = sorted(((team, q) for team, q in quotas.items() if q > 0), key=lambda item: -item[1])
    if len(ordered) <= MAX_SEGMENTS:
        return ordered
    head = ordered[: MAX_SEGMENTS - 1]
    rest = sum(q for _, q in ordered[MAX_SEGMENTS - 1:])
    return [*head, (f"{len(ordered) - MAX_SEGMENTS + 1} other teams", rest)]


def capacity_vs_quota(model: CapacityModel) -> str:
    """Per pool: a bar of team quotas stacked (plus cohort quotas), against an outline of its capacity."""
    colors = team_colors(model)
    pools = list(model.pools)
    title = "Capacity and quota per pool"
    if not pools:
        return _svg(60, title, [_text(WIDTH / 2, 30, "no accelerator pools", anchor="middle")])
    label_width = min(max(len(p.name) for p in pools) * _CHAR + 16, 220)
    note_width = 170
    left, right = label_width, WIDTH - note_width
    row_height, top = 30, 28
    body = [_HATCH.format(id="cohort-quota", fill=COHORT_QUOTA_COLOR, stroke="#888888"), _text(WIDTH / 2, 12, title, size=13, anchor="middle", bold=True)]
    drawn: dict[str, str] = {}  # legend entries, in the order first drawn
    for row, pool in enumerate(pools):
        totals = model.totals[pool.name]
        y = top + row * row_height
        cohort_quota = sum(totals.cohort_quotas.values())
        scale = (right - left) / max(totals.capacity, totals.quota_total + cohort_quota, 1)
        body.append(_text(left - 8, y + 8, pool.name, anchor="end"))
        body.append(_text(left - 8, y + 20, pool.capacity, size=9, anchor="end", fill="#57606a"))
        x = float(left)
        for team, quota in _segments(totals.team_quotas):
            color = colors.get(team, OTHER_COLOR)
            drawn.setdefault(team if team in colors else "other teams", color)
            width = quota * scale
            body.append(f'<rect x="{x:.1f}" y="{y + 4}" width="{width:.1f}" height="18" fill="{color}" stroke="white" stroke-width="0.5">'
                        f"<title>{escape(team)}: {quota} {escape(unit_of(pool))}</title></rect>")
            if width >= 8 + len(str(quota)) * _CHAR:
                body.append(_text(x + width / 2, y + 13, str(quota), size=9, anchor="middle", fill=_ink(color)))
            x += width
        if cohort_quota:
            width = cohort_quota * scale
            body.append(f'<rect x="{x:.1f}" y="{y + 4}" width="{width:.1f}" height="18" fill="url(#cohort-quota)">'
                        f"<title>cohort quota: {cohort_quota} {escape(unit_of(pool))}</title></rect>")
        edge = OVER_COLOR if totals.overcommitted else "black"
        body.append(f'<rect x="{left}" y="{y + 1}" width="{totals.capacity * scale:.1f}" height="24" fill="none" '
                    f'stroke="{edge}" stroke-width="1.4"/>')
        note = f"{totals.quota_total}/{totals.capacity} {unit_of(pool)}"
        if totals.overcommitted:
            note += " over-committed"
        body.append(_text(right + 6, y + 13, note, size=10, fill=edge))
    y = top + len(pools) * row_height + 6
    body.append(_text(left, y, "bars: quotas, outline: the pool's capacity (each row on its own scale, in its own unit)",
                      size=9, fill="#57606a"))
    legend = [(name, color) for name, color in drawn.items() if name != "other teams"][: MAX_SEGMENTS * 2]
    if "other teams" in drawn:
        legend.append(("other teams", OTHER_COLOR))
    if any(sum(t.cohort_quotas.values()) for t in model.totals.values()):
        legend.append(("cohort quota", "url(#cohort-quota)"))
    x, y = float(left), y + 18
    for name, color in legend:
        width = 18 + len(name) * _CHAR + 14
        if x + width > WIDTH:
            x, y = float(left), y + 16
        body.append(f'<rect x="{x:.1f}" y="{y - 5}" width="12" height="10" fill="{color}"/>')
        body.append(_text(x + 16, y, name, size=10))
        x += width
    return _svg(y + 14, title, body)


# ----------------------------------------------------------------------------------------------------
# Reservation calendar


def _ticks(start: datetime, end: datetime) -> list[datetime]:
    """Dates for the time axis: days, weeks or months, about eight of them."""
    days = max((end - start).days, 1)
    if days > 120:
        first = (start.replace(day=1, hour=0, minute=0, second=0, microsecond=0) + timedelta(days=32)).replace(day=1)
        ticks, tick = [], first
        step = max(1, round(days / 30 / 8))
        while tick <= end:
            ticks.append(tick)
            month = tick.month - 1 + step
            tick = tick.replace(year=tick.year + month // 12, month=month % 12 + 1)
        return ticks
    step = max(1, round(days / 8))
    if step >= 5:
        step = 7 * max(1, round(step / 7))
    tick = start.replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(days=1)
    ticks = []
    while tick <= end:
        ticks.append(tick)
        tick += timedelta(days=step)
    return ticks


def reservation_calendar(model: CapacityModel, now: datetime) -> str:
    """Each calendar reservation as a bar from start to end; today and the advance booking window marked."""
    reservations = list(model.reservations)
    title = "Calendar-mode reservations (grey dotted = draft, green = submitted)"
    if not reservations:
        return _svg(60, title, [_text(WIDTH / 2, 30, "no calendar reservations", anchor="middle")])
    kinds = sorted({r.kind for r in reservations})
    limits = {kind: now + timedelta(days=advance_days(kind)) for kind in kinds}
    earliest = min([now, *(r.start for r in reservations)]) - timedelta(days=3)
    latest = max([now + timedelta(days=1), *(r.end for r in reservations), *limits.values()]) + timedelta(days=3)
    label_width = min(max(len(r.name) for r in reservations) * _CHAR + 16, 200)
    left, right = label_width, WIDTH - 12
    span = (latest - earliest).total_seconds()

    def x_of(moment: datetime) -> float:
        return left + (moment - earliest).total_seconds() / span * (right - left)

    top, row_height = 54, 34
    bottom = top + len(reservations) * row_height
    body = [_HATCH.format(id="draft", fill="#9e9e9e", stroke="#cfcfcf"), _text(WIDTH / 2, 12, title, size=13, anchor="middle", bold=True)]
    for i, kind in enumerate(kinds):
        limit = limits[kind]
        body.append(f'<rect x="{x_of(now):.1f}" y="{top - 8}" width="{x_of(limit) - x_of(now):.1f}" height="{bottom - top + 8}" fill="#eef3fb"/>')
        body.append(f'<line x1="{x_of(limit):.1f}" y1="{top - 8}" x2="{x_of(limit):.1f}" y2="{bottom}" stroke="#7f9cc9" stroke-dasharray="2 3"/>')
        body.append(_text(x_of(limit) - 4, top - 18 - 11 * i, f"{kind.upper()} booking limit (+{advance_days(kind)} d)",
                          size=9, anchor="end", fill="#5a7bb0"))
    for row, res in enumerate(reservations):
        y = top + row * row_height
        start, end = x_of(res.start), x_of(res.end)
        fill = "#2e7d32" if res.submit else "url(#draft)"
        body.append(_text(left - 8, y + 8, res.name, anchor="end"))
        body.append(_text(left - 8, y + 20, res.zone, size=9, anchor="end", fill="#57606a"))
        body.append(f'<rect x="{start:.1f}" y="{y + 4}" width="{max(end - start, 1):.1f}" height="18" fill="{fill}" stroke="black" stroke-width="0.6">'
                    f"<title>{escape(res.name)}: {escape(res.start.strftime('%Y-%m-%d'))} to {escape(res.end.strftime('%Y-%m-%d'))}</title></rect>")
        what = f"{res.count} {res.unit} {res.machine_type}, {res.days} d, {res.planning_status}"
        if start - left >= len(what) * _CHAR * 0.85 + 6:
            body.append(_text(start - 4, y + 13, what, size=9, anchor="end"))
        else:
            body.append(_text(min(end + 4, right - len(what) * _CHAR * 0.85), y + 13, what, size=9))
    body.append(f'<line x1="{x_of(now):.1f}" y1="{top - 8}" x2="{x_of(now):.1f}" y2="{bottom}" stroke="{OVER_COLOR}" stroke-width="1.2"/>')
    body.append(_text(x_of(now) + 3, bottom - 4, "today", size=9, fill=OVER_COLOR))
    body.append(f'<line x1="{left}" y1="{bottom + 2}" x2="{right}" y2="{bottom + 2}" stroke="black" stroke-width="0.8"/>')
    for tick in _ticks(earliest, latest):
        x = x_of(tick)
        if not 32 <= x <= WIDTH - 32:  # a date label would be cut at the picture's edge
            continue
        body.append(f'<line x1="{x:.1f}" y1="{bottom + 2}" x2="{x:.1f}" y2="{bottom + 6}" stroke="black" stroke-width="0.8"/>')
        body.append(_text(x, bottom + 16, tick.strftime("%Y-%m-%d"), size=9, anchor="middle"))
    return _svg(bottom + 26, title, body)


def chart_svgs(model: CapacityModel, now: datetime) -> dict[str, str]:
    """The charts of a model, as inline SVG, keyed ``capacity`` and ``calendar``."""
    return {"capacity": capacity_vs_quota(model), "calendar": reservation_calendar(model, now)}
