"""Charts: big organisations fold into "other teams", over-commit and empty calendars are said."""

from __future__ import annotations

from gkecap.components.model import derive
from gkecap.report import charts

from testkit.report_fixtures import NOW, small_spec


def _many_teams(n: int):
    teams = [{"name": f"team-{i:02d}", "quota": {"h100-dws": 1}} for i in range(n)]
    pools = [{"name": "h100-dws", "machineType": "a3-highgpu-8g", "capacity": "queued", "zones": ["us-east5-a"], "maxNodes": 2}]
    return derive(small_spec(nodePools=pools, reservations=[], cohorts=[], teams=teams))


def test_capacity_chart_folds_small_quotas_into_other_teams():
    svg = charts.figure_svg(charts.capacity_vs_quota(_many_teams(14)))
    assert "team-08" in svg  # 14 teams: 9 drawn, 5 folded
    assert "team-09" not in svg
    assert "other teams" in svg


def test_over_committed_flex_pool_is_marked():
    svg = charts.figure_svg(charts.capacity_vs_quota(_many_teams(20)))  # 20 GPUs of quota on 16
    assert "20/16 GPUs over-committed" in svg


def test_calendar_without_reservations_says_so():
    svg = charts.figure_svg(charts.reservation_calendar(_many_teams(2), NOW))
    assert "no calendar reservations" in svg


def test_cohort_tree_cuts_long_team_lists():
    teams = [{"name": f"t{i}", "cohort": "big", "quota": {"h100-dws": 1}} for i in range(10)]
    pools = [{"name": "h100-dws", "machineType": "a3-highgpu-8g", "capacity": "queued", "zones": ["us-east5-a"], "maxNodes": 2}]
    model = derive(small_spec(nodePools=pools, reservations=[], cohorts=[{"name": "big"}], teams=teams))
    svg = charts.figure_svg(charts.cohort_tree(model))
    assert f"+{10 - charts.MAX_TREE_TEAMS} more teams" in svg


def test_responsive_drops_fixed_size():
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="576pt" height="200pt" viewBox="0 0 576 200">'
    assert charts.responsive(svg) == '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 576 200">'
