"""Reservations: calendar-mode windows (FACTS C), deletion protection of submitted ones, and node pools
that consume a specific reservation.

Calendar-mode rules come from `gkecap.components.gke.calendar_window`, the module the environment spec and the
CalendarReservation component use, applied here to a raw `gcp.compute.FutureReservation`
(pulumi-gcp inputs: FACTS C [S4]).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

import gkecap.components.gke.calendar_window as calendar_window
from gkecap.components.catalog import (
    is_accelerator_machine_type,
    is_tpu_machine_type,
    supported_capacity_models,
    tpu_family_of,
    tpu_machine,
    tpu_machine_types,
)
from gkecap.components.gke import RESERVATION_NAME_KEY  # targets a reservation by name. FACTS B.4 [S3, S4]
from gkecap.policies.resource_view import ResourceView, is_unknown
from gkecap.policies.rules.known_values import at, known_int, known_list, known_str
from gkecap.policies.rules.node_pool_props import (
    NODE_POOL_TYPES,
    SPECIFIC_RESERVATION,
    PoolView,
    node_pools,
)

FUTURE_RESERVATION_TYPE = "gcp:compute/futureReservation:FutureReservation"
RESERVATION_TYPE = "gcp:compute/reservation:Reservation"
RESERVATION_TYPES = (FUTURE_RESERVATION_TYPE, RESERVATION_TYPE)

# FutureReservation.reservationMode / planningStatus values. FACTS C [S3, S6]
CALENDAR = "CALENDAR"
SUBMITTED = "SUBMITTED"
DRAFT = "DRAFT"
# deletionPolicy values that keep the cloud resource when Pulumi deletes it (pulumi-gcp FutureReservation docs).
PROTECTING_DELETION_POLICIES = ("PREVENT", "ABANDON")

# Config of the rules that read the clock.
# RFC 3339 date-time (https://www.rfc-editor.org/rfc/rfc3339#section-5.6), ASCII digits only: a config the pattern
# refuses is an error where the config is read (`pulumi preview --policy-pack-config` and gkecap validate it
# against this schema), never a clock silently left at the current time.
RFC3339_PATTERN = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})$"
CLOCK_SCHEMA = {
    "now": {
        "type": "string",
        "pattern": RFC3339_PATTERN,
        "description": "Pin the clock (RFC 3339, e.g. 2026-10-01T00:00:00Z) for reproducible runs; "
        "default: the current time.",
    }
}

_RESERVATION_PATH = re.compile(r"^(?:projects/(?P<project>[^/]+)/)?(?:reservations/)?(?P<name>[^/]+)(?:/.*)?$")


# --- calendar-reservation-window ----------------------------------------------------------------------

def check_calendar_reservation_window(resource: ResourceView, config: dict) -> list[str]:
    """calendar-reservation-window: a calendar-mode FutureReservation keeps the window/size/sharing rules.

    Config `now` (RFC 3339) pins the clock, for reproducible CI runs; default: the current time.
    """
    return calendar_window_problems(resource, _now(config))


def calendar_window_problems(resource: ResourceView, now: datetime) -> list[str]:
    props = resource.props
    if props.get("reservationMode") != CALENDAR:
        return []
    label = f"calendar reservation {resource.name!r}"
    kind = _accelerator_kind(props)
    problems: list[tuple[str, str]] = []  # (field, message)

    start_text = known_str(at(props, "timeWindow.startTime"))
    start = _parse_time(start_text)
    end = _window_end(props, start)
    if start is not None and end is not None:
        # Past starts as the environment spec judges them (calendar_window's docstring): a draft's is a problem
        # (move the window), a submitted one's is not judged again; an ended submitted one is
        # calendar-reservation-ended's advisory.
        submitted = props.get("planningStatus") == SUBMITTED
        for problem in calendar_window.check_window(start, end, now=now, kind=kind or "gpu", submitted=submitted):
            if problem.path == "start" and kind is None:
                continue
            problems.append((_WINDOW_FIELDS[problem.path], problem.message))
    elif start_text is not None and start is None:
        problems.append(("timeWindow.startTime", f"{start_text!r} is not an RFC 3339 time with a zone"))

    if kind == "gpu":
        count = known_int(at(props, "specificSkuProperties.totalCount"))
        machine_type = known_str(at(props, "specificSkuProperties.instanceProperties.machineType"))
        if count is not None:
            for problem in calendar_window.check_count(count, kind="gpu", machine_type=machine_type):
                problems.append(("specificSkuProperties.totalCount", problem.message))
        if machine_type and is_accelerator_machine_type(machine_type):
            models = supported_capacity_models(machine_type)
            if "calendar" not in models:
                problems.append((
                    "specificSkuProperties.instanceProperties.machineType",
                    f"{machine_type} cannot be reserved in calendar mode (its family supports: "
                    f"{', '.join(sorted(models))}); calendar mode covers A3 and newer GPUs and TPUs",
                ))
    elif kind == "tpu":
        workload = known_str(at(props, "aggregateReservation.workloadType"))
        workload = None if workload in (None, "UNSPECIFIED") else workload
        chips = _tpu_chips(props)
        if chips is not None:
            family = _tpu_family_of_vm_family(known_str(at(props, "aggregateReservation.vmFamily")))
            for problem in calendar_window.check_count(chips, kind="tpu", tpu_family=family, workload_type=workload):
                problems.append(("aggregateReservation.reservedResources[].accelerator.acceleratorCount", problem.message))
        for problem in calendar_window.check_workload_type(workload, kind="tpu"):
            problems.append(("aggregateReservation.workloadType", problem.message))

    projects = _shared_projects(props)
    if projects is not None:
        for problem in calendar_window.check_share_with(projects):
            problems.append(("shareSettings", problem.message))
    return [f"{label}: {field}: {message}. Calendar-mode rule: a submitted request cannot be changed."
            for field, message in problems]


_WINDOW_FIELDS = {"start": "timeWindow.startTime", "days": "timeWindow (endTime or duration)"}


# --- calendar-reservation-ended -----------------------------------------------------------------------

def check_calendar_reservation_ended(resource: ResourceView, config: dict) -> list[str]:
    """calendar-reservation-ended: a SUBMITTED calendar reservation whose window has ended is still declared.

    Config `now` (RFC 3339) pins the clock, as for calendar-reservation-window.
    """
    return calendar_ended_notices(resource, _now(config))


def calendar_ended_notices(resource: ResourceView, now: datetime) -> list[str]:
    props = resource.props
    if props.get("reservationMode") != CALENDAR:
        return []
    start = _parse_time(at(props, "timeWindow.startTime"))
    end = _window_end(props, start)
    if start is None or end is None:
        return []
    notice = calendar_window.ended_notice(start, end, now=now, submitted=props.get("planningStatus") == SUBMITTED)
    return [f"calendar reservation {resource.name!r}: {notice.message}."] if notice else []


def _accelerator_kind(props: Mapping[str, Any]) -> calendar_window.AcceleratorKind | None:
    if props.get("aggregateReservation") is not None:
        return "tpu"
    if props.get("specificSkuProperties") is not None:
        return "gpu"
    return None


def _now(config: Mapping[str, Any]) -> datetime:
    given = config.get("now")
    if given is None:
        return datetime.now(timezone.utc)
    moment = _parse_time(given)
    if moment is None:  # the schema refuses it first; a pack run without that validation still must not guess
        raise ValueError(f"config now: {given!r} is not an RFC 3339 time with a zone (e.g. 2026-10-01T00:00:00Z)")
    return moment


def _parse_time(value: Any) -> datetime | None:
    text = known_str(value)
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text.replace("z", "Z"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        return None
    return moment.astimezone(timezone.utc)


def _window_end(props: Mapping[str, Any], start: datetime | None) -> datetime | None:
    end = _parse_time(at(props, "timeWindow.endTime"))
    if end is not None or start is None:
        return end
    seconds = known_int(at(props, "timeWindow.duration.seconds"))
    return start + timedelta(seconds=seconds) if seconds is not None else None


def _tpu_chips(props: Mapping[str, Any]) -> int | None:
    reserved = known_list(at(props, "aggregateReservation.reservedResources"))
    if not reserved:
        return None
    total = 0
    for entry in reserved:
        count = known_int(at(entry, "accelerator.acceleratorCount"))
        if count is None:
            return None
        total += count
    return total


def _vm_family_prefix(vm_family: str | None) -> str | None:
    """VM_FAMILY_CLOUD_TPU_LITE_POD_SLICE_CT6E -> 'ct6e' (the machine-type prefix). FACTS C [S3 vm_family]"""
    if not vm_family or "_" not in vm_family:
        return None
    return vm_family.rsplit("_", 1)[-1].lower()


def _tpu_family_of_vm_family(vm_family: str | None) -> str | None:
    prefix = _vm_family_prefix(vm_family)
    for machine_type in tpu_machine_types():
        if prefix and machine_type.split("-")[0] == prefix:
            return tpu_family_of(machine_type).name
    return None


def _shared_projects(props: Mapping[str, Any]) -> list[str] | None:
    projects = known_list(at(props, "shareSettings.projects"))
    if projects is not None:
        return [p for p in projects if isinstance(p, str)]
    maps = known_list(at(props, "shareSettings.projectMaps"))
    if maps is not None:
        return [known_str(at(m, "projectId")) or known_str(at(m, "id")) or "" for m in maps]
    return None


# --- submitted-reservation-protected -----------------------------------------------------------------

# The Analyzer protocol carries `protect` but not `retainOnDelete` (AnalyzerResourceOptions in
# pulumi/proto/analyzer.proto), so a runner that knows the option (gkecap's engine) passes those URNs here.
PROTECTION_SCHEMA = {
    "retainedUrns": {
        "type": "array",
        "items": {"type": "string"},
        "default": [],
        "description": "URNs of submitted reservations registered with retainOnDelete, which the Analyzer "
        "protocol does not carry (CalendarReservation also sets deletionPolicy ABANDON, which it does).",
    }
}


def check_submitted_reservation_protected(resource: ResourceView, config: dict) -> list[str]:
    """submitted-reservation-protected: a SUBMITTED FutureReservation cannot be deleted by accident."""
    if resource.props.get("planningStatus") != SUBMITTED:
        return []
    policy = resource.props.get("deletionPolicy")
    retained = resource.urn in (config.get("retainedUrns") or ()) or getattr(resource.options, "retain_on_delete", False)
    if resource.options.protect or retained:
        return []
    if is_unknown(policy) or policy in PROTECTING_DELETION_POLICIES:
        return []
    mode = "calendar-mode " if resource.props.get("reservationMode") == CALENDAR else ""
    return [
        f"future reservation {resource.name!r} is SUBMITTED: the {mode}request is binding and cannot be cancelled "
        f"(Compute Engine's calendar mode), yet nothing stops `pulumi destroy` or a replacement from deleting it "
        f"(protect is off, {_deletion_policy_shown(policy)}). Set the resource option protect=True, or "
        f"deletionPolicy ABANDON (Pulumi forgets it without deleting it) or PREVENT. retain_on_delete alone is not "
        f"visible to a policy pack: list the URN in this policy's retainedUrns config if you rely on it."
    ]


def _deletion_policy_shown(policy: object) -> str:
    # What the user wrote, never Python's `None`.
    return "deletionPolicy is not set" if policy is None else f"deletionPolicy is {policy!r}"


# --- reservation-affinity-match / reservation-affinity-reference ---------------------------------------

@dataclass(frozen=True)
class _Reservation:
    view: ResourceView
    name: str | None
    project: str | None
    zone: str | None
    machine_type: str | None
    tpu_prefix: str | None  # for an aggregate (TPU) future reservation
    vms: int | None
    chips: int | None

    @property
    def label(self) -> str:
        what = "future reservation" if self.view.type == FUTURE_RESERVATION_TYPE else "reservation"
        return f"{what} {self.view.name!r}"


def _reservations(resources: list[ResourceView]) -> list[_Reservation]:
    found = []
    for r in resources:
        props = r.props
        if r.type == RESERVATION_TYPE:
            found.append(_Reservation(
                r, known_str(props.get("name")), known_str(props.get("project")), known_str(props.get("zone")),
                known_str(at(props, "specificReservation.instanceProperties.machineType")), None,
                known_int(at(props, "specificReservation.count")), None,
            ))
        elif r.type == FUTURE_RESERVATION_TYPE:
            name = known_str(props.get("reservationName")) or known_str(props.get("name"))
            found.append(_Reservation(
                r, name, known_str(props.get("project")), known_str(props.get("zone")),
                known_str(at(props, "specificSkuProperties.instanceProperties.machineType")),
                _vm_family_prefix(known_str(at(props, "aggregateReservation.vmFamily"))),
                known_int(at(props, "specificSkuProperties.totalCount")), _tpu_chips(props),
            ))
    return found


def _names_match(wanted: str, reservation: _Reservation) -> bool:
    if reservation.name == wanted:
        return True
    prefix = known_str(reservation.view.props.get("namePrefix"))
    return prefix is not None and prefix != "" and wanted.startswith(prefix)


def _affinity_findings(
    resources: list[ResourceView],
) -> tuple[list[tuple[str, str]], list[tuple[str, str]], list[tuple[str, str]]]:
    """(mandatory, advisory, draft) findings about pools with SPECIFIC_RESERVATION affinity."""
    reservations = _reservations(resources)
    mandatory: list[tuple[str, str]] = []
    advisory: list[tuple[str, str]] = []
    drafts: list[tuple[str, str]] = []
    for resource in resources:
        if resource.type not in NODE_POOL_TYPES:
            continue
        for pool in node_pools(resource):
            affinity = pool.get("nodeConfig.reservationAffinity")
            if not isinstance(affinity, Mapping) or affinity.get("consumeReservationType") != SPECIFIC_RESERVATION:
                continue
            field = pool.field("nodeConfig.reservationAffinity")
            key, values = affinity.get("key"), affinity.get("values")
            if not is_unknown(key) and key != RESERVATION_NAME_KEY:
                mandatory.append((resource.urn, (
                    f"{pool.label}: {field}.key is {key!r}; SPECIFIC_RESERVATION targets a reservation by name: set "
                    f"key {RESERVATION_NAME_KEY!r} and values [<reservation name>]."
                )))
                continue
            if values is None or values == []:
                mandatory.append((resource.urn, (
                    f"{pool.label}: {field} is SPECIFIC_RESERVATION but names no reservation: set values "
                    "[<reservation name>] (or projects/<p>/reservations/<name>[/reservationBlocks/<block>])."
                )))
                continue
            targets = _targets(pool, values, reservations)
            if targets is None:
                continue
            for wanted, reservation in targets:
                if reservation is None:
                    advisory.append((resource.urn, (
                        f"{pool.label} consumes reservation {wanted!r}, which is not in this stack; check that it "
                        f"exists in the pool's zone ({', '.join(pool.zone_names() or ['?'])}) for "
                        f"{pool.machine_type or 'its machine type'} with at least {pool.max_nodes() or '?'} VMs."
                    )))
                else:
                    mandatory += [(resource.urn, m) for m in _mismatches(pool, reservation, single=len(targets) == 1)]
                    if (reservation.view.type == FUTURE_RESERVATION_TYPE
                            and reservation.view.props.get("planningStatus") == DRAFT):
                        # A draft is never fulfilled (the environment spec warns about it too).
                        drafts.append((resource.urn, (
                            f"{pool.label} consumes {reservation.label}, which is a draft (planningStatus DRAFT): "
                            "Compute Engine provides no capacity until it is submitted, and work Kueue admits to "
                            "this pool waits; submit the reservation (planningStatus SUBMITTED) once reviewed."
                        )))
    return mandatory, advisory, drafts


def _targets(pool: PoolView, values: Any, reservations: list[_Reservation]) -> list[tuple[str, _Reservation | None]] | None:
    """Each reservation the pool names and the stack's reservation it resolves to (None: not in the stack)."""
    names = known_list(values)
    if names is None:
        # Names are outputs of resources not created yet: follow the dependency when it is unambiguous.
        deps = set(pool.resource.property_dependencies.get("nodeConfig", ()))
        matched = [r for r in reservations if r.view.urn in deps]
        return [(matched[0].view.name, matched[0])] if len(matched) == 1 else None
    targets = []
    for value in names:
        match = _RESERVATION_PATH.match(value) if isinstance(value, str) else None
        if match is None:
            continue
        wanted, project = match["name"], match["project"]
        found = [
            r for r in reservations
            if _names_match(wanted, r) and (project is None or r.project is None or r.project == project)
        ]
        targets.append((wanted, found[0] if found else None))
    return targets


