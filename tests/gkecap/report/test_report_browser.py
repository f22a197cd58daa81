"""report.html in a real browser (headless Chromium, testkit.browser): the bundled stacks and a generated 1,000-team
organisation load without console errors, search filters rows, filters and sorting work, the cohort tree expands,
and a screenshot is saved. The 1,000-team page stays under the 5 MB budget."""

from __future__ import annotations

import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from gkecap.components.spec import load_stack_config, load_stack_file
from gkecap.report.html import render_html
from testkit.browser import chromium, console_errors, require_browser
from testkit.report_fixtures import ADVISORY, MANDATORY, NOW, plan_result

ROOT = Path(__file__).resolve().parents[3]
SIZE_BUDGET = 5 * 1024 * 1024
SCREENSHOTS = Path(__import__("tempfile").gettempdir()) / "gkecap-report-screenshots"

sys.path.insert(0, str(ROOT / "benchmarks"))
from generate import organisation  # noqa: E402  (the benchmarks' organisation generator)


def _report(spec, path: Path) -> Path:
    result = plan_result(spec, [MANDATORY, ADVISORY])
    path.write_text(render_html(result, result.capacity_model, now=NOW), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def browser():
    require_browser()
    with chromium() as driver:
        yield driver


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("reports")
    now = datetime(2026, 11, 22, tzinfo=timezone.utc)
    org = load_stack_config(organisation(1000, now=now)["config"], now=now)
    pages = {name: _report(load_stack_file(ROOT / "stacks" / f"Pulumi.{name}.yaml"), folder / f"{name}.html") for name in ("dev", "prod")}
    pages["org1000"] = _report(org, folder / "org1000.html")
    return pages


def _open(browser, page: Path):
    browser.get(page.as_uri())  # file://, as a user opens the artifact
    return browser


def _visible_rows(browser, table_id: str, attribute: str = "id") -> list[str]:
    """An attribute of each row the page shows (asked of the page in one call, not one call per row)."""
    return browser.execute_script(
        "var table = arguments[0], attribute = arguments[1];"
        "return Array.from(document.querySelectorAll('#' + table + ' tbody tr'))"
        ".filter(function (row) { return row.getClientRects().length > 0; })"
        ".map(function (row) { return attribute === 'text' ? row.cells[4].textContent : row.getAttribute(attribute); });",
        table_id, attribute)


def _type(browser, text: str) -> None:
    box = browser.find_element("id", "report-search")
    box.clear()
    box.send_keys(text)


@pytest.mark.parametrize("name", ["dev", "prod", "org1000"])
def test_the_report_opens_without_console_errors(browser, reports, name):
    _open(browser, reports[name])
    assert browser.find_element("id", "report-search").is_displayed()
    assert console_errors(browser) == []


@pytest.mark.parametrize("name", ["prod", "org1000"])
def test_search_filters_the_team_rows(browser, reports, name):
    _open(browser, reports[name])
    before = len(_visible_rows(browser, "teams-table"))
    team = "vision" if name == "prod" else "team-0042"
    _type(browser, team)
    shown = _visible_rows(browser, "teams-table")
    assert 0 < len(shown) < before
    assert set(_visible_rows(browser, "teams-table", "data-team")) == {team}
    assert console_errors(browser) == []


def test_the_pool_filter_keeps_that_pools_rows(browser, reports):
    _open(browser, reports["prod"])
    from selenium.webdriver.support.ui import Select

    Select(browser.find_element("id", "filter-pool")).select_by_value("v6e-4x4")
    assert set(_visible_rows(browser, "teams-table", "data-pool")) == {"v6e-4x4"}
    assert _visible_rows(browser, "pools-table", "data-pool") == ["v6e-4x4"]


def test_a_header_click_sorts_the_rows(browser, reports):
    _open(browser, reports["prod"])
    in_file_order = [int(text.split()[0]) for text in _visible_rows(browser, "teams-table", "text")]
    header = browser.find_elements("css selector", "#teams-table thead th")[4]  # quota
    header.click()
    ascending = [int(text.split()[0]) for text in _visible_rows(browser, "teams-table", "text")]
    header.click()
    descending = [int(text.split()[0]) for text in _visible_rows(browser, "teams-table", "text")]
    assert in_file_order != sorted(in_file_order)  # else sorting would show nothing
    assert (ascending, descending) == (sorted(in_file_order), sorted(in_file_order, reverse=True))


def test_the_cohort_tree_starts_folded_and_expands(browser, reports):
    _open(browser, reports["org1000"])
    department = browser.find_element("id", "c-dept-004")
    team = browser.find_element("id", "t-team-0042")
    assert department.is_displayed() and not team.is_displayed()
    department.find_element("css selector", "button.toggle").click()
    assert team.is_displayed()
    assert department.get_attribute("aria-expanded") == "true"
    assert console_errors(browser) == []


def test_search_opens_the_tree_down_to_a_matching_team(browser, reports):
    _open(browser, reports["org1000"])
    _type(browser, "team-0977")
    shown = _visible_rows(browser, "cohort-tree")
    assert shown == ["c-org", "c-dept-097", "t-team-0977"]


def test_the_1000_team_report_is_under_the_size_budget(reports):
    assert reports["org1000"].stat().st_size < SIZE_BUDGET


@pytest.mark.parametrize("name", ["prod", "org1000"])
def test_a_screenshot_is_saved(browser, reports, name):
    _open(browser, reports[name])
    SCREENSHOTS.mkdir(exist_ok=True)
    target = SCREENSHOTS / f"{name}.png"
    assert browser.save_screenshot(str(target))
    assert target.stat().st_size > 10_000  # a rendered page, not an empty canvas
