"""Differential property for calendar reservations (see testkit.differential): the spec and CalendarReservation
accept and reject alike, the spec first and at its YAML fields."""

from __future__ import annotations

import copy
from datetime import timedelta, timezone
from typing import Any

import pulumi
import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

from gkecap.components import reservation as reservation_module
from gkecap.components.catalog import is_tpu_machine_type
from gkecap.components.reservation import CalendarReservation
from gkecap.components.spec import ReservationSpec, SpecError, load_environment
from testkit.differential import (
    FAULT_COUNTS,
    FUTURE_RESERVATION,
    PROJECT,
    SHARED_FIXTURES,
    START,
    assert_spec_reports,
    chance,
    environment,
    field_of,
    shape_rejects_a_required_key,
    snake,
    spec_issues,
    utc_text,
)
from testkit.input_errors import lines
from testkit.spec_data import NOW

# --- 4. calendar reservations ---------------------------------------------------------------------------------

CALENDAR_MACHINE_TYPES = ["a3-highgpu-8g", "a3-ultragpu-8g", "a4-highgpu-8g", "ct6e-standard-4t", "ct5lp-hightpu-4t",
                          "ct5p-hightpu-4t", "tpu7x-standard-4t"]
NOT_CALENDAR_MACHINE_TYPES = ["a2-highgpu-1g", "g2-standard-4", "ct4p-hightpu-4t", "n2-standard-8"]


def start_text(offset_days: int, form: str) -> Any:
    """A start `offset_days` after NOW (12:00 UTC) in one of the forms a stack file can hold."""
    moment = NOW + timedelta(days=offset_days)
    return {
        "Z": utc_text(moment),
        "+00:00": moment.isoformat(),
        "+02:00": moment.astimezone(timezone(timedelta(hours=2))).isoformat(),  # the same instant
        "timestamp": moment,  # a YAML timestamp
        "date": moment.date(),  # a YAML date: midnight UTC
        "naive": moment.replace(tzinfo=None).isoformat(),  # no time zone
        "date text": moment.date().isoformat(),  # a date in quotes
        "number": int(moment.timestamp()),  # seconds since 1970, not a time
        "digits": str(int(moment.timestamp())),  # the same in quotes
        "garbage": "next week",
    }[form]


@st.composite
def valid_reservation(draw: st.DrawFn, index: int) -> dict[str, Any]:
    """A `reservations` entry every calendar rule accepts."""
    machine_type = draw(st.sampled_from(CALENDAR_MACHINE_TYPES))
    tpu = is_tpu_machine_type(machine_type)
    entry: dict[str, Any] = {"name": f"res-{index}", "machineType": machine_type}
    if tpu and chance(draw, 40):
        entry["workloadType"] = draw(st.sampled_from(["BATCH", "SERVING"]))
    serving_v5e = entry.get("workloadType") == "SERVING" and machine_type.startswith("ct5lp")
    entry["count"] = draw(st.sampled_from([1, 4, 8] if serving_v5e else [4, 16, 1024, 16.0] if tpu else [1, 8, 80, 8.0]))
    entry["zone"] = draw(st.sampled_from(["us-east5-a", "us-east5-b"]))
    submit = draw(st.sampled_from([None, False, True]))
    offsets = [1, 10, 119 if tpu else 59] + ([-1] if submit else [])  # a submitted window may have begun
    offset = draw(st.sampled_from(offsets))
    forms = ["Z", "+00:00", "+02:00", "timestamp"] + (["date"] if offset > 0 else [])
    entry["start"] = start_text(offset, draw(st.sampled_from(forms)))
    entry["days"] = draw(st.sampled_from([1, 7, 14, 90, 7.0]))
    if submit is not None:
        entry["submit"] = submit
    if chance(draw, 25):
        entry["shareWith"] = draw(st.sampled_from([[], ["partner-proj"], ["partner-proj", "other-proj"]]))
    if chance(draw, 10):
        entry["description"] = "quarterly training run"
    return entry


def _reservation_fault(draw: st.DrawFn, field: str, entry: dict[str, Any]) -> None:
    tpu = is_tpu_machine_type(entry["machineType"])
    if field == "name":
        entry["name"] = draw(st.sampled_from(["Res_0", "a" * 64, "-res"]))
    elif field == "machineType":
        entry["machineType"] = draw(st.sampled_from(NOT_CALENDAR_MACHINE_TYPES + CALENDAR_MACHINE_TYPES))
    elif field == "count":
        entry["count"] = draw(st.sampled_from([12, 2048, 0, 3, 16.5] if tpu else [0, -1, 81, 8.5]))
    elif field == "zone":
        entry["zone"] = draw(st.sampled_from(["us-central1-a", "us-east5", "bogus"]))
    elif field == "start":
        form = draw(st.sampled_from(["Z", "naive", "date text", "number", "digits", "garbage"]))
        entry["start"] = start_text(draw(st.sampled_from([10, -1, -30, 0, 61, 121])), form)
    elif field == "days":
        entry["days"] = draw(st.sampled_from([91, 0, -1, 7.5]))
    elif field == "workloadType":
        entry["workloadType"] = draw(st.sampled_from(["TRAINING", "BATCH", "SERVING"]))
    elif field == "shareWith":
        entry["shareWith"] = draw(st.sampled_from([["partner-proj", "partner-proj"], ["Bad"]]))
    elif field == "submit":
        entry["submit"] = not entry.get("submit", False)