def _mismatches(pool: PoolView, reservation: _Reservation, single: bool) -> list[str]:
    messages: list[str] = []
    pool_type = pool.machine_type
    if pool_type and reservation.machine_type and pool_type != reservation.machine_type:
        messages.append(
            f"{pool.label} runs {pool_type} but {reservation.label} reserves {reservation.machine_type}; "
            "a VM consumes a reservation only with the same machine type: make them match."
        )
    if pool_type and reservation.tpu_prefix and pool_type.split("-")[0] != reservation.tpu_prefix:
        messages.append(
            f"{pool.label} runs {pool_type} but {reservation.label} reserves {reservation.tpu_prefix} TPUs; "
            "make the machine type and the reservation's vmFamily match."
        )
    zones = pool.zone_names()
    if zones is not None and reservation.zone is not None and zones != [reservation.zone]:
        messages.append(
            f"{pool.label} has nodes in {', '.join(zones)} but {reservation.label} is in {reservation.zone}; "
            f"nodes elsewhere cannot consume it: set nodeLocations [{reservation.zone}]."
        )
    vms = reservation.vms
    if vms is None and reservation.chips is not None and pool_type and is_tpu_machine_type(pool_type):
        vms = reservation.chips // tpu_machine(pool_type).chips_per_vm
    max_nodes = pool.max_nodes()
    if single and vms is not None and max_nodes is not None and max_nodes > vms:
        messages.append(
            f"{pool.label} can grow to {max_nodes} nodes but {reservation.label} holds {vms} VMs; with "
            f"SPECIFIC_RESERVATION the other {max_nodes - vms} can never be created: lower the pool's maximum "
            f"to {vms} or reserve more."
        )
    return messages


def check_reservation_affinity_match(resources: list[ResourceView], config: dict) -> list[tuple[str | None, str]]:
    """reservation-affinity-match: a pool consuming a reservation of this stack matches it."""
    return list(_affinity_findings(resources)[0])


def check_reservation_affinity_reference(resources: list[ResourceView], config: dict) -> list[tuple[str | None, str]]:
    """reservation-affinity-reference: a pool consuming a reservation that is not in this stack."""
    return list(_affinity_findings(resources)[1])


def check_draft_reservation_consumed(resources: list[ResourceView], config: dict) -> list[tuple[str | None, str]]:
    """calendar-draft-consumed: a pool consumes a future reservation of this stack that is still a draft."""
    return list(_affinity_findings(resources)[2])
