"""Kueue releases: one parser of a release name (`v0.19.2`), the API versions a release serves, and the rules of
a Kueue install's settings (version, API version, controller manager requests).

Shared by the environment spec (`kueue.*`), the chart values (`kubernetes_objects.kueue_chart`) and
`KueueInstall`, so an install the spec accepts is one the component accepts.
"""

from __future__ import annotations

import re

from gkecap.components.issues import Issue
from gkecap.components.k8s.quantity import QuantityError, parse_quantity
from gkecap.components.kueue_api.fields import V1BETA2_SINCE

DEFAULT_KUEUE_VERSION = "v0.19.2"
API_VERSIONS = ("v1beta1", "v1beta2")
# `v` + MAJOR.MINOR.PATCH, optionally a pre-release (`v0.20.0-rc.1`); ASCII digits only.
_RELEASE = re.compile(r"v([0-9]+)\.([0-9]+)\.([0-9]+)(-[0-9A-Za-z.-]+)?", re.ASCII)


def parse_kueue_release(version: object) -> tuple[int, int, int] | None:
    """(0, 19, 2) for `v0.19.2`; None when `version` is not a Kueue release name."""
    match = _RELEASE.fullmatch(version) if isinstance(version, str) else None
    return (int(match[1]), int(match[2]), int(match[3])) if match else None


def serves_v1beta2(version: str) -> bool:
    release = parse_kueue_release(version)
    return release is not None and release >= V1BETA2_SINCE


def release_issues(path: str, version: object) -> list[Issue]:
    if parse_kueue_release(version) is not None:
        return []
    return [Issue(path, f"{version!r} is not a Kueue release; write it like {DEFAULT_KUEUE_VERSION}")]


def positive_quantity_issues(path: str, value: object, example: str = "500m, 1, 512Mi or 1Gi") -> list[Issue]:
    """A Kubernetes quantity above zero (a manager request)."""
    try:
        positive = parse_quantity(value).value > 0  # type: ignore[arg-type]
    except QuantityError:
        positive = False
    return [] if positive else [Issue(path, f"{value!r} is not a positive Kubernetes quantity; e.g. {example}")]


def check_install(
    version: str, api_version: str | None = None, cpu: str | None = None, memory: str | None = None
) -> list[Issue]:
    """A Kueue release, the API version the objects use (None: not given), positive manager requests."""
    issues = release_issues("version", version)
    if not issues and api_version == "v1beta2" and not serves_v1beta2(version):
        since = "v" + ".".join(map(str, V1BETA2_SINCE))
        issues.append(
            Issue("apiVersion", f"'v1beta2' needs Kueue {since} or later (kueue.version is {version}); use apiVersion "
                  "v1beta1 or a newer Kueue")
        )
    if api_version is not None and api_version not in API_VERSIONS:
        issues.append(Issue("apiVersion", f"{api_version!r} is not allowed; allowed: {', '.join(API_VERSIONS)}"))
    for key, value, example in (("cpu", cpu, "500m or 1"), ("memory", memory, "512Mi or 1Gi")):
        if value is not None:
            issues += positive_quantity_issues(f"managerResources.{key}", value, example)
    return issues
