"""Calendar-mode future reservation rules: window, size and sharing (FACTS.md C).

Pure and shared by the environment spec checks, the CalendarReservation component and the policy pack.
Nothing here reads the clock: callers pass ``now`` (``datetime.now(timezone.utc)`` in production), so a
check gives the same answer in a test, in ``gkecap plan`` and in CI.

The functions return problems instead of raising, each naming the field it is about with the name the
environment file uses (``start``, ``days``, ``count``, ``workloadType``, ``shareWith``); callers prefix
their own path (``reservations[0].``) or map the field to a resource input.

Starts in the past. A stack file declaring a reservation is planned again and again (in CI, for months), so
the same declaration is judged at many different times. The rule, for every caller:

* a draft (not submitted) must start after ``now`` and within the advance window: once its start has
  passed it can never be submitted for that window, so ``check_window`` reports it (``start-passed``), naming
  the fix: move the window;
* a submitted request was checked when it was submitted and cannot be changed or cancelled (FACTS C): once
  its window has begun (``window_phase`` ``running``) its start is not judged again, and while it runs
  nothing is reported; once it has ended, ``ended_notice`` gives a warning (not an error): Compute Engine
  deleted the reservation at its end time, so its pools consume nothing and the declaration can go.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from typing import Iterable, Literal

from gkecap.components.issues import Issue

AcceleratorKind = Literal["gpu", "tpu"]
WindowPhase = Literal["upcoming", "running", "ended"]

# FACTS C [S21]: a calendar-mode request lasts 1 to 90 days.
MIN_DAYS = 1
MAX_DAYS = 90
# FACTS C [S22, S23]: availability can be viewed (and reserved) up to 60 days ahead for GPU/H4D VMs and up to
# 120 days ahead for TPUs. (At launch the DWS blog said "up to 8 weeks ahead"; SEED_NOTES. The docs win.)
GPU_ADVANCE_DAYS = 60
TPU_ADVANCE_DAYS = 120
# FACTS C [S21]: 1 to 80 GPU VMs per request, H4D up to 256 VMs.
GPU_MAX_VMS = 80
H4D_MAX_VMS = 256
# FACTS C [S21]: TPU requests are in chips, one of these counts; v5e SERVING only 1, 4 or 8.
TPU_CHIP_COUNTS: tuple[int, ...] = (1, 4, 8, 16, 32, 64, 128, 256, 512, 1024)
TPU_V5E_SERVING_CHIP_COUNTS: tuple[int, ...] = (1, 4, 8)
# FACTS C [S3 aggregate_reservation.workload_type]; UNSPECIFIED is the API's unset value.
WORKLOAD_TYPES: tuple[str, ...] = ("BATCH", "SERVING")
# FACTS C [S21]: a reservation can be shared with up to 100 projects.
MAX_SHARED_PROJECTS = 100

_V5E_FAMILIES = frozenset({"v5e", "v5litepod", "tpu-v5-lite-podslice"})


def utc_text(moment: datetime) -> str:
    """``2026-12-07T00:00:00Z`` for an aware datetime (UTC), as users write it."""
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def as_utc_datetime(value: datetime | date) -> datetime:
    """A YAML date (``2026-12-07``) means midnight UTC; a datetime must carry its time zone.

    Raises ValueError for a naive datetime: a reservation that cannot be cancelled must not depend on
    the time zone of the machine that runs ``pulumi up``.
    """
    if isinstance(value, datetime):
        if value.tzinfo is None or value.tzinfo.utcoffset(value) is None:
            raise ValueError(
                f"{value.isoformat()} has no time zone; write it in UTC, e.g. {value.strftime('%Y-%m-%dT%H:%M:%S')}Z"
            )
        return value.astimezone(timezone.utc)
    return datetime(value.year, value.month, value.day, tzinfo=timezone.utc)


def parse_start(value: object) -> datetime:
    """The start of a window as written: a date (midnight UTC), an aware datetime, or their ISO 8601 text
    (`2026-12-07`, `2026-12-07T00:00:00Z`). ValueError naming the value otherwise (a number, digits, a naive time)."""
    if isinstance(value, (datetime, date)):
        return as_utc_datetime(value)
    if isinstance(value, str):
        text = value.strip()
        try:
            parsed: date = date.fromisoformat(text) if len(text) == 10 else datetime.fromisoformat(text)
        except ValueError:
            parsed = None  # type: ignore[assignment]
        if parsed is not None and "-" in text:  # ISO 8601's extended form; `20261207` reads too much into digits
            return as_utc_datetime(parsed)
    raise ValueError(f"{value!r} is not a timestamp; write ISO 8601 in UTC, e.g. 2026-12-07T00:00:00Z")


def window_end(start: datetime, days: int) -> datetime:
    """End of a calendar reservation that starts at ``start`` and lasts ``days`` whole days."""
    return start + timedelta(days=days)


def advance_days(kind: AcceleratorKind) -> int:
    """How many days ahead a calendar reservation of this accelerator kind may start."""
    return TPU_ADVANCE_DAYS if kind == "tpu" else GPU_ADVANCE_DAYS


def max_gpu_vms(machine_type: str | None) -> int:
    """Largest VM count of one calendar-mode request for this machine type (FACTS C [S21])."""
    return H4D_MAX_VMS if machine_type and machine_type.startswith("h4d-") else GPU_MAX_VMS


def allowed_tpu_chip_counts(tpu_family: str | None, workload_type: str | None) -> tuple[int, ...]:
    """Chip counts one TPU calendar-mode request may ask for (FACTS C [S21])."""
    if workload_type == "SERVING" and tpu_family in _V5E_FAMILIES:
        return TPU_V5E_SERVING_CHIP_COUNTS
    return TPU_CHIP_COUNTS


def check_days(days: int) -> list[Issue]:
    """Duration in whole days: 1 to 90."""
    if MIN_DAYS <= days <= MAX_DAYS:
        return []
    return [
        Issue(
            "days", f"{days} is outside the calendar-mode duration; allowed: {MIN_DAYS} to {MAX_DAYS} days", "duration"
        )
    ]


def window_phase(start: datetime, end: datetime, now: datetime) -> WindowPhase:
    """``upcoming`` before the start, ``running`` from the start until the end, ``ended`` from the end on."""
    if now < start:
        return "upcoming"
    return "running" if now < end else "ended"


def check_window(
    start: datetime, end: datetime, *, now: datetime, kind: AcceleratorKind, submitted: bool = False
) -> list[Issue]:
    """The start is after ``now`` and inside the advance window; the duration is 1 to 90 days.

    A ``submitted`` request whose window has begun is not judged on its start again (see the module
    docstring); ``ended_notice`` tells when it has ended. ``start``, ``end`` and ``now`` must be timezone-aware.
    """
    problems: list[Issue] = []
    limit = advance_days(kind)
    latest = now + timedelta(days=limit)
    if start <= now:
        if not submitted:
            problems.append(
                Issue(
                    "start",
                    f"{utc_text(start)} is not in the future (now {utc_text(now)}); a draft calendar reservation can "
                    f"only be submitted for a window that starts later than now and at most {limit} days ahead: "
                    f"move the window to start between {utc_text(now)} and {utc_text(latest)}",
                    "start-passed",
                )
            )
    else:
        if start > latest:
            problems.append(
                Issue(
                    "start",
                    f"{utc_text(start)} is more than {limit} days ahead; {kind.upper()} calendar reservations can "
                    f"start at most {limit} days ahead (latest {utc_text(latest)})",
                    "start-too-far",
                )
            )
    length = end - start
    if not timedelta(days=MIN_DAYS) <= length <= timedelta(days=MAX_DAYS):
        problems.append(
            Issue(
                "days",
                f"the window lasts {_days_text(length)}; allowed: {MIN_DAYS} to {MAX_DAYS} days",
                "duration",
            )
        )
    return problems


def ended_notice(start: datetime, end: datetime, *, now: datetime, submitted: bool) -> Issue | None:
    """The warning for a submitted request whose window has ended (None otherwise; a draft's passed start is
    an error of ``check_window``)."""
    if not submitted or window_phase(start, end, now) != "ended":
        return None
    return Issue(
        "start",
        f"the submitted reservation's window ended at {utc_text(end)} (now {utc_text(now)}): Compute Engine deleted "
        "the reservation at its end time and its pools consume nothing; remove the reservation and its pools",
        "window-ended",
    )


def check_count(
    count: int,
    *,
    kind: AcceleratorKind,
    machine_type: str | None = None,
    tpu_family: str | None = None,
    workload_type: str | None = None,
) -> list[Issue]:
    """GPU requests count VMs (1 to 80, H4D 256); TPU requests count chips (1, 4, 8, ..., 1024)."""
    if kind == "gpu":
        limit = max_gpu_vms(machine_type)
        if 1 <= count <= limit:
            return []
        what = f" for {machine_type}" if machine_type else ""
        return [
            Issue(
                "count", f"{count} VMs is outside the calendar-mode range{what}; allowed: 1 to {limit} VMs", "count"
            )
        ]
    allowed = allowed_tpu_chip_counts(tpu_family, workload_type)
    if count in allowed:
        return []
    scope = f"{tpu_family} {workload_type}" if allowed is TPU_V5E_SERVING_CHIP_COUNTS else "TPU"
    return [
        Issue(
            "count",
            f"{count} chips is not a calendar-mode {scope} chip count; allowed: {_join(allowed)}",
            "count",
        )
    ]


def check_workload_type(workload_type: str | None, *, kind: AcceleratorKind) -> list[Issue]:
    """BATCH or SERVING, and only for TPU (aggregate) reservations."""
    if workload_type is None:
        return []
    if kind == "gpu":
        return [
            Issue(
                "workloadType", "applies to TPU reservations only; GPU reservations reserve VMs", "workload-type"
            )
        ]
    if workload_type not in WORKLOAD_TYPES:
        return [
            Issue(
                "workloadType", f"{workload_type!r} is not allowed; allowed: {_join(WORKLOAD_TYPES)}", "workload-type"
            )
        ]
    return []


def check_share_with(projects: Iterable[str]) -> list[Issue]:
    """At most 100 projects, each once."""
    listed = list(projects)
    problems: list[Issue] = []
    if len(listed) > MAX_SHARED_PROJECTS:
        problems.append(
            Issue(
                "shareWith",
                f"{len(listed)} projects; a reservation can be shared with at most {MAX_SHARED_PROJECTS}",
                "share-with",
            )
        )
    seen: set[str] = set()
    for project in listed:
        if project in seen:
            problems.append(Issue("shareWith", f"{project!r} is listed twice", "share-with"))
        seen.add(project)
    return problems


def check_calendar_request(
    *,
    kind: AcceleratorKind,
    count: int,
    start: datetime,
    now: datetime,
    days: int | None = None,
    end: datetime | None = None,
    machine_type: str | None = None,
    tpu_family: str | None = None,
    workload_type: str | None = None,
    share_with: Iterable[str] = (),
    submitted: bool = False,
) -> list[Issue]:
    """Every calendar-mode rule for one request; give ``days`` (environment file) or ``end`` (a resource).

    The errors only: ``ended_notice`` is the warning for a submitted request whose window has ended."""
    if (days is None) == (end is None):
        raise TypeError("give exactly one of days or end")
    problems: list[Issue] = []
    if days is not None:
        problems += check_days(days)
        end = window_end(start, days)
        problems += [p for p in check_window(start, end, now=now, kind=kind, submitted=submitted) if p.path != "days"]
    else:
        assert end is not None
        problems += check_window(start, end, now=now, kind=kind, submitted=submitted)
    problems += check_count(
        count, kind=kind, machine_type=machine_type, tpu_family=tpu_family, workload_type=workload_type
    )
    problems += check_workload_type(workload_type, kind=kind)
    problems += check_share_with(share_with)
    return problems


def _days_text(length: timedelta) -> str:
    days = length.total_seconds() / 86400
    return f"{days:g} days" if days != 1 else "1 day"


def _join(values: Iterable[object]) -> str:
    return ", ".join(str(v) for v in values)
