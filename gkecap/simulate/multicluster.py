"""MultiKueue in the simulator (issue 24): an environment with workers, simulated as its manager dispatches.

The model. The manager admits a workload against its ClusterQueue: the team's whole quota, every worker's pools as
flavors, in Kueue's flavor order (gkecap.components.model). A workload dispatched by MultiKueue is admitted on a
worker by that worker's own ClusterQueue, whose quota for its pools is the same (spec.workers gives each worker the
teams' quotas of its pools), so the worker where it runs is the one holding the pool the flavor assignment chose;
a queued pool's ProvisioningRequest check is the worker's and applies as on one cluster. So the simulation runs
once over the environment flattened to one cluster (the manager's quotas with the workers' checks and capacity),
and each workload's pool names its worker, cluster and region.

Limits. With the AllAtOnce dispatcher every worker gets a copy and the first to admit wins: where two workers
could both admit a workload, the real race may pick either, while the simulator takes the manager's flavor order
(the Incremental dispatcher's worker order is not modelled either). Dispatch and the remote copies take no time,
and a lost worker (workerLostTimeout) is not simulated.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from gkecap.components.kubernetes_objects.build import kueue_objects
from gkecap.components.model import CapacityModel


def flattened(model: CapacityModel) -> tuple[CapacityModel, list[dict[str, Any]]]:
    """The environment as one cluster: the manager's model without its workers, and that model's objects (the
    team quotas over every pool, each queued pool's ProvisioningRequest check)."""
    flat = replace(model, workers=())
    return flat, kueue_objects(flat)


def pool_clusters(model: CapacityModel) -> dict[str, tuple[str, str, str]]:
    """Pool -> (worker, cluster, region)."""
    return {pool: (w.name, w.cluster, w.region) for w in model.workers for pool in w.pools}
