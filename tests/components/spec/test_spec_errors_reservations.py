"""Calendar reservations and the pools that consume them: each broken rule, its own error."""

from __future__ import annotations

import pytest

from gkecap.components.spec import SpecError, load_environment
from testkit.spec_data import NOW, prod


def issues(env) -> dict[str, str]:
    with pytest.raises(SpecError) as err:
        load_environment(env, now=NOW)
    return {issue.path: issue.message for issue in err.value.issues}


def reservation(env):
    return env["reservations"][0]


def calendar_pool(env):
    return env["nodePools"][2]


def test_draft_reservation_in_the_past_names_the_fix():
    env = prod()
    reservation(env)["start"] = "2026-11-01T00:00:00Z"
    assert (
        issues(env)["reservations[0].start"]
        == "2026-11-01T00:00:00Z is not in the future (now 2026-11-22T12:00:00Z); a draft calendar reservation can "
        "only be submitted for a window that starts later than now and at most 60 days ahead: move the window to "
        "start between 2026-11-22T12:00:00Z and 2027-01-21T12:00:00Z"
    )


def test_tpu_draft_in_the_past_names_the_120_day_window():
    env = prod()
    env["reservations"].append(
        {
            "name": "tpu-run",
            "machineType": "ct6e-standard-4t",
            "count": 16,
            "zone": "us-east5-b",
            "start": "2026-11-20T00:00:00Z",
            "days": 7,
        }
    )
    assert issues(env)["reservations[1].start"].endswith(
        "at most 120 days ahead: move the window to start between 2026-11-22T12:00:00Z and 2027-03-22T12:00:00Z"
    )


def test_gpu_reservation_beyond_the_advance_window():
    env = prod()
    reservation(env)["start"] = "2027-02-01T00:00:00Z"  # 70 days ahead
    assert (
        issues(env)["reservations[0].start"]
        == "2027-02-01T00:00:00Z is more than 60 days ahead; GPU calendar reservations can start at most 60 days ahead "
        "(latest 2027-01-21T12:00:00Z)"
    )


def test_reservation_longer_than_90_days():
    env = prod()
    reservation(env)["days"] = 91
    assert issues(env)["reservations[0].days"] == "91 is outside the calendar-mode duration; allowed: 1 to 90 days"


def test_reservation_of_zero_days():
    env = prod()
    reservation(env)["days"] = 0
    assert issues(env)["reservations[0].days"] == "0 is outside the calendar-mode duration; allowed: 1 to 90 days"


def test_gpu_reservation_over_80_vms():
    env = prod()
    reservation(env)["count"] = 81
    assert (
        issues(env)["reservations[0].count"]
        == "81 VMs is outside the calendar-mode range for a3-highgpu-8g; allowed: 1 to 80 VMs"
    )


def test_tpu_reservation_chip_count_must_be_a_documented_size():
    env = prod()
    env["reservations"].append(
        {
            "name": "tpu-run",
            "machineType": "ct6e-standard-4t",
            "count": 12,
            "zone": "us-east5-b",
            "start": "2026-12-07T00:00:00Z",
            "days": 7,
        }
    )
    assert (
        issues(env)["reservations[1].count"]
        == "12 chips is not a calendar-mode TPU chip count; allowed: 1, 4, 8, 16, 32, 64, 128, 256, 512, 1024"
    )


def test_v5e_serving_reservation_is_limited_to_8_chips():
    env = prod()
    env["reservations"].append(
        {
            "name": "serve",
            "machineType": "ct5lp-hightpu-4t",
            "count": 16,
            "zone": "us-east5-b",
            "start": "2026-12-07T00:00:00Z",
            "days": 7,
            "workloadType": "SERVING",
        }
    )
    assert (
        issues(env)["reservations[1].count"]
        == "16 chips is not a calendar-mode v5e SERVING chip count; allowed: 1, 4, 8"
    )


def test_workload_type_only_for_tpu_reservations():
    env = prod()
    reservation(env)["workloadType"] = "BATCH"
    assert (
        issues(env)["reservations[0].workloadType"] == "applies to TPU reservations only; GPU reservations reserve VMs"
    )


def test_start_needs_a_time_zone():
    env = prod()
    reservation(env)["start"] = "2026-12-07T00:00:00"
    assert (
        issues(env)["reservations[0].start"]
        == "2026-12-07T00:00:00 has no time zone; write it in UTC, e.g. 2026-12-07T00:00:00Z"
    )


def test_start_must_be_a_timestamp():
    env = prod()
    reservation(env)["start"] = "next monday"
    assert issues(env)["reservations[0].start"].startswith("'next monday' is not a timestamp")


