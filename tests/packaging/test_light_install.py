"""The runtime install is light: matplotlib (the report's charts) is the `report` extra, the test suite's libraries
(google-cloud-aiplatform among them) the `test` extra; the policy pack and the component plugin install the package
without extras (tests/gkecap/simulate/test_simulate_without_matplotlib.py: what needs matplotlib says so). `.ci/run` installs
the package without extras on Python 3.13 and plans with it; benchmarks/RESULTS.md has the sizes."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]


def _names(requirements: list[str]) -> set[str]:
    return {re.split(r"[<>=!~;\[ ]", r, maxsplit=1)[0].lower() for r in requirements}


def test_the_runtime_dependencies_leave_out_the_charts_and_the_tests():
    assert {"matplotlib", "google-cloud-aiplatform", "pytest"}.isdisjoint(_names(PROJECT["dependencies"]))
    extras = PROJECT["optional-dependencies"]
    assert _names(extras["report"]) == {"matplotlib"}
    assert {"google-cloud-aiplatform", "pytest"} <= _names(extras["test"])


def test_make_and_ci_install_every_extra():
    # `make` and .ci/run install `.[dev]`: the charts and the test suite's libraries with it.
    assert PROJECT["optional-dependencies"]["dev"] == ["gke-capacity[report,test]"]
    assert "'.[dev]'" in (REPO / "Makefile").read_text()


@pytest.mark.parametrize("requirements", ["policies/requirements.txt", "components/requirements.txt"])
def test_the_pack_and_the_plugin_install_the_package_without_extras(requirements):
    lines = [line for line in (REPO / requirements).read_text().splitlines() if line and not line.startswith("#")]
    assert lines and not any("[" in line for line in lines)
