"""The capacity model: everything the components, the Kueue builders and the report need, derived once.

``derive(spec) -> CapacityModel`` is pure (no Pulumi, no clock) and expects a spec that
``gkecap.components.spec.load_environment`` accepted. It works in linear time in the size of the spec
(teams x quota entries, pools, cohorts), so an organisation of 1,000 teams derives in milliseconds.

Decisions documented here (and relied on by components and policies):

* GKE node pools per spec pool: ``gke.node_pool_settings`` of the pool's request (one source of truth for
  names, sizes and labels; the component creates exactly these). GPU: one node pool named like the pool,
  autoscaled ``minNodes..maxNodes``. Single-host TPU (one VM per slice): one node pool named like the pool,
  autoscaled ``0..slices`` nodes. Multi-host TPU: one
  node pool per slice, each ``0..vms`` nodes (a slice is all-or-nothing) with COMPACT placement and the
  topology, named ``<pool>`` for one slice and ``<pool>-s0``, ``<pool>-s1``... for several.
* Calendar pools default to the whole reservation (``maxNodes`` = its VM count) and to its zone.
* Kueue flavor order: reservation, calendar, queued, flex-start, spot, on-demand; ties keep file order.
* Preemption defaults: reclaimWithinCohort ``Any`` (a team gets its own quota back from borrowers),
  withinClusterQueue ``LowerPriority``, borrowWithinCohort ``LowerPriority`` under classical preemption and
  ``Never`` under fair sharing (the Kueue CRD: borrowWithinCohort "may only be configured with Classical
  Preemption") or when reclaimWithinCohort is ``Never`` (KUEUE_VALIDATION R-CQ-10).
* Fair-sharing weight defaults to 1.
* A pool's extra taints and boot disk are carried as written (``taints``; ``node_taints`` adds the accelerator's
  and GKE's own, which the pool's Kueue flavor tolerates). A cohort's per-pool borrowing and lending limits
  (only under a parent, Kueue R-CO-2) likewise; ``CohortPlan.pools`` lists the pools a Cohort object needs
  (a quota or a limit on them).
"""

from gkecap.components.gke.node_labels import POOL_LABEL
from gkecap.components.model.derive import derive
from gkecap.components.model.plans import (
    CapacityModel,
    CohortPlan,
    GpuSharingPlan,
    PoolPlan,
    PoolTotals,
    PreemptionPlan,
    PriorityClassPlan,
    ReservationPlan,
    TeamPlan,
    WorkerPlan,
    flavor_rank,
)
from gkecap.components.model.vertex import VertexProfilePlan, VertexQuotaPlan

__all__ = [
    "POOL_LABEL", "CapacityModel", "CohortPlan", "GpuSharingPlan", "PoolPlan", "PoolTotals",
    "PreemptionPlan", "PriorityClassPlan", "ReservationPlan", "TeamPlan", "VertexProfilePlan", "VertexQuotaPlan", "WorkerPlan", "derive",
    "flavor_rank",
]
