"""Every table of the plan fits 40, 80, 120 and 200 columns without losing an identifying column (gkecap.report.fit):
wrapped where it fits, stacked a block per row where it does not; piped output wraps at a readable width."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table

from gkecap.commands.terminal_io import READABLE_WIDTH
from gkecap.components.spec import load_stack_file
from gkecap.report import render_plan
from gkecap.report.fit import fitted
from testkit.cli_process import run_gkecap
from testkit.report_fixtures import ADVISORY, MANDATORY, plan_result

ROOT = Path(__file__).resolve().parents[3]
PROD = ROOT / "stacks" / "Pulumi.prod.yaml"
WIDTHS = (40, 80, 120, 200)


@pytest.fixture(scope="module")
def prod_result():
    return plan_result(load_stack_file(PROD), [MANDATORY, ADVISORY])


def _printed(result, width: int) -> str:
    console = Console(width=width, color_system=None, record=True)
    with console.capture() as captured:
        render_plan(result, console)
    return captured.get()


@pytest.mark.parametrize("width", WIDTHS)
def test_no_line_is_wider_than_the_terminal(prod_result, width):
    assert max(cell_len(line) for line in _printed(prod_result, width).splitlines()) <= width


@pytest.mark.parametrize("width", WIDTHS)
def test_every_pool_and_team_name_is_printed_whole(prod_result, width):
    words = {word.strip("│┃,") for line in _printed(prod_result, width).splitlines() for word in line.split()}
    model = prod_result.capacity_model
    assert {pool.name for pool in model.pools} | {team.name for team in model.teams} <= words


@pytest.mark.parametrize("width", WIDTHS)
def test_no_cell_is_cut(prod_result, width):
    assert "…" not in _printed(prod_result, width)


@pytest.mark.parametrize("width", WIDTHS)
def test_every_violation_names_its_policy_whole(prod_result, width):
    words = set(_printed(prod_result, width).split())
    assert {"flex-start-settings", "queued-provisioning-admission-check"} <= words


def _table() -> Table:
    table = Table(title="t", box=box.SIMPLE_HEAD)
    table.add_column("pool")
    table.add_column("description")
    table.add_row("h100-dws-long", "a queued pool of eight A3 High VMs")
    return table


def test_a_table_that_fits_keeps_its_layout():
    console = Console(width=60, color_system=None)
    with console.capture() as captured:
        console.print(fitted(_table()))
    assert "pool" in captured.get().splitlines()[2] and "description" in captured.get().splitlines()[2]


def test_a_table_that_cannot_fit_is_stacked_under_its_key():
    console = Console(width=20, color_system=None)
    with console.capture() as captured:
        console.print(fitted(_table()))
    lines = captured.get().splitlines()
    assert lines[1] == "h100-dws-long" and lines[2].startswith("  description: a")


def test_piped_plan_wraps_at_the_columns_given(tmp_path):
    """`make plan` at 80 columns, through the console script: every pool name whole, no line wider."""
    run = run_gkecap(["plan", "--stack", "prod", "--out", str(tmp_path), "--no-policies"], cwd=ROOT, env={"COLUMNS": "80"}, timeout=300)
    assert run.exit_code == 0, run.stderr
    lines = run.stdout.splitlines()
    assert max(cell_len(line) for line in lines) <= 80
    for pool in ("h100-dws", "h100-dws-long", "v6e-4x4", "h100-cal", "l4-spot"):
        assert pool in lines


def test_piped_plan_without_columns_wraps_at_a_readable_width(tmp_path):
    run = run_gkecap(["plan", "--stack", "prod", "--out", str(tmp_path), "--no-policies"], cwd=ROOT, env={"COLUMNS": ""}, timeout=300)
    assert run.exit_code == 0, run.stderr
    assert max(cell_len(line) for line in run.stdout.splitlines()) <= READABLE_WIDTH
