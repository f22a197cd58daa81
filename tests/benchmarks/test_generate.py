"""benchmarks/generate.py emits an environment the spec accepts at every size (issue 14: it did not from
2,591 teams, whose calendar reservations grew past the 80 VMs one calendar request may hold)."""

from __future__ import annotations

import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from generate import GPU_POOL_KINDS, gpu_pool_assignment, organisation  # noqa: E402

from gkecap.components.gke.calendar_window import GPU_MAX_VMS  # noqa: E402
from gkecap.components.spec import load_environment  # noqa: E402

NOW = datetime(2026, 11, 24, tzinfo=timezone.utc)


@pytest.mark.parametrize("teams", [1, 10, 321, 2591, 3000])
def test_every_size_is_a_valid_environment(teams):
    environment = organisation(teams, now=NOW)["config"]["gkecap:environment"]
    assert load_environment(environment, project="acme-ml-bench") is not None


@pytest.mark.parametrize("departments", [8, 33, 259, 260, 300, 1000])
def test_calendar_pools_hold_at_most_one_reservations_vms(departments):
    assignment = gpu_pool_assignment(departments)
    for pool in set(assignment):
        capacity, _, _, vms = GPU_POOL_KINDS[pool % len(GPU_POOL_KINDS)]
        if capacity == "calendar":
            assert assignment.count(pool) * vms <= GPU_MAX_VMS
