"""The releases of the Pulumi libraries whose internals the project's CI tests (constraints.txt pins them).

A private name is used only for a release of the same major.minor as the tested one (`uses_internals`); any other
release, or `GKECAP_COMPAT=public`, takes the public fallback of `gkecap.compat`. tests/gkecap/compat/ checks that
these agree with constraints.txt.
"""

from __future__ import annotations

import os
import re
from functools import cache
from importlib import metadata

# Distribution -> the tested major.minor (constraints.txt pins the exact release).
TESTED: dict[str, tuple[int, int]] = {
    "pulumi": (3, 272),
    "pulumi_policy": (1, 21),
}
FORCE_ENV = "GKECAP_COMPAT"  # "public": every fallback, whatever is installed
PUBLIC = "public"


def forced_public() -> bool:
    return os.environ.get(FORCE_ENV, "").strip().lower() == PUBLIC


def major_minor(version: str) -> tuple[int, int] | None:
    """(major, minor) of a release number (`1.22.0rc1` -> (1, 22)); None if it has none."""
    found = re.match(r"(\d+)\.(\d+)", version)
    return (int(found[1]), int(found[2])) if found else None


@cache
def installed(distribution: str) -> str | None:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def uses_internals(distribution: str) -> bool:
    """Whether the shortcuts through `distribution`'s internals may be taken (tested release, not forced off)."""
    if forced_public():
        return False
    version = installed(distribution)
    return version is not None and major_minor(version) == TESTED[distribution]
