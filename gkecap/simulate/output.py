"""A simulation's result as the JSON document of `gkecap simulate --format json`, and as the text report.

JSON (times in seconds from the scenario start; `admitted`/`finished` null when it never happens; `started`, the
first time its pods ran on nodes, is an addition to the issue's format):
`{"workloads": [{"name", "team", "submitted", "admitted", "finished", "pool", "preemptions", "waitSeconds", "started"}],
  "events": [{"time", "workload", "event", "pool", "borrowed", "reason"}],
  "teams": [{"name", "quota", "peakUsage", "borrowedSeconds", "meanWaitSeconds"}], "summary": {...}}`
"""

from __future__ import annotations

from statistics import mean
from typing import Any

from rich.console import Console
from rich.table import Table

from gkecap.simulate.engine import SimulationResult

NOTABLE = ("preempted", "deactivated")


def _seconds(value: float | None) -> float | int | None:
    if value is None:
        return None
    return int(value) if float(value).is_integer() else round(value, 3)


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
        "meanWaitSeconds": _seconds(mean(waits)) if waits else None,
        "maxWaitSeconds": _seconds(max(waits)) if waits else None,
    }


def to_document(result: SimulationResult) -> dict[str, Any]:
    return {
        "workloads": [{
            "name": w.name, "team": w.team, "submitted": _seconds(w.submitted), "admitted": _seconds(w.admitted),
            "finished": _seconds(w.finished), "pool": w.pool, "preemptions": w.preemptions,
            "waitSeconds": _seconds(w.wait_seconds), "started": _seconds(w.started),
        } for w in result.workloads],
        "events": [{
            "time": _seconds(e.time), "workload": e.workload, "event": e.event, "pool": e.pool,
            "borrowed": e.borrowed, "reason": e.reason,
        } for e in result.events],
        "teams": team_rows(result),
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
    from gkecap.report.fit import fitted

    console.print(fitted(table))
    notable = [e for e in result.events if e.event in NOTABLE or (e.event == "admitted" and e.borrowed)]
    if notable:
        console.print("[bold]Notable events[/bold] (borrowing admissions, preemptions, deactivations)")
        for e in notable[:max_events]:
            detail = f"borrows {e.borrowed}" if e.event == "admitted" else e.reason
            console.print(f"  {clock(e.time):>12}  {e.event:<11} {e.workload} on {e.pool or '-'}: {detail}")
        if len(notable) > max_events:
            console.print(f"  ... {len(notable) - max_events} more (--format json lists every event)")
    never = [w.name for w in result.workloads if w.admitted is None]
    if never:
        console.print(f"[yellow]Never admitted:[/yellow] {', '.join(never[:20])}"
                      + (f" and {len(never) - 20} more" if len(never) > 20 else ""))
