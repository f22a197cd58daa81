"""The version is one fact: pyproject, the policy pack and the changelog agree (docs/releasing.md)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]


def _version() -> str:
    return tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]


def test_the_policy_pack_has_the_package_version():
    pack = yaml.safe_load((REPO / "policies" / "PulumiPolicy.yaml").read_text())
    assert str(pack["version"]) == _version()


def test_the_changelog_has_a_section_for_the_version():
    headings = re.findall(r"^## \[([^\]]+)\]", (REPO / "CHANGELOG.md").read_text(), flags=re.M)
    assert headings[0] == "Unreleased" and _version() in headings


def test_the_declared_pythons_are_the_supported_ones():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    declared = sorted(c.rsplit(" ", 1)[-1] for c in project["classifiers"] if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c))
    assert project["requires-python"] == ">=3.11" and declared == ["3.11", "3.12", "3.13"]


def test_the_wheel_ships_its_type_hints():
    assert (REPO / "gkecap" / "py.typed").is_file()
    package_data = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert "py.typed" in package_data["gkecap"]
