"""Per-node resources for Kueue quotas (documented vCPUs/memory)."""

import pytest

from gkecap.components.catalog import CatalogError, node_resources


def test_a3_highgpu_8g():
    # https://cloud.google.com/compute/docs/gpus: 208 vCPUs, 1,872 GB
    assert node_resources("a3-highgpu-8g") == {"nvidia.com/gpu": 8, "cpu": 208, "memory": "1872Gi"}


def test_v6e_4t():
    assert node_resources("ct6e-standard-4t") == {"google.com/tpu": 4, "cpu": 180, "memory": "720Gi"}


def test_tpu7x_4t():
    # FACTS A.3 [S34]: 224 vCPU / 960 GB
    assert node_resources("tpu7x-standard-4t") == {"google.com/tpu": 4, "cpu": 224, "memory": "960Gi"}


def test_unknown_cpu_and_memory_are_left_out():
    assert node_resources("tpu7-standard-4t") == {"google.com/tpu": 4}


def test_g4_fractional_type_counts_one_gpu():
    assert node_resources("g4-standard-6") == {"nvidia.com/gpu": 1, "cpu": 6, "memory": "22Gi"}


def test_unknown_machine_type_lists_family():
    with pytest.raises(CatalogError, match="known v5e machine types"):
        node_resources("ct5lp-hightpu-2t")
