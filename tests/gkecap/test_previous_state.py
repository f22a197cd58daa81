"""Un-submitting a calendar reservation is seen against the deployed state (gkecap.previous_state)."""

from gkecap.engine.resource_record import ResourceRecord
from gkecap.previous_state import FUTURE_RESERVATION_TYPE, irreversible_changes, unsubmitted_reservations

URN = f"urn:pulumi:prod::p::gkecap:index:CalendarReservation${FUTURE_RESERVATION_TYPE}::dec-run"


def reservation(status: str | None, urn: str = URN, name: str = "dec-run") -> ResourceRecord:
    inputs = {"name": name, "reservationMode": "CALENDAR", **({"planningStatus": status} if status else {})}
    return ResourceRecord(urn=urn, type=FUTURE_RESERVATION_TYPE, name=urn.rsplit("::", 1)[1], custom=True, parent=None,
                          dependencies=(), property_dependencies={}, provider=None, id=None, options={}, inputs=inputs)


def test_submitted_then_draft_is_found():
    [found] = unsubmitted_reservations([reservation("SUBMITTED")], [reservation("DRAFT")])
    assert (found.name, found.planned_status) == ("dec-run", "DRAFT")


def test_still_submitted_is_fine():
    assert unsubmitted_reservations([reservation("SUBMITTED")], [reservation("SUBMITTED")]) == []


def test_a_draft_may_stay_a_draft():
    assert unsubmitted_reservations([reservation("DRAFT")], [reservation("DRAFT")]) == []


def test_a_renamed_resource_is_matched_by_its_reservation_name():
    renamed = reservation(None, urn=URN.replace("::dec-run", "::december"))
    [found] = unsubmitted_reservations([reservation("SUBMITTED")], [renamed])
    assert found.planned_status == "unset"


def test_a_removed_reservation_is_left_to_protect():
    assert unsubmitted_reservations([reservation("SUBMITTED")], []) == []


def test_message_names_the_file_and_says_what_to_do():
    [message] = irreversible_changes([reservation("SUBMITTED")], [reservation("DRAFT")], "state.json")
    assert message.startswith("calendar reservation 'dec-run' is SUBMITTED in state.json and would become DRAFT")
    assert message.endswith("keep submit: true")
