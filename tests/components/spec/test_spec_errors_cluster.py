"""Region, cluster, Kueue and service-account checks."""

from __future__ import annotations

import pytest

from gkecap.components.spec import SpecError, load_environment
from testkit.spec_data import NOW, dev, prod


def issues(env, **kwargs) -> dict[str, str]:
    with pytest.raises(SpecError) as err:
        load_environment(env, now=NOW, **kwargs)
    return {issue.path: issue.message for issue in err.value.issues}


def test_region_is_required():
    env = dev()
    del env["region"]
    assert issues(env)["region"] == "required key is missing"


def test_region_must_look_like_a_region():
    env = dev()
    env["region"] = "us-east5-a"
    assert (
        issues(env)["region"] == "'us-east5-a' is not a Google Cloud region; regions look like us-east5 or europe-west4"
    )


def test_cluster_name_is_required():
    env = dev()
    env["cluster"] = {}
    assert issues(env)["cluster.name"] == "required key is missing"


def test_cluster_must_be_a_mapping():
    env = dev()
    env["cluster"] = "ml-dev"
    assert issues(env)["cluster"].startswith("expected a mapping with keys: name, create, location")


def test_cluster_name_follows_gke_rules():
    env = dev()
    env["cluster"]["name"] = "ML-dev"
    assert issues(env)["cluster.name"].startswith("'ML-dev' is not a valid GKE cluster name")


def test_cluster_location_in_region():
    env = dev()
    env["cluster"]["location"] = "us-west1"
    assert (
        issues(env)["cluster.location"] == "'us-west1' is not the region us-east5 or one of its zones (zones of us-east5: us-east5-a, us-east5-b, us-east5-c)"
    )


def test_cluster_zonal_location_is_accepted():
    env = dev()
    env["cluster"]["location"] = "us-east5-a"
    assert load_environment(env, now=NOW).cluster.location == "us-east5-a"


def test_release_channel_is_an_enum():
    env = dev()
    env["cluster"]["releaseChannel"] = "FAST"
    assert (
        issues(env)["cluster.releaseChannel"]
        == "'FAST' is not allowed; allowed: RAPID, REGULAR, STABLE, EXTENDED"
    )


def test_gke_version_floor_for_queued_gpus():
    env = prod()
    env["cluster"]["minMasterVersion"] = "1.31.5-gke.1000"
    with pytest.raises(SpecError) as err:
        load_environment(env, now=NOW)
    messages = [i.message for i in err.value.issues if i.path == "cluster.minMasterVersion"]
    assert messages == [
        (
            "'1.31.5-gke.1000' is older than 1.32.2-gke.1652000, the minimum for queued and flex-start GPU pools "
            "(h100-dws); allowed: 1.32.2-gke.1652000 or later"
        ),
        (
            "'1.31.5-gke.1000' is older than 1.33.0-gke.1712000, the minimum for flex-start TPU pools (v6e-16); "
            "allowed: 1.33.0-gke.1712000 or later"
        ),
    ]


def test_gke_version_floor_for_flex_start_tpus():
    env = dev()
    env["cluster"].update(create=True, minMasterVersion="1.32.9-gke.100")
    assert (
        issues(env)["cluster.minMasterVersion"]
        == "'1.32.9-gke.100' is older than 1.33.0-gke.1712000, the minimum for flex-start TPU pools (v6e-4); "
        "allowed: 1.33.0-gke.1712000 or later"
    )


def test_gke_version_floor_for_tpu7x():
    env = prod()
    env["nodePools"].append(
        {"name": "ironwood", "machineType": "tpu7x-standard-4t", "tpuTopology": "2x2x1", "capacity": "on-demand"}
    )
    env["cluster"]["minMasterVersion"] = "1.33.5-gke.100"
    assert "the minimum for TPU7x pools (ironwood)" in issues(env)["cluster.minMasterVersion"]


def test_gke_version_must_parse():
    env = prod()
    env["cluster"]["minMasterVersion"] = "v1.34"
    assert issues(env)["cluster.minMasterVersion"].startswith("'v1.34' is not a GKE version")


def test_kueue_version_format():
    env = dev()
    env["kueue"]["version"] = "0.19.2"
    assert issues(env)["kueue.version"] == "'0.19.2' is not a Kueue release; write it like v0.19.2"


def test_kueue_api_version_is_an_enum():
    env = dev()
    env["kueue"]["apiVersion"] = "v1"
    assert issues(env)["kueue.apiVersion"] == "'v1' is not allowed; allowed: v1beta1, v1beta2"


def test_v1beta2_needs_kueue_0_15():
    env = dev()
    env["kueue"]["version"] = "v0.14.8"
    assert issues(env)["kueue.apiVersion"].startswith("'v1beta2' needs Kueue v0.15.0 or later")


def test_v1beta1_with_old_kueue_is_fine():
    env = dev()
    env["kueue"].update(version="v0.14.8", apiVersion="v1beta1")
    assert load_environment(env, now=NOW).kueue.api_version == "v1beta1"


def test_manager_resources_are_quantities():
    env = dev()
    env["kueue"]["managerResources"] = {"cpu": "lots", "memory": "1Gi"}
    assert issues(env)["kueue.managerResources.cpu"].startswith("'lots' is not a positive Kubernetes quantity")


def test_default_compute_service_account_is_refused():
    env = dev()
    env["nodeServiceAccount"] = "123456789-compute@developer.gserviceaccount.com"
    assert issues(env)["nodeServiceAccount"].startswith(
        "'123456789-compute@developer.gserviceaccount.com' is the Compute Engine default service account"
    )


def test_project_must_be_a_project_id():
    assert issues(dev(), project="Acme ML")["project"].startswith("'Acme ML' is not a Google Cloud project ID")


def test_project_given_twice_must_agree():
    env = dev()
    env["project"] = "acme-ml-dev"
    assert (
        issues(env, project="acme-ml-prod")["project"]
        == "'acme-ml-dev' differs from gcp:project 'acme-ml-prod'; give one"
    )


def test_environment_must_be_a_mapping():
    assert issues(["not", "a", "mapping"]) == {"gkecap:environment": "expected a mapping of settings, got a list"}
