"""Mocked provider answers: realistic invokes and provider-computed outputs."""

from pulumi.runtime import MockCallArgs, MockResourceArgs

from gkecap.engine.mocks import CHANNEL_VERSIONS, GkeMocks, mocks_for_config, zones_of

mocks = GkeMocks(project="acme", region="us-east5")


def _call(token: str, **args):
    result, failures = mocks.call(MockCallArgs(token, args, ""))
    assert failures == []
    return result


def test_zones_of_a_region_follow_its_zone_letters():
    assert zones_of("us-east1") == ["us-east1-b", "us-east1-c", "us-east1-d"]
    assert _call("gcp:compute/getZones:getZones", region="us-central1")["names"] == ["us-central1-a", "us-central1-b", "us-central1-c", "us-central1-f"]


def test_get_cluster_has_endpoint_ca_and_versions():
    cluster = _call("gcp:container/getCluster:getCluster", name="ml-prod", location="us-east5")
    assert cluster["endpoint"].startswith("34.")
    assert cluster["masterAuths"][0]["clusterCaCertificate"]
    assert cluster["nodeVersion"] == cluster["masterVersion"] == CHANNEL_VERSIONS["REGULAR"]
    assert cluster["id"] == "projects/acme/locations/us-east5/clusters/ml-prod"


def test_engine_versions_honour_the_prefix():
    versions = _call("gcp:container/getEngineVersions:getEngineVersions", location="us-east5", versionPrefix="1.33.")
    assert versions["validMasterVersions"] and all(v.startswith("1.33.") for v in versions["validMasterVersions"])
    assert versions["releaseChannelDefaultVersion"]["RAPID"] == CHANNEL_VERSIONS["RAPID"]


def test_project_and_client_config_follow_the_stack():
    assert _call("gcp:organizations/getProject:getProject")["projectId"] == "acme"
    assert _call("gcp:organizations/getClientConfig:getClientConfig")["region"] == "us-east5"


def test_unknown_invokes_echo_their_arguments():
    assert _call("example:index:getThing", a=1) == {"a": 1}


def test_yaml_decode_parses_manifests():
    result = _call("kubernetes:yaml:decode", text="kind: Namespace\nmetadata: {name: a}\n---\nkind: Namespace\nmetadata: {name: b}\n")
    assert [d["metadata"]["name"] for d in result["result"]] == ["a", "b"]


def test_service_account_gets_its_email():
    _, outputs = mocks.new_resource(MockResourceArgs("gcp:serviceaccount/account:Account", "nodes", {"accountId": "gke-nodes"}))
    assert outputs["email"] == "gke-nodes@acme.iam.gserviceaccount.com"
    assert outputs["accountId"] == "gke-nodes"  # inputs pass through


def test_node_pool_id_and_autoname():
    resource_id, outputs = mocks.new_resource(MockResourceArgs("gcp:container/nodePool:NodePool", "gpu", {"cluster": "ml", "location": "us-east5"}))
    assert outputs["name"].startswith("gpu-") and len(outputs["name"]) == len("gpu-") + 7
    assert resource_id == f"projects/acme/locations/us-east5/clusters/ml/nodePools/{outputs['name']}"


def test_outputs_are_deterministic():
    args = MockResourceArgs("kubernetes:core/v1:Namespace", "ns", {"metadata": {}})
    assert mocks.new_resource(args) == mocks.new_resource(args)


def test_mocks_follow_the_stack_config():
    configured = mocks_for_config({"gcp:project": "p1", "gcp:region": "europe-west4"})
    assert (configured.project, configured.region, configured.zone) == ("p1", "europe-west4", "europe-west4-a")


def test_mocks_fall_back_to_the_environment_region():
    assert mocks_for_config({"gkecap:environment": {"region": "us-east5"}}).region == "us-east5"
