"""GkeCluster: a created DWS-ready Standard cluster, or an existing one; both expose a kubeconfig."""

from __future__ import annotations

import json

import pulumi
import pytest

from gkecap.components.cluster import GkeCluster, initial_version
from testkit.input_errors import lines

CLUSTER = "gcp:container/cluster:Cluster"
NODE_POOL = "gcp:container/nodePool:NodePool"
SA = "gke-system@acme-ml.iam.gserviceaccount.com"


def register(pulumi_run, name, args):
    return pulumi_run(lambda: GkeCluster(name, args))


def test_created_cluster_is_standard_dws_ready_and_protected(pulumi_run):
    run = register(pulumi_run, "ml-prod", {"location": "us-east5", "create": True, "service_account": SA})
    cluster = run.one(CLUSTER, "ml-prod")
    assert cluster.inputs == {
        "name": "ml-prod",
        "project": "acme-ml",
        "location": "us-east5",
        "removeDefaultNodePool": True,
        "initialNodeCount": 1,
        "releaseChannel": {"channel": "REGULAR"},
        # The mocked REGULAR default (1.33.5-gke.1308000) reaches the flex-start floor 1.33.0-gke.1712000.
        "minMasterVersion": "1.33.5-gke.1308000",
        "workloadIdentityConfig": {"workloadPool": "acme-ml.svc.id.goog"},
        "deletionProtection": True,
        # GPU utilization: GKE's managed DCGM metrics need Managed Service for Prometheus (issue 11 item 9).
        "monitoringConfig": {"enableComponents": ["SYSTEM_COMPONENTS", "DCGM"], "managedPrometheus": {"enabled": True}},
    }
    assert cluster.options["ignoreChanges"] == ["minMasterVersion"]


def test_created_cluster_passes_google_groups_to_rbac(pulumi_run):
    # kind: Group RoleBindings match Google Groups only with authenticatorGroupsConfig (issue 11 item 5).
    run = register(pulumi_run, "ml-prod", {"location": "us-east5", "create": True, "service_account": SA,
                                           "security_group": "gke-security-groups@acme.example"})
    assert run.one(CLUSTER, "ml-prod").inputs["authenticatorGroupsConfig"] == {
        "securityGroup": "gke-security-groups@acme.example"}


def test_created_cluster_has_a_system_pool_without_dws(pulumi_run):
    run = register(pulumi_run, "ml-prod", {"location": "us-east5", "create": True, "service_account": SA,
                                           "system_pool": {"machine_type": "e2-standard-8", "nodes": 2}})
    system = run.one(NODE_POOL, "ml-prod-system")
    assert system.inputs == {
        "name": "system",
        "project": "acme-ml",
        "cluster": "ml-prod",
        "location": "us-east5",
        "nodeCount": 2,
        "management": {"autoRepair": True, "autoUpgrade": True},
        "nodeConfig": {
            "machineType": "e2-standard-8",
            "serviceAccount": SA,
            "oauthScopes": ["https://www.googleapis.com/auth/cloud-platform"],
            "workloadMetadataConfig": {"mode": "GKE_METADATA"},
            "shieldedInstanceConfig": {"enableSecureBoot": True, "enableIntegrityMonitoring": True},
        },
    }


def test_explicit_version_and_channel(pulumi_run):
    run = register(pulumi_run, "ml", {"location": "us-east5-a", "create": True, "service_account": SA,
                                      "release_channel": "RAPID", "min_master_version": "1.34.0-gke.2201000",
                                      "deletion_protection": False})
    inputs = run.one(CLUSTER).inputs
    assert (inputs["releaseChannel"], inputs["minMasterVersion"], inputs["deletionProtection"]) == (
        {"channel": "RAPID"}, "1.34.0-gke.2201000", False)


def test_existing_cluster_is_read_not_created(pulumi_run):
    run = register(pulumi_run, "ml-prod", {"location": "us-east5"})
    assert run.of_type(CLUSTER) == [] and run.of_type(NODE_POOL) == []
    outputs = run.one("gkecap:index:GkeCluster").outputs
    assert outputs["name"] == "ml-prod" and outputs["location"] == "us-east5" and outputs["project"] == "acme-ml"
    assert outputs["endpoint"] and outputs["clusterCaCertificate"]


@pytest.mark.parametrize("create", [True, False])
def test_kubeconfig_reaches_the_cluster_through_the_gke_auth_plugin(pulumi_run, create):
    run = register(pulumi_run, "ml-prod", {"location": "us-east5", "create": create, "service_account": SA})
    outputs = run.one("gkecap:index:GkeCluster").outputs
    config = json.loads(outputs["kubeconfig"])
    context = "gke_acme-ml_us-east5_ml-prod"
    assert config["current-context"] == context
    assert config["clusters"] == [{"name": context, "cluster": {
        "server": f"https://{outputs['endpoint']}", "certificate-authority-data": outputs["clusterCaCertificate"]}}]
    assert config["users"][0]["user"]["exec"]["command"] == "gke-gcloud-auth-plugin"


def test_cluster_name_can_differ_from_the_component_name(pulumi_run):
    run = register(pulumi_run, "cluster", {"location": "us-east5", "cluster_name": "ml-dev"})
    assert run.one("gkecap:index:GkeCluster").outputs["name"] == "ml-dev"


def errors_of(pulumi_run, args):
    def program():
        with pytest.raises(pulumi.InputPropertiesError) as raised:
            GkeCluster("ml", args)
        errors.extend(lines(raised.value))

    errors: list[str] = []
    run = pulumi_run(program)
    assert [r.type for r in run.records] == ["pulumi:pulumi:Stack"]  # nothing half-made
    return errors


def test_version_below_the_dws_floor_is_rejected(pulumi_run):
    assert errors_of(pulumi_run, {"location": "us-east5", "create": True, "service_account": SA,
                                  "min_master_version": "1.31.5-gke.1000000"}) == [
        "minMasterVersion: '1.31.5-gke.1000000' is older than 1.32.2-gke.1652000, the minimum for flex-start GPU "
        "pools, the earliest DWS capacity model; allowed: 1.32.2-gke.1652000 or later"]


def test_creating_needs_a_dedicated_service_account(pulumi_run):
    assert errors_of(pulumi_run, {"location": "us-east5", "create": True}) == [
        "serviceAccount: is required: the email of a dedicated node service account"]
    (error,) = errors_of(pulumi_run, {"location": "us-east5", "create": True,
                                      "service_account": "1234-compute@developer.gserviceaccount.com"})
    assert "Compute Engine default service account" in error


def test_unknown_release_channel(pulumi_run):
    assert errors_of(pulumi_run, {"location": "us-east5", "create": True, "service_account": SA,
                                  "release_channel": "FAST"}) == [
        "releaseChannel: 'FAST' is not allowed; allowed: RAPID, REGULAR, STABLE, EXTENDED"]


def test_initial_version_prefers_the_channel_default_at_or_above_the_floor():
    defaults = {"REGULAR": "1.33.5-gke.1308000", "EXTENDED": "1.32.9-gke.1130000"}
    valid = ["1.34.1-gke.3084001", "1.33.5-gke.1308000", "1.32.9-gke.1130000"]
    assert initial_version("REGULAR", defaults, valid) == "1.33.5-gke.1308000"
    assert initial_version("EXTENDED", defaults, valid) == "1.34.1-gke.3084001"  # default too old: newest valid
    with pytest.raises(ValueError, match="no GKE version at or above 1.33.0-gke.1712000"):
        initial_version("EXTENDED", defaults, ["1.32.9-gke.1130000"])
