"""CalendarReservation: a calendar-mode future reservation of GPU VMs or TPU chips (FACTS.md C).

GPU requests reserve VMs of one machine type (`specific_sku_properties`); TPU requests reserve chips
(`aggregate_reservation`). The window and size are checked with the shared pure rules of
`gkecap.components.gke.calendar_window` before anything is registered. A submitted request cannot be cancelled,
deleted or modified (FACTS C [S21]): it is protected from deletion by default, and abandoned (never
deleted through the API) if the protection is switched off: `deletionPolicy: ABANDON` on the resource, which
policy packs see (the Analyzer protocol carries `protect` but not `retainOnDelete`), and `retainOnDelete`.

No ``from __future__ import annotations`` here: Pulumi's component analyzer reads the annotations.
"""

from datetime import datetime, timezone
from typing import NotRequired, Optional, TypedDict, cast

import pulumi
import pulumi_gcp as gcp

from gkecap.components._support import argument_issues, camel, raise_invalid, whole
from gkecap.components.gke.calendar_window import ended_notice, utc_text
from gkecap.components.gke.reservation_request import (
    DEFAULT_TPU_WORKLOAD_TYPE,
    TPU_VM_FAMILIES,
    ReservationRequest,
    check_reservation_request,
)
from gkecap.components.catalog import tpu_family_of
from gkecap.components.issues import Issue


class CalendarReservationArgs(TypedDict):
    """Arguments of CalendarReservation."""

    machine_type: str
    """GPU machine type (VMs are reserved) or TPU machine type (chips are reserved), e.g. a3-highgpu-8g."""
    count: int
    """GPU: number of VMs (1 to 80). TPU: number of chips (1, 4, 8, 16, ..., 1024)."""
    zone: str
    """Zone of the reservation, e.g. us-east5-a."""
    start: str
    """Start of the window, RFC 3339 in UTC, e.g. 2026-12-07T00:00:00Z."""
    days: int
    """Length of the window in days (1 to 90)."""
    project: NotRequired[pulumi.Input[str]]
    """Project that owns the reservation; the provider's project when omitted."""
    workload_type: NotRequired[str]
    """TPU only: BATCH (default) or SERVING."""
    share_with: NotRequired[list[str]]
    """Other projects (of the same organization) allowed to consume the reservation."""
    submit: NotRequired[bool]
    """Submit the request (it cannot be cancelled afterwards). Default false: the request stays a DRAFT."""
    allow_destroy_submitted: NotRequired[bool]
    """DANGEROUS: drop the deletion protection of a submitted reservation. Pulumi then forgets it on
    delete; the capacity stays reserved and billed until its window ends."""
    reservation_name: NotRequired[str]
    """Name of the reservation Compute Engine creates for the window (what node pools target);
    defaults to the component's name."""
    description: NotRequired[str]
    """Description of the future reservation."""


