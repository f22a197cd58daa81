"""The unchanged-file shortcut of the plan's output (gkecap.atomic_files: a file that already holds its bytes is
left as it is) against its off switch, GKECAP_WRITE_UNCHANGED=1: a plan written over an earlier one leaves the same
files, byte for byte, either way, and the same as a plan written into an empty folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from gkecap.atomic_files import WRITE_UNCHANGED_ENV
from gkecap.report import write_outputs
from testkit.report_fixtures import NOW, SMALL_ENVIRONMENT, plan_result, small_spec

VERTEX = {"region": "us-central1", "profiles": [
    {"name": "vision-l4", "team": "vision", "machineType": "g2-standard-24", "acceleratorType": "NVIDIA_L4",
     "acceleratorCount": 2, "maxConcurrentJobs": 2}]}


def _before():
    return plan_result(small_spec(vertex=VERTEX))


def _after():
    """The next plan: a team gone, a quota changed, the Vertex profile removed."""
    teams = [t for t in SMALL_ENVIRONMENT["teams"] if t["name"] != "recsys"]
    teams = [{**t, "quota": {**t["quota"], "h100-dws": 6}} if t["name"] == "speech" else t for t in teams]
    return plan_result(small_spec(teams=teams))


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _inodes(root: Path) -> dict[str, int]:
    return {str(p.relative_to(root)): p.stat().st_ino for p in root.rglob("*") if p.is_file()}


@pytest.mark.parametrize("plans", [("after",), ("before", "after"), ("after", "after")], ids=["fresh", "changed", "same"])
def test_the_files_are_the_same_with_the_shortcut_on_and_off(tmp_path, monkeypatch, plans):
    results = {"before": _before(), "after": _after()}
    trees = {}
    for switch in ("on", "off"):
        out = tmp_path / switch
        if switch == "off":
            monkeypatch.setenv(WRITE_UNCHANGED_ENV, "1")
        for name in plans:
            written = write_outputs(results[name], out, now=NOW)
        trees[switch] = (_tree(out), sorted(str(p.relative_to(out)) for p in written.values()))
    plain = tmp_path / "plain"
    monkeypatch.setenv(WRITE_UNCHANGED_ENV, "1")
    write_outputs(results["after"], plain, now=NOW)
    assert trees["on"] == trees["off"]
    assert trees["on"][0] == _tree(plain)


def test_with_the_shortcut_an_unchanged_file_is_kept_and_off_every_file_is_replaced(tmp_path, monkeypatch):
    result = _after()
    write_outputs(result, tmp_path, now=NOW)
    first = _inodes(tmp_path)
    write_outputs(result, tmp_path, now=NOW)
    assert _inodes(tmp_path) == first
    monkeypatch.setenv(WRITE_UNCHANGED_ENV, "1")
    write_outputs(result, tmp_path, now=NOW)
    again = _inodes(tmp_path)
    assert set(again) == set(first) and all(again[name] != first[name] for name in first)
