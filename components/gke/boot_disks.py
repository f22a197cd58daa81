"""Node boot disks of accelerator node pools: which disk types each machine series boots from, and sizes.

Pure (catalog as data) and shared by the environment spec checks and the node-pool settings
(``gkecap.components.gke``). A pool that leaves ``diskType`` out gets GKE's default for the
machine type (hyperdisk-balanced where pd-balanced is not supported, else pd-balanced; pulumi-gcp
``NodePoolNodeConfigBootDisk.disk_type`` [S4]), so only an explicit type can be wrong.
"""

from __future__ import annotations

from dataclasses import dataclass

from gkecap.components.catalog import CatalogError, gpu_machine, is_tpu_machine_type, tpu_family_of
from gkecap.components.issues import Issue

# Boot disk types a GKE node pool accepts (`--disk-type`):
# https://cloud.google.com/kubernetes-engine/docs/how-to/custom-boot-disks
# Hyperdisk Balanced is the only (zonal) Hyperdisk type that can boot an instance, TPU VMs included:
# https://cloud.google.com/compute/docs/disks/hd-types/hyperdisk-balanced
BOOT_DISK_TYPES: tuple[str, ...] = ("pd-standard", "pd-balanced", "pd-ssd", "hyperdisk-balanced")
# pulumi-gcp NodeConfig.disk_size_gb: "The smallest allowed disk size is 10GB" [S4 container/_inputs.py].
MIN_BOOT_DISK_GB = 10
# 64 TiB: the largest Persistent Disk and Hyperdisk Balanced volume
# (https://cloud.google.com/compute/docs/disks/persistent-disks, .../disks/hd-types/hyperdisk-balanced).
MAX_BOOT_DISK_GB = 65536

HYPERDISK_ONLY: tuple[str, ...] = ("hyperdisk-balanced",)


@dataclass(frozen=True)
class BootDiskRule:
    """Boot disk types of some machine series (GPU: the catalog's series name; TPU: the family name)."""

    series: tuple[str, ...]
    disk_types: tuple[str, ...]
    source: str


# Series not listed accept every type of BOOT_DISK_TYPES: no source read restricts them (A2, A3 High/Mega/Edge, G2).
BOOT_DISK_RULES: tuple[BootDiskRule, ...] = (
    # Titanium GPU series boot from Hyperdisk only: Compute Engine "Accelerator-optimized machine family", supported
    # disk types per series (https://cloud.google.com/compute/docs/accelerator-optimized-machines); Vertex AI
    # DiskSpec.bootDiskType: "for A3U machines, the default value is hyperdisk-balanced".
    BootDiskRule(("A3 Ultra", "A4", "A4X", "A4X Max"), HYPERDISK_ONLY, "accelerator-optimized-machines"),
    # G4 (RTX PRO 6000): Hyperdisk only. Secondary sources: SkyPilot's GCP disk tiers ("G4 only supports
    # hyperdisk-balanced (no pd-* support), like n4/a4") and GKE deploy scripts ("g4 REQUIRES hyperdisk-balanced").
    BootDiskRule(("G4",), HYPERDISK_ONLY, "secondary: skypilot gcp_volume_utils tests"),
    # Cloud TPU "TPU support for Hyperdisk and Persistent Disk": v6e Hyperdisk Balanced (and ML, not bootable);
    # v5p, v5e, v4: Balanced Persistent Disk (https://cloud.google.com/tpu/docs/setup-persistent-disk).
    BootDiskRule(("v6e",), HYPERDISK_ONLY, "tpu/docs/setup-persistent-disk"),
    BootDiskRule(("v5p", "v5e", "v4"), ("pd-balanced",), "tpu/docs/setup-persistent-disk"),
    # TPU7x (Ironwood): not in that table; every published GKE recipe creates its node pools with
    # --disk-type=hyperdisk-balanced, and they note plain pd is rejected (secondary).
    BootDiskRule(("tpu7x", "tpu7"), HYPERDISK_ONLY, "secondary: TPU7x GKE recipes"),
)
_RULE_OF: dict[str, BootDiskRule] = {series: rule for rule in BOOT_DISK_RULES for series in rule.series}


def machine_series(machine_type: str) -> str:
    """The series a boot-disk rule is keyed by: ``A3 Ultra``, ``G2`` ... for GPUs, ``v6e`` ... for TPUs."""
    if is_tpu_machine_type(machine_type):
        return tpu_family_of(machine_type).name
    return gpu_machine(machine_type).series


def boot_disk_types(machine_type: str) -> tuple[str, ...]:
    """The boot disk types nodes of this machine type can use (all of BOOT_DISK_TYPES when unrestricted)."""
    try:
        series = machine_series(machine_type)
    except CatalogError:
        return BOOT_DISK_TYPES
    rule = _RULE_OF.get(series)
    return rule.disk_types if rule else BOOT_DISK_TYPES


def check_boot_disk(machine_type: str, disk_type: str | None, disk_size_gb: int | None) -> list[Issue]:
    """Every problem with a pool's boot disk settings (None: GKE's default)."""
    problems: list[Issue] = []
    if disk_size_gb is not None and not MIN_BOOT_DISK_GB <= disk_size_gb <= MAX_BOOT_DISK_GB:
        problems.append(
            Issue(
                "diskSizeGb",
                f"{disk_size_gb} GB is outside the boot disk sizes GKE allows; allowed: {MIN_BOOT_DISK_GB} to "
                f"{MAX_BOOT_DISK_GB} GB",
            )
        )
    if disk_type is None:
        return problems
    if disk_type not in BOOT_DISK_TYPES:
        problems.append(
            Issue(
                "diskType",
                f"{disk_type!r} is not a GKE node boot disk type; allowed: {', '.join(BOOT_DISK_TYPES)}",
            )
        )
        return problems
    allowed = boot_disk_types(machine_type)
    if disk_type not in allowed:
        problems.append(
            Issue(
                "diskType",
                f"{disk_type!r} is not supported by {machine_series(machine_type)} nodes ({machine_type}); "
                f"allowed: {', '.join(allowed)}",
            )
        )
    return problems
