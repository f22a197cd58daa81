"""GPU machine table: labels and counts (FACTS A.4 and the Cluster Toolkit CSV), lookups and errors."""

import csv
from pathlib import Path

import pytest

from gkecap.components.catalog import (
    GPU_MACHINES,
    CatalogError,
    gpu_machine,
    gpu_machines_of,
    is_gpu_machine_type,
    mig_partitions,
)

from testkit.kueue_crds import shared_skip_reason

SHARED_CSV = Path(__file__).resolve().parents[3].parent / "shared" / "reference" / "gpu_machine_types_cluster_toolkit.csv"

# xpk's GPU table (FACTS A.4 [S1]) plus a3-edgegpu-8g (FACTS A.4 [S3])
XPK_AND_TERRAFORM = {
    "g2-standard-12": ("nvidia-l4", 1), "g2-standard-24": ("nvidia-l4", 2), "g2-standard-48": ("nvidia-l4", 4),
    "g2-standard-96": ("nvidia-l4", 8), "a2-highgpu-1g": ("nvidia-tesla-a100", 1),
    "a2-highgpu-2g": ("nvidia-tesla-a100", 2), "a2-highgpu-4g": ("nvidia-tesla-a100", 4),
    "a2-highgpu-8g": ("nvidia-tesla-a100", 8), "a4x-highgpu-4g": ("nvidia-gb200", 4),
    "a4x-highgpu-4g-nolssd": ("nvidia-gb200", 4), "a4-highgpu-8g": ("nvidia-b200", 8),
    "a3-ultragpu-8g": ("nvidia-h200-141gb", 8), "a3-highgpu-8g": ("nvidia-h100-80gb", 8),
    "a3-megagpu-8g": ("nvidia-h100-mega-80gb", 8), "a3-edgegpu-8g": ("nvidia-h100-80gb", 8),
}


def test_a3_highgpu_8g_has_eight_h100():
    m = gpu_machine("a3-highgpu-8g")
    assert (m.accelerator_label, m.gpus_per_vm) == ("nvidia-h100-80gb", 8)


@pytest.mark.parametrize("machine_type", sorted(XPK_AND_TERRAFORM))
def test_agrees_with_xpk_table(machine_type):
    m = gpu_machine(machine_type)
    assert (m.accelerator_label, m.gpus_per_vm) == XPK_AND_TERRAFORM[machine_type]


def _toolkit_rows():
    if not SHARED_CSV.exists():
        pytest.skip(shared_skip_reason(f"reference/{SHARED_CSV.name}"))
    with SHARED_CSV.open(newline="") as handle:
        return list(csv.DictReader(handle))


def test_agrees_with_cluster_toolkit_csv():
    rows = _toolkit_rows()
    expected = {r["machine_type"]: (r["gpu_type"], int(r["gpus_per_vm"])) for r in rows}
    actual = {m.machine_type: (m.accelerator_label, m.gpus_per_vm) for m in GPU_MACHINES if m.machine_type in expected}
    assert actual == expected


def test_lists_every_cluster_toolkit_machine_type():
    rows = _toolkit_rows()
    assert {r["machine_type"] for r in rows} <= {m.machine_type for m in GPU_MACHINES}


def test_machine_types_are_unique():
    names = [m.machine_type for m in GPU_MACHINES]
    assert len(names) == len(set(names))


@pytest.mark.parametrize(
    ("family", "count"), [("a2", 9), ("a3", 7), ("a4", 2), ("a4x", 4), ("g2", 8), ("g4", 7)]
)
def test_family_sizes(family, count):
    assert len(gpu_machines_of(family)) == count


def test_family_prefix_matches_machine_type():
    assert all(m.machine_type.startswith(m.family + "-") for m in GPU_MACHINES)


def test_a4x_is_arm_with_nvl72_domain():
    m = gpu_machine("a4x-highgpu-4g")
    assert (m.arch, m.nvlink_topology) == ("arm64", "1x72")


def test_small_g4_types_are_gpu_fractions():
    # https://cloud.google.com/compute/docs/gpus: g4-standard-6/12/24 have 1/8, 1/4, 1/2 of a GPU
    assert [gpu_machine(f"g4-standard-{n}").gpu_fraction for n in (6, 12, 24, 48)] == [0.125, 0.25, 0.5, 1.0]


def test_mig_partitions_come_from_the_gpu():
    assert gpu_machine("a2-ultragpu-8g").mig_partitions == mig_partitions("nvidia-a100-80gb")


def test_l4_has_no_mig():
    assert gpu_machine("g2-standard-48").mig_partitions == ()


def test_time_sharing_on_every_gpu():
    # FACTS E [S25]: time-sharing applies to all NVIDIA GPU models
    assert all(m.time_sharing for m in GPU_MACHINES)


def test_flex_start_compact_placement_only_for_a3_ultra_and_a4():
    # FACTS B.2 [S9]
    assert {m.machine_type for m in GPU_MACHINES if m.flex_start_compact_placement} == {
        "a3-ultragpu-8g", "a4-highgpu-8g", "a4-highgpu-8g-lowmem"
    }


def test_node_selector_uses_gke_accelerator_label():
    assert gpu_machine("g2-standard-4").node_selector == {"cloud.google.com/gke-accelerator": "nvidia-l4"}


def test_is_gpu_machine_type():
    assert is_gpu_machine_type("a4-highgpu-8g") and not is_gpu_machine_type("ct6e-standard-4t")


def test_unknown_type_of_known_series_lists_the_series():
    with pytest.raises(CatalogError, match=r"unknown a3 GPU machine type 'a3-highgpu-3g'; known a3 machine types: a3-highgpu-1g"):
        gpu_machine("a3-highgpu-3g")


def test_unknown_prefix_lists_every_family():
    with pytest.raises(CatalogError) as info:
        gpu_machine("n1-standard-8")
    assert all(f"{family}: " in str(info.value) for family in ("a2", "a3", "a4", "a4x", "g2", "g4"))


def test_tpu_type_given_to_gpu_machine_says_it_is_a_tpu():
    with pytest.raises(CatalogError, match="is a TPU machine type"):
        gpu_machine("ct6e-standard-4t")


def test_unknown_family_filter():
    with pytest.raises(CatalogError, match="known: a2, a3, a4, a4x, g2, g4"):
        gpu_machines_of("h100")
