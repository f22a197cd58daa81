"""calendar-reservation-window, submitted-reservation-protected, reservation-affinity-match/-reference."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from testkit.rule_resources import FUTURE_RESERVATION, RESERVATION, node_pool, resource

from gkecap.policies.resource_view import UNKNOWN, ResourceOptions, ResourceView
from gkecap.policies.rules.reservations import (
    calendar_ended_notices,
    calendar_window_problems,
    check_calendar_reservation_ended,
    check_calendar_reservation_window,
    check_reservation_affinity_match,
    check_reservation_affinity_reference,
    check_submitted_reservation_protected,
)

NOW = datetime(2026, 10, 1, tzinfo=timezone.utc)


def iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def gpu_calendar(name="dec-run", *, start_days=30, days=14, count="8", protect=True, **extra) -> ResourceView:
    start = NOW + timedelta(days=start_days)
    props = {
        "name": name,
        "zone": "us-east5-a",
        "reservationMode": "CALENDAR",
        "planningStatus": "SUBMITTED",
        "specificReservationRequired": True,
        "autoDeleteAutoCreatedReservations": True,
        "timeWindow": {"startTime": iso(start), "endTime": iso(start + timedelta(days=days))},
        "specificSkuProperties": {"totalCount": count, "instanceProperties": {"machineType": "a3-highgpu-8g"}},
        **extra,
    }
    return resource(FUTURE_RESERVATION, name, protect=protect, **props)


def tpu_calendar(chips=16, workload="BATCH", start_days=60) -> ResourceView:
    start = NOW + timedelta(days=start_days)
    return resource(FUTURE_RESERVATION, "v6e-run", name="v6e-run", zone="us-east5-b", reservationMode="CALENDAR",
                    timeWindow={"startTime": iso(start), "duration": {"seconds": 7 * 86400}},
                    aggregateReservation={
                        "vmFamily": "VM_FAMILY_CLOUD_TPU_LITE_POD_SLICE_CT6E", "workloadType": workload,
                        "reservedResources": [{"accelerator": {"acceleratorCount": chips, "acceleratorType": "ct6e"}}],
                    })


def test_correct_calendar_reservations_pass():
    assert calendar_window_problems(gpu_calendar(), NOW) == []
    assert calendar_window_problems(tpu_calendar(), NOW) == []


def test_window_longer_than_90_days_is_caught():
    [message] = calendar_window_problems(gpu_calendar(days=100), NOW)
    assert "calendar reservation 'dec-run'" in message and "100 days" in message and "90" in message


def test_gpu_start_beyond_60_days_is_caught_but_tpu_may_start_120_days_ahead():
    [message] = calendar_window_problems(gpu_calendar(start_days=75), NOW)
    assert "timeWindow.startTime" in message and "60 days" in message
    assert calendar_window_problems(tpu_calendar(start_days=100), NOW) == []


def test_too_many_gpu_vms_is_caught():
    [message] = calendar_window_problems(gpu_calendar(count="90"), NOW)
    assert "specificSkuProperties.totalCount" in message and "90 VMs" in message and "1 to 80" in message


def test_gpu_family_without_calendar_mode_is_caught():
    view = gpu_calendar(specificSkuProperties={"totalCount": "4", "instanceProperties": {"machineType": "a2-highgpu-8g"}})
    [message] = calendar_window_problems(view, NOW)
    assert "a2-highgpu-8g cannot be reserved in calendar mode" in message


def test_tpu_chip_count_must_be_a_calendar_size():
    [message] = calendar_window_problems(tpu_calendar(chips=12), NOW)
    assert "12 chips" in message and "16" in message


def test_tpu_workload_type_is_checked():
    [message] = calendar_window_problems(tpu_calendar(workload="TRAINING"), NOW)
    assert "'TRAINING'" in message and "BATCH" in message


def test_draft_starting_in_the_past_is_caught():
    [message] = calendar_window_problems(gpu_calendar(start_days=-2, planningStatus="DRAFT"), NOW)
    assert "not in the future" in message


def test_submitted_reservation_whose_window_began_is_not_flagged_again():
    assert calendar_window_problems(gpu_calendar(start_days=-2), NOW) == []


def test_draft_whose_window_ended_is_caught_like_the_spec_does():
    [message] = calendar_window_problems(gpu_calendar(start_days=-30, planningStatus="DRAFT"), NOW)
    assert "timeWindow.startTime" in message and "move the window" in message


def test_submitted_reservation_whose_window_ended_is_not_a_window_violation():
    assert calendar_window_problems(gpu_calendar(start_days=-30), NOW) == []


def test_submitted_reservation_whose_window_ended_gets_the_ended_advisory():
    [message] = calendar_ended_notices(gpu_calendar(start_days=-30), NOW)
    assert message.startswith("calendar reservation 'dec-run': the submitted reservation's window ended at ")
    assert "its pools consume nothing" in message


def test_running_or_draft_reservations_get_no_ended_advisory():
    assert calendar_ended_notices(gpu_calendar(start_days=-2), NOW) == []
    assert calendar_ended_notices(gpu_calendar(start_days=-30, planningStatus="DRAFT"), NOW) == []


def test_ended_advisory_reads_now_from_config():
    view = gpu_calendar(start_days=-30)
    assert check_calendar_reservation_ended(view, {"now": "2026-10-01T00:00:00Z"})
    assert check_calendar_reservation_ended(view, {"now": "2026-09-01T00:00:00Z"}) == []


def test_sharing_with_a_project_twice_is_caught():
    view = gpu_calendar(shareSettings={"shareType": "SPECIFIC_PROJECTS", "projects": ["a", "a"]})
    [message] = calendar_window_problems(view, NOW)
    assert "'a' is listed twice" in message


def test_default_mode_future_reservations_are_not_calendar_checked():
    assert calendar_window_problems(gpu_calendar(days=200, reservationMode="DEFAULT"), NOW) == []


def test_now_can_be_pinned_in_config():
    config = {"now": "2026-10-01T00:00:00Z"}
    assert check_calendar_reservation_window(gpu_calendar(), config) == []
    assert check_calendar_reservation_window(gpu_calendar(start_days=75), config)


def test_unknown_start_is_not_judged():
    view = gpu_calendar(timeWindow={"startTime": UNKNOWN, "endTime": iso(NOW)})
    assert calendar_window_problems(view, NOW) == []


def test_submitted_reservation_needs_protection():
    [message] = check_submitted_reservation_protected(gpu_calendar(protect=False), {})
    assert "'dec-run' is SUBMITTED" in message and "protect=True" in message


def test_protected_or_prevented_or_draft_reservations_pass():
    assert check_submitted_reservation_protected(gpu_calendar(protect=True), {}) == []
    assert check_submitted_reservation_protected(gpu_calendar(protect=False, deletionPolicy="PREVENT"), {}) == []
    assert check_submitted_reservation_protected(gpu_calendar(protect=False, planningStatus="DRAFT"), {}) == []


def test_retain_on_delete_reported_by_the_runner_counts_as_protection():
    view = gpu_calendar(protect=False)
    assert check_submitted_reservation_protected(view, {"retainedUrns": [view.urn]}) == []
    assert check_submitted_reservation_protected(view, {"retainedUrns": ["urn:other"]})


def reserved_pool(values, *, max_nodes=4, zones=("us-east5-a",), machine_type="a3-highgpu-8g", key=None):
    return node_pool(
        "h100-dec",
        location="us-east5",
        nodeLocations=list(zones),
        autoscaling={"totalMinNodeCount": 0, "totalMaxNodeCount": max_nodes},
        nodeConfig={
            "machineType": machine_type,
            "reservationAffinity": {
                "consumeReservationType": "SPECIFIC_RESERVATION",
                "key": key or "compute.googleapis.com/reservation-name",
                "values": values,
            },
        },
    )


def test_pool_matching_its_calendar_reservation_passes():
    stack = [gpu_calendar(), reserved_pool(["dec-run"], max_nodes=8)]
    assert check_reservation_affinity_match(stack, {}) == []
    assert check_reservation_affinity_reference(stack, {}) == []


def test_block_path_resolves_to_the_reservation():
    stack = [gpu_calendar(), reserved_pool(["projects/p/reservations/dec-run/reservationBlocks/b1"])]
    assert check_reservation_affinity_match(stack, {}) == []


def test_machine_type_mismatch_is_caught():
    stack = [gpu_calendar(), reserved_pool(["dec-run"], machine_type="a3-megagpu-8g")]
    [(urn, message)] = check_reservation_affinity_match(stack, {})
    assert urn.endswith("::h100-dec") and "a3-megagpu-8g" in message and "a3-highgpu-8g" in message


def test_zone_mismatch_is_caught():
    stack = [gpu_calendar(), reserved_pool(["dec-run"], zones=("us-east5-b",))]
    [(_, message)] = check_reservation_affinity_match(stack, {})
    assert "us-east5-b" in message and "nodeLocations [us-east5-a]" in message


def test_pool_larger_than_the_reservation_is_caught():
    stack = [gpu_calendar(count="8"), reserved_pool(["dec-run"], max_nodes=10)]
    [(_, message)] = check_reservation_affinity_match(stack, {})
    assert "10 nodes" in message and "holds 8 VMs" in message and "other 2" in message


def test_existing_reservation_resource_is_matched_too():
    reservation = resource(RESERVATION, "res", name="res", zone="us-east5-a",
                           specificReservation={"count": 2, "instanceProperties": {"machineType": "a3-highgpu-8g"}})
    [(_, message)] = check_reservation_affinity_match([reservation, reserved_pool(["res"], max_nodes=4)], {})
    assert "holds 2 VMs" in message


def test_wrong_key_is_caught():
    [(_, message)] = check_reservation_affinity_match([reserved_pool(["x"], key="name")], {})
    assert "'name'" in message and "compute.googleapis.com/reservation-name" in message


def test_reservation_outside_the_stack_is_advisory_only():
    stack = [reserved_pool(["shared-res"])]
    assert check_reservation_affinity_match(stack, {}) == []
    [(_, message)] = check_reservation_affinity_reference(stack, {})
    assert "'shared-res'" in message and "not in this stack" in message


def test_unknown_reservation_name_follows_the_dependency():
    reservation = gpu_calendar(count="2")
    pool = reserved_pool(UNKNOWN, max_nodes=4)
    pool = ResourceView(pool.type, pool.name, props=pool.props, options=ResourceOptions(),
                        property_dependencies={"nodeConfig": (reservation.urn,)})
    [(_, message)] = check_reservation_affinity_match([reservation, pool], {})
    assert "holds 2 VMs" in message


def test_an_unset_deletion_policy_is_named_as_such():
    [message] = check_submitted_reservation_protected(gpu_calendar(protect=False), {})
    assert "deletionPolicy is not set" in message and "None" not in message and "FACTS" not in message
