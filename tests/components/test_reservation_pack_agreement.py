"""What the components register passes the real pack, started as the Pulumi CLI starts it and asked over the
Analyzer protocol: the protocol carries `protect` but not `retainOnDelete`, so a submitted reservation must be
visibly protected in what the pack can see."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from gkecap.components.reservation import CalendarReservation
from gkecap.engine.resource_record import ResourceRecord
from gkecap.plan import default_policy_pack
from gkecap.policy_pack.process import PolicyPackProcess

FUTURE_RESERVATION = "gcp:compute/futureReservation:FutureReservation"


@pytest.fixture(scope="module")
def pack():
    with PolicyPackProcess(default_policy_pack(), project="gke-capacity", stack="test") as process:
        process.configure(None)
        yield process


def _start(days_ahead: int) -> str:
    today = datetime.now(timezone.utc).replace(hour=0, minute=0, second=0, microsecond=0)
    return (today + timedelta(days=days_ahead)).strftime("%Y-%m-%dT%H:%M:%SZ")


def _violations(pack, record):
    return [d for d in pack.analyzed(pack.analyze_future(record), record.urn)
            if d.policy == "submitted-reservation-protected"]


@pytest.mark.parametrize("allow_destroy", [False, True], ids=["protected", "allow-destroy-submitted"])
def test_a_submitted_reservation_passes_the_pack(pulumi_run, pack, allow_destroy):
    args = {"machine_type": "a3-highgpu-8g", "count": 8, "zone": "us-east5-a", "start": _start(20), "days": 14,
            "submit": True, "allow_destroy_submitted": allow_destroy}
    record = pulumi_run(lambda: CalendarReservation("dec-run", args)).one(FUTURE_RESERVATION)
    assert record.options["protect"] is (not allow_destroy)
    assert _violations(pack, record) == []


def test_the_pack_still_blocks_a_submitted_reservation_nothing_protects(pulumi_run, pack):
    # The same registration without what the component adds (deletionPolicy, protect) is a violation: the
    # test above passes because of them, not because the rule is silent.
    args = {"machine_type": "a3-highgpu-8g", "count": 8, "zone": "us-east5-a", "start": _start(20), "days": 14,
            "submit": True, "allow_destroy_submitted": True}
    record = pulumi_run(lambda: CalendarReservation("dec-run", args)).one(FUTURE_RESERVATION)
    inputs = {k: v for k, v in record.inputs.items() if k != "deletionPolicy"}
    bare = ResourceRecord(urn=record.urn, type=record.type, name=record.name, custom=True, parent=record.parent,
                          dependencies=(), property_dependencies={}, provider=None, id=None,
                          options={**record.options, "protect": False}, inputs=inputs, outputs=inputs)
    [violation] = _violations(pack, bare)
    assert violation.enforcement_level == "mandatory"
    assert "deletionPolicy ABANDON" in violation.message
