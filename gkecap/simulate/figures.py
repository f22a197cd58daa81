"""matplotlib figures as inline SVG for the simulate timeline (`gkecap.simulate.timeline`), in the look of
`gkecap.report.styling`. matplotlib loads only for a simulation's HTML (the plan report's charts are drawn by hand,
`gkecap.report.charts`).
"""

from __future__ import annotations

import io
import re

import matplotlib
from matplotlib.figure import Figure

from gkecap.report.charts import OTHER_COLOR
from gkecap.report.styling import CHART_STYLE

__all__ = ["OTHER_COLOR", "figure_svg", "responsive"]



def figure_svg(fig: Figure) -> str:
    """The figure as an ``<svg>`` element for inline use (no XML prolog, no DOCTYPE, no timestamp), without its
    fixed width and height so the page sizes it (the viewBox keeps the aspect ratio)."""
    buffer = io.StringIO()
    with matplotlib.rc_context(CHART_STYLE):  # svg.fonttype is read when saving: text stays text (small, searchable)
        fig.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": "gkecap"})
    text = buffer.getvalue()
    start = text.find("<svg")
    return responsive(text[start:] if start >= 0 else text)


_SVG_SIZE = re.compile(r'(<svg[^>]*?)\s(width|height)="[^"]*"')


def responsive(svg: str) -> str:
    """Drop the fixed width/height of an SVG so CSS sizes it (the viewBox keeps the aspect ratio)."""
    previous = None
    while previous != svg:
        previous, svg = svg, _SVG_SIZE.sub(r"\1", svg, count=1)
    return svg
