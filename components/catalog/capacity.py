"""Which capacity models each accelerator family supports (per family; machine types inherit)."""

from __future__ import annotations

from gkecap.components.catalog.labels import CAPACITY_MODELS

# Any machine type can run on spot, on-demand or an existing specific reservation.
_EVERYWHERE = frozenset({"reservation", "spot", "on-demand"})

# Flex-start (and queued provisioning, which is flex-start plus ProvisioningRequest) supports all
# accelerator-optimized machine series except A4X and G4. FACTS B.3 [S16, S17]
_FLEX_GPU_FAMILIES = frozenset({"a2", "a3", "a4", "g2"})
# TPUs on flex-start: v5e, v5p, v6e; "TPU v3 and v4 not supported"; TPU7x/TPU7 not listed. FACTS B.3 [S17]
_FLEX_TPU_FAMILIES = frozenset({"v5e", "v5p", "v6e"})

# Calendar mode: "A3+ GPUs and TPUs" (a3*, a4*; not A2/G2/G4). FACTS C [ReservationMode.CALENDAR enum text]
_CALENDAR_GPU_FAMILIES = frozenset({"a3", "a4", "a4x"})
# TPU versions offered in calendar mode: TPU7x (preview), v6e, v5p, v5e. FACTS C [S23]
_CALENDAR_TPU_FAMILIES = frozenset({"tpu7x", "v6e", "v5p", "v5e"})


def capacity_models_for_family(family: str) -> frozenset[str]:
    """Capacity models (names from CAPACITY_MODELS) a GPU or TPU family supports."""
    models = set(_EVERYWHERE)
    if family in _FLEX_GPU_FAMILIES or family in _FLEX_TPU_FAMILIES:
        models |= {"flex-start", "queued"}
    if family in _CALENDAR_GPU_FAMILIES or family in _CALENDAR_TPU_FAMILIES:
        models.add("calendar")
    return frozenset(models)


def ordered(models: frozenset[str]) -> tuple[str, ...]:
    """Capacity models in Kueue flavor order."""
    return tuple(m for m in CAPACITY_MODELS if m in models)
