"""The terminal plan: pool and team tables with totals, violations by level with their fix."""

from __future__ import annotations

from rich.console import Console

from gkecap.report import render_plan


def _text(result, **kwargs) -> str:
    console = Console(record=True, width=240, color_system=None)
    render_plan(result, console, **kwargs)
    return console.export_text()


def test_pool_table_has_totals_per_unit(result):
    lines = _text(result).splitlines()
    total = next(i for i, line in enumerate(lines) if line.strip().startswith("total"))
    assert lines[total].split()[1:] == ["16", "GPUs", "16", "GPUs"]  # capacity, quota
    windows = ["16", "GPUs", "in", "reservation", "windows"]
    assert lines[total + 1].split() == windows + windows  # calendar capacity, apart from the standing capacity
    assert lines[total + 2].split() == ["32", "chips", "32", "chips"]


def test_pool_table_shows_reservation_windows(result):
    assert "dec-run: 2026-12-07 to 2026-12-21 (14 d, DRAFT)" in _text(result)


def test_pool_table_leaves_out_the_window_column_without_reservations():
    from testkit.report_fixtures import plan_result, small_spec

    pools = [{"name": "h100-dws", "machineType": "a3-highgpu-8g", "capacity": "queued", "zones": ["us-east5-a"], "maxNodes": 2}]
    spec = small_spec(nodePools=pools, reservations=[], cohorts=[], teams=[{"name": "a", "quota": {"h100-dws": 16}}])
    assert "reservation window" not in _text(plan_result(spec))


def test_team_table_has_quota_limits_and_share(result):
    lines = _text(result).splitlines()
    vision = next(line for line in lines if line.strip().startswith("vision"))
    assert vision.split() == ["vision", "research", "1", "h100-dws", "4", "GPUs", "8", "no", "limit", "25%"]
    assert any("16 of 16 GPUs" in line for line in lines)


def test_violations_grouped_with_fix(result):
    text = _text(result)
    assert text.index("Mandatory violations (1)") < text.index("Advisory violations (1)")
    assert "set management {autoRepair: false}" in text
    assert "1 mandatory violation(s)" in text


def test_bare_program_shows_resources_and_violations_only(bare_result):
    text = _text(bare_result)
    assert "Capacity per pool" not in text
    assert "Resources (3)" in text
    assert "Mandatory violations (1)" in text


def test_long_team_lists_are_cut_in_the_terminal():
    from gkecap.components.model import derive
    from gkecap.report.terminal import MAX_TEAMS, teams_table

    from testkit.report_fixtures import small_spec

    teams = [{"name": f"t{i:03d}", "quota": {"h100-dws": 0}} for i in range(MAX_TEAMS + 5)]
    pools = [{"name": "h100-dws", "machineType": "a3-highgpu-8g", "capacity": "queued", "zones": ["us-east5-a"], "maxNodes": 2}]
    model = derive(small_spec(nodePools=pools, reservations=[], cohorts=[], teams=teams))
    assert teams_table(model).caption == "5 more teams in report.html"
