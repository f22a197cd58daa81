"""gkecap.simulate.figures: the timeline's matplotlib figures as inline SVG the page sizes."""

from __future__ import annotations

from gkecap.simulate.figures import responsive


def test_responsive_drops_fixed_size():
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="576pt" height="200pt" viewBox="0 0 576 200">'
    assert responsive(svg) == '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 576 200">'
