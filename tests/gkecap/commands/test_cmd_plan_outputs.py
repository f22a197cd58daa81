"""`gkecap plan --format json`: one compact document on stdout; report files only when --out asks for them."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from gkecap.cli import app
from testkit.engine_fixtures import PROGRAMS

RAW = str(PROGRAMS / "raw_resources")


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # out/<stack> would be written here
    return tmp_path


def test_json_without_out_writes_no_report_files(in_tmp):
    result = CliRunner().invoke(app, ["plan", "--program", RAW, "--no-policies", "--format", "json"])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["summary"]["resources"] == 5
    assert not (in_tmp / "out").exists()


def test_json_is_one_compact_line(in_tmp):
    result = CliRunner().invoke(app, ["plan", "--program", RAW, "--no-policies", "--format", "json"])
    assert result.stdout.count("\n") == 1 and ", " not in result.stdout.split('"inputs"')[0]


def test_json_with_out_writes_the_report_files(in_tmp):
    result = CliRunner().invoke(app, ["plan", "--program", RAW, "--no-policies", "--format", "json", "--out", str(in_tmp / "o")])
    assert result.exit_code == 0, result.stderr
    assert json.loads((in_tmp / "o" / "plan.json").read_text()) == json.loads(result.stdout)
    assert (in_tmp / "o" / "report.html").is_file()


def test_text_output_still_writes_the_report_files(in_tmp):
    result = CliRunner().invoke(app, ["plan", "--program", RAW, "--no-policies"])
    assert result.exit_code == 0, result.stderr
    assert list((in_tmp / "out").glob("**/plan.json"))
