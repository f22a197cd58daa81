"""GPU machine types: one table per machine series, as data.

GPU type and count per machine type: FACTS A.4 [S1 xpk, S9b Cluster Toolkit gpu-definition, S3 for a3-edgegpu]
(cross-checked against ../shared/reference/gpu_machine_types_cluster_toolkit.csv by the tests).
vCPUs and instance memory (GB): Compute Engine "GPU machine types" https://cloud.google.com/compute/docs/gpus
(read from a mirror of that page updated 2026-08-26); types the page does not list have None unless noted.
"""

from __future__ import annotations

from dataclasses import dataclass

from gkecap.components.catalog.capacity import capacity_models_for_family, ordered
from gkecap.components.catalog.errors import CatalogError
from gkecap.components.catalog.kinds import GPU, TPU, kind_of, register
from gkecap.components.catalog.labels import GKE_ACCELERATOR_LABEL
from gkecap.components.catalog.mig import mig_partitions
from gkecap.components.catalog.n1_gpus import N1_CAPACITY_MODELS, n1_gpu_issues, n1_shape


@dataclass(frozen=True)
class GpuMachine:
    """An accelerator-optimized GPU machine type with fixed GPUs, as GKE nodes see it."""

    machine_type: str
    family: str  # "a2", "a3", "a4", "a4x", "g2", "g4"
    series: str  # Compute Engine series name, e.g. "A3 High"
    accelerator_label: str  # value of cloud.google.com/gke-accelerator
    gpus_per_vm: int
    vcpus: int | None  # None: not documented in the sources read
    memory_gb: float | None
    capacity_models: frozenset[str]
    mig_partitions: tuple[str, ...]
    time_sharing: bool
    mps: bool
    compact_placement: bool  # COMPACT placement policy can be set on its node pools
    flex_start_compact_placement: bool  # ... also together with flex-start
    arch: str = "amd64"
    nvlink_topology: str | None = None  # xpk's GPU "topology" (A4X NVL72 domain)
    topology_labels: bool = False  # its VMs get Compute Engine block/sub-block/host topology (GKE's TAS labels)
    gpu_fraction: float = 1.0  # share of one physical GPU per VM when gpus_per_vm == 1 (G4 vGPU slices)
    source: str = ""

    @property
    def node_selector(self) -> dict[str, str]:
        return {GKE_ACCELERATOR_LABEL: self.accelerator_label}

    def to_dict(self) -> dict[str, object]:
        return {
            "machineType": self.machine_type,
            "family": self.family,
            "series": self.series,
            "acceleratorLabel": self.accelerator_label,
            "gpusPerVm": self.gpus_per_vm,
            "vcpus": self.vcpus,
            "memoryGb": self.memory_gb,
            "capacityModels": list(ordered(self.capacity_models)),
            "migPartitions": list(self.mig_partitions),
            "timeSharing": self.time_sharing,
            "mps": self.mps,
            "compactPlacement": self.compact_placement,
            "flexStartCompactPlacement": self.flex_start_compact_placement,
            "arch": self.arch,
            "nvlinkTopology": self.nvlink_topology,
            "topologyLabels": self.topology_labels,
            "gpuFraction": self.gpu_fraction,
        }


# COMPACT placement: GKE/Compute Engine compact placement covers the A100, H100 and L4 machine series
# (https://cloud.google.com/kubernetes-engine/docs/how-to/compact-placement) and A3 Ultra/A4 (FACTS B.2 [S9]).
# A4X pools use a workload policy (NVL72 "1x72" accelerator topology) instead; G4: not listed in the sources read.
_COMPACT_FAMILIES = frozenset({"a2", "a3", "a4", "g2"})
# Compact placement together with flex-start only for these machine series (TPUs always); h4d is a CPU (HPC)
# series, listed for checks of any node pool. FACTS B.2 [S9 gke-node-pool main.tf L148-166]
FLEX_START_COMPACT_PREFIXES = ("a3-ultragpu-", "a4-", "h4d-")
# Compute Engine knows the block, sub-block and host of these GPU VMs (and of any VM under a compact placement
# policy or a HIGH_THROUGHPUT workload policy); GKE turns that into the cloud.google.com/gce-topology-* node labels
# topology-aware scheduling needs. "View Compute Engine instance topology", Limitations:
# https://cloud.google.com/compute/docs/instances/view-instance-topology (A4X Max, A4X, A4, A3 Ultra, A3 Mega,
# A3 High with 8 GPUs, A3 Edge; H4D is a CPU series). docs/sources.md "Topology labels".
_TOPOLOGY_LABEL_SERIES = frozenset({"A4X Max", "A4X", "A4", "A3 Ultra", "A3 Mega", "A3 Edge"})
_TOPOLOGY_LABEL_MACHINE_TYPES = frozenset({"a3-highgpu-8g"})  # A3 High: the 8-GPU type only


