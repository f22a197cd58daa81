"""Without matplotlib (an install without the `report` extra): `gkecap simulate --out`, the one command that draws
with it, names the extra it needs."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gkecap.cli import app

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
def without_matplotlib(monkeypatch):
    """As in an install without the report extra: importing matplotlib fails (None in sys.modules)."""
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    for module in ("gkecap.simulate.timeline",):
        monkeypatch.delitem(sys.modules, module, raising=False)


def test_without_matplotlib_simulate_out_names_the_extra(without_matplotlib, tmp_path):
    run = CliRunner().invoke(app, ["simulate", "--stack", "dev", "--workloads",
                                   str(REPO / "stacks" / "scenarios" / "dev.yaml"), "--out", str(tmp_path)])
    assert run.exit_code == 2
    assert 'the timelines need matplotlib, the report extra: pip install "gke-capacity[report]"' in run.stderr
    assert list(tmp_path.iterdir()) == []
