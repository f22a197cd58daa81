"""Fixtures of the report tests; data and helpers live in report_fixtures.py."""

from __future__ import annotations

import pytest

from gkecap.components.model import derive
from testkit.report_fixtures import ADVISORY, MANDATORY, plan_result, small_spec


@pytest.fixture(scope="module")
def spec():
    return small_spec()


@pytest.fixture(scope="module")
def model(spec):
    return derive(spec)


@pytest.fixture(scope="module")
def result(spec):
    return plan_result(spec, [MANDATORY, ADVISORY])


@pytest.fixture
def bare_result():
    """A plan of a program without an environment (no spec)."""
    return plan_result(None, [MANDATORY])


