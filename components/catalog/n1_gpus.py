"""GPUs attached to N1 general-purpose VMs (T4, V100, P100, P4): the GPU type and count are chosen per pool.

Source: Compute Engine "GPU machine types", N1 general-purpose section (https://cloud.google.com/compute/docs/gpus
#n1-gpus): per GPU model, the GPU counts a VM may attach and, per count, the most vCPUs and memory the N1 machine
type may have. GKE selects them by `cloud.google.com/gke-accelerator` = the GPU type (nvidia-tesla-t4 ...), as
for the accelerator-optimized types (FACTS A.1). N1 is a general-purpose series: no flex-start, queued or calendar
(FACTS B.3 [S16]: flex-start is for accelerator-optimized types; FACTS C: calendar for A3 and newer), no MIG
(FACTS E: GKE's partitioner lists none of them). Eight V100s are joined by NVLink (the V100 example of the GPU
scheduling notes, SEED_NOTES).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gkecap.components.catalog.errors import CatalogError


@dataclass(frozen=True)
class AttachableGpu:
    label: str  # GKE accelerator label and guestAccelerators type
    limits: dict[int, tuple[int, float]]  # GPUs per VM -> (most vCPUs, most memory GB)


# Per count: (max vCPUs, max memory GB) of the N1 VM. Compute Engine GPU machine types, N1 section.
N1_GPUS: dict[str, AttachableGpu] = {
    gpu.label: gpu
    for gpu in (
        AttachableGpu("nvidia-tesla-t4", {1: (48, 312), 2: (48, 312), 4: (96, 624)}),
        AttachableGpu("nvidia-tesla-v100", {1: (12, 78), 2: (24, 156), 4: (48, 312), 8: (96, 624)}),
        AttachableGpu("nvidia-tesla-p100", {1: (16, 104), 2: (32, 208), 4: (64, 416)}),
        AttachableGpu("nvidia-tesla-p4", {1: (24, 156), 2: (48, 312), 4: (96, 624)}),
    )
}
N1_CAPACITY_MODELS = frozenset({"reservation", "spot", "on-demand"})

# n1-standard-N (3.75 GB per vCPU), n1-highmem-N (6.5), n1-highcpu-N (0.9); N in 1..96 as Compute Engine offers.
# https://cloud.google.com/compute/docs/general-purpose-machines#n1_machines
_N1 = re.compile(r"n1-(standard|highmem|highcpu)-(1|2|4|8|16|32|64|96)")
_GB_PER_VCPU = {"standard": 3.75, "highmem": 6.5, "highcpu": 0.9}


def is_n1_machine_type(machine_type: object) -> bool:
    """An N1 machine type GPUs can be attached to (n1-standard-8, n1-highmem-16 ...)."""
    return isinstance(machine_type, str) and _N1.fullmatch(machine_type) is not None


def n1_shape(machine_type: str) -> tuple[int, float]:
    """(vCPUs, memory GB) of an N1 machine type; CatalogError when it is not one."""
    match = _N1.fullmatch(machine_type) if isinstance(machine_type, str) else None
    if match is None:
        raise CatalogError(f"{machine_type!r} is not an N1 machine type; e.g. n1-standard-8, n1-highmem-16")
    vcpus = int(match[2])
    return vcpus, round(vcpus * _GB_PER_VCPU[match[1]], 2)


def n1_gpu_issues(machine_type: str, gpu_type: object, count: object) -> list[tuple[str, str]]:
    """(field, problem) pairs for GPUs attached to an N1 VM: a known type, an offered count, a VM within its limits."""
    gpu = N1_GPUS.get(gpu_type) if isinstance(gpu_type, str) else None
    if gpu is None:
        return [("type", f"{gpu_type!r} cannot be attached to N1 VMs; allowed: {', '.join(N1_GPUS)}")]
    if not isinstance(count, int) or isinstance(count, bool) or count not in gpu.limits:
        return [("count", f"{count!r} {gpu.label} GPUs cannot be attached; allowed: {', '.join(map(str, gpu.limits))}")]
    vcpus, memory = n1_shape(machine_type)
    most_vcpus, most_memory = gpu.limits[count]
    if vcpus > most_vcpus or memory > most_memory:
        return [("count", f"{count} {gpu.label} take an N1 VM of at most {most_vcpus} vCPUs and {most_memory:g} GB; "
                 f"{machine_type} has {vcpus} vCPUs and {memory:g} GB: attach more GPUs or pick a smaller N1 type")]
    return []
