"""The tested releases (`gkecap.compat.versions.TESTED`) are the ones constraints.txt pins, and a release outside
them takes the public fallbacks."""

from __future__ import annotations

from pathlib import Path

import pytest

from gkecap.compat import versions

CONSTRAINTS = Path(__file__).resolve().parents[3] / "constraints.txt"


def _pins() -> dict[str, str]:
    pins = {}
    for line in CONSTRAINTS.read_text().splitlines():
        if "==" in line and not line.startswith("#"):
            name, version = line.split("==")
            pins[name.strip().lower().replace("-", "_")] = version.strip()
    return pins


@pytest.mark.parametrize("distribution", sorted(versions.TESTED))
def test_the_tested_release_is_the_pinned_one(distribution):
    assert versions.major_minor(_pins()[distribution]) == versions.TESTED[distribution]


@pytest.mark.parametrize("distribution", sorted(versions.TESTED))
def test_the_installed_release_is_the_tested_one(distribution):
    # make and CI install with -c constraints.txt; .ci/newest-releases is where another release runs.
    assert versions.uses_internals(distribution)


def test_another_minor_release_takes_the_fallbacks(monkeypatch):
    major, minor = versions.TESTED["pulumi_policy"]
    monkeypatch.setattr(versions, "installed", lambda name: f"{major}.{minor + 1}.0")
    assert not versions.uses_internals("pulumi_policy")


def test_versions_are_read_as_major_and_minor():
    assert versions.major_minor("3.272.0") == (3, 272)
    assert versions.major_minor("1.22.0rc1") == (1, 22)
    assert versions.major_minor("1.22rc1") == (1, 22)
    assert versions.major_minor("garbage") is None
