"""GPU node pools: accelerator type and count, MIG partition size, GPU sharing (FACTS A.4, E).

Accelerator-optimized machine types (A2, A3, A4, A4X, G2, G4) come with a fixed GPU type and count, so
`guestAccelerators` must say exactly that (gkecap.components.catalog). Pools of other machine types (N1 with
attachable GPUs, CPU pools) get only the checks that do not depend on the machine type.
"""

from __future__ import annotations

from collections.abc import Mapping

from gkecap.components.catalog import (
    MIG_PROFILES,
    CatalogError,
    GpuMachine,
    gpu_machine,
    is_gpu_machine_type,
    is_n1_machine_type,
    mig_profile,
    n1_gpu_issues,
)
from gkecap.components.gke import GPU_DRIVER_VERSIONS, GPU_SHARING_STRATEGIES, MAX_SHARED_CLIENTS_PER_GPU  # FACTS E [S6 L6153-6189; S3 gpu_sharing_config]
from gkecap.policies.resource_view import ResourceView, is_unknown
from gkecap.policies.rules.known_values import known_int, known_str
from gkecap.policies.rules.node_pool_props import PoolView, node_pools

# gpu_driver_installation_config.gpu_driver_version values: what gke-capacity sets, and the API's unset value.
# FACTS E [S3]
DRIVER_VERSIONS = ("GPU_DRIVER_VERSION_UNSPECIFIED", *GPU_DRIVER_VERSIONS)


def check_gpu_accelerator(resource: ResourceView, config: dict) -> list[str]:
    """gpu-accelerator: GPU type/count match the machine type; MIG size exists; sharing settings are sane."""
    messages: list[str] = []
    for pool in node_pools(resource):
        accelerators = pool.guest_accelerators()
        if not accelerators:
            continue
        machine_type = pool.machine_type
        machine = gpu_machine(machine_type) if machine_type and is_gpu_machine_type(machine_type) else None
        for index, accelerator in enumerate(accelerators):
            where = pool.field(f"nodeConfig.guestAccelerators[{index}]")
            messages += _type_and_count(pool, where, accelerator, machine)
            messages += _attached_to_n1(pool, where, accelerator)
            label = known_str(accelerator.get("type"))
            if label is None and machine is not None and accelerator.get("type") is None:
                label = machine.accelerator_label
            messages += _partition(pool, where, accelerator, label)
            messages += _sharing(pool, where, accelerator, machine)
            messages += _driver(pool, where, accelerator)
    return messages


def _attached_to_n1(pool: PoolView, where: str, accelerator: Mapping) -> list[str]:
    """N1 VMs take T4, V100, P100 or P4 GPUs in the counts Compute Engine offers (the spec's rule, catalog.n1_gpus)."""
    machine_type = pool.machine_type
    gpu_type, count = accelerator.get("type"), accelerator.get("count")
    if not is_n1_machine_type(machine_type) or is_unknown(gpu_type) or is_unknown(count):
        return []
    return [f"{pool.label}: {where}.{field}: {message}." for field, message in
            n1_gpu_issues(machine_type, gpu_type, known_int(count))]  # type: ignore[arg-type]


def _type_and_count(pool: PoolView, where: str, accelerator: Mapping, machine: GpuMachine | None) -> list[str]:
    if machine is None:
        return []
    messages: list[str] = []
    gpu_type = known_str(accelerator.get("type"))
    if gpu_type is not None and gpu_type != machine.accelerator_label:
        messages.append(
            f"{pool.label}: {where}.type is {gpu_type!r} but {machine.machine_type} comes with "
            f"{machine.gpus_per_vm} x {machine.accelerator_label}; set type to {machine.accelerator_label!r} "
            f"(or pick a machine type with {gpu_type})."
        )
    count = known_int(accelerator.get("count"))
    if count is not None and count != machine.gpus_per_vm:
        messages.append(
            f"{pool.label}: {where}.count is {count} but {machine.machine_type} has exactly "
            f"{machine.gpus_per_vm} {machine.accelerator_label} GPUs per VM; set count to {machine.gpus_per_vm} "
            f"(a different GPU count needs a different machine type)."
        )
    return messages


def _partition(pool: PoolView, where: str, accelerator: Mapping, label: str | None) -> list[str]:
    partition = accelerator.get("gpuPartitionSize")
    if partition is None or partition == "" or is_unknown(partition) or label not in MIG_PROFILES:
        return []
    try:
        mig_profile(label, partition)
    except CatalogError as err:
        return [f"{pool.label}: {where}.gpuPartitionSize: {err}. Use one of those sizes or drop gpuPartitionSize."]
    return []


def _sharing(pool: PoolView, where: str, accelerator: Mapping, machine: GpuMachine | None) -> list[str]:
    sharing = accelerator.get("gpuSharingConfig")
    if not isinstance(sharing, Mapping):
        return []
    strategy, clients = sharing.get("gpuSharingStrategy"), sharing.get("maxSharedClientsPerGpu")
    if is_unknown(strategy) or is_unknown(clients):
        return []
    field = f"{where}.gpuSharingConfig"
    messages: list[str] = []
    if strategy is None and clients is not None:
        messages.append(
            f"{pool.label}: {field}.maxSharedClientsPerGpu is {clients} but no gpuSharingStrategy is set; "
            f"set gpuSharingStrategy to one of {', '.join(GPU_SHARING_STRATEGIES)}."
        )
    elif strategy is not None and strategy not in GPU_SHARING_STRATEGIES:
        messages.append(
            f"{pool.label}: {field}.gpuSharingStrategy {strategy!r} is not a GKE GPU sharing strategy; "
            f"use one of {', '.join(GPU_SHARING_STRATEGIES)}."
        )
    elif strategy is not None and machine is not None and not _supports(machine, strategy):
        messages.append(
            f"{pool.label}: {field}.gpuSharingStrategy {strategy} is not supported on {machine.accelerator_label}."
        )
    if strategy is not None and clients is None:
        messages.append(
            f"{pool.label}: {field} sets gpuSharingStrategy {strategy} without maxSharedClientsPerGpu; "
            "set the number of containers that may share one GPU (at least 1)."
        )
    count = known_int(clients)
    if clients is not None and (count is None or count < 1 or count > MAX_SHARED_CLIENTS_PER_GPU):
        messages.append(
            f"{pool.label}: {field}.maxSharedClientsPerGpu is {clients!r}; it must be a whole number from 1 to "
            f"{MAX_SHARED_CLIENTS_PER_GPU} (the containers that share one GPU)."
        )
    return messages


def _supports(machine: GpuMachine, strategy: str) -> bool:
    return machine.time_sharing if strategy == "TIME_SHARING" else machine.mps


def _driver(pool: PoolView, where: str, accelerator: Mapping) -> list[str]:
    config = accelerator.get("gpuDriverInstallationConfig")
    version = config.get("gpuDriverVersion") if isinstance(config, Mapping) else None
    if version is None or is_unknown(version) or version in DRIVER_VERSIONS:
        return []
    return [
        f"{pool.label}: {where}.gpuDriverInstallationConfig.gpuDriverVersion {version!r} is not allowed; "
        f"use one of {', '.join(DRIVER_VERSIONS)}."
    ]
