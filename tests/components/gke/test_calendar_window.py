"""Calendar-mode rules (FACTS C) as pure functions with `now` passed in."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gkecap.components.gke import calendar_window as cw

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)


def fields(problems):
    return [p.path for p in problems]


def test_a_valid_gpu_request_has_no_problems():
    start = NOW + timedelta(days=15)
    assert (
        cw.check_calendar_request(kind="gpu", count=8, start=start, days=14, now=NOW, machine_type="a3-highgpu-8g")
        == []
    )


def test_start_now_is_not_in_the_future():
    assert fields(cw.check_window(NOW, NOW + timedelta(days=7), now=NOW, kind="gpu")) == ["start"]


def test_gpu_advance_window_is_60_days():
    assert cw.check_window(NOW + timedelta(days=60), NOW + timedelta(days=67), now=NOW, kind="gpu") == []
    late = cw.check_window(NOW + timedelta(days=60, seconds=1), NOW + timedelta(days=67), now=NOW, kind="gpu")
    assert fields(late) == ["start"]


def test_tpu_advance_window_is_120_days():
    assert cw.check_window(NOW + timedelta(days=120), NOW + timedelta(days=127), now=NOW, kind="tpu") == []
    late = cw.check_window(NOW + timedelta(days=121), NOW + timedelta(days=128), now=NOW, kind="tpu")
    assert late[0].message.endswith(
        "TPU calendar reservations can start at most 120 days ahead (latest 2027-03-22T12:00:00Z)"
    )


def test_window_shorter_than_a_day():
    start = NOW + timedelta(days=1)
    problems = cw.check_window(start, start + timedelta(hours=12), now=NOW, kind="gpu")
    assert [(p.path, p.message) for p in problems] == [("days", "the window lasts 0.5 days; allowed: 1 to 90 days")]


def test_window_longer_than_90_days():
    start = NOW + timedelta(days=1)
    assert fields(cw.check_window(start, start + timedelta(days=91), now=NOW, kind="tpu")) == ["days"]


def test_end_given_instead_of_days():
    start = NOW + timedelta(days=2)
    assert cw.check_calendar_request(kind="tpu", count=16, start=start, end=start + timedelta(days=7), now=NOW) == []


def test_days_or_end_exactly_one():
    with pytest.raises(TypeError):
        cw.check_calendar_request(kind="gpu", count=1, start=NOW, now=NOW)


def test_h4d_allows_256_vms():
    assert cw.check_count(256, kind="gpu", machine_type="h4d-highmem-192") == []
    assert fields(cw.check_count(257, kind="gpu", machine_type="h4d-highmem-192")) == ["count"]


def test_gpu_vm_count_limit_is_80():
    assert cw.check_count(80, kind="gpu", machine_type="a3-highgpu-8g") == []
    assert fields(cw.check_count(81, kind="gpu", machine_type="a3-highgpu-8g")) == ["count"]


@pytest.mark.parametrize("chips", cw.TPU_CHIP_COUNTS)
def test_documented_tpu_chip_counts_are_accepted(chips):
    assert cw.check_count(chips, kind="tpu", tpu_family="v6e", workload_type="BATCH") == []


@pytest.mark.parametrize("chips", [2, 3, 12, 48, 2048])
def test_other_tpu_chip_counts_are_refused(chips):
    assert fields(cw.check_count(chips, kind="tpu", tpu_family="v6e")) == ["count"]


def test_v5e_serving_only_1_4_8_chips():
    assert cw.check_count(8, kind="tpu", tpu_family="v5e", workload_type="SERVING") == []
    assert fields(cw.check_count(16, kind="tpu", tpu_family="v5e", workload_type="SERVING")) == ["count"]
    assert cw.check_count(16, kind="tpu", tpu_family="v5e", workload_type="BATCH") == []


def test_workload_type_is_for_tpus():
    assert fields(cw.check_workload_type("BATCH", kind="gpu")) == ["workloadType"]
    assert fields(cw.check_workload_type("STREAMING", kind="tpu")) == ["workloadType"]


def test_share_with_at_most_100_projects():
    projects = [f"project-{i:03d}" for i in range(101)]
    assert fields(cw.check_share_with(projects)) == ["shareWith"]
    assert cw.check_share_with(projects[:100]) == []


def test_dates_mean_midnight_utc():
    assert cw.as_utc_datetime(date(2026, 12, 7)) == datetime(2026, 12, 7, tzinfo=timezone.utc)


def test_naive_datetimes_are_refused():
    with pytest.raises(ValueError, match="has no time zone"):
        cw.as_utc_datetime(datetime(2026, 12, 7))


@settings(max_examples=60, deadline=None)
@given(
    kind=st.sampled_from(["gpu", "tpu"]),
    lead=st.integers(min_value=1, max_value=120 * 24 * 3600),
    days=st.integers(min_value=-5, max_value=120),
)
def test_window_problems_match_the_rules(kind, lead, days):
    start = NOW + timedelta(seconds=lead)
    problems = cw.check_window(start, cw.window_end(start, days), now=NOW, kind=kind)
    expect_start = lead > cw.advance_days(kind) * 24 * 3600
    expect_days = not 1 <= days <= 90
    assert ("start" in fields(problems)) == expect_start
    assert ("days" in fields(problems)) == expect_days


# --- starts in the past: drafts versus submitted requests (the module docstring) ---------------------------


def test_window_phases():
    start, end = NOW, NOW + timedelta(days=7)
    assert cw.window_phase(start, end, NOW - timedelta(seconds=1)) == "upcoming"
    assert cw.window_phase(start, end, NOW) == "running"
    assert cw.window_phase(start, end, end - timedelta(seconds=1)) == "running"
    assert cw.window_phase(start, end, end) == "ended"


def test_draft_whose_start_passed_is_a_start_passed_problem_naming_the_fix():
    start = NOW - timedelta(days=3)
    [problem] = cw.check_window(start, start + timedelta(days=7), now=NOW, kind="gpu")
    assert (problem.path, problem.rule) == ("start", "start-passed")
    assert problem.message.endswith("move the window to start between 2026-11-22T12:00:00Z and 2027-01-21T12:00:00Z")


def test_submitted_request_whose_window_began_is_not_judged_on_its_start():
    start = NOW - timedelta(days=3)
    assert cw.check_window(start, start + timedelta(days=7), now=NOW, kind="gpu", submitted=True) == []


def test_submitted_request_still_obeys_the_duration():
    start = NOW - timedelta(days=3)
    problems = cw.check_window(start, start + timedelta(days=91), now=NOW, kind="gpu", submitted=True)
    assert fields(problems) == ["days"]


def test_submitted_request_passes_submitted_through_check_calendar_request():
    start = NOW - timedelta(days=1)
    kwargs = dict(kind="gpu", count=8, start=start, days=14, now=NOW, machine_type="a3-highgpu-8g")
    assert cw.check_calendar_request(**kwargs, submitted=True) == []
    assert [p.rule for p in cw.check_calendar_request(**kwargs)] == ["start-passed"]


def test_ended_notice_only_for_a_submitted_request_whose_window_ended():
    start = NOW - timedelta(days=10)
    end = start + timedelta(days=7)
    notice = cw.ended_notice(start, end, now=NOW, submitted=True)
    assert notice is not None and (notice.path, notice.rule) == ("start", "window-ended")
    assert "ended at 2026-11-19T12:00:00Z" in notice.message and "its pools consume nothing" in notice.message
    assert cw.ended_notice(start, end, now=NOW, submitted=False) is None  # a draft: check_window's error
    assert cw.ended_notice(start, start + timedelta(days=14), now=NOW, submitted=True) is None  # still running


@settings(max_examples=60, deadline=None)
@given(
    kind=st.sampled_from(["gpu", "tpu"]),
    offset=st.integers(min_value=-200 * 24 * 3600, max_value=200 * 24 * 3600),
    days=st.integers(min_value=1, max_value=90),
    submitted=st.booleans(),
)
def test_start_rules_by_phase(kind, offset, days, submitted):
    start = NOW + timedelta(seconds=offset)
    end = cw.window_end(start, days)
    problems = cw.check_window(start, end, now=NOW, kind=kind, submitted=submitted)
    phase = cw.window_phase(start, end, NOW)
    start_rules = {p.rule for p in problems if p.path == "start"}
    if phase == "upcoming":
        too_far = offset > cw.advance_days(kind) * 24 * 3600
        assert start_rules == ({"start-too-far"} if too_far else set())
    else:
        assert start_rules == (set() if submitted else {"start-passed"})
    assert (cw.ended_notice(start, end, now=NOW, submitted=submitted) is not None) == (submitted and phase == "ended")
