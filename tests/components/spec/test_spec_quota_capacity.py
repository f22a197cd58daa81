"""Quota against capacity per pool (issue 4 item 3): errors where capacity is fixed, warnings for DWS."""

from __future__ import annotations

import pytest

from gkecap.components.spec import SpecError, load_environment
from testkit.spec_data import NOW, dev, prod


def error_messages(env) -> list[str]:
    with pytest.raises(SpecError) as err:
        load_environment(env, now=NOW)
    return [str(issue) for issue in err.value.issues]


def test_reservation_pool_overcommit_is_an_error_naming_teams_pool_and_numbers():
    env = prod()
    env["nodePools"].append(
        {
            "name": "h100-res",
            "machineType": "a3-highgpu-8g",
            "capacity": "reservation",
            "reservation": "acme-h100",
            "maxNodes": 4,
        }
    )
    env["teams"][0]["quota"]["h100-res"] = 24
    env["teams"][1]["quota"]["h100-res"] = 16
    assert error_messages(env) == [
        "teams: quotas for pool 'h100-res' total 40 nvidia.com/gpu (team-a 24, team-b 16) but the pool holds 32 "
        "(4 nodes x 8); reduce quotas or raise maxNodes"
    ]


def test_calendar_pool_overcommit_is_an_error():
    env = prod()
    env["teams"][0]["quota"]["h100-dec"] = 24  # 24 + 16 + 32 = 72 > 64
    assert error_messages(env) == [
        "teams: quotas for pool 'h100-dec' total 72 nvidia.com/gpu (team-a 24, team-c 16, team-d 32) but the pool "
        "holds 64 (8 nodes x 8, reservation dec-run); reduce quotas or raise maxNodes within the reservation"
    ]


def test_spot_pool_overcommit_is_an_error():
    env = prod()
    env["teams"][3]["quota"]["l4-spot"] = 3
    assert error_messages(env) == [
        "teams: quotas for pool 'l4-spot' total 9 nvidia.com/gpu (team-a 2, team-b 2, team-c 2, team-d 3) but the "
        "pool holds 8 (8 nodes x 1); reduce quotas or raise maxNodes"
    ]


def test_on_demand_tpu_overcommit_counts_slices_and_chips():
    env = dev()
    env["nodePools"][1]["capacity"] = "on-demand"
    env["teams"][0]["quota"]["v6e-4"] = 6  # 6 + 4 = 10 chips > 2 slices x 4 chips
    assert error_messages(env) == [
        "teams: quotas for pool 'v6e-4' total 10 google.com/tpu (vision 6, nlp 4) but the pool holds 8 "
        "(2 slices x 4 chips); reduce quotas or raise slices"
    ]


def test_cohort_quota_counts_against_capacity():
    env = prod()
    env["cohorts"][0]["quota"] = {"l4-spot": 1}
    assert error_messages(env) == [
        "teams: quotas for pool 'l4-spot' total 9 nvidia.com/gpu (team-a 2, team-b 2, team-c 2, team-d 2, "
        "cohort research 1) but the pool holds 8 (8 nodes x 1); reduce quotas or raise maxNodes"
    ]


@pytest.mark.parametrize("capacity", ["flex-start", "queued"])
def test_dws_pool_overcommit_is_a_warning(capacity):
    env = prod()
    env["nodePools"][0]["capacity"] = capacity
    env["teams"][3]["quota"]["h100-dws"] = 16  # 4 + 2 + 2 + 16 = 24 > 16
    spec = load_environment(env, now=NOW)
    assert (
        "teams: quotas for pool 'h100-dws' total 24 nvidia.com/gpu (team-a 4, team-b 2, team-c 2, team-d 16) but "
        f"the pool holds 16 (2 nodes x 8); {capacity} capacity is obtained on demand, so some quota may wait"
        in spec.warnings
    )


def test_exactly_full_pool_is_fine():
    spec = load_environment(prod(), now=NOW)  # every prod pool is quota == capacity
    assert not [w for w in spec.warnings if w.startswith("teams:")]


def test_pool_nobody_has_quota_on_is_a_warning():
    env = prod()
    env["teams"][0]["quota"].pop("l4-spot")
    env["teams"][1]["quota"].pop("l4-spot")
    env["teams"][2]["quota"].pop("l4-spot")
    env["teams"][3]["quota"].pop("l4-spot")
    spec = load_environment(env, now=NOW)
    assert (
        "nodePools[3]: no team or cohort has quota on pool 'l4-spot'; Kueue admits no workload to it" in spec.warnings
    )


def test_long_team_lists_are_abbreviated():
    env = prod()
    env["nodePools"][3]["maxNodes"] = 1
    env["teams"] = [{"name": f"t{i}", "quota": {"l4-spot": 1}} for i in range(30)]
    (message,) = error_messages(env)
    assert "total 30 nvidia.com/gpu" in message and ", and 18 more)" in message