def _machine(
    machine_type: str,
    family: str,
    series: str,
    label: str,
    gpus: int,
    vcpus: int | None,
    memory_gb: float | None,
    source: str,
    *,
    arch: str = "amd64",
    nvlink_topology: str | None = None,
    compact_placement: bool | None = None,
    gpu_fraction: float = 1.0,
) -> GpuMachine:
    return GpuMachine(
        machine_type=machine_type,
        family=family,
        series=series,
        accelerator_label=label,
        gpus_per_vm=gpus,
        vcpus=vcpus,
        memory_gb=memory_gb,
        capacity_models=capacity_models_for_family(family),
        mig_partitions=mig_partitions(label),  # FACTS E [S10]
        # Time-sharing: "all NVIDIA GPU models". FACTS E [S25]. MPS: GKE's GPU sharing strategies apply to
        # any NVIDIA GPU (API GPUSharingStrategy [S6 L6153-6189]); no per-model limit found in the sources.
        time_sharing=True,
        mps=True,
        compact_placement=(family in _COMPACT_FAMILIES) if compact_placement is None else compact_placement,
        flex_start_compact_placement=machine_type.startswith(FLEX_START_COMPACT_PREFIXES),
        arch=arch,
        nvlink_topology=nvlink_topology,
        topology_labels=series in _TOPOLOGY_LABEL_SERIES or machine_type in _TOPOLOGY_LABEL_MACHINE_TYPES,
        gpu_fraction=gpu_fraction,
        source=source,
    )


# A2 Standard / A2 Ultra. GPUs: FACTS A.4 [S1 (highgpu), S9b]
A2_MACHINES: tuple[GpuMachine, ...] = (
    _machine("a2-highgpu-1g", "a2", "A2 Standard", "nvidia-tesla-a100", 1, 12, 85, "FACTS A.4 [S1]"),
    _machine("a2-highgpu-2g", "a2", "A2 Standard", "nvidia-tesla-a100", 2, 24, 170, "FACTS A.4 [S1]"),
    _machine("a2-highgpu-4g", "a2", "A2 Standard", "nvidia-tesla-a100", 4, 48, 340, "FACTS A.4 [S1]"),
    _machine("a2-highgpu-8g", "a2", "A2 Standard", "nvidia-tesla-a100", 8, 96, 680, "FACTS A.4 [S1]"),
    _machine("a2-megagpu-16g", "a2", "A2 Standard", "nvidia-tesla-a100", 16, 96, 1360, "FACTS A.4 [S9b]"),
    _machine("a2-ultragpu-1g", "a2", "A2 Ultra", "nvidia-a100-80gb", 1, 12, 170, "FACTS A.4 [S9b]"),
    _machine("a2-ultragpu-2g", "a2", "A2 Ultra", "nvidia-a100-80gb", 2, 24, 340, "FACTS A.4 [S9b]"),
    _machine("a2-ultragpu-4g", "a2", "A2 Ultra", "nvidia-a100-80gb", 4, 48, 680, "FACTS A.4 [S9b]"),
    _machine("a2-ultragpu-8g", "a2", "A2 Ultra", "nvidia-a100-80gb", 8, 96, 1360, "FACTS A.4 [S9b]"),
)

