"""Node label keys, extended resource names and capacity model names used across the project."""

from __future__ import annotations

from types import MappingProxyType

# FACTS A.1 [S1 system_characteristics.py L56-74]
GKE_ACCELERATOR_LABEL = "cloud.google.com/gke-accelerator"
GKE_TPU_ACCELERATOR_LABEL = "cloud.google.com/gke-tpu-accelerator"
GKE_TPU_TOPOLOGY_LABEL = "cloud.google.com/gke-tpu-topology"
GKE_MACHINE_TYPE_LABEL = "cloud.google.com/gce-machine-type"  # xpk's GPU "machine label" [S1]
GPU_RESOURCE = "nvidia.com/gpu"
TPU_RESOURCE = "google.com/tpu"

# Taint GKE puts on TPU node pools. FACTS A.1 [S9 tpu-definition/main.tf]
TPU_TAINT = MappingProxyType({"key": TPU_RESOURCE, "value": "present", "effect": "NO_SCHEDULE"})

# Node labels / selectors per capacity model. FACTS B.1 [S1 capacity.py, kueue.py]; B.3 [S14, S20]
GKE_SPOT_LABEL = "cloud.google.com/gke-spot"
GKE_QUEUED_LABEL = "cloud.google.com/gke-queued"
GKE_FLEX_START_LABEL = "cloud.google.com/gke-flex-start"
GKE_RESERVATION_NAME_LABEL = "cloud.google.com/reservation-name"

# Placement policy type for TPU slices; the only value the API has. FACTS A.3 [S6 cluster_service.proto L5318-5331]
COMPACT_PLACEMENT = "COMPACT"

# Kueue flavor order: committed capacity first, then DWS, then spot, then on-demand (project convention).
CAPACITY_MODELS: tuple[str, ...] = ("reservation", "calendar", "queued", "flex-start", "spot", "on-demand")
