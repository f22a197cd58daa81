"""`gkecap simulate`: a discrete-event simulator of Kueue admission over an environment's own ClusterQueues,
Cohorts, flavors and capacity.

Layers, bottom up (all pure):
- `quota_tree`, `cluster`: Kueue's quota tree and the direct description of a cluster (ClusterQueues, Cohorts,
  ResourceFlavors, Workloads); Kueue's own scheduler tests are transcribed against this API.
- `flavor_assigner`, `preemption`, `scheduler`: Kueue v0.19's flavor assignment, preemption and scheduling cycle.
- `environment`: the cluster from the Kueue objects `gkecap plan` emits, pool capacity, the workloads checked.
- `nodes`: pods on the shared nodes of a pool (kube-scheduler's fit, the cluster autoscaler, calendar windows).
- `engine`: the event loop (submissions, admission checks, pods on nodes, completions, waitForPodsReady).
- `workloads_file`, `output`, `timeline`: the input file, JSON/text output and the HTML timeline.
"""

from __future__ import annotations

from datetime import datetime
from typing import Iterable, Mapping

from gkecap.simulate.engine import Simulation, SimulationResult
from gkecap.simulate.environment import (
    cluster_from_objects,
    default_local_queues,
    delays,
    plan_workloads,
    pods_ready,
    pool_capacities,
    priority_values,
    provisioning_retry,
)
from gkecap.simulate.workloads_file import WorkloadsFile, WorkloadsFileError, load_workloads_file

__all__ = ["SimulationResult", "WorkloadsFileError", "load_workloads_file", "simulate_environment"]


def simulate_environment(model, objects: Iterable[Mapping], workloads: WorkloadsFile, *,
                         where: str = "") -> SimulationResult:
    """Simulate `workloads` on the environment whose capacity model is `model` and whose emitted Kueue objects
    are `objects`. Raises WorkloadsFileError (every problem at its YAML path) before anything runs."""
    objects = list(objects)
    cluster = cluster_from_objects(objects, fair_sharing=bool(model.kueue.fair_sharing))
    pools = pool_capacities(model, workloads)
    planned = plan_workloads(cluster, model, pools, workloads, priority_values(objects), where=where,
                             default_queues=default_local_queues(objects))
    start: datetime = workloads.start  # type: ignore[assignment]
    iso = start.isoformat().replace("+00:00", "Z")
    return Simulation(cluster, pools, planned, provisioning_retry(), start_iso=iso, delays=delays(workloads),
                      pods_ready=pods_ready(model)).run()