def test_machine_type_without_calendar_mode():
    env = prod()
    reservation(env)["machineType"] = "a2-highgpu-8g"
    calendar_pool(env)["machineType"] = "a2-highgpu-8g"
    message = issues(env)["reservations[0].machineType"]
    assert message.startswith(
        "'a2-highgpu-8g' cannot be reserved in calendar mode; calendar mode covers the families a3"
    )


def test_reservation_name_must_be_a_compute_name():
    env = prod()
    reservation(env)["name"] = "9-dec"
    calendar_pool(env)["reservation"] = "9-dec"
    assert issues(env)["reservations[0].name"].startswith("'9-dec' is not a Compute Engine name; allowed: lowercase")


def test_reservation_names_are_unique():
    env = prod()
    env["reservations"].append(dict(reservation(env)))
    assert (
        issues(env)["reservations[1].name"]
        == "'dec-run' is already used by reservations[0]; reservation names must be unique"
    )


def test_reservation_zone_must_be_in_the_region():
    env = prod()
    reservation(env)["zone"] = "us-central1-a"
    assert "is not in the region us-east5" in issues(env)["reservations[0].zone"]


def test_share_with_must_name_projects():
    env = prod()
    reservation(env)["shareWith"] = ["Not A Project"]
    assert issues(env)["reservations[0].shareWith[0]"] .startswith("'Not A Project' is not a Google Cloud project ID")


def test_share_with_lists_a_project_once():
    env = prod()
    reservation(env)["shareWith"] = ["acme-ml-dev", "acme-ml-dev"]
    assert issues(env)["reservations[0].shareWith"] == "'acme-ml-dev' is listed twice"


def test_calendar_pool_needs_a_reservation():
    env = prod()
    del calendar_pool(env)["reservation"]
    assert (
        issues(env)["nodePools[2].reservation"]
        == "required for calendar pools: the name of a reservation declared in reservations"
    )


def test_calendar_pool_must_name_a_declared_reservation():
    env = prod()
    calendar_pool(env)["reservation"] = "jan-run"
    assert issues(env)["nodePools[2].reservation"] == "'jan-run' is not declared in reservations; declared: dec-run"


def test_calendar_pool_uses_the_reserved_machine_type():
    env = prod()
    calendar_pool(env)["machineType"] = "a3-megagpu-8g"
    assert (
        issues(env)["nodePools[2].machineType"]
        == "'a3-megagpu-8g' does not match reservation 'dec-run', which reserves a3-highgpu-8g; "
        "a calendar pool must use the reserved machine type"
    )


def test_calendar_pool_zone_is_the_reservation_zone():
    env = prod()
    calendar_pool(env)["zones"] = ["us-east5-b"]
    assert (
        issues(env)["nodePools[2].zones"]
        == "us-east5-b is outside reservation 'dec-run', which is in us-east5-a; allowed: [us-east5-a]"
    )


def test_calendar_pool_fits_in_the_reservation():
    env = prod()
    calendar_pool(env)["maxNodes"] = 10
    assert (
        issues(env)["nodePools[2].maxNodes"]
        == "the pool needs 10 VMs but reservation 'dec-run' holds 8 VMs; allowed: at most 8 VMs"
    )


def test_calendar_pools_together_fit_in_the_reservation():
    env = prod()
    calendar_pool(env)["maxNodes"] = 5
    env["nodePools"].append(
        {
            "name": "h100-dec-2",
            "machineType": "a3-highgpu-8g",
            "capacity": "calendar",
            "reservation": "dec-run",
            "maxNodes": 5,
        }
    )
    assert (
        issues(env)["reservations[0].count"]
        == "pools consuming 'dec-run' need 10 VMs together (h100-dec 5, h100-dec-2 5) but it holds 8; "
        "reduce the pools or reserve more"
    )


def test_tpu_calendar_pool_fits_in_the_chip_reservation():
    env = prod()
    env["reservations"].append(
        {
            "name": "tpu-run",
            "machineType": "ct6e-standard-4t",
            "count": 16,
            "zone": "us-east5-b",
            "start": "2026-12-07T00:00:00Z",
            "days": 7,
        }
    )
    env["nodePools"].append(
        {
            "name": "v6e-cal",
            "machineType": "ct6e-standard-4t",
            "tpuTopology": "4x4",
            "capacity": "calendar",
            "reservation": "tpu-run",
            "slices": 2,
        }
    )
    assert (
        issues(env)["nodePools[4].slices"]
        == "the pool needs 32 chips (2 slices x 16 chips) but reservation 'tpu-run' holds 16 chips; "
        "allowed: at most 16 chips"
    )


