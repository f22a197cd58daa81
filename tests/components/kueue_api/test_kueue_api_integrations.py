"""Kueue's integrations per supported release, as transcribed from each tag (kueue_api.integrations): the
configuration the project writes for a release is one that release's manager starts with."""

from __future__ import annotations

import pytest

from gkecap.components.kubernetes_objects.kueue_chart import manager_config
from gkecap.components.kueue_api.integrations import (
    CHART_FRAMEWORKS,
    KNOWN_FRAMEWORKS,
    SUPPORTED_MINORS,
    chart_frameworks,
    framework_issues,
    known_frameworks,
)
from gkecap.components.kueue_api.releases import OLDEST_SUPPORTED_RELEASE, SERVED_API_VERSIONS

# The newest patch of each supported minor, and the first.
RELEASES = [f"v0.{minor}.{patch}" for minor, patch in
            ((14, 0), (14, 8), (15, 0), (15, 8), (16, 0), (16, 9), (17, 0), (17, 8), (18, 0), (18, 6), (19, 0), (19, 2))]


def test_the_catalog_covers_every_supported_minor():
    oldest = OLDEST_SUPPORTED_RELEASE[:2]
    newest = max(SERVED_API_VERSIONS)
    assert SUPPORTED_MINORS == tuple((0, m) for m in range(oldest[1], newest[1] + 1))
    assert set(CHART_FRAMEWORKS) == set(KNOWN_FRAMEWORKS)


@pytest.mark.parametrize("release", RELEASES)
def test_the_written_configuration_starts_the_release(release):
    # validateIntegrations (pkg/config/validation.go): every framework registered, none twice; v0.14's
    # checkEnabledListDependencies: pod listed beside deployment/statefulset/LWS.
    frameworks = manager_config(release, fair_sharing=True)["integrations"]["frameworks"]
    assert framework_issues("frameworks", release, frameworks) == []
    assert set(frameworks) <= known_frameworks(release)


@pytest.mark.parametrize("release", [r for r in RELEASES if r < "v0.17"])
def test_releases_before_v0_17_get_no_rayservice(release):
    # pkg/controller/jobs/rayservice first exists at v0.17.0: v0.15/v0.16 managers would not start with it.
    assert "ray.io/rayservice" not in manager_config(release, fair_sharing=True)["integrations"]["frameworks"]


@pytest.mark.parametrize("release", [r for r in RELEASES if r < "v0.19"])
def test_releases_up_to_v0_18_keep_the_kubeflow_jobs_their_chart_enables(release):
    frameworks = manager_config(release, fair_sharing=True)["integrations"]["frameworks"]
    assert {"kubeflow.org/pytorchjob", "kubeflow.org/tfjob", "kubeflow.org/jaxjob"} <= set(frameworks)


def test_v0_19_charts_leave_the_kubeflow_v1_jobs_out():
    assert "kubeflow.org/pytorchjob" not in chart_frameworks("v0.19.2")
    assert "kubeflow.org/pytorchjob" in known_frameworks("v0.19.2")  # still registered: users may list it


def test_a_release_newer_than_the_catalog_has_what_the_newest_known_one_has():
    assert known_frameworks("v0.21.0") == known_frameworks("v0.19.2")
    assert chart_frameworks("v0.21.0") == chart_frameworks("v0.19.2")


def test_v0_14_needs_pod_beside_the_integrations_built_on_it():
    [issue] = framework_issues("frameworks", "v0.14.8", ["batch/job", "deployment"])
    assert issue.path == "frameworks" and "'deployment' need 'pod' in the list with Kueue v0.14.8" in issue.message
    assert framework_issues("frameworks", "v0.15.0", ["batch/job", "deployment"]) == []


def test_a_framework_listed_twice_is_refused():
    [issue] = framework_issues("frameworks", "v0.19.2", ["batch/job", "batch/job"])
    assert (issue.path, issue.message) == ("frameworks[1]", "'batch/job' is listed twice")


def test_an_empty_list_is_refused():
    [issue] = framework_issues("frameworks", "v0.19.2", [])
    assert issue.message.startswith("needs at least one framework")


def test_every_error_is_reported_at_once():
    issues = framework_issues("frameworks", "v0.16.0", ["ray.io/rayservice", "sparkoperator.k8s.io/sparkapplication",
                                                        "nope"])
    assert [i.path for i in issues] == ["frameworks[0]", "frameworks[1]", "frameworks[2]"]
