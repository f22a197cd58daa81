"""What cannot be undone: a submitted calendar reservation compared with the stack's last deployment.

A SUBMITTED calendar-mode future reservation cannot be cancelled, deleted or modified (FACTS C [S21]). Flipping
`submit: true` back to `false` plans cleanly on its own: the new program asks for a DRAFT and, with `submit` off,
drops `protect` too, so neither the component nor a policy can see that anything was undone. Neither a Pulumi
program nor the Analyzer protocol carries the previous state (AnalyzeRequest holds the new inputs only); the
stack's state does. So the check reads the deployed state, `pulumi stack export`, the way `gkecap check --state`
reads it:

    gkecap plan --stack prod --state <(pulumi stack export --stack prod)

and compares each FutureReservation that was SUBMITTED there (its inputs, or its outputs when the inputs hold no
planning status) with the planned resource of the same URN, or of the same reservation `name` when the URN
changed (a rename with an alias): planned as anything but SUBMITTED is an error naming the reservation, and
nothing is written. A reservation absent from the plan is left to `protect` (Pulumi refuses to delete it) and to
calendar-reservation-ended (an ended one is meant to be removed).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from gkecap.engine.resource_record import ResourceRecord

ENVIRONMENT_KEY = "gkecap:environment"
FUTURE_RESERVATION_TYPE = "gcp:compute/futureReservation:FutureReservation"
SUBMITTED = "SUBMITTED"  # FutureReservation.planningStatus. FACTS C [S3, S6]


@dataclass(frozen=True)
class Unsubmitted:
    name: str  # the reservation's Compute Engine name (else the resource name)
    urn: str
    planned_status: str


def unsubmitted_reservations(previous: Iterable[ResourceRecord], planned: Iterable[ResourceRecord]) -> list[Unsubmitted]:
    """Reservations SUBMITTED in `previous` that `planned` would turn back into something else."""
    by_urn: dict[str, ResourceRecord] = {}
    by_name: dict[str, ResourceRecord] = {}
    for record in planned:
        if record.type == FUTURE_RESERVATION_TYPE:
            by_urn[record.urn] = record
            by_name.setdefault(_name(record), record)
    found = []
    for old in previous:
        if old.type != FUTURE_RESERVATION_TYPE or _status(old) != SUBMITTED:
            continue
        new = by_urn.get(old.urn) or by_name.get(_name(old))
        if new is None:
            continue
        status = _status(new)
        if status != SUBMITTED:
            found.append(Unsubmitted(_name(old), old.urn, status or "unset"))
    return found


def _status(record: ResourceRecord) -> str | None:
    status = record.inputs.get("planningStatus")
    if status is None:
        status = record.outputs.get("planningStatus")
    return status if isinstance(status, str) else None


def _name(record: ResourceRecord) -> str:
    name = record.inputs.get("name")
    return name if isinstance(name, str) and name else record.name


def irreversible_changes(previous: Iterable[ResourceRecord], planned: Iterable[ResourceRecord], state_file: Any, spec: Any = None) -> list[str]:
    """One message per reservation the plan would un-submit, at its environment path when `spec` declares it."""
    names = [r.name for r in getattr(spec, "reservations", None) or []]
    problems = []
    for found in unsubmitted_reservations(previous, planned):
        where = f"{ENVIRONMENT_KEY}.reservations[{names.index(found.name)}].submit: " if found.name in names else ""
        problems.append(
            f"{where}calendar reservation {found.name!r} is SUBMITTED in {state_file} and would become "
            f"{found.planned_status}: a submitted calendar reservation cannot be un-submitted or cancelled; "
            "keep submit: true"
        )
    return problems