class CalendarReservation(pulumi.ComponentResource):
    """A calendar-mode future reservation (Dynamic Workload Scheduler calendar mode) of GPU VMs or TPU
    chips for a fixed window, consumed by node pools through its reservation name."""

    reservation_name: pulumi.Output[str]
    """Name of the reservation node pools consume (SPECIFIC_RESERVATION affinity)."""
    zone: pulumi.Output[str]
    """Zone of the reservation."""
    start_time: pulumi.Output[str]
    """Start of the window (RFC 3339)."""
    end_time: pulumi.Output[str]
    """End of the window (RFC 3339)."""
    planning_status: pulumi.Output[str]
    """DRAFT or SUBMITTED."""
    count: pulumi.Output[int]
    """GPU VMs or TPU chips reserved."""

    def __init__(self, name: str, args: CalendarReservationArgs, opts: Optional[pulumi.ResourceOptions] = None):
        checked_args, key_issues = argument_issues(args, CalendarReservationArgs)
        for key in ("count", "days"):
            if key in checked_args:
                checked_args[key] = whole(checked_args[key])
        args = cast(CalendarReservationArgs, checked_args)
        machine_type = args.get("machine_type")
        submit = bool(args.get("submit", False))
        reservation_name = args.get("reservation_name") or name
        now = _now()
        problems = [
            Issue(camel(key), "must be a plain value known when the program runs")
            for key in ("machine_type", "count", "zone", "start", "days")
            if isinstance(args.get(key), pulumi.Output)
        ]
        checked = None
        if not problems:
            request = ReservationRequest(
                name=name, machine_type=machine_type, count=args.get("count"), zone=args.get("zone"),
                start=args.get("start"), days=args.get("days"), submitted=submit,
                share_with=tuple(args.get("share_with") or ()), workload_type=args.get("workload_type"),
                reservation_name=reservation_name,
            )
            checked = check_reservation_request(request, now)
            problems = checked.issues
        # Check everything before registering anything: bad input leaves nothing half-made.
        problems = key_issues + problems
        if problems:
            raise_invalid(f"CalendarReservation {name!r}", problems)
        assert checked is not None and checked.start is not None and checked.end is not None
        start, end, kind = checked.start, checked.end, checked.kind
        super().__init__("gkecap:index:CalendarReservation", name, None, opts)
        ended = ended_notice(start, end, now=now, submitted=submit)
        if ended is not None:
            pulumi.log.warn(f"CalendarReservation {name!r}: {ended.message}", resource=self)

        project = args.get("project")
        zone = args["zone"]
        count = args["count"]
        share_with = list(args.get("share_with") or [])
        protect = submit and not args.get("allow_destroy_submitted", False)
        specific_sku = aggregate = None
        if kind == "gpu":
            specific_sku = gcp.compute.FutureReservationSpecificSkuPropertiesArgs(
                instance_properties=gcp.compute.FutureReservationSpecificSkuPropertiesInstancePropertiesArgs(
                    machine_type=machine_type
                ),
                total_count=str(count),  # the API's int64 is a string here [S4]
            )
        else:
            aggregate = _aggregate_reservation(machine_type, count, zone, project, args.get("workload_type"), self)

        self.future_reservation = gcp.compute.FutureReservation(
            name,
            name=name,
            project=project,
            zone=zone,
            description=args.get("description"),
            reservation_mode="CALENDAR",
            reservation_name=reservation_name,
            planning_status="SUBMITTED" if submit else "DRAFT",
            time_window=gcp.compute.FutureReservationTimeWindowArgs(start_time=utc_text(start), end_time=utc_text(end)),
            # Only VMs that name the reservation consume it; Compute deletes it at the end. FACTS C [S6, S21]
            specific_reservation_required=True,
            auto_delete_auto_created_reservations=True,
            # Calendar GPU capacity is delivered as dense blocks (the v1 API's only deployment type). FACTS C [S6]
            deployment_type="DENSE" if kind == "gpu" else None,
            specific_sku_properties=specific_sku,
            aggregate_reservation=aggregate,
            share_settings=(
                gcp.compute.FutureReservationShareSettingsArgs(share_type="SPECIFIC_PROJECTS", projects=share_with)
                if share_with
                else None
            ),
            # pulumi-gcp's deletionPolicy ABANDON: Pulumi forgets the request without deleting it in the API. [S4]
            deletion_policy="ABANDON" if submit else None,
            opts=pulumi.ResourceOptions(parent=self, protect=protect, retain_on_delete=True if submit else None),
        )
        self.reservation_name = self.future_reservation.reservation_name.apply(lambda n: n or reservation_name)
        self.zone = pulumi.Output.from_input(zone)
        self.start_time = pulumi.Output.from_input(utc_text(start))
        self.end_time = pulumi.Output.from_input(utc_text(end))
        self.planning_status = self.future_reservation.planning_status.apply(
            lambda s: s or ("SUBMITTED" if submit else "DRAFT")
        )
        self.count = pulumi.Output.from_input(count)
        self.register_outputs(
            {
                "reservationName": self.reservation_name,
                "zone": self.zone,
                "startTime": self.start_time,
                "endTime": self.end_time,
                "planningStatus": self.planning_status,
                "count": self.count,
            }
        )


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _aggregate_reservation(
    machine_type: str,
    chips: int,
    zone: str,
    project: Optional[pulumi.Input[str]],
    workload_type: Optional[str],
    parent: pulumi.Resource,
) -> "gcp.compute.FutureReservationAggregateReservationArgs":
    family = tpu_family_of(machine_type).name
    # Accelerator type as a partial URL, e.g. projects/P/zones/Z/acceleratorTypes/ct6e [S4 accelerator_type].
    prefix = machine_type.split("-")[0]
    if project is None:
        project = gcp.organizations.get_client_config_output(opts=pulumi.InvokeOutputOptions(parent=parent)).project
    accelerator_type = pulumi.Output.concat("projects/", project, f"/zones/{zone}/acceleratorTypes/{prefix}")
    return gcp.compute.FutureReservationAggregateReservationArgs(
        vm_family=TPU_VM_FAMILIES[family],
        workload_type=workload_type or DEFAULT_TPU_WORKLOAD_TYPE,
        reserved_resources=[
            gcp.compute.FutureReservationAggregateReservationReservedResourceArgs(
                accelerator=gcp.compute.FutureReservationAggregateReservationReservedResourceAcceleratorArgs(
                    accelerator_count=chips, accelerator_type=accelerator_type
                )
            )
        ],
    )
