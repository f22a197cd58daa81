"""A simulation's result as the JSON document of `gkecap simulate --format json`, and as the text report.

JSON (times in seconds from the scenario start; null when it never happens):
`{"workloads": [{"name", "team", "submitted", "admitted", "started", "finished", "pool", "unit", "preemptions",
                 "evictions", "waitSeconds" (to admission), "waitToStartSeconds", "acceleratorHoursLost"}],
  "events": [{"time", "workload", "event", "pool", "borrowed", "reason", "by", "acceleratorHoursLost"}],
  "teams": [{"name", "quota": {unit: n}, "peakUsage": {unit: n}, "borrowedSeconds", "waitToAdmission": {...},
             "waitToStart": {...}, "meanWaitSeconds"}],
  "pools": [{"name", "capacityModel", "unit", "nodeHours", "usedNodeHours", "idleNodeHours", "unitHours",
             "usedUnitHours", "reservedNodeHours", "idleReservedNodeHours"}],
  "summary": {...}}`
A workload with `minPods` also has `minPods` and `admittedPods` (the pods of its latest admission: fewer than it
asked for when Kueue admitted it partially; null before any admission).
With MultiKueue workers, each workload also has `cluster` and `region` (its worker), and the document `clusters`
[{"name", "cluster", "region", "pools", "workloads", "finished"}] and `regions` [{"name", "clusters", ...}].
  "cycles": [{"teams", "workloads", "firstAt", "lastAt", "evictions", "gpuHoursLost", "unit", "reasons",
              "breaks": [{"change", "why", "canTry", "verified"}]}],
  "limits": [{"limit", "value", "at", "message"}], "summary": {...}}`
`acceleratorHoursLost` is the accelerator time of runs cut short (their work starts over); a cycle's `gpuHoursLost`
is the same for its own evictions, in its pools' `unit` (GPUs, or TPU chips on TPU pools). `limits` lists the
simulator's safety limits reached (none in a normal run).
`admitted` is Kueue's admission (quota reserved, admission checks passed); `started` is when every pod ran (after
node provisioning and the pod start delay). Waits are {mean, p50, p95, max, count} in seconds over the workloads that
got there (percentiles by nearest rank). Quota and usage are per unit kind (GPUs, TPU chips, GPU units of one MIG
profile or sharing): units of different kinds are never added up.
"""

from __future__ import annotations

import math
from statistics import mean
from typing import Any, Iterable

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from gkecap.simulate.engine import SimulationResult

NOTABLE = ("preempted", "evicted", "deactivated")
RESERVED_MODELS = ("reservation", "calendar")  # capacity paid for whether or not pods run


def _seconds(value: float | None) -> float | int | None:
    if value is None:
        return None
    return int(value) if float(value).is_integer() else round(value, 3)


def _hours(seconds: float) -> float | int:
    value = round(seconds / 3600.0, 3)
    return int(value) if value.is_integer() else value


def cycle_rows(result: SimulationResult) -> list[dict[str, Any]]:
    return [{
        "teams": c.teams, "workloads": c.workloads, "firstAt": _seconds(c.first_at), "lastAt": _seconds(c.last_at),
        "evictions": c.evictions, "gpuHoursLost": _hours(c.lost), "unit": c.unit, "reasons": c.reasons,
        "breaks": c.breaks,
    } for c in result.cycles]


def wait_stats(samples: Iterable[float]) -> dict[str, Any]:
    """{mean, p50, p95, max, count} of waits in seconds; nearest-rank percentiles (a value that occurred)."""
    values = sorted(samples)
    if not values:
        return {"mean": None, "p50": None, "p95": None, "max": None, "count": 0}

    def rank(p: float) -> float:
        return values[max(0, math.ceil(p * len(values)) - 1)]

    return {"mean": _seconds(mean(values)), "p50": _seconds(rank(0.5)), "p95": _seconds(rank(0.95)),
            "max": _seconds(values[-1]), "count": len(values)}


