"""Preemption cycles: the same set of workloads evicted and readmitted repeatedly. Pure.

Kueue's steps can each be valid and still go round in a circle: a workload preempts another, which comes back and
preempts a third, which comes back and preempts the first (kueue#7101, kueue#14543; with fair sharing, mixed job
sizes and reclaimWithinCohort Any). On a cluster such a cycle runs at the pace of evictions (`gkecap.simulate.timing`)
until something outside it changes (a workload outside the cycle finishes), and each eviction of a running workload
throws its run away.

A cycle is found from the preemptions alone: in the graph with an edge from each preemptor to each workload it
evicted, a strongly connected set of two or more workloads, one of them evicted at least twice, is a set of
workloads that evict each other in turn. Its evictions are those of its workloads by its workloads.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from gkecap.graphs import strongly_connected

MIN_REPEATS = 2  # a workload evicted this many times by the set, and readmitted in between, makes it a cycle


@dataclass
class Cycle:
    workloads: list[str]
    teams: list[str]
    first_at: float
    last_at: float
    evictions: int
    lost: float  # accelerator-seconds of runs cut short by the cycle's evictions
    unit: str = ""  # the accelerator kind of its pools
    reasons: dict[str, int] = field(default_factory=dict)  # Kueue preemption reason -> evictions
    breaks: list[dict] = field(default_factory=list)  # [{"change", "why", "verified"}]


def find_cycles(events: Iterable, teams: dict[str, str], units: dict[str, str] | None = None) -> list[Cycle]:
    """The cycles among a run's preemptions (`SimEvent`s with `by`), first-starting first. `teams` maps each
    workload to its team, `units` each pool to its accelerator kind."""
    preemptions = [e for e in events if e.event == "preempted" and e.by]
    edges: dict[str, set[str]] = {}
    for e in preemptions:
        edges.setdefault(e.by, set()).add(e.workload)
    cycles = []
    for component in strongly_connected(sorted(edges), edges):
        if len(component) < 2:
            continue
        members = set(component)
        own = [e for e in preemptions if e.workload in members and e.by in members]
        counts: dict[str, int] = {}
        for e in own:
            counts[e.workload] = counts.get(e.workload, 0) + 1
        if max(counts.values(), default=0) < MIN_REPEATS:
            continue
        reasons: dict[str, int] = {}
        for e in own:
            reason = e.reason.split(" by ", 1)[0]
            reasons[reason] = reasons.get(reason, 0) + 1
        pools = sorted({e.pool for e in own if e.pool})
        cycles.append(Cycle(
            component, sorted({teams[w] for w in component}), min(e.time for e in own), max(e.time for e in own),
            len(own), sum(e.lost for e in own), ", ".join(sorted({(units or {}).get(p, "") for p in pools} - {""})),
            dict(sorted(reasons.items()))))
    cycles.sort(key=lambda c: (c.first_at, c.workloads))
    return cycles


# --- what breaks a cycle -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Remedy:
    """A change that may break a cycle: `change` in the environment's (or Kueue's) own terms, `why`, and how to
    apply it to the emitted Kueue objects for a trial run (`queues`: ClusterQueue -> preemption fields to set;
    `strategies`: Kueue's fairSharing.preemptionStrategies; `fair_sharing`), or None when it cannot be tried."""

    change: str
    why: str
    queues: tuple[tuple[str, tuple[tuple[str, object], ...]], ...] = ()
    strategies: tuple[str, ...] | None = None
    fair_sharing: bool | None = None
    trial: bool = True


def remedies(cycle: Cycle, events: Iterable, cluster, team_of: dict[str, str], priorities: dict[str, int],
             per_node: dict[str, int], quotas: dict[str, dict[str, int]]) -> list[Remedy]:
    """Changes that may break `cycle`, from what its evictions were: `cluster` is the simulated one (preemption
    policies, fair sharing), `team_of` each workload's team, `priorities` each workload's priority, `per_node` each
    pool's accelerators per VM, `quotas` team -> pool -> nominal quota."""
    members = set(cycle.workloads)
    own = [e for e in events if e.event == "preempted" and e.by in members and e.workload in members]
    result: list[Remedy] = []
    if cluster.fair_sharing and "InCohortFairSharing" in cycle.reasons and len(cluster.fair_strategies) > 1:
        result.append(Remedy(
            "Kueue's fairSharing.preemptionStrategies: [LessThanInitialShare] (gkecap configures both strategies)",
            "with both strategies a preemptee can be readmitted instead of its preemptor (kueue#14543)",
            strategies=("LessThanInitialShare",)))
    reclaimers = sorted({team_of[e.by] for e in own if e.reason.startswith("InCohortReclamation")
                         and cluster.queues[team_of[e.by]].preemption.reclaim_within_cohort == "Any"})
    if reclaimers:
        result.append(Remedy(
            "; ".join(f"teams[{t}].preemption.reclaimWithinCohort: LowerPriority" for t in reclaimers),
            "their workloads reclaim quota from workloads of equal or higher priority, which come back and do the same",
            queues=tuple((t, (("reclaim_within_cohort", "LowerPriority"),)) for t in reclaimers)))
    within = sorted({team_of[e.by] for e in own if e.reason.startswith("InClusterQueue")})
    if within:
        result.append(Remedy(
            "; ".join(f"teams[{t}].preemption.withinClusterQueue: Never" for t in within),
            "their higher-priority workloads evict their own lower-priority ones, which then reclaim quota elsewhere",
            queues=tuple((t, (("within_cluster_queue", "Never"),)) for t in within)))
    if cluster.fair_sharing:
        result.append(Remedy(
            "kueue.fairSharing: false (classical preemption; borrowWithinCohort LowerPriority)",
            "without fair sharing, a borrowing workload is evicted only for reclaimed quota or lower priority",
            queues=tuple((name, (("borrow_within_cohort", "LowerPriority"),))
                         for name in sorted({t for t in cycle.teams})
                         if cluster.queues[name].preemption.reclaim_within_cohort != "Never"),
            fair_sharing=False))
    if len({priorities.get(w, 0) for w in cycle.workloads}) == 1:
        result.append(Remedy(
            "a priority class that orders these workloads (priorityClasses, then `priority:` per workload)",
            "they all have the same priority, so none is protected from the others", trial=False))
    pools = sorted({e.pool for e in own if e.pool})
    partial = sorted(f"{t} on {p} ({quotas[t][p]} of {per_node[p]} per VM)" for t in cycle.teams for p in pools
                     if per_node.get(p) and quotas.get(t, {}).get(p, 0) % per_node[p])
    if partial:
        result.append(Remedy(
            "quota in whole VMs: " + ", ".join(partial),
            "a quota that ends inside a VM lets small jobs take part of the VM a large job needs", trial=False))
    return result


def apply_remedy(objects: Sequence[Mapping[str, Any]], remedy: Remedy) -> list[dict[str, Any]]:
    """The emitted Kueue objects with the remedy's ClusterQueue preemption changes (copies; the input is kept)."""
    import copy

    spelled = {"reclaim_within_cohort": "reclaimWithinCohort", "within_cluster_queue": "withinClusterQueue"}
    changes = dict(remedy.queues)
    result: list[dict[str, Any]] = []
    for original in objects:
        obj = dict(original)
        if obj.get("kind") == "ClusterQueue" and obj["metadata"]["name"] in changes:
            obj = copy.deepcopy(obj)
            preemption = obj.setdefault("spec", {}).setdefault("preemption", {})
            for name, value in changes[obj["metadata"]["name"]]:
                if name == "borrow_within_cohort":
                    preemption["borrowWithinCohort"] = {"policy": value}
                else:
                    preemption[spelled[name]] = value
        result.append(obj)
    return result
