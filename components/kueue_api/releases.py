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


# Oldest Kueue release the project supports: from v0.14 the API limits the project checks hold (64 flavors and
# covered resources per group, R-CQ-13..15; up to v0.13 they were 16, FACTS D), every kind it emits is served in
# v1beta1 (the Topology only from v0.14, see below) and the ProvisioningRequest admission check is GA (FACTS D).
OLDEST_SUPPORTED_RELEASE = (0, 14, 0)

# apiVersions each kind's CRD serves, per Kueue minor release: `spec.versions[].served` of
# config/components/crd/bases/kueue.x-k8s.io_<kind>s.yaml at the newest patch tag of each minor
# (kubernetes-sigs/kueue v0.9.5 .. v0.19.2; docs/sources.md "Kueue versions"). v0.11.0 alone also served
# Topology v1beta1; its later patches did not. Cohort and Topology do not exist before v0.9.
_V1BETA1, _BOTH = ("v1beta1",), ("v1beta1", "v1beta2")
_CORE_KINDS = ("AdmissionCheck", "ClusterQueue", "LocalQueue", "MultiKueueCluster", "MultiKueueConfig",
               "ProvisioningRequestConfig", "ResourceFlavor", "WorkloadPriorityClass")


def _served(minor: int) -> dict[str, tuple[str, ...]]:
    core = _BOTH if minor >= 15 else _V1BETA1
    cohort = _BOTH if minor >= 15 else _V1BETA1 if minor >= 13 else ("v1alpha1",)
    topology = _BOTH if minor >= 15 else _V1BETA1 if minor >= 14 else ("v1alpha1",)
    return {**{kind: core for kind in _CORE_KINDS}, "Cohort": cohort, "Topology": topology}


SERVED_API_VERSIONS: dict[tuple[int, int], dict[str, tuple[str, ...]]] = {
    (0, minor): _served(minor) for minor in range(9, 20)
}
KNOWN_MINORS = tuple(sorted(SERVED_API_VERSIONS))


def served_api_versions(kind: str, version: str) -> tuple[str, ...]:
    """apiVersions (without the group) Kueue `version` serves for `kind`; a release newer than the table serves
    what the newest known one does. () for an unknown kind or a release older than v0.9."""
    release = parse_kueue_release(version)
    if release is None:
        return ()
    key = min((release[0], release[1]), KNOWN_MINORS[-1])
    return SERVED_API_VERSIONS.get(key, {}).get(kind, ())


# Feature gates the project sets, with the first release whose pkg/features/kube_features.go declares them
# (kubernetes-sigs/kueue tags; still declared at v0.19.2). A gate is written only for releases that have it: a
# manager started with an unknown gate fails.
FEATURE_GATES_SINCE: dict[str, tuple[int, int, int]] = {
    "TopologyAwareScheduling": (0, 9, 0),
}


def feature_gates(version: str, wanted: dict[str, bool]) -> list[dict[str, object]]:
    """The chart's `featureGates` entries of `wanted` that Kueue `version` declares, in the given order."""
    release = parse_kueue_release(version)
    return [{"name": name, "enabled": enabled} for name, enabled in wanted.items()
            if release is not None and name in FEATURE_GATES_SINCE and release >= FEATURE_GATES_SINCE[name]]


def parse_kueue_release(version: object) -> tuple[int, int, int] | None:
    """(0, 19, 2) for `v0.19.2`; None when `version` is not a Kueue release name."""
    match = _RELEASE.fullmatch(version) if isinstance(version, str) else None
    return (int(match[1]), int(match[2]), int(match[3])) if match else None


def serves_v1beta2(version: str) -> bool:
    release = parse_kueue_release(version)
    return release is not None and release >= V1BETA2_SINCE


def release_issues(path: str, version: object) -> list[Issue]:
    release = parse_kueue_release(version)
    if release is None:
        return [Issue(path, f"{version!r} is not a Kueue release; write it like {DEFAULT_KUEUE_VERSION}")]
    if release < OLDEST_SUPPORTED_RELEASE:
        floor = "v" + ".".join(map(str, OLDEST_SUPPORTED_RELEASE))
        return [Issue(path, f"{version!r} is older than {floor}, the oldest Kueue release gke-capacity supports; "
                      f"use {floor} or later, e.g. {DEFAULT_KUEUE_VERSION}")]
    return []


def positive_quantity_issues(path: str, value: object, example: str = "500m, 1, 512Mi or 1Gi") -> list[Issue]:
    """A Kubernetes quantity above zero (a manager request)."""
    try:
        positive = parse_quantity(value).value > 0
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
