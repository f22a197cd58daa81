"""The vertex policies through the real pack process (Analyzer gRPC), over a program that asks for too little
preemptible Vertex quota, and a preference without a region."""

from __future__ import annotations

import pytest

from gkecap.plan import plan
from testkit.engine_fixtures import PROGRAMS


@pytest.fixture(scope="module")
def result():
    return plan(program_dir=PROGRAMS / "vertex_quota", stack="test")


def test_too_little_quota_for_the_profiles_is_a_mandatory_violation(result):
    [violation] = [v for v in result.violations if v.policy == "vertex-quota-preference"]
    assert violation.enforcement_level == "mandatory" and "raise preferredValue to 16" in violation.message
    assert result.exit_code == 1


def test_a_preference_without_a_region_is_flagged(result):
    [violation] = [v for v in result.violations if v.policy == "vertex-flex-start"]
    assert "h100-no-region" in violation.message and "region" in violation.message
