"""One calendar-mode future reservation as declared (`ReservationRequest`) and its one rule set,
`check_reservation_request(request, now)`: the environment spec runs it on `reservations[i]`,
`CalendarReservation` on its arguments, so a reservation the spec accepts is one the component accepts.
Paths name fields as the environment file does. Checks that need the rest of an environment (unique names,
the zone's region, the pools that consume it) are the spec's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from gkecap.components.catalog import (
    GPU_FAMILIES,
    TPU_FAMILIES,
    CatalogError,
    calendar_tpu_zones,
    capacity_models_for_family,
    is_gpu_machine_type,
    is_tpu_machine_type,
    supported_capacity_models,
    tpu_family_of,
)
from gkecap.components.gke.calendar_window import (
    AcceleratorKind,
    check_calendar_request,
    check_count,
    check_days,
    check_share_with,
    check_workload_type,
    parse_start,
    window_end,
)
from gkecap.components.gke.locations import zone_issues
from gkecap.components.gke.resource_names import gce_name_issues
from gkecap.components.issues import Issue

# VM family of a TPU aggregate reservation, per TPU family (gcloud's TPU version -> VM family map;
# pulumi-gcp FutureReservationAggregateReservationArgs.vm_family values). FACTS C [S3, S4]
TPU_VM_FAMILIES = {
    "v4": "VM_FAMILY_CLOUD_TPU_POD_SLICE_CT4P",
    "v5e": "VM_FAMILY_CLOUD_TPU_LITE_POD_SLICE_CT5LP",
    "v5p": "VM_FAMILY_CLOUD_TPU_POD_SLICE_CT5P",
    "v6e": "VM_FAMILY_CLOUD_TPU_LITE_POD_SLICE_CT6E",
}
# The vmFamily values the pinned provider accepts: pulumi-gcp 10.2 FutureReservationAggregateReservation
# .vm_family ("Possible values are ... CT3, CT5L, CT5LP, CT6E, CT3P, CT4P, CT5P"; no TPU7x). TPU7x is offered in
# calendar mode (FACTS C [S23]) but this provider cannot express it, so it is refused, not emitted wrongly.
PROVIDER_VM_FAMILIES = frozenset({
    "VM_FAMILY_CLOUD_TPU_DEVICE_CT3", "VM_FAMILY_CLOUD_TPU_LITE_DEVICE_CT5L", "VM_FAMILY_CLOUD_TPU_LITE_POD_SLICE_CT5LP",
    "VM_FAMILY_CLOUD_TPU_LITE_POD_SLICE_CT6E", "VM_FAMILY_CLOUD_TPU_POD_SLICE_CT3P", "VM_FAMILY_CLOUD_TPU_POD_SLICE_CT4P",
    "VM_FAMILY_CLOUD_TPU_POD_SLICE_CT5P",
})
DEFAULT_TPU_WORKLOAD_TYPE = "BATCH"  # FACTS C [S3 aggregate_reservation.workload_type]


@dataclass(frozen=True)
class ReservationRequest:
    """A calendar-mode request as declared; `start` as written (parsed by the rule set)."""

    name: str
    machine_type: str
    count: int
    zone: str
    start: object
    days: int
    submitted: bool = False
    share_with: tuple[str, ...] = ()
    workload_type: str | None = None
    reservation_name: str | None = None  # the reservation's own name when it differs from `name`


@dataclass(frozen=True)
class CheckedReservation:
    """What the rule set found: the issues, and when there are none, the window and what is reserved."""

    issues: list[Issue]
    start: datetime | None = None
    end: datetime | None = None
    kind: AcceleratorKind = "gpu"  # "gpu" (VMs) | "tpu" (chips)
    workload_type: str | None = None


def calendar_families() -> list[str]:
    """The GPU and TPU families Compute Engine reserves in calendar mode."""
    families = list(GPU_FAMILIES) + [family.name for family in TPU_FAMILIES]
    return [family for family in families if "calendar" in capacity_models_for_family(family)]


def _tpu_calendar_issues(req: ReservationRequest, family: str, workload_type: str | None) -> list[Issue]:
    """What the provider can express (vmFamily) and where Compute Engine offers the TPU version."""
    issues: list[Issue] = []
    if TPU_VM_FAMILIES.get(family) not in PROVIDER_VM_FAMILIES:
        expressible = ", ".join(sorted(TPU_VM_FAMILIES))
        issues.append(Issue("machineType", (
            f"{req.machine_type!r}: Compute Engine offers {family} in calendar mode, but the pinned pulumi-gcp (10.2) "
            f"has no FutureReservation vmFamily for it, so the request cannot be expressed; reserve it outside "
            f"this stack (gcloud) and consume it with capacity: reservation, or reserve one of {expressible}")))
    zones = calendar_tpu_zones(family, workload_type)
    if isinstance(req.zone, str) and zones and req.zone not in zones:
        what = f"{family} {workload_type}" if family == "v5e" else family
        issues.append(Issue("zone", f"{req.zone!r} does not offer {what} in calendar mode; offered: {', '.join(zones)}"))
    return issues


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_reservation_request(req: ReservationRequest, now: datetime) -> CheckedReservation:
    """Every problem of one calendar-mode request at `now`, collected."""
    issues: list[Issue] = []
    for path, value in (("name", req.name), ("reservationName", req.reservation_name)):
        if value is not None:
            issues += gce_name_issues(path, value, "reservation name")
    known = True
    try:
        if "calendar" not in supported_capacity_models(req.machine_type):
            issues.append(Issue("machineType", f"{req.machine_type!r} cannot be reserved in calendar mode; calendar "
                                f"mode covers the families {', '.join(calendar_families())}"))
    except CatalogError as err:
        issues.append(Issue("machineType", str(err)))
        known = False
    kind: AcceleratorKind = "tpu" if is_tpu_machine_type(req.machine_type) else "gpu"
    try:
        start: datetime | None = parse_start(req.start)
    except ValueError as err:
        issues.append(Issue("start", str(err)))
        start = None
    days = req.days if _whole(req.days) else None
    if days is None:
        issues.append(Issue("days", f"{req.days!r} must be a whole number of days, 1 to 90"))
    count = req.count if _whole(req.count) else None
    if count is None:
        issues.append(Issue("count", f"{req.count!r} must be a whole number"))
    issues += zone_issues("zone", req.zone)
    if not known:  # nothing that depends on what is reserved can be judged
        issues += (check_days(days) if days is not None else []) + check_share_with(req.share_with)
        return CheckedReservation(issues, kind=kind)
    tpu_family = tpu_family_of(req.machine_type).name if kind == "tpu" else None
    workload_type = req.workload_type if req.workload_type is not None or kind == "gpu" else DEFAULT_TPU_WORKLOAD_TYPE
    if tpu_family is not None and "calendar" in capacity_models_for_family(tpu_family):
        issues += _tpu_calendar_issues(req, tpu_family, workload_type)
    if start is None or days is None or count is None:
        # Still report every rule that does not need the missing value.
        if days is not None:
            issues += check_days(days)
        if count is not None:
            issues += check_count(count, kind=kind, machine_type=req.machine_type, tpu_family=tpu_family,
                                  workload_type=workload_type)
        issues += check_workload_type(req.workload_type, kind=kind) + check_share_with(req.share_with)
        return CheckedReservation(issues, kind=kind, workload_type=workload_type)
    issues += check_calendar_request(
        kind=kind,
        count=count,
        start=start,
        now=now,
        days=days,
        machine_type=req.machine_type if is_gpu_machine_type(req.machine_type) else None,
        tpu_family=tpu_family,
        workload_type=workload_type,
        share_with=req.share_with,
        submitted=req.submitted,
    )
    return CheckedReservation(issues, start, window_end(start, days), kind, workload_type)
