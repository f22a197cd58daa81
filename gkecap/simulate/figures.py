"""matplotlib figures as inline SVG for the simulate timeline (`gkecap.simulate.timeline`): the style and the
conversion. matplotlib loads only for a simulation's HTML (the plan report's charts are drawn by hand,
`gkecap.report.charts`).
"""

from __future__ import annotations

import io
import re

import matplotlib
from matplotlib.figure import Figure

from gkecap.report.charts import OTHER_COLOR

__all__ = ["OTHER_COLOR", "STYLE", "figure_svg"]

STYLE = {
    "svg.fonttype": "none",  # text stays text in the SVG
    "font.family": "DejaVu Sans",
    "font.size": 9,
    # User text (workload and team names) is drawn literally: no mathtext for `$...$` (`$\foo$` raised), no TeX.
    "text.parse_math": False,
    "text.usetex": False,
    "axes.spines.top": False,
    "axes.spines.right": False,
}


def figure_svg(fig: Figure) -> str:
    """The figure as an ``<svg>`` element for inline use (no XML prolog, no DOCTYPE, no timestamp), without its
    fixed width and height so the page sizes it (the viewBox keeps the aspect ratio)."""
    buffer = io.StringIO()
    with matplotlib.rc_context(STYLE):  # svg.fonttype is read when saving: text stays text (small, searchable)
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
