"""`gkecap simulate`: a discrete-event simulator of Kueue admission over an environment's own ClusterQueues,
Cohorts, flavors and capacity.

Layers, bottom up (all pure):
- `quota_tree`, `cluster`: Kueue's quota tree and the direct description of a cluster (ClusterQueues, Cohorts,
  ResourceFlavors, Workloads); Kueue's own scheduler tests are transcribed against this API.
- `flavor_assigner`, `preemption`, `scheduler`: Kueue v0.19's flavor assignment, preemption and scheduling cycle;
  `scan_progress`: the flavor-scan progress a pending workload keeps between cycles; `partial_admission`: the pod
  counts Kueue tries for a workload with minCount.
- `environment`: the cluster from the Kueue objects `gkecap plan` emits, pool capacity, the workloads checked.
- `nodes`: pods on the shared nodes of a pool (kube-scheduler's fit, the cluster autoscaler, calendar windows);
  `topology`: where Kueue's TAS places a pod set that asks for a topology level.
- `engine`: the event loop (submissions, admission checks, pods on nodes, completions, waitForPodsReady).
- `shortcuts`: the off switches of the performance shortcuts (each exact).
- `timing`: the documented delays between a preemption and the victim's return (overridable in the workloads file).
- `cycles`: preemption cycles found in a run, and the changes that may break them.
- `workloads_file`, `output`, `timeline`: the input file, JSON/text output and the HTML timeline.
"""

from __future__ import annotations

from datetime import datetime
from typing import Callable, Iterable, Mapping, Sequence

from gkecap.simulate.cycles import Remedy, apply_remedy, find_cycles, remedies
from gkecap.simulate.engine import Progress, Simulation, SimulationResult
from gkecap.simulate.environment import (
    cluster_from_objects,
    default_local_queues,
    delays,
    plan_workloads,
    pods_ready,
    pool_capacities,
    preserves_scan_progress,
    priority_values,
    provisioning_retry,
)
from gkecap.simulate.multicluster import flattened, pool_clusters
from gkecap.simulate.workloads_file import WorkloadsFile, WorkloadsFileError, load_workloads_file

__all__ = ["Progress", "SimulationResult", "WorkloadsFileError", "load_workloads_file", "simulate_environment"]


# Trying what breaks a cycle runs the whole scenario again per change: only on request, and only this large.
MAX_TRIAL_WORKLOADS = 2_000


def simulate_environment(model, objects: Iterable[Mapping], workloads: WorkloadsFile, *,
                         where: str = "", try_fixes: bool = False,
                         started: Callable[[Simulation], None] | None = None) -> SimulationResult:
    """Simulate `workloads` on the environment whose capacity model is `model` and whose emitted Kueue objects
    are `objects`. Raises WorkloadsFileError (every problem at its YAML path) before anything runs.

    Preemption cycles found in the run are in `result.cycles`, each with the changes that may break it; with
    `try_fixes` each change that can be applied to the Kueue objects is tried by simulating the scenario again
    with it (at most MAX_TRIAL_WORKLOADS workloads; beyond, `result.limits` says so).

    `started(simulation)` is called before each run (the scenario's, then each trial of `try_fixes`), with the
    Simulation whose `progress()` tells how far it got: `gkecap simulate --timeout` reports it when it stops one."""
    clusters = {}
    if model.workers:  # MultiKueue: the manager's dispatch, flattened to one cluster (simulate.multicluster)
        clusters = pool_clusters(model)
        model, objects = flattened(model)
    objects = list(objects)
    result, cluster, planned, pools = _run(model, objects, workloads, where=where, started=started)
    result.clusters = clusters
    team_of = {p.workload.name: p.team for p in planned}
    units = {name: pool.unit for name, pool in pools.items()}
    result.cycles = find_cycles(result.events, team_of, units)
    if not result.cycles:
        return result
    priorities = {p.workload.name: p.workload.priority for p in planned}
    per_node = {name: pool.units_per_node * pool.node_unit for name, pool in pools.items()}
    quotas = {q.name: {f: quota.nominal for (f, r), quota in q.quotas.items() if f in pools}
              for q in cluster.queues.values()}
    trials: dict[Remedy, set[str]] = {}
    trying = try_fixes and len(planned) <= MAX_TRIAL_WORKLOADS
    if try_fixes and not trying:
        result.limits.append({
            "limit": "MAX_TRIAL_WORKLOADS", "value": MAX_TRIAL_WORKLOADS, "at": None,
            "message": f"what breaks the cycles was not tried: {len(planned)} workloads, more than "
                       f"{MAX_TRIAL_WORKLOADS} (each trial simulates the scenario again)"})
    for cycle in result.cycles:
        for remedy in remedies(cycle, result.events, cluster, team_of, priorities, per_node, quotas):
            verified = None
            if trying and remedy.trial:
                if remedy not in trials:
                    trial, *_ = _run(model, apply_remedy(objects, remedy), workloads, where=where,
                                     fair_sharing=remedy.fair_sharing, strategies=remedy.strategies, started=started)
                    trials[remedy] = {w for c in find_cycles(trial.events, team_of) for w in c.workloads}
                verified = not (trials[remedy] & set(cycle.workloads))
            cycle.breaks.append({"change": remedy.change, "why": remedy.why, "canTry": remedy.trial,
                                 "verified": verified})
    return result


def _run(model, objects: Sequence[Mapping], workloads: WorkloadsFile, *, where: str, fair_sharing: bool | None = None,
         strategies: tuple[str, ...] | None = None, started: Callable[[Simulation], None] | None = None):
    cluster = cluster_from_objects(objects, fair_sharing=bool(model.kueue.fair_sharing) if fair_sharing is None
                                   else fair_sharing)
    if strategies is not None:
        cluster.fair_strategies = strategies
    pools = pool_capacities(model, workloads)
    planned = plan_workloads(cluster, model, pools, workloads, priority_values(objects), where=where,
                             default_queues=default_local_queues(objects))
    start: datetime = workloads.start  # type: ignore[assignment]
    iso = start.isoformat().replace("+00:00", "Z")
    simulation = Simulation(cluster, pools, planned, provisioning_retry(), start_iso=iso, delays=delays(workloads),
                            pods_ready=pods_ready(model), eviction=delays(workloads),
                            preserve_scan_progress=preserves_scan_progress(model))
    if started is not None:
        started(simulation)
    result = simulation.run()
    return result, cluster, planned, pools
