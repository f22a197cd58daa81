"""Kueue manages every job of the team namespaces and nothing elsewhere (kueue_api.job_management)."""

from __future__ import annotations

import pytest

from gkecap.components.k8s.label_selector import selects
from gkecap.components.kueue_api.job_management import (
    job_management,
    selector_issues,
    supports_default_local_queue,
    supports_namespace_scoped_management,
    team_namespace_selector,
)

NAME = "kubernetes.io/metadata.name"


def _labels(namespace: str) -> dict[str, str]:
    return {NAME: namespace}  # the label the API server sets on every namespace


def test_the_selector_matches_exactly_the_team_namespaces():
    selector = team_namespace_selector(["vision", "llm", "llm-eval"])
    for namespace in ("vision", "llm", "llm-eval"):
        assert selects(selector, _labels(namespace))
    for namespace in ("kube-system", "kueue-system", "default", "gke-managed-system", "visionx", "llm-"):
        assert not selects(selector, _labels(namespace))


def test_no_namespace_means_no_selector():
    assert team_namespace_selector([]) is None
    assert job_management("v0.19.2", []) == {}


@pytest.mark.parametrize("namespace", ["kube-system", "kueue-system"])
def test_a_selector_kueue_would_refuse_is_reported(namespace):
    # pkg/config/validation.go validateManagedJobsNamespaceSelector (v0.14.0 .. v0.19.2).
    [issue] = selector_issues("managedNamespaces", ["vision", namespace], "kueue-system")
    assert namespace in issue.message


@pytest.mark.parametrize("release", ["v0.14.0", "v0.16.3", "v0.19.2"])
def test_every_supported_release_manages_the_team_namespaces_and_defaults_their_queue(release):
    assert supports_namespace_scoped_management(release) and supports_default_local_queue(release)
    fields = job_management(release, ["vision"])
    assert fields["manageJobsWithoutQueueName"] is True
    assert fields["managedJobsNamespaceSelector"] == team_namespace_selector(["vision"])


def test_releases_without_the_fields_get_none():
    assert job_management("v0.9.4", ["vision"]) == {}  # managedJobsNamespaceSelector arrived in v0.10.0
    assert not supports_default_local_queue("v0.11.3")  # LocalQueueDefaulting on by default from v0.12
