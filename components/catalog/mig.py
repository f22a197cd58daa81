"""MIG partition sizes GKE supports per GPU (gpu_partition_size values), as data.

Source: FACTS E [S10 container-engine-accelerators partition_gpu/partition_gpu.go L37-150 @ 992db812],
copied from ../shared/reference/mig_partitions_gke.csv (profile ID, max instances per GPU).
"""

from __future__ import annotations

from dataclasses import dataclass

from gkecap.components.catalog.errors import CatalogError


@dataclass(frozen=True)
class MigProfile:
    size: str  # gpu_partition_size, e.g. "1g.10gb"
    nvidia_profile_id: int
    max_per_gpu: int


def _profiles(*rows: tuple[str, int, int]) -> tuple[MigProfile, ...]:
    return tuple(MigProfile(size, pid, count) for size, pid, count in rows)


_A100_80GB = (("1g.10gb", 19, 7), ("2g.20gb", 14, 3), ("3g.40gb", 9, 2), ("4g.40gb", 5, 1), ("7g.80gb", 0, 1))

MIG_PROFILES: dict[str, tuple[MigProfile, ...]] = {
    "nvidia-tesla-a100": _profiles(
        ("1g.5gb", 19, 7), ("2g.10gb", 14, 3), ("3g.20gb", 9, 2), ("4g.20gb", 5, 1), ("7g.40gb", 0, 1)
    ),
    "nvidia-a100-80gb": _profiles(*_A100_80GB),
    "nvidia-h100-80gb": _profiles(*_A100_80GB, ("1g.20gb", 15, 4)),
    "nvidia-h200-141gb": _profiles(
        ("1g.18gb", 19, 7), ("1g.35gb", 15, 4), ("2g.35gb", 14, 3), ("3g.71gb", 9, 2), ("4g.71gb", 5, 1),
        ("7g.141gb", 0, 1),
    ),
    "nvidia-b200": _profiles(
        ("1g.23gb", 19, 7), ("1g.45gb", 15, 4), ("2g.45gb", 14, 3), ("3g.90gb", 9, 2), ("4g.90gb", 5, 1),
        ("7g.180gb", 0, 1),
    ),
    "nvidia-gb200": _profiles(
        ("1g.23gb", 19, 7), ("1g.47gb", 15, 4), ("2g.47gb", 14, 3), ("3g.93gb", 9, 2), ("4g.93gb", 5, 1),
        ("7g.186gb", 0, 1),
    ),
    "nvidia-rtx-pro-6000": _profiles(
        ("1g.24gb", 14, 4), ("1g.24gb+me", 21, 1), ("1g.24gb+gfx", 47, 4), ("1g.24gb+me.all", 65, 1),
        ("1g.24gb-me", 67, 4), ("2g.48gb", 5, 2), ("2g.48gb+gfx", 35, 2), ("2g.48gb+me.all", 64, 1),
        ("2g.48gb-me", 66, 2), ("4g.96gb", 0, 1), ("4g.96gb+gfx", 32, 1),
    ),
    # GKE's partitioner lists no sizes for these GPUs (L4 has no MIG; H100 Mega and GB300 are not listed).
    "nvidia-h100-mega-80gb": (),
    "nvidia-l4": (),
    "nvidia-gb300": (),
    # N1's attachable GPUs (catalog.n1_gpus): no MIG.
    "nvidia-tesla-t4": (),
    "nvidia-tesla-v100": (),
    "nvidia-tesla-p100": (),
    "nvidia-tesla-p4": (),
}


def _profiles_of(accelerator_label: str) -> tuple[MigProfile, ...]:
    try:
        return MIG_PROFILES[accelerator_label]
    except (KeyError, TypeError):
        raise CatalogError(
            f"unknown GPU accelerator {accelerator_label!r}; known: {', '.join(sorted(MIG_PROFILES))}"
        ) from None


def mig_partitions(accelerator_label: str) -> tuple[str, ...]:
    """GKE gpu_partition_size values for a GPU label, e.g. nvidia-h100-80gb -> ('1g.10gb', ...); () if none."""
    return tuple(p.size for p in _profiles_of(accelerator_label))


def mig_profile(accelerator_label: str, size: str) -> MigProfile:
    """The MIG profile `size` of a GPU; CatalogError lists the valid sizes."""
    profiles = _profiles_of(accelerator_label)
    for profile in profiles:
        if profile.size == size:
            return profile
    valid = ", ".join(p.size for p in profiles) or "none (this GPU has no MIG partitions on GKE)"
    raise CatalogError(f"{size!r} is not a MIG partition size of {accelerator_label}; valid: {valid}")
