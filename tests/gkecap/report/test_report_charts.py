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
    svg = charts.capacity_vs_quota(_many_teams(14))
    assert "team-08" in svg  # 14 teams: 9 drawn, 5 folded
    assert "team-09" not in svg
    assert "other teams" in svg


def test_over_committed_flex_pool_is_marked():
    svg = charts.capacity_vs_quota(_many_teams(20))  # 20 GPUs of quota on 16
    assert "20/16 GPUs over-committed" in svg


def test_calendar_without_reservations_says_so():
    svg = charts.reservation_calendar(_many_teams(2), NOW)
    assert "no calendar reservations" in svg


def test_user_text_is_escaped_and_the_picture_is_well_formed():
    from xml.etree import ElementTree

    teams = [{"name": "a-b", "quota": {"h100-dws": 1}}]
    pools = [{"name": "h100-dws", "machineType": "a3-highgpu-8g", "capacity": "queued", "zones": ["us-east5-a"], "maxNodes": 2}]
    model = derive(small_spec(nodePools=pools, reservations=[], cohorts=[], teams=teams))
    for svg in charts.chart_svgs(model, NOW).values():
        root = ElementTree.fromstring(svg)  # well-formed XML: every name escaped
        assert root.tag == "{http://www.w3.org/2000/svg}svg" and "width" not in root.attrib and "viewBox" in root.attrib


def test_the_same_model_draws_the_same_bytes():
    """No random ids: a plan written again leaves report.html as it is (gkecap.atomic_files)."""
    assert charts.chart_svgs(_many_teams(14), NOW) == charts.chart_svgs(_many_teams(14), NOW)


def test_each_pool_is_drawn_in_its_own_unit():
    from testkit.report_fixtures import small_spec as spec

    svg = charts.capacity_vs_quota(derive(spec()))
    assert "16/16 GPUs" in svg and "32/32 chips" in svg
