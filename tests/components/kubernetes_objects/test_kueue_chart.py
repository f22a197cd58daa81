"""Kueue Helm chart: pinned OCI chart and version, and the values each environment setting turns into."""

from __future__ import annotations

import pytest

from gkecap.components.issues import InvalidInput
import yaml

from gkecap.components.kubernetes_objects.kueue_chart import (
    KUEUE_CHART,
    chart_values,
    chart_version,
    manager_config,
)
from gkecap.components.kueue_api.integrations import chart_frameworks


def _config(values: dict) -> dict:
    return yaml.safe_load(values["managerConfig"]["controllerManagerConfigYaml"])


def test_chart_is_the_official_oci_chart():
    assert KUEUE_CHART == "oci://registry.k8s.io/kueue/charts/kueue"


@pytest.mark.parametrize(("release", "chart"), [("v0.19.2", "0.19.2"), ("v0.14.8", "0.14.8"), ("v0.20.0-rc.1", "0.20.0-rc.1")])
def test_chart_version_is_the_release_without_the_v(release, chart):
    assert chart_version(release) == chart


@pytest.mark.parametrize("release", ["latest", "v0.19", "", "v1.x.0", "0.20.0", "v٠.١٩.٢"])
def test_a_release_that_is_not_a_version_is_refused(release):
    with pytest.raises(InvalidInput, match="is not a Kueue release"):
        chart_version(release)


def test_fair_sharing_is_enabled_by_the_fair_sharing_section_in_config_v1beta2():
    config = _config(chart_values("v0.19.2", fair_sharing=True))
    assert config["apiVersion"] == "config.kueue.x-k8s.io/v1beta2"
    assert config["fairSharing"] == {"preemptionStrategies": ["LessThanOrEqualToFinalShare", "LessThanInitialShare"]}


def test_older_kueue_gets_config_v1beta1_with_enable():
    config = manager_config("v0.14.8", fair_sharing=True)
    assert config["apiVersion"] == "config.kueue.x-k8s.io/v1beta1"
    assert config["fairSharing"]["enable"] is True


def test_without_fair_sharing_the_configuration_has_no_fair_sharing_section():
    assert "fairSharing" not in _config(chart_values("v0.19.2", fair_sharing=False))


@pytest.mark.parametrize("release", ["v0.14.8", "v0.15.3", "v0.16.2", "v0.17.0", "v0.18.6", "v0.19.2", "v0.20.0"])
def test_the_configuration_lists_the_integrations_the_chart_of_the_release_enables(release):
    assert _config(chart_values(release))["integrations"]["frameworks"] == list(chart_frameworks(release))


def test_a_framework_the_release_lacks_is_refused_naming_the_release_that_adds_it():
    with pytest.raises(InvalidInput, match=r"frameworks\[1\]: 'ray.io/rayservice' needs Kueue v0.17.0 or later"):
        chart_values("v0.16.4", frameworks=["batch/job", "ray.io/rayservice"])


def test_managed_namespaces_make_kueue_manage_every_job_there_and_nowhere_else():
    config = _config(chart_values("v0.19.2", managed_namespaces=["vision", "llm"]))
    assert config["manageJobsWithoutQueueName"] is True
    assert config["managedJobsNamespaceSelector"] == {"matchExpressions": [
        {"key": "kubernetes.io/metadata.name", "operator": "In", "values": ["llm", "vision"]}]}


def test_without_managed_namespaces_only_labelled_jobs_are_managed():
    config = _config(chart_values("v0.19.2"))
    assert "manageJobsWithoutQueueName" not in config and "managedJobsNamespaceSelector" not in config


@pytest.mark.parametrize("namespace", ["kube-system", "kueue-system"])
def test_a_namespace_kueue_refuses_to_manage_is_refused(namespace):
    # pkg/config/validation.go validateManagedJobsNamespaceSelector @ v0.19.2: must not match either.
    with pytest.raises(InvalidInput, match=f"would match the '{namespace}' namespace"):
        chart_values("v0.19.2", managed_namespaces=["vision", namespace])


def test_topology_aware_scheduling_sets_its_feature_gate():
    values = chart_values(topology_aware_scheduling=True)
    assert values["controllerManager"]["featureGates"] == [{"name": "TopologyAwareScheduling", "enabled": True}]
    assert "controllerManager" not in chart_values(fair_sharing=False)


def test_names_are_pinned_so_team_bindings_find_the_batch_user_role():
    assert chart_values()["fullnameOverride"] == "kueue"


def test_manager_requests_above_the_chart_limits_raise_the_limits():
    resources = chart_values(manager_cpu="4", manager_memory="2Gi")["controllerManager"]["manager"]["resources"]
    assert resources == {"requests": {"cpu": "4", "memory": "2Gi"}, "limits": {"cpu": "4", "memory": "2Gi"}}
    small = chart_values(manager_cpu="500m")["controllerManager"]["manager"]["resources"]
    assert small == {"requests": {"cpu": "500m"}}


@pytest.mark.parametrize(("cpu", "memory", "field"), [("lots", None, "cpu"), (None, "0", "memory")])
def test_a_bad_manager_quantity_is_refused_with_its_field(cpu, memory, field):
    with pytest.raises(InvalidInput, match=f"managerResources.{field}"):
        chart_values(manager_cpu=cpu, manager_memory=memory)


WAIT = {"timeout": "2h", "blockAdmission": False,
        "requeuingStrategy": {"timestamp": "Eviction", "backoffBaseSeconds": 60, "backoffMaxSeconds": 3600}}


def test_wait_for_pods_ready_is_written_as_given_in_config_v1beta2():
    # Config v1beta2 field names at v0.19.2 (apis/config/v1beta2/configuration_types.go): presence enables it.
    config = _config(chart_values("v0.19.2", fair_sharing=False, wait_for_pods_ready=WAIT))
    assert config["waitForPodsReady"] == WAIT


def test_wait_for_pods_ready_is_off_unless_given():
    assert "waitForPodsReady" not in _config(chart_values("v0.19.2"))


def test_config_v1beta1_enables_wait_for_pods_ready_explicitly():
    assert manager_config("v0.14.8", fair_sharing=False, wait_for_pods_ready=WAIT)["waitForPodsReady"]["enable"] is True
