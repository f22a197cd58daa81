"""CalendarReservation: calendar-mode future reservations (FACTS.md C), checked before anything is made."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pulumi
import pytest

from gkecap.components.reservation import CalendarReservation
from testkit.input_errors import lines

FUTURE_RESERVATION = "gcp:compute/futureReservation:FutureReservation"


def day(offset: int) -> datetime:
    today = datetime.now(timezone.utc).replace(hour=0, minute=0, second=0, microsecond=0)
    return today + timedelta(days=offset)


def text(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def gpu_args(**overrides):
    args = {"machine_type": "a3-highgpu-8g", "count": 8, "zone": "us-east5-a", "start": text(day(20)), "days": 14}
    args.update(overrides)
    return args


def tpu_args(**overrides):
    args = {"machine_type": "ct6e-standard-4t", "count": 16, "zone": "us-east5-b", "start": text(day(30)), "days": 7}
    args.update(overrides)
    return args


def register(pulumi_run, name, args):
    return pulumi_run(lambda: CalendarReservation(name, args))


def test_gpu_draft_reservation(pulumi_run):
    run = register(pulumi_run, "dec-run", gpu_args())
    record = run.one(FUTURE_RESERVATION, "dec-run")
    assert record.inputs == {
        "name": "dec-run",
        "zone": "us-east5-a",
        "reservationName": "dec-run",
        "reservationMode": "CALENDAR",
        "planningStatus": "DRAFT",
        "timeWindow": {"startTime": text(day(20)), "endTime": text(day(34))},
        "specificReservationRequired": True,
        "autoDeleteAutoCreatedReservations": True,
        "deploymentType": "DENSE",
        "specificSkuProperties": {"totalCount": "8", "instanceProperties": {"machineType": "a3-highgpu-8g"}},
    }
    assert record.options["protect"] is False


def test_tpu_reservation_reserves_chips(pulumi_run):
    record = register(pulumi_run, "tpu-run", tpu_args(workload_type="SERVING", count=32)).one(FUTURE_RESERVATION)
    assert record.inputs["aggregateReservation"] == {
        "vmFamily": "VM_FAMILY_CLOUD_TPU_LITE_POD_SLICE_CT6E",
        "workloadType": "SERVING",
        "reservedResources": [
            {"accelerator": {"acceleratorCount": 32,
                             "acceleratorType": "projects/acme-ml/zones/us-east5-b/acceleratorTypes/ct6e"}}
        ],
    }
    assert "specificSkuProperties" not in record.inputs and "deploymentType" not in record.inputs


def test_tpu_workload_type_defaults_to_batch(pulumi_run):
    record = register(pulumi_run, "tpu-run", tpu_args(machine_type="ct5p-hightpu-4t", zone="us-east5-a"))
    aggregate = record.one(FUTURE_RESERVATION).inputs["aggregateReservation"]
    assert (aggregate["vmFamily"], aggregate["workloadType"]) == ("VM_FAMILY_CLOUD_TPU_POD_SLICE_CT5P", "BATCH")


def test_submitted_reservation_is_protected_and_retained(pulumi_run):
    record = register(pulumi_run, "dec-run", gpu_args(submit=True)).one(FUTURE_RESERVATION)
    assert record.inputs["planningStatus"] == "SUBMITTED"
    assert record.options["protect"] is True
    assert record.options["retainOnDelete"] is True


def test_protection_of_a_submitted_reservation_can_be_dropped_explicitly(pulumi_run):
    record = register(pulumi_run, "dec-run", gpu_args(submit=True, allow_destroy_submitted=True)).one(FUTURE_RESERVATION)
    assert record.options["protect"] is False
    assert record.options["retainOnDelete"] is True  # Pulumi forgets it; the API cannot cancel it


def test_shared_reservation(pulumi_run):
    record = register(pulumi_run, "dec-run", gpu_args(share_with=["acme-research", "acme-vision"])).one(FUTURE_RESERVATION)
    assert record.inputs["shareSettings"] == {"shareType": "SPECIFIC_PROJECTS", "projects": ["acme-research", "acme-vision"]}


def test_outputs_name_the_reservation_node_pools_consume(pulumi_run):
    run = register(pulumi_run, "dec-run", gpu_args(reservation_name="h100-dec-block"))
    assert run.one(FUTURE_RESERVATION).inputs["reservationName"] == "h100-dec-block"
    assert run.one("gkecap:index:CalendarReservation").outputs == {
        "reservationName": "h100-dec-block",
        "zone": "us-east5-a",
        "startTime": text(day(20)),
        "endTime": text(day(34)),
        "planningStatus": "DRAFT",
        "count": 8,
    }


def test_date_only_start_means_midnight_utc(pulumi_run):
    record = register(pulumi_run, "dec-run", gpu_args(start=day(20).date().isoformat())).one(FUTURE_RESERVATION)
    assert record.inputs["timeWindow"]["startTime"] == text(day(20))


# --- Invalid requests: every problem reported, nothing registered -----------------------------------


def problems_of(pulumi_run, args, name="dec-run"):
    def program():
        with pytest.raises(pulumi.InputPropertiesError) as raised:
            CalendarReservation(name, args)
        problems.extend(lines(raised.value))

    problems: list[str] = []
    run = pulumi_run(program)
    assert [r.type for r in run.records] == ["pulumi:pulumi:Stack"]  # nothing half-made
    return problems


def test_window_longer_than_90_days(pulumi_run):
    assert problems_of(pulumi_run, gpu_args(days=91)) == [
        "days: 91 is outside the calendar-mode duration; allowed: 1 to 90 days"]


def test_start_in_the_past(pulumi_run):
    (problem,) = problems_of(pulumi_run, gpu_args(start=text(day(-1))))
    assert problem.startswith(f"start: {text(day(-1))} is not in the future")


def test_gpu_start_beyond_the_advance_window(pulumi_run):
    (problem,) = problems_of(pulumi_run, gpu_args(start=text(day(70))))
    assert "GPU calendar reservations can start at most 60 days ahead" in problem


def test_tpu_may_start_further_ahead_than_gpu(pulumi_run):
    run = register(pulumi_run, "tpu-run", tpu_args(start=text(day(100))))
    assert run.one(FUTURE_RESERVATION).inputs["timeWindow"]["startTime"] == text(day(100))


def test_tpu_chip_count_must_be_an_allowed_size(pulumi_run):
    assert problems_of(pulumi_run, tpu_args(count=12), name="tpu-run") == [
        "count: 12 chips is not a calendar-mode TPU chip count; allowed: "
        "1, 4, 8, 16, 32, 64, 128, 256, 512, 1024"]


def test_gpu_vm_count_limit(pulumi_run):
    assert problems_of(pulumi_run, gpu_args(count=81)) == [
        "count: 81 VMs is outside the calendar-mode range for a3-highgpu-8g; "
        "allowed: 1 to 80 VMs"]


def test_machine_type_not_offered_in_calendar_mode(pulumi_run):
    (problem,) = problems_of(pulumi_run, gpu_args(machine_type="a2-highgpu-8g"))
    assert problem.startswith("machineType: 'a2-highgpu-8g' cannot be reserved in calendar mode; calendar mode covers")


def test_all_problems_are_reported_together(pulumi_run):
    problems = problems_of(pulumi_run, gpu_args(days=0, count=0, workload_type="BATCH", start="2026-12-07T00:00:00"))
    assert [p.split(": ")[0] for p in problems] == ["start", "days", "count", "workloadType"]
    assert "has no time zone; write it in UTC" in problems[0]


def test_workload_type_is_for_tpu_only(pulumi_run):
    assert problems_of(pulumi_run, gpu_args(workload_type="BATCH")) == [
        "workloadType: applies to TPU reservations only; GPU reservations reserve VMs"]


def test_submitted_reservation_whose_window_is_running_is_kept_quietly(pulumi_run):
    run = register(pulumi_run, "dec-run", gpu_args(start=text(day(-2)), submit=True))
    assert run.one(FUTURE_RESERVATION).options["protect"] is True
    assert not any("dec-run" in w for w in run.warnings())


def test_submitted_reservation_whose_window_ended_is_kept_with_a_warning(pulumi_run):
    run = register(pulumi_run, "dec-run", gpu_args(start=text(day(-20)), days=14, submit=True))
    assert run.one(FUTURE_RESERVATION).options["protect"] is True
    assert any("window ended at" in w and "consume nothing" in w for w in run.warnings())


def test_draft_whose_start_passed_is_refused(pulumi_run):
    (problem,) = problems_of(pulumi_run, gpu_args(start=text(day(-2))))
    assert "start" in problem and "move the window" in problem


def test_invalid_reservation_name(pulumi_run):
    (problem,) = problems_of(pulumi_run, gpu_args(reservation_name="Dec_Run"))
    assert problem.startswith("reservationName: 'Dec_Run' is not a reservation name")
