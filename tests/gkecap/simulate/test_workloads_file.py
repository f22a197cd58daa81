"""The workloads file: durations, strict keys and every problem at its YAML path."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from gkecap.simulate.workloads_file import WorkloadsFileError, load_workloads_file, parse_duration


@pytest.mark.parametrize(("raw", "seconds"), [("90s", 90), ("15m", 900), ("4h", 14400), ("2d", 172800), (30, 30),
                                              ("1.5h", 5400)])
def test_durations(raw, seconds):
    assert parse_duration(raw) == seconds


@pytest.mark.parametrize("raw", ["4 hours", "-1", -5, "h", True, "1w"])
def test_bad_durations_say_what_is_allowed(raw):
    with pytest.raises(ValueError, match="90s, 15m, 4h or 2d"):
        parse_duration(raw)


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "workloads.yaml"
    path.write_text(text)
    return path


def test_every_problem_is_reported_at_its_path(tmp_path: Path):
    path = _write(tmp_path, """
workloads:
  - {name: a, team: llm, accelerators: 8, duration: 4 hours, gpus: 2}
  - {name: b, team: llm, accelerators: 0, duration: 1h}
capacity:
  - {pool: h100, from: 2h, until: 1h, nodes: 1}
""")
    with pytest.raises(WorkloadsFileError) as caught:
        load_workloads_file(path)
    paths = [i.path for i in caught.value.issues]
    assert paths == ["workloads[0].duration", "workloads[0].gpus", "workloads[1].accelerators"]


def test_capacity_windows_must_end_after_they_start(tmp_path: Path):
    path = _write(tmp_path, "workloads: [{name: a, team: t, accelerators: 1, duration: 1h}]\n"
                            "capacity: [{pool: p, from: 2h, until: 1h, nodes: 1}]\n")
    with pytest.raises(WorkloadsFileError) as caught:
        load_workloads_file(path)
    assert [str(i) for i in caught.value.issues] == ["capacity[0].until: must be after `from`"]


def test_start_defaults_to_now(tmp_path: Path):
    now = datetime(2027, 1, 1, tzinfo=timezone.utc)
    parsed = load_workloads_file(_write(tmp_path, "workloads: [{name: a, team: t, accelerators: 1, duration: 1h}]\n"),
                                 now=now)
    assert parsed.start == now and parsed.workloads[0].pods == 1 and parsed.workloads[0].count == 1


def test_yaml_errors_name_the_line(tmp_path: Path):
    with pytest.raises(WorkloadsFileError, match=r"line \d+, column \d+: not valid YAML"):
        load_workloads_file(_write(tmp_path, "workloads:\n  - {name: a\n"))


@pytest.mark.parametrize("raw", [float("nan"), float("inf"), "99999999d", 10.0**12])
def test_durations_are_finite_and_bounded(raw):
    with pytest.raises(ValueError, match="finite|too long"):
        parse_duration(raw)


@pytest.mark.parametrize(
    ("line", "expected"),
    [("start: 2027", "start: 2027 is not a timestamp"), ("start: 2027-01-10", "start: 2027-01-10 is a date, not a time")],
)
def test_start_is_a_timestamp_never_a_number_or_a_date(tmp_path, line, expected):
    path = _write(tmp_path, line + "\nworkloads:\n  - {name: a, team: t, accelerators: 1, duration: 1h}\n")
    with pytest.raises(WorkloadsFileError) as caught:
        load_workloads_file(path)
    assert any(expected in str(issue) for issue in caught.value.issues), caught.value.issues


def test_counts_are_whole_numbers_as_written(tmp_path):
    path = _write(tmp_path, "workloads:\n  - {name: a, team: t, pods: true, accelerators: 2.0, duration: 1h}\n")
    with pytest.raises(WorkloadsFileError) as caught:
        load_workloads_file(path)
    assert sorted(issue.path for issue in caught.value.issues) == ["workloads[0].accelerators", "workloads[0].pods"]