# A3 High / Mega / Edge / Ultra. GPUs: FACTS A.4 [S1 (8g types), S9b (1g/2g/4g), S3 (edgegpu)]
A3_MACHINES: tuple[GpuMachine, ...] = (
    _machine("a3-highgpu-1g", "a3", "A3 High", "nvidia-h100-80gb", 1, 26, 234, "FACTS A.4 [S9b]"),
    _machine("a3-highgpu-2g", "a3", "A3 High", "nvidia-h100-80gb", 2, 52, 468, "FACTS A.4 [S9b]"),
    _machine("a3-highgpu-4g", "a3", "A3 High", "nvidia-h100-80gb", 4, 104, 936, "FACTS A.4 [S9b]"),
    _machine("a3-highgpu-8g", "a3", "A3 High", "nvidia-h100-80gb", 8, 208, 1872, "FACTS A.4 [S1]"),
    _machine("a3-megagpu-8g", "a3", "A3 Mega", "nvidia-h100-mega-80gb", 8, 208, 1872, "FACTS A.4 [S1]"),
    _machine("a3-edgegpu-8g", "a3", "A3 Edge", "nvidia-h100-80gb", 8, 208, 1872, "FACTS A.4 [S3]"),
    _machine("a3-ultragpu-8g", "a3", "A3 Ultra", "nvidia-h200-141gb", 8, 224, 2952, "FACTS A.4 [S1]"),
)

# A4. GPUs: FACTS A.4 [S1, S9b (-lowmem)]
A4_MACHINES: tuple[GpuMachine, ...] = (
    _machine("a4-highgpu-8g", "a4", "A4", "nvidia-b200", 8, 224, 3968, "FACTS A.4 [S1]"),
    # -lowmem: not on the GPU machine types page; vCPU/memory unknown.
    _machine("a4-highgpu-8g-lowmem", "a4", "A4", "nvidia-b200", 8, None, None, "FACTS A.4 [S9b]"),
)

# A4X (GB200, Arm, NVL72 domain "1x72") and A4X Max (GB300, bare metal). FACTS A.4 [S1, S9b]
# The page lists only the base types; the -nolssd variants are taken to have the same vCPUs/memory without
# Local SSD (an assumption).
A4X_MACHINES: tuple[GpuMachine, ...] = (
    _machine("a4x-highgpu-4g", "a4x", "A4X", "nvidia-gb200", 4, 140, 884, "FACTS A.4 [S1]",
             arch="arm64", nvlink_topology="1x72"),
    _machine("a4x-highgpu-4g-nolssd", "a4x", "A4X", "nvidia-gb200", 4, 140, 884, "FACTS A.4 [S1]",
             arch="arm64", nvlink_topology="1x72"),
    _machine("a4x-maxgpu-4g-metal", "a4x", "A4X Max", "nvidia-gb300", 4, 144, 960, "FACTS A.4 [S9b]",
             arch="arm64", nvlink_topology="1x72"),
    _machine("a4x-maxgpu-4g-metal-nolssd", "a4x", "A4X Max", "nvidia-gb300", 4, 144, 960, "FACTS A.4 [S9b]",
             arch="arm64", nvlink_topology="1x72"),
)

# G2 (L4). GPUs: FACTS A.4 [S1 (12/24/48/96), S9b (4/8/16/32)]; 4 GB per vCPU.
G2_MACHINES: tuple[GpuMachine, ...] = (
    _machine("g2-standard-4", "g2", "G2", "nvidia-l4", 1, 4, 16, "FACTS A.4 [S9b]"),
    _machine("g2-standard-8", "g2", "G2", "nvidia-l4", 1, 8, 32, "FACTS A.4 [S9b]"),
    _machine("g2-standard-12", "g2", "G2", "nvidia-l4", 1, 12, 48, "FACTS A.4 [S1]"),
    _machine("g2-standard-16", "g2", "G2", "nvidia-l4", 1, 16, 64, "FACTS A.4 [S9b]"),
    _machine("g2-standard-24", "g2", "G2", "nvidia-l4", 2, 24, 96, "FACTS A.4 [S1]"),
    _machine("g2-standard-32", "g2", "G2", "nvidia-l4", 1, 32, 128, "FACTS A.4 [S9b]"),
    _machine("g2-standard-48", "g2", "G2", "nvidia-l4", 4, 48, 192, "FACTS A.4 [S1]"),
    _machine("g2-standard-96", "g2", "G2", "nvidia-l4", 8, 96, 384, "FACTS A.4 [S1]"),
)