def test_reservation_project_only_for_existing_reservations():
    env = prod()
    calendar_pool(env)["reservationProject"] = "acme-shared"
    assert issues(env)["nodePools[2].reservationProject"].startswith("applies to capacity: reservation only")


def test_unused_reservation_is_a_warning():
    env = prod()
    env["reservations"].append(
        {
            "name": "spare",
            "machineType": "a3-highgpu-8g",
            "count": 2,
            "zone": "us-east5-a",
            "start": "2026-12-07T00:00:00Z",
            "days": 7,
        }
    )
    spec = load_environment(env, now=NOW)
    assert any(
        w.startswith("reservations[1]: reservation 'spare' is consumed by no calendar pool") for w in spec.warnings
    )


def test_draft_reservation_whose_window_is_running_is_an_error():
    env = prod()
    reservation(env).update(start="2026-11-15T00:00:00Z", submit=False)
    assert issues(env)["reservations[0].start"].startswith("2026-11-15T00:00:00Z is not in the future")


def test_draft_reservation_whose_window_ended_is_an_error_not_a_warning():
    env = prod()
    reservation(env).update(start="2026-10-01T00:00:00Z", days=7, submit=False)
    assert "move the window" in issues(env)["reservations[0].start"]


def test_submitted_reservation_that_is_running_is_fine():
    # Submitted (binding, cannot be changed): it stays declared while its pools consume it, without complaint.
    env = prod()
    reservation(env).update(start="2026-11-15T00:00:00Z", submit=True)
    spec = load_environment(env, now=NOW)
    assert [w for w in spec.warnings if w.startswith("reservations[0]")] == []


def test_submitted_reservation_that_started_a_second_ago_is_fine():
    env = prod()
    reservation(env).update(start="2026-11-22T11:59:59Z", submit=True)
    assert load_environment(env, now=NOW).reservations[0].submit


def test_submitted_reservation_that_ended_is_a_warning_to_remove_it():
    env = prod()
    reservation(env).update(start="2026-10-01T00:00:00Z", days=7, submit=True)
    spec = load_environment(env, now=NOW)
    assert (
        "reservations[0].start: reservation 'dec-run': the submitted reservation's window ended at "
        "2026-10-08T00:00:00Z (now 2026-11-22T12:00:00Z): Compute Engine deleted the reservation at its end time and "
        "its pools consume nothing; remove the reservation and its pools" in spec.warnings
    )


def test_submitted_reservation_ending_exactly_now_has_ended():
    env = prod()
    reservation(env).update(start="2026-11-08T12:00:00Z", days=14, submit=True)
    assert any("window ended at 2026-11-22T12:00:00Z" in w for w in load_environment(env, now=NOW).warnings)


def test_submitted_reservation_in_the_future_still_obeys_the_advance_window():
    env = prod()
    reservation(env).update(start="2027-02-01T00:00:00Z", submit=True)
    assert "is more than 60 days ahead" in issues(env)["reservations[0].start"]


def test_submitted_reservation_still_obeys_the_duration():
    env = prod()
    reservation(env).update(start="2026-11-15T00:00:00Z", days=100, submit=True)
    assert "reservations[0].days" in issues(env)


def tpu_reservation(machine_type: str, zone: str) -> dict:
    return {"name": "tpu-run", "machineType": machine_type, "count": 16, "zone": zone,
            "start": "2026-12-07T00:00:00Z", "days": 7}


def test_tpu7x_calendar_reservation_is_refused_as_the_provider_cannot_express_it():
    # pulumi-gcp 10.2's FutureReservation vmFamily enum stops at CT6E (issue 11 item 7).
    env = prod()
    env["region"] = "us-central1"
    env["reservations"] = [tpu_reservation("tpu7x-standard-4t", "us-central1-c")]
    env["nodePools"] = env["nodePools"][:2]
    for team in env["teams"]:
        team["quota"].pop("h100-dec", None)
    message = issues(env)["reservations[0].machineType"]
    assert message.startswith("'tpu7x-standard-4t': Compute Engine offers tpu7x in calendar mode, but the pinned "
                              "pulumi-gcp (10.2) has no FutureReservation vmFamily for it")


def test_tpu_calendar_reservation_in_a_zone_without_that_version_names_the_zones():
    env = prod()
    env["reservations"].append(tpu_reservation("ct6e-standard-4t", "us-east5-c"))
    assert issues(env)["reservations[1].zone"] == (
        "'us-east5-c' does not offer v6e in calendar mode; offered: asia-northeast1-b, europe-west4-a, us-east5-a, "
        "us-east5-b")
