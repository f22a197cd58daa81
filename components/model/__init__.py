"""The capacity model: everything that follows from a valid environment spec (pure, derived once)."""

from gkecap.components.model.capacity import (
    POOL_LABEL,
    CapacityModel,
    CohortPlan,
    GkeNodePoolPlan,
    GpuSharingPlan,
    PoolPlan,
    PoolTotals,
    PreemptionPlan,
    PriorityClassPlan,
    ReservationPlan,
    TeamPlan,
    derive,
    flavor_rank,
)

__all__ = [
    "POOL_LABEL", "CapacityModel", "CohortPlan", "GkeNodePoolPlan", "GpuSharingPlan", "PoolPlan", "PoolTotals",
    "PreemptionPlan", "PriorityClassPlan", "ReservationPlan", "TeamPlan", "derive", "flavor_rank",
]
