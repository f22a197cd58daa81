"""Differential test for the performance work of issue 12: the simulator's JSON output on the bundled scenarios and
on a generated mid-size organisation is identical to the output captured before the optimisations
(tests/gkecap/simulate/data/, written by golden.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import golden  # noqa: E402


@pytest.mark.parametrize("name", sorted(golden.cases()))
def test_output_unchanged(name: str):
    expected = json.loads((golden.DATA / f"{name}.json").read_text())
    assert json.loads(json.dumps(golden.cases()[name](), sort_keys=True)) == expected


@pytest.mark.parametrize("case", sorted(golden.DIGESTS, key=str), ids=lambda c: "-".join(map(str, c[:3])))
def test_heavier_output_unchanged(case):
    teams, count, seed, horizon = case
    assert golden.digest(golden.generated_json(teams, count, seed, horizon)) == golden.DIGESTS[case]
