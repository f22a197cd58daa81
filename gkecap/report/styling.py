"""The look every gkecap page and chart shares (the plan report and the simulation timeline): the page CSS and
matplotlib's settings for the timeline's SVG figures (the plan report draws its two charts by hand). Plain data, no
matplotlib import."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the keys matplotlib.rc_context takes; no matplotlib import at run time
    from matplotlib.typing import RcKeyType

PAGE_CSS = """
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;margin:0;color:#1f2328;background:#fff}
main{max-width:1200px;margin:0 auto;padding:24px}
h1{font-size:1.5em;margin:0 0 4px}h2{font-size:1.15em;margin:28px 0 8px;border-bottom:1px solid #d0d7de;padding-bottom:4px}
.sub{color:#57606a;margin:0 0 16px}
.cards{display:flex;flex-wrap:wrap;gap:12px;margin:12px 0}
.card{border:1px solid #d0d7de;border-radius:6px;padding:8px 14px;min-width:120px}
.card b{display:block;font-size:1.3em}
.ok{color:#1a7f37}.bad{color:#cf222e}.warn{color:#9a6700}
table{border-collapse:collapse;width:100%;font-size:.88em;margin:6px 0 12px}
th,td{border-bottom:1px solid #e6e9ed;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa;font-weight:600}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
tr.total td{font-weight:600;border-top:2px solid #d0d7de}
tr.first td{border-top:1px solid #d0d7de}
.chart{margin:8px auto 16px;max-width:940px}.chart svg{width:100%;height:auto}
.charts{display:block}
.level-mandatory{color:#cf222e}.level-advisory{color:#9a6700}.level-disabled{color:#57606a}
.fix{color:#1a7f37}
details summary{cursor:pointer;color:#0969da}
code{font-size:.92em}
"""

CHART_STYLE: dict[RcKeyType, Any] = {
    "svg.fonttype": "none",  # text stays text in the SVG
    "font.family": "DejaVu Sans",
    "font.size": 9,
    # User text (workload and team names) is drawn literally: no mathtext for `$...$` (`$\foo$` raised), no TeX.
    "text.parse_math": False,
    "text.usetex": False,
    "axes.spines.top": False,
    "axes.spines.right": False,
}
