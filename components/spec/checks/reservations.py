"""Calendar-mode reservations: each one's rule set (`gke.check_reservation_request`, which `CalendarReservation`
runs too) under `reservations[i].`, plus what needs the rest of the file: unique names, zones in the region, and
a reservation no pool consumes."""

from __future__ import annotations

from gkecap.components.gke import calendar_window
from gkecap.components.gke.locations import zone_issues
from gkecap.components.gke.reservation_request import ReservationRequest, check_reservation_request
from gkecap.components.issues import under
from gkecap.components.spec.checks.context import Findings
from gkecap.components.spec.models import ReservationSpec


def index_reservations(f: Findings) -> dict[str, tuple[int, ReservationSpec]]:
    found: dict[str, tuple[int, ReservationSpec]] = {}
    for index, reservation in f.view.reservations:
        found.setdefault(reservation.name, (index, reservation))
    return found


def check_reservations(f: Findings) -> None:
    seen: dict[str, int] = {}
    used = {p.reservation for _, p in f.view.pools if p.capacity == "calendar" and p.reservation}
    for index, res in f.view.reservations:
        path = f"reservations[{index}]"
        f.unique("reservations", index, res.name, seen, "reservation")
        checked = check_reservation_request(ReservationRequest(
            name=res.name, machine_type=res.machine_type, count=res.count, zone=res.zone, start=res.start,
            days=res.days, submitted=res.submit, share_with=tuple(res.share_with), workload_type=res.workload_type,
        ), f.now)
        f.errors.extend(under(path, checked.issues))
        region = f.valid_region
        if region is not None and not any(i.path == "zone" for i in checked.issues):
            f.errors.extend(zone_issues(f"{path}.zone", res.zone, region))
        if checked.start is not None and checked.end is not None:
            # Past starts (calendar_window's module docstring): a draft's is an error (move the window); a
            # submitted one's is expected while it runs, and a warning once it has ended (nothing to consume).
            ended = calendar_window.ended_notice(checked.start, checked.end, now=f.now, submitted=res.submit)
            if ended is not None:
                f.warn(f"{path}.start", f"reservation {res.name!r}: {ended.message}")
        if res.name not in used:
            f.warn(path, f"reservation {res.name!r} is consumed by no calendar pool; add a pool with capacity: calendar "
                   f"and reservation: {res.name}")
