"""Questions about any accelerator machine type, GPU or TPU: capacity models and per-node resources."""

from __future__ import annotations

from gkecap.components.catalog.errors import CatalogError
from gkecap.components.catalog.gpu import GPU_FAMILIES, gpu_machine, gpu_machine_types, is_gpu_machine_type
from gkecap.components.catalog.labels import GPU_RESOURCE, TPU_RESOURCE
from gkecap.components.catalog.tpu import TPU_FAMILIES, is_tpu_machine_type, tpu_family_of, tpu_machine


def is_accelerator_machine_type(machine_type: str) -> bool:
    return is_gpu_machine_type(machine_type) or is_tpu_machine_type(machine_type)


def _unknown(machine_type: str) -> CatalogError:
    prefix = machine_type.split("-")[0] if isinstance(machine_type, str) else ""
    if prefix in GPU_FAMILIES:
        return _error_of(gpu_machine, machine_type)
    tpu_prefixes = {mt.name.split("-")[0] for f in TPU_FAMILIES for mt in f.machine_types}
    if prefix in tpu_prefixes:
        return _error_of(tpu_machine, machine_type)
    tpus = "; ".join(f"{f.name}: {', '.join(f.machine_type_names)}" for f in TPU_FAMILIES)
    return CatalogError(
        f"unknown accelerator machine type {machine_type!r}; known GPU machine types: "
        f"{', '.join(gpu_machine_types())}; known TPU machine types: {tpus}"
    )


def _error_of(lookup, machine_type: str) -> CatalogError:
    try:
        lookup(machine_type)
    except CatalogError as err:
        return err
    raise AssertionError("unreachable: the machine type was expected to be unknown")


def supported_capacity_models(machine_type: str) -> frozenset[str]:
    """Capacity models (see CAPACITY_MODELS) the GPU or TPU machine type supports."""
    if is_gpu_machine_type(machine_type):
        return gpu_machine(machine_type).capacity_models
    if is_tpu_machine_type(machine_type):
        return tpu_family_of(machine_type).capacity_models
    raise _unknown(machine_type)


def _memory_quantity(memory_gb: float) -> str:
    # Compute Engine's "GB" of memory are GiB (binary), so 1872 GB -> "1872Gi".
    if float(memory_gb).is_integer():
        return f"{int(memory_gb)}Gi"
    return f"{round(memory_gb * 1024)}Mi"


def node_resources(machine_type: str) -> dict[str, int | str]:
    """Per-node capacity: {"nvidia.com/gpu"|"google.com/tpu": n, "cpu": vcpus, "memory": "NNNGi"}.

    These are the machine type's documented vCPUs/memory (not kubelet allocatable, which is lower);
    "cpu"/"memory" are left out where the catalog does not know them.
    """
    if is_gpu_machine_type(machine_type):
        gpu = gpu_machine(machine_type)
        resources: dict[str, int | str] = {GPU_RESOURCE: gpu.gpus_per_vm}
        vcpus, memory_gb = gpu.vcpus, gpu.memory_gb
    elif is_tpu_machine_type(machine_type):
        tpu = tpu_machine(machine_type)
        resources = {TPU_RESOURCE: tpu.chips_per_vm}
        vcpus, memory_gb = tpu.vcpus, tpu.memory_gb
    else:
        raise _unknown(machine_type)
    if vcpus is not None:
        resources["cpu"] = vcpus
    if memory_gb is not None:
        resources["memory"] = _memory_quantity(memory_gb)
    return resources
