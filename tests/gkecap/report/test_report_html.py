"""report.html: self-contained, with its two charts, the pool, team and violation tables, the cohort tree table and
the controls its inline script drives (tests/gkecap/report/test_report_browser.py runs that script in Chromium)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from gkecap.report.html import render_html

from testkit.report_fixtures import NOW


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def _parse(html: str) -> _Collector:
    collector = _Collector()
    collector.feed(html)
    return collector


def _table_rows(html: str, table_id: str) -> list[list[str]]:
    body = re.search(rf'<table id="{table_id}"[^>]*>(.*?)</table>', html, re.S).group(1)
    rows = []
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
        cells = [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]
        rows.append(cells)
    return rows


@pytest.fixture(scope="module")
def html(result, model):
    return render_html(result, model, now=NOW)


def test_report_embeds_two_charts_as_inline_svg(html):
    assert html.count('<figure class="chart"') == 2
    for chart in ("capacity", "calendar"):
        figure = re.search(rf'<figure class="chart" id="chart-{chart}"[^>]*>(.*?)</figure>', html, re.S)
        assert figure is not None, chart
        assert figure.group(1).lstrip().startswith("<svg"), chart


def test_report_loads_nothing_from_outside(html):
    tags = _parse(html).tags
    assert not [t for t, _ in tags if t in ("link", "img", "iframe")]
    assert [attrs for t, attrs in tags if t == "script"] == [{}]  # one inline script, no src
    external = [a for _, attrs in tags for k, a in attrs.items() if k in ("src", "href") and a and not a.startswith("#")]
    assert external == []


def test_capacity_chart_names_every_pool_and_its_numbers(html):
    chart = re.search(r'id="chart-capacity".*?</figure>', html, re.S).group(0)
    for label in ("h100-dws", "v6e-16", "h100-cal", "16/16 GPUs", "32/32 chips", "16/16 GPUs"):
        assert label in chart


def test_calendar_chart_shows_the_reservation_window(html):
    chart = re.search(r'id="chart-calendar".*?</figure>', html, re.S).group(0)
    assert "dec-run" in chart
    assert "2 VMs a3-highgpu-8g, 14 d, DRAFT" in chart


def test_cohort_tree_has_a_row_per_cohort_and_team_under_it(html):
    tree = re.search(r'<table id="cohort-tree".*?</table>', html, re.S).group(0)
    rows = [(row, re.search(r'data-parent="([^"]*)"', row)) for row in re.findall(r"<tr id=[^>]*>", tree)]
    parents = {re.search(r'id="([^"]+)"', row).group(1): parent.group(1) if parent else None for row, parent in rows}
    assert parents == {"c-research": None, "t-vision": "c-research", "t-speech": "c-research", "t-recsys": "c-research",
                       "t-llm": "c-research"}


def test_cohort_tree_keeps_units_apart_in_the_subtree_quota(html):
    cells = _table_rows(html, "cohort-tree")
    research = next(r for r in cells if r[0].endswith("cohort research"))
    # 4 + 2 + 2 + 8 GPUs on h100-dws; the TPU pool in chips, never added to GPUs
    assert research[5] == "h100-dws 16 GPUs, v6e-16 32 chips, h100-cal 16 GPUs"


def test_cohort_tree_shows_a_cohorts_limits_towards_its_parent(spec):
    from gkecap.components.model import derive
    from testkit.report_fixtures import plan_result, small_spec

    nested = small_spec(cohorts=[{"name": "org"}, {"name": "research", "parent": "org", "borrowingLimit": {"h100-dws": 4},
                                                   "lendingLimit": {"v6e-16": 8}}])
    page = render_html(plan_result(nested), derive(nested), now=NOW)
    research = next(r for r in _table_rows(page, "cohort-tree") if r[0].endswith("cohort research"))
    assert (research[3], research[4]) == ("h100-dws 4 GPUs", "v6e-16 8 chips")


def test_every_table_row_carries_its_filter_keys(html):
    rows = re.findall(r'<tr class=first data-team="vision" data-cohort="research" data-pool="h100-dws" data-model="queued">', html)
    assert len(rows) == 1


def test_pool_table_has_a_row_per_pool_and_totals(html):
    rows = _table_rows(html, "pools-table")
    by_pool = {r[0]: r for r in rows[1:]}
    assert by_pool["v6e-16"][4] == "2 slices of 4x4 (4 VMs each)"
    assert by_pool["v6e-16"][5] == "32 chips"
    assert by_pool["h100-cal"][8] == "dec-run: 2026-12-07 to 2026-12-21 (14 d, DRAFT)"
    assert by_pool["total"][5] == "16 GPUs, 16 GPUs in reservation windows, 32 chips"  # listed apart, never summed


def test_team_table_has_limits_and_cohort_share(html):
    rows = _table_rows(html, "teams-table")
    vision_dws = next(r for r in rows if r[0] == "vision")
    assert vision_dws[3:] == ["h100-dws", "4 GPUs", "8", "no limit", "25%"]
    llm_dws = next(r for r in rows if r[3] == "h100-dws" and r[5] == "no limit" and r[6] == "4")
    assert llm_dws[7] == "50%"
    totals = [r for r in rows if r[0] == "total"]
    assert ["total", "", "", "h100-dws", "16 of 16 GPUs", "", "", ""] in totals


def test_violations_are_grouped_by_level_with_their_fix(html):
    mandatory = html.index('<h3 class="level-mandatory">Mandatory (1)</h3>')
    advisory = html.index('<h3 class="level-advisory">Advisory (1)</h3>')
    assert mandatory < advisory
    assert '<td class="fix">A repair recreates a node that DWS capacity may not give back: set management {autoRepair: false}.</td>' in html


def test_bare_program_report_has_resources_and_violations_only(bare_result):
    html = render_html(bare_result, None, now=NOW)
    assert "<svg" not in html
    assert 'id="pools-table"' not in html
    assert "Mandatory (1)" in html
    assert "gcp:container/nodePool:NodePool" in html


def test_policies_not_run_is_said(spec, model):
    from testkit.report_fixtures import plan_result

    html = render_html(plan_result(spec, policies_run=False), model, now=NOW)
    assert "The policy pack was not run." in html


def test_whole_vm_warnings_are_in_the_report(html):
    # 4/2/2/8 GPUs on two 8-GPU queued VMs: the report shows the quotas that do not hold (issue 11 item 2).
    warnings = html[html.index('id="warnings"'):]
    assert "is not a whole number of VMs (8 each)" in warnings and "need 4 VMs" in warnings


def test_vertex_profiles_and_their_quota_are_shown_beside_the_capacity():
    from gkecap.components.model import derive
    from gkecap.report.html import render_html
    from testkit.report_fixtures import NOW, plan_result, small_spec

    vertex = {"region": "us-central1", "profiles": [
        {"name": "llm-h100", "machineType": "a3-highgpu-8g", "acceleratorType": "NVIDIA_H100_80GB",
         "acceleratorCount": 8, "replicaCount": 2, "maxConcurrentJobs": 2}]}
    spec = small_spec(vertex=vertex)
    page = render_html(plan_result(spec, []), derive(spec), now=NOW)
    assert 'id="vertex-profiles"' in page and "CustomModelTrainingPreemptibleH100GPUsPerProjectPerRegion" in page
    assert "<td class=\"n\">32</td>" in page  # 2 replicas x 8 GPUs x 2 concurrent jobs
