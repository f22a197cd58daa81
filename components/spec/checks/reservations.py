"""Calendar-mode reservations: unique names, zones in the region, a machine type reservable in calendar mode,
and the window, size and sharing rules of `gke.calendar_window` (the same the component and the policy pack
apply)."""

from __future__ import annotations

from gkecap.components.catalog import (
    GPU_FAMILIES,
    TPU_FAMILIES,
    CatalogError,
    capacity_models_for_family,
    gpu_machine,
    is_tpu_machine_type,
    supported_capacity_models,
    tpu_family_of,
)
from gkecap.components.gke import calendar_window
from gkecap.components.gke.locations import zone_issues
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
        f.errors.extend(zone_issues(f"{path}.zone", res.zone, f.valid_region))
        kind, family = _kind(f, index, res)
        start_ok = res.start.tzinfo is not None and res.start.tzinfo.utcoffset(res.start) is not None
        if not start_ok:
            f.error(f"{path}.start", f"{res.start.isoformat()} has no time zone; write it in UTC, e.g. "
                    f"{res.start.strftime('%Y-%m-%dT%H:%M:%S')}Z")
        if kind is not None:
            _check_window(f, path, res, kind, family, start_ok)
        else:  # the rules that do not depend on what is reserved still apply, as the component applies them
            f.errors.extend(under(path, calendar_window.check_days(res.days) + calendar_window.check_share_with(res.share_with)))
        if res.name not in used:
            f.warn(path, f"reservation {res.name!r} is consumed by no calendar pool; add a pool with capacity: calendar "
                   f"and reservation: {res.name}")


def _check_window(f: Findings, path: str, res: ReservationSpec, kind: str, family: str | None, start_ok: bool) -> None:
    # Past starts (calendar_window's module docstring): a draft's is an error (move the window); a submitted
    # one's is expected while it runs, and a warning once it has ended (nothing left to consume).
    problems = calendar_window.check_calendar_request(
        kind=kind,  # type: ignore[arg-type]
        count=res.count,
        start=res.start if start_ok else f.now,
        days=res.days,
        now=f.now,
        machine_type=res.machine_type,
        tpu_family=family,
        workload_type=res.workload_type,
        share_with=res.share_with,
        submitted=res.submit,
    )
    f.errors.extend(under(path, [p for p in problems if start_ok or p.path != "start"]))
    if start_ok:
        ended = calendar_window.ended_notice(res.start, res.end, now=f.now, submitted=res.submit)
        if ended is not None:
            f.warn(f"{path}.start", f"reservation {res.name!r}: {ended.message}")


def _kind(f: Findings, index: int, res: ReservationSpec) -> tuple[str | None, str | None]:
    path = f"reservations[{index}].machineType"
    try:
        models = supported_capacity_models(res.machine_type)
    except CatalogError as err:
        f.error(path, str(err))
        return None, None
    if "calendar" not in models:
        # Reported here; the window, size and sharing are still judged for what is reserved, as the component does.
        f.error(path, f"{res.machine_type!r} cannot be reserved in calendar mode; calendar mode covers the families "
                f"{', '.join(_calendar_families())}")
    if is_tpu_machine_type(res.machine_type):
        return "tpu", tpu_family_of(res.machine_type).name
    return "gpu", gpu_machine(res.machine_type).family


def _calendar_families() -> list[str]:
    families = list(GPU_FAMILIES) + [family.name for family in TPU_FAMILIES]
    return [family for family in families if "calendar" in capacity_models_for_family(family)]
