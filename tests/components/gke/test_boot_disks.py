"""Boot disk types per accelerator series and boot disk sizes (gkecap.components.gke.boot_disks)."""

from __future__ import annotations

import pytest

from gkecap.components.gke import boot_disks as bd
from gkecap.components.catalog import gpu_machine_types, tpu_machine_types


def fields(problems):
    return [p.path for p in problems]


@pytest.mark.parametrize(
    "machine_type", ["a3-ultragpu-8g", "a4-highgpu-8g", "a4x-highgpu-4g", "g4-standard-48", "ct6e-standard-4t"]
)
def test_titanium_series_and_v6e_boot_from_hyperdisk_balanced_only(machine_type):
    assert bd.boot_disk_types(machine_type) == ("hyperdisk-balanced",)


@pytest.mark.parametrize("machine_type", ["ct5lp-hightpu-4t", "ct5p-hightpu-4t", "ct4p-hightpu-4t"])
def test_tpu_v4_v5e_v5p_boot_from_balanced_persistent_disk(machine_type):
    assert bd.boot_disk_types(machine_type) == ("pd-balanced",)


@pytest.mark.parametrize("machine_type", ["a2-highgpu-1g", "a3-highgpu-8g", "a3-megagpu-8g", "g2-standard-24"])
def test_series_without_a_documented_restriction_accept_every_gke_type(machine_type):
    assert bd.boot_disk_types(machine_type) == bd.BOOT_DISK_TYPES


def test_every_catalog_machine_type_has_boot_disk_types_gke_accepts():
    for machine_type in list(gpu_machine_types()) + list(tpu_machine_types()):
        allowed = bd.boot_disk_types(machine_type)
        assert allowed and set(allowed) <= set(bd.BOOT_DISK_TYPES), machine_type


def test_every_rule_names_a_series_the_catalog_knows():
    known = {bd.machine_series(mt) for mt in list(gpu_machine_types()) + list(tpu_machine_types())}
    assert {s for rule in bd.BOOT_DISK_RULES for s in rule.series} <= known


def test_unset_disk_means_gke_default_and_is_never_a_problem():
    assert bd.check_boot_disk("ct6e-standard-4t", None, None) == []


@pytest.mark.parametrize("size,ok", [(9, False), (10, True), (65536, True), (65537, False)])
def test_boot_disk_size_limits(size, ok):
    assert (bd.check_boot_disk("a3-highgpu-8g", None, size) == []) == ok


def test_size_and_type_problems_are_collected_together():
    assert fields(bd.check_boot_disk("a4-highgpu-8g", "pd-balanced", 5)) == ["diskSizeGb", "diskType"]
