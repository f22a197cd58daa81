"""How many `nvidia.com/gpu` units a GPU node advertises: the unit every GPU quota is in.

GKE's GPU device plugin lists one device per physical GPU, or one per MIG partition when the node pool sets
`gpuPartitionSize` (ListPhysicalDevices); with time-sharing or MPS it lists `maxSharedClientsPerGpu` virtual
devices per physical device or partition (ListDevices). Source: container-engine-accelerators
pkg/gpu/nvidia/manager.go L174-200 @ 992db812 (docs/sources.md, "GPU units").
"""

from __future__ import annotations

from gkecap.components.catalog.mig import mig_profile


def gpu_units_per_vm(
    accelerator_label: str,
    gpus_per_vm: int,
    gpu_partition_size: str | None = None,
    max_shared_clients_per_gpu: int | None = None,
) -> int:
    """`nvidia.com/gpu` units one node advertises to Kubernetes (and so to Kueue quotas).

    `gpus_per_vm` physical GPUs of type `accelerator_label` (e.g. ``nvidia-a100-80gb``); with
    `gpu_partition_size` each GPU becomes its MIG profile's instances (1g.10gb on an A100 80GB: 7); with
    time-sharing or MPS each device counts `max_shared_clients_per_gpu` times. An ``a2-ultragpu-1g`` node with
    1g.10gb and 2 clients advertises 1 x 7 x 2 = 14. Raises CatalogError for an unknown partition size.
    """
    per_gpu = mig_profile(accelerator_label, gpu_partition_size).max_per_gpu if gpu_partition_size else 1
    clients = max_shared_clients_per_gpu if max_shared_clients_per_gpu and max_shared_clients_per_gpu > 0 else 1
    return gpus_per_vm * per_gpu * clients
