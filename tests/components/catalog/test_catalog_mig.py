"""MIG partition data agrees with GKE's partitioner table (FACTS E, mig_partitions_gke.csv)."""

import csv
from pathlib import Path

import pytest

from gkecap.components.catalog import MIG_PROFILES, CatalogError, mig_partitions, mig_profile

from testkit.kueue_crds import shared_skip_reason

SHARED_CSV = Path(__file__).resolve().parents[3].parent / "shared" / "reference" / "mig_partitions_gke.csv"


def _csv_profiles():
    if not SHARED_CSV.exists():
        pytest.skip(shared_skip_reason(f"reference/{SHARED_CSV.name}"))
    profiles = set()
    with SHARED_CSV.open(newline="") as handle:
        for row in csv.DictReader(handle):
            for label in row["gpu_types_comment_in_source"].split(","):
                profiles.add((label.strip(), row["gpu_partition_size"], int(row["nvidia_profile_id"]),
                              int(row["max_partitions_per_gpu"])))
    return profiles


def test_profiles_equal_the_csv():
    ours = {(label, p.size, p.nvidia_profile_id, p.max_per_gpu) for label, ps in MIG_PROFILES.items() for p in ps}
    assert ours == _csv_profiles()


def test_h100_has_the_extra_1g_20gb_profile():
    assert "1g.20gb" in mig_partitions("nvidia-h100-80gb") and "1g.20gb" not in mig_partitions("nvidia-a100-80gb")


def test_a100_40gb_sizes():
    assert mig_partitions("nvidia-tesla-a100") == ("1g.5gb", "2g.10gb", "3g.20gb", "4g.20gb", "7g.40gb")


def test_max_instances_per_gpu():
    assert mig_profile("nvidia-b200", "1g.23gb").max_per_gpu == 7


def test_invalid_size_lists_valid_sizes():
    with pytest.raises(CatalogError, match=r"'1g.5gb' is not a MIG partition size of nvidia-h200-141gb; valid: 1g.18gb"):
        mig_profile("nvidia-h200-141gb", "1g.5gb")


def test_gpu_without_mig_says_so():
    with pytest.raises(CatalogError, match="none"):
        mig_profile("nvidia-l4", "1g.5gb")


def test_unknown_label_lists_known_labels():
    with pytest.raises(CatalogError, match="known: .*nvidia-b200"):
        mig_partitions("nvidia-tesla-v100")