def team_rows(result: SimulationResult) -> list[dict[str, Any]]:
    to_admission: dict[str, list[float]] = {}
    to_start: dict[str, list[float]] = {}
    for w in result.workloads:
        if w.wait_seconds is not None:
            to_admission.setdefault(w.team, []).append(w.wait_seconds)
        if w.wait_to_start is not None:
            to_start.setdefault(w.team, []).append(w.wait_to_start)
    rows = []
    for team, kinds in result.usage.items():
        borrowing: list[tuple[float, float]] = []
        peak: dict[str, int] = {}
        for kind, samples in kinds.items():
            peak[kind] = max(u for _, u, _ in samples)
            for (t, _, b), (t_next, _, _) in zip(samples, samples[1:] + [(result.end, 0, 0)]):
                if b > 0 and t_next > t:
                    borrowing.append((t, t_next))
        admission = wait_stats(to_admission.get(team, ()))
        rows.append({
            "name": team,
            "quota": dict(result.quotas[team]),
            "peakUsage": peak,
            "borrowedSeconds": _seconds(_covered(borrowing)),
            "waitToAdmission": admission,
            "waitToStart": wait_stats(to_start.get(team, ())),
            "meanWaitSeconds": admission["mean"],
        })
    return rows


def _covered(spans: list[tuple[float, float]]) -> float:
    """Seconds covered by the union of spans (borrowing in two unit kinds at once counts once)."""
    total, reach = 0.0, -math.inf
    for start, end in sorted(spans):
        if end > reach:
            total += end - max(start, reach)
            reach = end
    return total


def pool_rows(result: SimulationResult) -> list[dict[str, Any]]:
    """Per pool over the scenario: node-hours provisioned (ready VMs) and used (VMs running pods), unit-hours, and
    for reservation and calendar pools the reserved node-hours (its VMs, paid whether used or not) left idle."""
    rows = []
    for name, samples in result.pool_nodes.items():
        pool = result.pools.get(name)
        nodes = used_nodes = units_used = 0.0
        for (t, ready, busy, used), (t_next, *_) in zip(samples, samples[1:] + [(max(result.end, samples[-1][0]),)]):
            span = max(0.0, min(t_next, result.end) - t)
            nodes += ready * span
            used_nodes += busy * span
            units_used += used * span
        per_node = pool.units_per_node if pool is not None else 0
        row: dict[str, Any] = {
            "name": name,
            "capacityModel": pool.capacity_model if pool is not None else None,
            "unit": pool.unit if pool is not None else None,
            "nodeHours": _hours(nodes), "usedNodeHours": _hours(used_nodes), "idleNodeHours": _hours(nodes - used_nodes),
            "unitHours": _hours(nodes * per_node), "usedUnitHours": _hours(units_used),
            "reservedNodeHours": None, "idleReservedNodeHours": None,
        }
        if pool is not None and pool.capacity_model in RESERVED_MODELS:
            reserved = 0.0
            for (t, count), (t_next, _) in zip(pool.steps, pool.steps[1:] + [(max(result.end, pool.steps[-1][0]), 0)]):
                reserved += count * max(0.0, min(t_next, result.end) - min(t, result.end))
            row["reservedNodeHours"] = _hours(reserved)
            row["idleReservedNodeHours"] = _hours(max(0.0, reserved - used_nodes))
        rows.append(row)
    return rows


def summary(result: SimulationResult) -> dict[str, Any]:
    workloads = result.workloads
    waits = [w.wait_seconds for w in workloads if w.wait_seconds is not None]
    delays = result.delays
    return {
        "start": result.start_iso,
        "endSeconds": _seconds(result.end),
        "fairSharing": result.fair_sharing,
        "workloads": len(workloads),
        "admitted": sum(w.admitted is not None for w in workloads),
        "started": sum(w.started is not None for w in workloads),
        "finished": sum(w.finished is not None for w in workloads),
        "neverAdmitted": sum(w.admitted is None for w in workloads),
        "deactivated": sum(w.deactivated for w in workloads),
        "preemptions": sum(w.preemptions for w in workloads),
        "evictions": sum(w.evictions for w in workloads),
        "acceleratorHoursLost": _hours(sum(w.lost for w in workloads)),
        "cycles": len(result.cycles),
        "meanWaitSeconds": _seconds(mean(waits)) if waits else None,
        "maxWaitSeconds": _seconds(max(waits)) if waits else None,
        "waitToAdmission": wait_stats(waits),
        "waitToStart": wait_stats(w.wait_to_start for w in workloads if w.wait_to_start is not None),
        "delays": {"provisioningSeconds": _seconds(delays.provisioning), "scaleDownSeconds": _seconds(delays.scale_down),
                   "podStartSeconds": _seconds(delays.pod_start),
                   "terminationSeconds": _seconds(result.eviction.termination),
                   "releaseSeconds": _seconds(result.eviction.release),
                   "requeueSeconds": _seconds(result.eviction.requeue)},
        "waitForPodsReady": None if result.pods_ready is None else {
            "timeoutSeconds": _seconds(result.pods_ready.timeout),
            "backoffBaseSeconds": _seconds(result.pods_ready.backoff_base),
            "backoffMaxSeconds": _seconds(result.pods_ready.backoff_max)},
    }


