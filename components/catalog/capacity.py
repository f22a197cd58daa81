"""Which capacity models each accelerator family supports (per family; machine types inherit)."""

from __future__ import annotations

from gkecap.components.catalog.labels import CAPACITY_MODELS

# Any machine type can run on spot, on-demand or an existing specific reservation.
_EVERYWHERE = frozenset({"reservation", "spot", "on-demand"})

# Flex-start (and queued provisioning, which is flex-start plus ProvisioningRequest) supports all
# accelerator-optimized machine series except A4X and G4. FACTS B.3 [S16, S17]
_FLEX_GPU_FAMILIES = frozenset({"a2", "a3", "a4", "g2"})
# TPUs on flex-start: v5e, v5p, v6e; "TPU v3 and v4 not supported". FACTS B.3 [S17]. TPU7x too, with and
# without queued provisioning: Cluster Toolkit ships examples/gke-tpu-7x dws-flex-start and
# dws-flex-start-queued-provisioning, and xpk generates queued-provisioning Kueue config for tpu7x (FACTS
# corrections 2026-11-23; [S9, S1]). TPU7 is not listed anywhere.
_FLEX_TPU_FAMILIES = frozenset({"v5e", "v5p", "v6e", "tpu7x"})

# Calendar mode: "A3+ GPUs and TPUs" (a3*, a4*; not A2/G2/G4). FACTS C [ReservationMode.CALENDAR enum text]
_CALENDAR_GPU_FAMILIES = frozenset({"a3", "a4", "a4x"})
# TPU versions offered in calendar mode: TPU7x (preview), v6e, v5p, v5e. FACTS C [S23]
_CALENDAR_TPU_FAMILIES = frozenset({"tpu7x", "v6e", "v5p", "v5e"})


# Zones that offer a TPU version in calendar mode (v5e by workload type). FACTS C [S23]
CALENDAR_TPU_ZONES: dict[str, tuple[str, ...]] = {
    "tpu7x": ("us-central1-c",),
    "v6e": ("asia-northeast1-b", "europe-west4-a", "us-east5-a", "us-east5-b"),
    "v5p": ("us-east5-a",),
    "v5e": ("europe-west4-b", "us-west4-b", "us-south1-a"),
}
CALENDAR_V5E_ZONES_BY_WORKLOAD = {"BATCH": ("europe-west4-b", "us-west4-b"), "SERVING": ("us-south1-a",)}


def calendar_tpu_zones(family: str, workload_type: str | None = None) -> tuple[str, ...]:
    """Zones offering TPU `family` in calendar mode (for v5e, per workload type when given); () when none."""
    if family == "v5e" and workload_type in CALENDAR_V5E_ZONES_BY_WORKLOAD:
        return CALENDAR_V5E_ZONES_BY_WORKLOAD[workload_type]
    return CALENDAR_TPU_ZONES.get(family, ())


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


# How long capacity may still take once Kueue has admitted a workload onto a pool of the model: what a
# cluster-wide `waitForPodsReady.timeout` must outlast, or Kueue evicts work that is legitimately waiting for VMs.
# * flex-start: the autoscaler asks DWS for flex-start VMs after admission; a flex-start capacity request waits
#   in DWS's queue for up to two hours (Google Cloud blog "GPUs when you need them: Introducing Flex-start VMs",
#   2025-09-25, docs/sources.md "Capacity wait").
# * queued: Kueue admits only once the ProvisioningRequest is Provisioned; the pods then have the 10-minute booking
#   to start before the autoscaler removes the nodes. FACTS B.3 [S14]
# Calendar, reservation, spot and on-demand pools have no documented bound here (spot VMs may not come at all).
ADMITTED_WAIT_SECONDS: dict[str, int] = {"flex-start": 7200, "queued": 600}
