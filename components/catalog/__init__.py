"""Accelerator catalog: GPU machine types, TPU families and slice math, capacity models, MIG sizes.

Pure Python (no Pulumi import): components derive settings from it and policies check against it.
"""

from gkecap.components.catalog.capacity import capacity_models_for_family
from gkecap.components.catalog.errors import CatalogError
from gkecap.components.catalog.gpu import (
    FLEX_START_COMPACT_PREFIXES,
    GPU_FAMILIES,
    GPU_MACHINES,
    GpuMachine,
    gpu_machine,
    gpu_machine_types,
    gpu_machines_of,
    is_gpu_machine_type,
)
from gkecap.components.catalog.labels import (
    CAPACITY_MODELS,
    COMPACT_PLACEMENT,
    GKE_ACCELERATOR_LABEL,
    GKE_FLEX_START_LABEL,
    GKE_MACHINE_TYPE_LABEL,
    GKE_QUEUED_LABEL,
    GKE_RESERVATION_NAME_LABEL,
    GKE_SPOT_LABEL,
    GKE_TPU_ACCELERATOR_LABEL,
    GKE_TPU_TOPOLOGY_LABEL,
    GPU_RESOURCE,
    TPU_RESOURCE,
    TPU_TAINT,
)
from gkecap.components.catalog.machine_types import (
    is_accelerator_machine_type,
    node_resources,
    supported_capacity_models,
)
from gkecap.components.catalog.mig import MIG_PROFILES, MigProfile, mig_partitions, mig_profile
from gkecap.components.catalog.topology import CubeRule, normalize_topology, parse_topology
from gkecap.components.catalog.tpu import (
    HIGH_THROUGHPUT,
    TPU_FAMILIES,
    TpuFamily,
    TpuMachineType,
    TpuSlice,
    is_tpu_machine_type,
    machine_types_for_topology,
    tpu_family,
    tpu_family_of,
    tpu_machine,
    tpu_machine_types,
    tpu_slice,
    tpu_topologies,
)
from gkecap.components.catalog.vertex import VERTEX_FLEX_START_GPUS, VertexGpu, vertex_gpu, vertex_gpu_of_quota

__all__ = [
    "CAPACITY_MODELS",
    "COMPACT_PLACEMENT",
    "FLEX_START_COMPACT_PREFIXES",
    "GKE_ACCELERATOR_LABEL",
    "GKE_FLEX_START_LABEL",
    "GKE_MACHINE_TYPE_LABEL",
    "GKE_QUEUED_LABEL",
    "GKE_RESERVATION_NAME_LABEL",
    "GKE_SPOT_LABEL",
    "GKE_TPU_ACCELERATOR_LABEL",
    "GKE_TPU_TOPOLOGY_LABEL",
    "GPU_FAMILIES",
    "GPU_MACHINES",
    "GPU_RESOURCE",
    "HIGH_THROUGHPUT",
    "MIG_PROFILES",
    "TPU_FAMILIES",
    "TPU_RESOURCE",
    "TPU_TAINT",
    "VERTEX_FLEX_START_GPUS",
    "CatalogError",
    "CubeRule",
    "GpuMachine",
    "MigProfile",
    "TpuFamily",
    "TpuMachineType",
    "TpuSlice",
    "VertexGpu",
    "capacity_models_for_family",
    "gpu_machine",
    "gpu_machine_types",
    "gpu_machines_of",
    "is_accelerator_machine_type",
    "is_gpu_machine_type",
    "is_tpu_machine_type",
    "machine_types_for_topology",
    "mig_partitions",
    "mig_profile",
    "node_resources",
    "normalize_topology",
    "parse_topology",
    "supported_capacity_models",
    "tpu_family",
    "tpu_family_of",
    "tpu_machine",
    "tpu_machine_types",
    "tpu_slice",
    "tpu_topologies",
    "vertex_gpu",
    "vertex_gpu_of_quota",
]