def cluster_rows(result: SimulationResult) -> list[dict[str, Any]]:
    """MultiKueue: per worker cluster, the workloads dispatched to it ([] for one cluster)."""
    rows: dict[str, dict[str, Any]] = {}
    for worker, cluster, region in result.clusters.values():
        rows.setdefault(worker, {"name": worker, "cluster": cluster, "region": region, "pools": [],
                                 "workloads": 0, "finished": 0})
    for pool, (worker, _, _) in result.clusters.items():
        rows[worker]["pools"].append(pool)
    for w in result.workloads:
        if w.pool in result.clusters:
            row = rows[result.clusters[w.pool][0]]
            row["workloads"] += 1
            row["finished"] += w.finished is not None
    return list(rows.values())


def region_rows(result: SimulationResult) -> list[dict[str, Any]]:
    regions: dict[str, dict[str, Any]] = {}
    for row in cluster_rows(result):
        entry = regions.setdefault(row["region"], {"name": row["region"], "clusters": [], "workloads": 0,
                                                   "finished": 0})
        entry["clusters"].append(row["name"])
        entry["workloads"] += row["workloads"]
        entry["finished"] += row["finished"]
    return list(regions.values())


def _placement(result: SimulationResult, pool: str | None) -> dict[str, Any]:
    """A MultiKueue workload's worker and region (nothing for one cluster)."""
    if not result.clusters:
        return {}
    worker, _, region = result.clusters.get(pool or "", (None, None, None))
    return {"cluster": worker, "region": region}


def to_document(result: SimulationResult) -> dict[str, Any]:
    document = _document(result)
    if result.clusters:  # MultiKueue (gkecap.simulate.multicluster): where each workload was dispatched
        document["clusters"] = cluster_rows(result)
        document["regions"] = region_rows(result)
    return document


def _partial(w) -> dict[str, Any]:
    """A workload that may be partially admitted (`minPods`): its minimum and the pods of its latest admission."""
    if w.min_pods is None:
        return {}
    return {"minPods": w.min_pods, "admittedPods": w.admitted_pods}


def _document(result: SimulationResult) -> dict[str, Any]:
    return {
        "workloads": [{
            "name": w.name, "team": w.team, "submitted": _seconds(w.submitted), "admitted": _seconds(w.admitted),
            "started": _seconds(w.started), "finished": _seconds(w.finished), "pool": w.pool, "unit": w.unit or None,
            "preemptions": w.preemptions, "evictions": w.evictions, "waitSeconds": _seconds(w.wait_seconds),
            "waitToStartSeconds": _seconds(w.wait_to_start), "acceleratorHoursLost": _hours(w.lost),
            **_placement(result, w.pool), **_partial(w),
        } for w in result.workloads],
        "events": [{
            "time": _seconds(e.time), "workload": e.workload, "event": e.event, "pool": e.pool,
            "borrowed": e.borrowed, "reason": e.reason, "by": e.by, "acceleratorHoursLost": _hours(e.lost),
        } for e in result.events],
        "teams": team_rows(result),
        "pools": pool_rows(result),
        "cycles": cycle_rows(result),
        "limits": [{**limit, "at": _seconds(limit["at"])} for limit in result.limits],
        "summary": summary(result),
    }


def units_text(counts: dict[str, int]) -> str:
    """`4 GPUs, 16 TPU chips`: one number per unit kind, never a sum."""
    return ", ".join(f"{n} {kind}" for kind, n in counts.items()) or "0"


