"""simulation.html in a real browser (headless Chromium, testkit.browser): the bundled prod scenario's timeline
loads without console errors, its search and team filter narrow the workloads, a header sorts by time."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from gkecap.cli import app
from testkit.browser import chromium, console_errors, require_browser

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("timeline")
    result = CliRunner().invoke(app, ["simulate", "--stack", "prod", "--workloads", str(ROOT / "stacks" / "scenarios" / "prod.yaml"),
                                      "--out", str(out)])
    assert result.exit_code == 0, result.stderr
    return out / "simulation.html"


@pytest.fixture(scope="module")
def browser():
    require_browser()
    with chromium() as driver:
        yield driver


def _shown(browser, table: str, column: int) -> list[str]:
    return browser.execute_script(
        "var table = arguments[0], column = arguments[1];"
        "return Array.from(document.querySelectorAll('#' + table + ' tbody tr'))"
        ".filter(function (row) { return row.getClientRects().length > 0; })"
        ".map(function (row) { return row.cells[column].textContent; });", table, column)


def test_the_timeline_opens_without_console_errors(browser, page):
    browser.get(page.as_uri())
    assert browser.find_element("id", "report-search").is_displayed()
    assert console_errors(browser) == []


def test_the_team_filter_keeps_that_teams_workloads(browser, page):
    browser.get(page.as_uri())
    from selenium.webdriver.support.ui import Select

    teams = _shown(browser, "sim-workloads", 1)
    team = teams[0]
    Select(browser.find_element("id", "filter-team")).select_by_value(team)
    shown = _shown(browser, "sim-workloads", 1)
    assert set(shown) == {team} and len(shown) < len(teams)


def test_search_filters_the_workloads(browser, page):
    browser.get(page.as_uri())
    every = _shown(browser, "sim-workloads", 0)
    name = every[-1]
    browser.find_element("id", "report-search").send_keys(name)
    shown = _shown(browser, "sim-workloads", 0)
    assert name in shown and len(shown) < len(every)


def test_a_time_column_sorts_by_seconds(browser, page):
    browser.get(page.as_uri())
    browser.find_elements("css selector", "#sim-workloads thead th")[3].click()  # submitted
    seconds = browser.execute_script(
        "return Array.from(document.querySelectorAll('#sim-workloads tbody tr'))"
        ".map(function (row) { return parseFloat(row.cells[3].dataset.sort); });")
    assert seconds == sorted(seconds)
    assert console_errors(browser) == []