RESERVATION_FAULTS = ["name", "machineType", "count", "zone", "start", "days", "workloadType", "shareWith", "submit"]


@st.composite
def reservation_entry(draw: st.DrawFn, index: int) -> dict[str, Any]:
    entry = draw(valid_reservation(index))
    for _ in range(draw(FAULT_COUNTS)):
        _reservation_fault(draw, draw(st.sampled_from(RESERVATION_FAULTS)), entry)
    return entry


RESERVATIONS = st.integers(1, 2).flatmap(lambda n: st.tuples(*(reservation_entry(i) for i in range(n)))).map(list)


def reservation_component_args(entry: dict[str, Any]) -> dict[str, Any]:
    return {snake(key): copy.deepcopy(value) for key, value in entry.items() if key != "name"}


def reservation_fields(property_path: str) -> set[str]:
    field = field_of(property_path)
    return {{"reservationName": "name"}.get(field, field)}


@settings(max_examples=100, deadline=None, suppress_health_check=SHARED_FIXTURES)
@given(reservations=RESERVATIONS)
def test_a_reservation_the_spec_accepts_is_one_the_reservation_component_accepts(
    pulumi_run, clock_at_now, reservations
) -> None:
    try:
        spec = load_environment(environment(reservations=reservations), now=NOW)
    except SpecError:
        event("spec rejects")
        return
    event("spec accepts")

    def program() -> None:
        for res in spec.reservations:  # as Environment builds them
            args: dict[str, Any] = {
                "machine_type": res.machine_type, "count": res.count, "zone": res.zone, "days": res.days,
                "start": res.start.astimezone(timezone.utc).isoformat().replace("+00:00", "Z"),
                "share_with": list(res.share_with), "submit": res.submit, "project": PROJECT,
            }
            for key, value in (("workload_type", res.workload_type), ("description", res.description)):
                if value is not None:
                    args[key] = value
            CalendarReservation(res.name, args)

    registered = pulumi_run(program)
    assert sorted(r.name for r in registered.of_type(FUTURE_RESERVATION)) == sorted(r.name for r in spec.reservations)


WINDOW = {"zone": "us-east5-a", "start": utc_text(START), "days": 7}


@settings(max_examples=100, deadline=None, suppress_health_check=SHARED_FIXTURES)
@given(reservations=RESERVATIONS)
# Disagreements found (module docstring). Fixed while this test was written: a number as start, and days not judged
# for a machine type calendar mode does not offer ...
@example(reservations=[{"name": "res-0", "machineType": "a3-highgpu-8g", "count": 8, **WINDOW,
                        "start": int(START.timestamp())}])
@example(reservations=[{"name": "res-0", "machineType": "a2-highgpu-1g", "count": 8, **WINDOW, "days": 0}])
# ... open: digits in quotes as start, and start, count and workloadType not judged for such a machine type.
@example(reservations=[{"name": "res-0", "machineType": "a3-highgpu-8g", "count": 8, **WINDOW,
                        "start": str(int(START.timestamp()))}])
@example(reservations=[{"name": "res-0", "machineType": "a2-highgpu-1g", "count": 8, **WINDOW,
                        "workloadType": "BATCH"}])
def test_a_reservation_the_reservation_component_rejects_the_spec_rejects_at_its_fields(
    pulumi_run, clock_at_now, reservations
) -> None:
    rejected: dict[int, pulumi.InputPropertiesError] = {}
    for index, entry in enumerate(reservations):
        args = {**reservation_component_args(entry), "project": PROJECT}
        try:
            pulumi_run(lambda name=entry["name"], args=args: CalendarReservation(name, args))
        except pulumi.InputPropertiesError as err:
            rejected[index] = err
    event(f"component rejects {len(rejected)} of {len(reservations)}")
    if not rejected:
        return
    paths = spec_issues(environment(reservations=reservations))
    assert paths is not None, f"CalendarReservation rejects {[lines(e) for e in rejected.values()]} but the spec accepts"
    for index, err in rejected.items():
        assert_spec_reports(f"reservations[{index}]", paths, err, reservation_fields,
                            per_property=not shape_rejects_a_required_key(ReservationSpec, reservations[index]))
@pytest.fixture
def clock_at_now(monkeypatch: pytest.MonkeyPatch) -> None:
    """CalendarReservation judges windows at `reservation._now()`; the spec at NOW: the same moment."""
    monkeypatch.setattr(reservation_module, "_now", lambda: NOW)
