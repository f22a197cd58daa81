"""GPU units a node advertises (GKE device plugin, container-engine-accelerators pkg/gpu/nvidia/manager.go)."""

from __future__ import annotations

from hypothesis import given, strategies as st

from gkecap.components.catalog import MIG_PROFILES, gpu_machine, gpu_units_per_vm


def test_a_whole_gpu_is_one_unit():
    assert gpu_units_per_vm("nvidia-h100-80gb", 8) == 8


def test_mig_advertises_one_unit_per_partition():
    # a2-highgpu-1g with 1g.5gb: 7 partitions on its one A100 40GB (FACTS E, corrections 2026-11-23).
    assert gpu_units_per_vm("nvidia-tesla-a100", 1, "1g.5gb") == 7


def test_time_sharing_multiplies_each_partition_by_its_clients():
    # The a2-ultragpu-1g: 1g.10gb x time-sharing 2 = 14 per node, 28 on two nodes.
    machine = gpu_machine("a2-ultragpu-1g")
    assert gpu_units_per_vm(machine.accelerator_label, machine.gpus_per_vm, "1g.10gb", 2) == 14


def test_mps_without_partitions_multiplies_the_physical_gpus():
    assert gpu_units_per_vm("nvidia-l4", 2, None, 4) == 8


@given(st.sampled_from([(label, p) for label, ps in MIG_PROFILES.items() for p in ps]),
       st.integers(1, 8), st.one_of(st.none(), st.integers(1, 48)))
def test_units_are_gpus_times_partitions_times_clients(profile, gpus, clients):
    label, mig = profile
    assert gpu_units_per_vm(label, gpus, mig.size, clients) == gpus * mig.max_per_gpu * (clients or 1)
