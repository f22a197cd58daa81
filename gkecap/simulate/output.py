"""A simulation's result as the JSON document of `gkecap simulate --format json`, and as the text report.

JSON (times in seconds from the scenario start; `admitted`/`finished` null when it never happens; `started`, the
first time its pods ran on nodes, is an addition to the issue's format):
`{"workloads": [{"name", "team", "submitted", "admitted", "finished", "pool", "preemptions", "waitSeconds", "started",
                 "acceleratorHoursLost"}],
  "events": [{"time", "workload", "event", "pool", "borrowed", "reason", "by", "acceleratorHoursLost"}],
  "teams": [{"name", "quota", "peakUsage", "borrowedSeconds", "meanWaitSeconds"}],
  "cycles": [{"teams", "workloads", "firstAt", "lastAt", "evictions", "gpuHoursLost", "unit", "reasons",
              "breaks": [{"change", "why", "canTry", "verified"}]}],
  "delays": {"terminationSeconds", "releaseSeconds", "requeueSeconds"},
  "limits": [{"limit", "value", "at", "message"}], "summary": {...}}`
`acceleratorHoursLost` is the accelerator time of runs cut short (their work starts over); a cycle's `gpuHoursLost`
is the same for its own evictions, in its pools' `unit` (GPUs, or TPU chips on TPU pools).
"""

from __future__ import annotations

from statistics import mean
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from gkecap.simulate.engine import SimulationResult

NOTABLE = ("preempted", "deactivated")


def _seconds(value: float | None) -> float | int | None:
    if value is None:
        return None
    return int(value) if float(value).is_integer() else round(value, 3)


def _hours(accelerator_seconds: float) -> float | int:
    return _seconds(round(accelerator_seconds / 3600.0, 3))  # type: ignore[return-value]


def cycle_rows(result: SimulationResult) -> list[dict[str, Any]]:
    return [{
        "teams": c.teams, "workloads": c.workloads, "firstAt": _seconds(c.first_at), "lastAt": _seconds(c.last_at),
        "evictions": c.evictions, "gpuHoursLost": _hours(c.lost), "unit": c.unit, "reasons": c.reasons,
        "breaks": c.breaks,
    } for c in result.cycles]


def team_rows(result: SimulationResult) -> list[dict[str, Any]]:
    waits: dict[str, list[float]] = {}
    for w in result.workloads:
        if w.wait_seconds is not None:
            waits.setdefault(w.team, []).append(w.wait_seconds)
    rows = []
    for team, samples in result.usage.items():
        borrowed = 0.0
        for (t, _, b), (t_next, _, _) in zip(samples, samples[1:] + [(result.end, 0, 0)]):
            if b > 0:
                borrowed += t_next - t
        rows.append({
            "name": team,
            "quota": result.quotas[team],
            "peakUsage": max(u for _, u, _ in samples),
            "borrowedSeconds": _seconds(borrowed),
            "meanWaitSeconds": _seconds(mean(waits[team])) if waits.get(team) else None,
        })
    return rows


def summary(result: SimulationResult) -> dict[str, Any]:
    workloads = result.workloads
    waits = [w.wait_seconds for w in workloads if w.wait_seconds is not None]
    return {
        "start": result.start_iso,
        "endSeconds": _seconds(result.end),
        "fairSharing": result.fair_sharing,
        "workloads": len(workloads),
        "admitted": sum(w.admitted is not None for w in workloads),
        "finished": sum(w.finished is not None for w in workloads),
        "neverAdmitted": sum(w.admitted is None for w in workloads),
        "deactivated": sum(w.deactivated for w in workloads),
        "preemptions": sum(w.preemptions for w in workloads),
        "acceleratorHoursLost": _hours(sum(w.lost for w in workloads)),
        "cycles": len(result.cycles),
        "meanWaitSeconds": _seconds(mean(waits)) if waits else None,
        "maxWaitSeconds": _seconds(max(waits)) if waits else None,
    }


def to_document(result: SimulationResult) -> dict[str, Any]:
    return {
        "workloads": [{
            "name": w.name, "team": w.team, "submitted": _seconds(w.submitted), "admitted": _seconds(w.admitted),
            "finished": _seconds(w.finished), "pool": w.pool, "preemptions": w.preemptions,
            "waitSeconds": _seconds(w.wait_seconds), "started": _seconds(w.started),
            "acceleratorHoursLost": _hours(w.lost),
        } for w in result.workloads],
        "events": [{
            "time": _seconds(e.time), "workload": e.workload, "event": e.event, "pool": e.pool,
            "borrowed": e.borrowed, "reason": e.reason, "by": e.by, "acceleratorHoursLost": _hours(e.lost),
        } for e in result.events],
        "teams": team_rows(result),
        "cycles": cycle_rows(result),
        "delays": {"terminationSeconds": _seconds(result.delays.termination),
                   "releaseSeconds": _seconds(result.delays.release),
                   "requeueSeconds": _seconds(result.delays.requeue)},
        "limits": [{**limit, "at": _seconds(limit["at"])} for limit in result.limits],
        "summary": summary(result),
    }


