"""GKE versions: one parser, the version floors of the capacity models, and the check of a cluster's version.

A GKE version is `1.33`, `1.33.2` or `1.33.2-gke.1240000` (the `-gke.N` suffix only after a patch number),
or `latest`. A partial version means the newest patch of that minor, so only the parts given are compared.
"""

from __future__ import annotations

import re

from gkecap.components.issues import Issue

# Minimum GKE versions. FACTS B.1 [S14] (GPU flex/queued), B.3 [S17] (TPU flex), A.3 [S34] (TPU7x Standard).
GPU_FLEX_MIN_VERSION = "1.32.2-gke.1652000"
TPU_FLEX_MIN_VERSION = "1.33.0-gke.1712000"
TPU7X_MIN_VERSION = "1.34.0-gke.2201000"
LATEST = "latest"

_GKE_VERSION = re.compile(r"([0-9]+)\.([0-9]+)(?:\.([0-9]+)(?:-gke\.([0-9]+))?)?", re.ASCII)


def parse_gke_version(text: object) -> tuple[int, ...] | None:
    """(1, 33, 2, 1240000) for `1.33.2-gke.1240000`, (1, 33) for `1.33`; None when not a GKE version."""
    match = _GKE_VERSION.fullmatch(text.strip()) if isinstance(text, str) else None
    if not match:
        return None
    return tuple(int(group) for group in match.groups() if group is not None)


def gke_version_key(version: str) -> tuple[int, int, int, int]:
    """Sortable key of a full or partial GKE version; ValueError when malformed."""
    parsed = parse_gke_version(version)
    if parsed is None:
        raise ValueError(f"{version!r} is not a GKE version like 1.33.0-gke.1712000")
    return (parsed + (0, 0, 0, 0))[:4]  # type: ignore[return-value]


def version_below(version: str, floor: str) -> bool:
    """Whether `version` (full or partial, not `latest`) is older than the full version `floor`."""
    given, minimum = parse_gke_version(version), parse_gke_version(floor)
    assert given is not None and minimum is not None
    return given < minimum[: len(given)]


def version_issues(path: str, version: str, floors: list[tuple[str, str]] = ()) -> list[Issue]:  # type: ignore[assignment]
    """A GKE version (or `latest`) at or above every (floor, what needs it) given."""
    if isinstance(version, str) and version.strip().lower() == LATEST:
        return []
    if parse_gke_version(version) is None:
        return [Issue(path, f"{version!r} is not a GKE version; write it like 1.33.2-gke.1240000, 1.33 or latest")]
    return [
        Issue(path, f"{version!r} is older than {floor}, the minimum for {what}; allowed: {floor} or later")
        for floor, what in floors
        if version_below(version, floor)
    ]