def span(seconds: float | None) -> str:
    """`45s`, `12m`, `1h05m`, `2d16h`: a short duration for table cells."""
    if seconds is None:
        return "-"
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m"
    if seconds < 86400:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    return f"{seconds // 86400}d{seconds % 86400 // 3600:02d}h"


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
                  f"{facts['admitted']} admitted, {facts['started']} started, {facts['finished']} finished, "
                  f"{facts['preemptions']} preemptions, {facts['evictions']} evictions, "
                  f"{facts['deactivated']} deactivated, {facts['neverAdmitted']} never admitted"
                  + (" (fair sharing)" if result.fair_sharing else ""))
    start = facts["waitToStart"]
    console.print(f"Wait to start (every pod running): mean {clock(start['mean'])}, p50 {clock(start['p50'])}, "
                  f"p95 {clock(start['p95'])}, max {clock(start['max'])}; wait to admission: mean "
                  f"{clock(facts['waitToAdmission']['mean'])}, max {clock(facts['waitToAdmission']['max'])}")
    table = Table(title="Teams: waits until every pod ran (start) and until Kueue admitted", title_justify="left",
                  box=box.SIMPLE_HEAD, pad_edge=False)
    for column in ("team", "peak of quota", "borrowed", "start mean", "p50", "p95", "max", "admission mean"):
        table.add_column(column, justify="left" if column in ("team", "peak of quota") else "right")
    for row in team_rows(result):
        s, a = row["waitToStart"], row["waitToAdmission"]
        usage = "\n".join(f"{row['peakUsage'].get(kind, 0)} of {n} {kind}" for kind, n in row["quota"].items()
                          if n or row["peakUsage"].get(kind))
        table.add_row(row["name"], usage or "-", span(row["borrowedSeconds"]), span(s["mean"]), span(s["p50"]),
                      span(s["p95"]), span(s["max"]), span(a["mean"]))
    from gkecap.report.fit import fitted  # every table fits the terminal (stacked where it cannot)

    console.print(fitted(table))
    if result.clusters:
        clusters = Table(title="Clusters (MultiKueue workers)", title_justify="left")
        for column in ("worker", "cluster", "region", "pools", "workloads", "finished"):
            clusters.add_column(column, justify="right" if column in ("workloads", "finished") else "left")
        for row in cluster_rows(result):
            clusters.add_row(row["name"], row["cluster"], row["region"], ", ".join(row["pools"]),
                             str(row["workloads"]), str(row["finished"]))
        console.print(fitted(clusters))
        for w in result.workloads:
            if w.pool in result.clusters:
                worker, _, region = result.clusters[w.pool]
                console.print(f"  {w.name} ({w.team}) -> {worker} ({region}) on {w.pool}")
    pools = Table(title="Pools: node-hours (idle: ready VMs without pods)", title_justify="left", box=box.SIMPLE_HEAD,
                  pad_edge=False)
    for column in ("pool", "capacity", "unit", "provisioned", "used", "idle", "reserved idle"):
        pools.add_column(column, justify="left" if column in ("pool", "capacity", "unit") else "right")
    for row in pool_rows(result):
        pools.add_row(row["name"], str(row["capacityModel"]), str(row["unit"]), str(row["nodeHours"]),
                      str(row["usedNodeHours"]), str(row["idleNodeHours"]),
                      "-" if row["idleReservedNodeHours"] is None else
                      f"{row['idleReservedNodeHours']} of {row['reservedNodeHours']}")
    console.print(fitted(pools))
    evictions: dict[str, int] = {}
    for e in result.events:
        if e.event == "evicted":
            evictions[e.workload] = evictions.get(e.workload, 0) + 1
    shown: set[str] = set()
    notable = []
    for e in result.events:
        if e.event == "evicted":  # waitForPodsReady repeats itself: the first eviction of each workload, counted
            if e.workload in shown:
                continue
            shown.add(e.workload)
        if e.event in NOTABLE or (e.event == "admitted" and (e.borrowed or e.reason)):
            notable.append(e)
    if notable:
        console.print("[bold]Notable events[/bold] (borrowing admissions, preemptions, evictions, deactivations)")
        for e in notable[:max_events]:
            detail = "; ".join(filter(None, (f"borrows {e.borrowed}" if e.borrowed else "", e.reason))) \
                if e.event == "admitted" else e.reason
            if e.event == "evicted" and evictions[e.workload] > 1:
                detail += f" (evicted {evictions[e.workload]} times in all)"
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
    console.print(f"[bold red]Preemption cycles[/bold red]: {len(result.cycles)} (the same workloads evicted and "
                  "readmitted in turn; each eviction of a running workload throws its run away)")
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
