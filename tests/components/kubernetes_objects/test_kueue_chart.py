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
    assert "trainer.kubeflow.org/trainjob" not in config["integrations"]["frameworks"]


def test_without_fair_sharing_the_chart_default_configuration_stays():
    assert "managerConfig" not in chart_values("v0.19.2", fair_sharing=False)


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


def test_calendar_pools_get_wait_for_pods_ready_with_requeuing():
    # Config v1beta2 field names at v0.19.2 (apis/config/v1beta2/configuration_types.go): presence enables it.
    config = _config(chart_values("v0.19.2", fair_sharing=False, wait_for_pods_ready=True))
    assert config["waitForPodsReady"] == {
        "timeout": "10m", "blockAdmission": False,
        "requeuingStrategy": {"timestamp": "Eviction", "backoffBaseSeconds": 60, "backoffMaxSeconds": 3600},
    }
    assert "fairSharing" not in config


def test_config_v1beta1_enables_wait_for_pods_ready_explicitly():
    assert manager_config("v0.14.8", fair_sharing=False, wait_for_pods_ready=True)["waitForPodsReady"]["enable"] is True
