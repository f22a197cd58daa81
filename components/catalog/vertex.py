"""Vertex AI serverless training with Dynamic Workload Scheduler (`scheduling.strategy: FLEX_START`), as data.

Which GPUs it serves, the limits of a job, and the Vertex quota a FLEX_START job consumes. FACTS F [S6, S26]:
FLEX_START for L4, A100, H100, H200 and B200 GPUs; job timeout at most 7 days (the default too); the wait for
capacity `maxWaitDuration`, 0 = indefinitely, default 24 hours; the same machine configuration in every worker
pool. A FLEX_START job consumes the *preemptible* Vertex training quota of its GPU (SEED_NOTES "Vertex AI:
training jobs with DWS"; [S35] for the quota ids and metric names).
"""

from __future__ import annotations

from dataclasses import dataclass

from gkecap.components.catalog.errors import CatalogError

VERTEX_SERVICE = "aiplatform.googleapis.com"
FLEX_START_STRATEGY = "FLEX_START"  # Scheduling.Strategy = 6. FACTS F [S6 custom_job.proto]
MAX_TIMEOUT_SECONDS = 7 * 86400  # FACTS F [S26]: timeout of 7 days or less
DEFAULT_TIMEOUT_SECONDS = 7 * 86400  # FACTS F [S6]: "The default is 7 days"
DEFAULT_MAX_WAIT_SECONDS = 86400  # FACTS F [S6]: "The default is 24 hours"; 0 waits indefinitely


@dataclass(frozen=True)
class VertexGpu:
    """A GPU Vertex AI training offers with FLEX_START."""

    accelerator_type: str  # Vertex AcceleratorType enum value. FACTS F [S6 accelerator_type.proto]
    accelerator_label: str  # GKE's cloud.google.com/gke-accelerator value of the same GPU (catalog.gpu)
    quota_key: str  # the GPU's part of the Cloud Quotas quota id [S35]
    metric_key: str  # the GPU's part of the quota metric name [S35]

    @property
    def preemptible_quota_id(self) -> str:
        """The Cloud Quotas quota id a FLEX_START (or Spot) training job consumes, per project and region."""
        return f"CustomModelTrainingPreemptible{self.quota_key}PerProjectPerRegion"

    @property
    def standard_quota_id(self) -> str:
        """The on-demand training quota id (not what FLEX_START consumes)."""
        return f"CustomModelTraining{self.quota_key}PerProjectPerRegion"

    @property
    def preemptible_metric(self) -> str:
        """e.g. aiplatform.googleapis.com/custom_model_training_preemptible_nvidia_h100_gpus"""
        return f"{VERTEX_SERVICE}/custom_model_training_preemptible_{self.metric_key}_gpus"

    @property
    def standard_metric(self) -> str:
        return f"{VERTEX_SERVICE}/custom_model_training_{self.metric_key}_gpus"


# The GPUs FACTS F [S26] names (L4, A100, H100, H200, B200), as Vertex's accelerator types; quota ids and metric
# names [S35]. H100 Mega and GB200 are Vertex accelerator types too, but not in the FLEX_START list.
VERTEX_FLEX_START_GPUS: dict[str, VertexGpu] = {
    gpu.accelerator_type: gpu
    for gpu in (
        VertexGpu("NVIDIA_L4", "nvidia-l4", "L4GPUs", "nvidia_l4"),
        VertexGpu("NVIDIA_TESLA_A100", "nvidia-tesla-a100", "A100GPUs", "nvidia_a100"),
        VertexGpu("NVIDIA_A100_80GB", "nvidia-a100-80gb", "A10080GBGPUs", "nvidia_a100_80gb"),
        VertexGpu("NVIDIA_H100_80GB", "nvidia-h100-80gb", "H100GPUs", "nvidia_h100"),
        VertexGpu("NVIDIA_H200_141GB", "nvidia-h200-141gb", "H200GPUs", "nvidia_h200"),
        VertexGpu("NVIDIA_B200", "nvidia-b200", "B200GPUs", "nvidia_b200"),
    )
}
_BY_QUOTA_ID = {gpu.preemptible_quota_id: gpu for gpu in VERTEX_FLEX_START_GPUS.values()}


def vertex_gpu(accelerator_type: str) -> VertexGpu:
    """The FLEX_START GPU of a Vertex accelerator type; CatalogError lists the supported ones."""
    found = VERTEX_FLEX_START_GPUS.get(accelerator_type) if isinstance(accelerator_type, str) else None
    if found is None:
        raise CatalogError(
            f"{accelerator_type!r} is not a GPU Vertex AI training runs with FLEX_START; supported: "
            f"{', '.join(VERTEX_FLEX_START_GPUS)}"
        )
    return found


def vertex_gpu_of_quota(quota_id: str) -> VertexGpu | None:
    """The GPU whose preemptible training quota id this is (None for any other quota id)."""
    return _BY_QUOTA_ID.get(quota_id) if isinstance(quota_id, str) else None