def clock(seconds: float | None) -> str:
    """`1d 02:30:00` style offsets for the text report."""
    if seconds is None:
        return "-"
    seconds = int(round(seconds))
    days, rest = divmod(seconds, 86400)
    h, rest = divmod(rest, 3600)
    m, s = divmod(rest, 60)
    return (f"{days}d " if days else "") + f"{h:02d}:{m:02d}:{s:02d}"


def render_text(result: SimulationResult, console: Console, *, source: str = "", max_events: int = 40) -> None:
    facts = summary(result)
    console.print(f"[bold]Simulation[/bold] of {source} from {result.start_iso}: {facts['workloads']} workloads, "
                  f"{facts['admitted']} admitted, {facts['finished']} finished, {facts['preemptions']} preemptions, "
                  f"{facts['deactivated']} deactivated, {facts['neverAdmitted']} never admitted"
                  + (" (fair sharing)" if result.fair_sharing else ""))
    table = Table(title="Teams", title_justify="left")
    for column in ("team", "quota", "peak usage", "borrowed for", "mean wait"):
        table.add_column(column, justify="left" if column == "team" else "right")
    for row in team_rows(result):
        table.add_row(row["name"], str(row["quota"]), str(row["peakUsage"]), clock(row["borrowedSeconds"]),
                      clock(row["meanWaitSeconds"]))
    console.print(table)
    notable = [e for e in result.events if e.event in NOTABLE or (e.event == "admitted" and e.borrowed)]
    if notable:
        console.print("[bold]Notable events[/bold] (borrowing admissions, preemptions, deactivations)")
        for e in notable[:max_events]:
            detail = f"borrows {e.borrowed}" if e.event == "admitted" else e.reason
            console.print(f"  {clock(e.time):>12}  {e.event:<11} {e.workload} on {e.pool or '-'}: {detail}")
        if len(notable) > max_events:
            console.print(f"  ... {len(notable) - max_events} more (--format json lists every event)")
    render_cycles(result, console)
    for limit in result.limits:
        at = f" at {clock(limit['at'])}" if limit["at"] is not None else ""
        console.print(f"[yellow]Limit reached[/yellow] ({limit['limit']} = {limit['value']}){at}: "
                      + escape(limit["message"]))
    never = [w.name for w in result.workloads if w.admitted is None]
    if never:
        console.print(f"[yellow]Never admitted:[/yellow] {', '.join(never[:20])}"
                      + (f" and {len(never) - 20} more" if len(never) > 20 else ""))


def render_cycles(result: SimulationResult, console: Console, *, max_names: int = 8) -> None:
    """Each preemption cycle: who, when, how many evictions, the accelerator-hours thrown away, what breaks it."""
    if not result.cycles:
        return
    lost = sum(c.lost for c in result.cycles) / 3600.0
    console.print(f"[bold red]Preemption cycles[/bold red]: {len(result.cycles)} (the same workloads evicted and "
                  f"readmitted in turn; {lost:.2f} accelerator-hours of runs thrown away)")
    for c in result.cycles:
        names = ", ".join(c.workloads[:max_names]) + (f" and {len(c.workloads) - max_names} more"
                                                      if len(c.workloads) > max_names else "")
        reasons = ", ".join(f"{r} {n}" for r, n in c.reasons.items())
        console.print(escape(f"  teams {', '.join(c.teams)}: {c.evictions} evictions from {clock(c.first_at)} to "
                             f"{clock(c.last_at)}, {c.lost / 3600.0:.2f} hours of {c.unit or 'accelerators'} lost "
                             f"({reasons}); workloads {names}"))
        for fix in c.breaks:
            verdict = {True: "breaks it (tried)", False: "does not break it (tried)", None: "not tried"}[fix["verified"]]
            console.print(escape(f"    - {fix['change']}: {verdict}; {fix['why']}"))
    if any(f["verified"] is None and f["canTry"] for c in result.cycles for f in c.breaks):
        console.print("  (--try-fixes simulates the scenario again with each change that applies to the Kueue objects)")