# G4 (RTX PRO 6000). GPUs: FACTS A.4 [S9b]. The GPU machine types page lists g4-standard-6/12/24 with 1/8, 1/4
# and 1/2 of a GPU; Compute Engine (and Cluster Toolkit [S9b]) count that as 1 attached GPU, so gpus_per_vm = 1.
G4_MACHINES: tuple[GpuMachine, ...] = (
    _machine("g4-standard-6", "g4", "G4", "nvidia-rtx-pro-6000", 1, 6, 22, "FACTS A.4 [S9b]", gpu_fraction=0.125),
    _machine("g4-standard-12", "g4", "G4", "nvidia-rtx-pro-6000", 1, 12, 45, "FACTS A.4 [S9b]", gpu_fraction=0.25),
    _machine("g4-standard-24", "g4", "G4", "nvidia-rtx-pro-6000", 1, 24, 90, "FACTS A.4 [S9b]", gpu_fraction=0.5),
    _machine("g4-standard-48", "g4", "G4", "nvidia-rtx-pro-6000", 1, 48, 180, "FACTS A.4 [S9b]"),
    _machine("g4-standard-96", "g4", "G4", "nvidia-rtx-pro-6000", 2, 96, 360, "FACTS A.4 [S9b]"),
    _machine("g4-standard-192", "g4", "G4", "nvidia-rtx-pro-6000", 4, 192, 720, "FACTS A.4 [S9b]"),
    _machine("g4-standard-384", "g4", "G4", "nvidia-rtx-pro-6000", 8, 384, 1440, "FACTS A.4 [S9b]"),
)

GPU_MACHINES: tuple[GpuMachine, ...] = (
    A2_MACHINES + A3_MACHINES + A4_MACHINES + A4X_MACHINES + G2_MACHINES + G4_MACHINES
)
GPU_FAMILIES: tuple[str, ...] = ("a2", "a3", "a4", "a4x", "g2", "g4")

_BY_MACHINE_TYPE: dict[str, GpuMachine] = {m.machine_type: m for m in GPU_MACHINES}
register(GPU, _BY_MACHINE_TYPE)


def gpu_machine_types() -> tuple[str, ...]:
    return tuple(_BY_MACHINE_TYPE)


def is_gpu_machine_type(machine_type: str) -> bool:
    return isinstance(machine_type, str) and machine_type in _BY_MACHINE_TYPE


def attached_gpu_machine(machine_type: str, gpu_type: str, count: int) -> GpuMachine:
    """An N1 VM with `count` attached `gpu_type` GPUs, as a GpuMachine (family "n1"); CatalogError when Compute
    Engine does not offer that combination (catalog.n1_gpus)."""
    problems = n1_gpu_issues(machine_type, gpu_type, count)
    if problems:
        raise CatalogError("; ".join(message for _, message in problems))
    vcpus, memory_gb = n1_shape(machine_type)
    return GpuMachine(
        machine_type=machine_type, family="n1", series="N1", accelerator_label=gpu_type, gpus_per_vm=count,
        vcpus=vcpus, memory_gb=memory_gb, capacity_models=N1_CAPACITY_MODELS, mig_partitions=(),
        time_sharing=True, mps=True,  # every NVIDIA GPU (FACTS E [S25])
        compact_placement=False, flex_start_compact_placement=False, source="Compute Engine GPU machine types (N1)",
    )


def gpu_machines_of(family: str) -> tuple[GpuMachine, ...]:
    key = family.strip().lower() if isinstance(family, str) else ""
    if key not in GPU_FAMILIES:
        raise CatalogError(f"unknown GPU family {family!r}; known: {', '.join(GPU_FAMILIES)}")
    return tuple(m for m in GPU_MACHINES if m.family == key)


def gpu_machine(machine_type: str) -> GpuMachine:
    """The GPU machine type; CatalogError lists the series' types (or all GPU types) when unknown."""
    found = _BY_MACHINE_TYPE.get(machine_type) if isinstance(machine_type, str) else None
    if found is not None:
        return found
    prefix = machine_type.split("-")[0] if isinstance(machine_type, str) else ""
    if prefix in GPU_FAMILIES:
        names = ", ".join(m.machine_type for m in gpu_machines_of(prefix))
        raise CatalogError(f"unknown {prefix} GPU machine type {machine_type!r}; known {prefix} machine types: {names}")
    if kind_of(machine_type) == TPU:
        raise CatalogError(
            f"{machine_type!r} is a TPU machine type, not a GPU one; known GPU families: {', '.join(GPU_FAMILIES)}"
        )
    by_family = "; ".join(
        f"{family}: {', '.join(m.machine_type for m in gpu_machines_of(family))}" for family in GPU_FAMILIES
    )
    raise CatalogError(f"unknown GPU machine type {machine_type!r}; known GPU machine types: {by_family}")
