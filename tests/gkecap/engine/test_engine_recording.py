"""The offline engine records what a raw program registers: inputs, options, parents, dependencies."""

import base64

import pytest

from gkecap.engine.run import ProgramFailed, run_program
from gkecap.engine.program import find_program
from gkecap.engine.stack_config import load_stack_config
from gkecap.engine.struct_values import SECRET
from testkit.engine_fixtures import PROGRAMS

STACK = "urn:pulumi:test::raw-resources::pulumi:pulumi:Stack::raw-resources-test"
CLUSTER = "urn:pulumi:test::raw-resources::gcp:container/cluster:Cluster::ml"
POOL = "urn:pulumi:test::raw-resources::gcp:container/nodePool:NodePool::v6e-16"
QUEUES = "urn:pulumi:test::raw-resources::test:index:Queues::kueue"
QUEUE = "urn:pulumi:test::raw-resources::test:index:Queues$kubernetes:kueue.x-k8s.io/v1beta2:ClusterQueue::kueue-cq"


def _run(name: str, stack: str):
    program = find_program(PROGRAMS / name)
    config = load_stack_config(program.stack_file(stack) if program.stack_file(stack).is_file() else None, program.project)
    return run_program(program, stack, config)


@pytest.fixture(scope="module")
def raw():
    run = _run("raw_resources", "test")
    return run, {r.urn: r for r in run.records}


def test_every_registration_is_recorded_once_in_order(raw):
    urns = [r.urn for r in raw[0].records]
    assert sorted(urns) == sorted([STACK, CLUSTER, QUEUES, POOL, QUEUE])
    # Independent registrations may interleave; one that waits on another's outputs comes after it.
    assert urns[0] == STACK
    assert urns.index(CLUSTER) < urns.index(POOL) < urns.index(QUEUE)
    assert urns.index(QUEUES) < urns.index(QUEUE)


def test_inputs_are_camel_case_plain_values(raw):
    pool = raw[1][POOL]
    assert pool.inputs["autoscaling"] == {"totalMinNodeCount": 0, "totalMaxNodeCount": 4, "locationPolicy": "ANY"}
    assert pool.inputs["placementPolicy"] == {"type": "COMPACT", "tpuTopology": "4x4"}
    assert pool.inputs["nodeConfig"]["machineType"] == "ct6e-standard-4t"
    assert pool.inputs["cluster"] == "ml-test"  # an output of the cluster, resolved by the mock


def test_structured_config_reaches_the_program(raw):
    queue = raw[1][QUEUE]
    assert queue.inputs["metadata"] == {"name": "vision"}
    assert queue.inputs["spec"]["resourceGroups"][0]["flavors"][0]["resources"][0]["nominalQuota"] == 16


def test_invoke_answers_flow_into_inputs(raw):
    pool = raw[1][POOL]
    assert pool.inputs["nodeLocations"] == ["us-east5-a"]  # first zone of us-east5 from get_zones
    assert pool.inputs["nodeConfig"]["labels"]["project-number"].isdigit()  # get_project().number


def test_options_are_recorded(raw):
    by_urn = raw[1]
    pool, queue, cluster = by_urn[POOL].options, by_urn[QUEUE].options, by_urn[CLUSTER].options
    assert (pool["protect"], pool["ignoreChanges"], pool["deleteBeforeReplace"]) == (True, ["nodeCount", "initialNodeCount"], True)
    assert (queue["retainOnDelete"], queue["protect"]) == (True, False)
    assert (cluster["protect"], cluster["deleteBeforeReplace"], cluster["retainOnDelete"]) == (False, None, None)
    assert pool["custom"] and not by_urn[QUEUES].options["custom"]


def test_parents_follow_the_engine_urn_scheme(raw):
    by_urn = raw[1]
    assert by_urn[QUEUE].parent == QUEUES  # child type carries its parent's type: Queues$...ClusterQueue
    assert by_urn[CLUSTER].parent == STACK  # children of the stack carry no prefix
    assert by_urn[STACK].parent is None


def test_dependencies_and_property_dependencies(raw):
    by_urn = raw[1]
    assert by_urn[POOL].dependencies == (CLUSTER,)
    assert by_urn[POOL].property_dependencies["cluster"] == (CLUSTER,)
    assert by_urn[QUEUE].dependencies == (POOL,)  # depends_on


def test_component_and_stack_outputs(raw):
    run, by_urn = raw
    assert by_urn[QUEUES].outputs == {"queueName": "vision"}
    exports = run.exports
    assert exports["apiKey"] == SECRET  # a secret config value never shows
    assert exports["start"] == "2026-12-07T00:00:00Z"
    assert exports["poolId"] == by_urn[POOL].id == "projects/acme-ml-test/locations/us-east5/clusters/ml-test/nodePools/" + by_urn[POOL].outputs["name"]


def test_custom_resources_get_provider_computed_outputs(raw):
    cluster = raw[1][CLUSTER].outputs
    assert cluster["endpoint"].startswith("34.") and cluster["endpoint"].count(".") == 3
    assert base64.b64decode(cluster["masterAuth"]["clusterCaCertificate"]).startswith(b"-----BEGIN CERTIFICATE-----")
    assert raw[1][QUEUE].outputs["metadata"]["uid"]  # Kubernetes metadata filled in
    assert raw[1][POOL].outputs["autoscaling"] == raw[1][POOL].inputs["autoscaling"]  # outputs keep the inputs


def test_program_error_is_raised_with_its_program_line():
    with pytest.raises(ProgramFailed) as failure:
        _run("failing", "dev")
    assert isinstance(failure.value.cause, KeyError)
    assert failure.value.location == "__main__.py:8"


def test_spec_error_in_the_program_keeps_its_issues():
    with pytest.raises(ProgramFailed) as failure:
        _run("spec_error", "bad")
    paths = [issue.path for issue in failure.value.cause.issues]
    assert paths == ["nodePools[0].tpuTopology", "teams[0].qouta"]


def test_a_second_run_in_the_same_process_starts_clean(raw):
    again = _run("raw_resources", "test")
    assert sorted(r.urn for r in again.records) == sorted(r.urn for r in raw[0].records)
    assert {r.urn: r.inputs for r in again.records} == {r.urn: r.inputs for r in raw[0].records}


def test_yaml_manifests_become_resources_under_their_component():
    records = {r.name: r for r in _run("yaml_manifests", "dev").records}
    assert records["l4"].type == "kubernetes:kueue.x-k8s.io/v1beta2:ResourceFlavor"  # v1: decoded through the invoke
    assert records["flavors-h100"].inputs["spec"]["nodeLabels"] == {"cloud.google.com/gke-accelerator": "nvidia-h100-80gb"}
    assert records["queues-vision/default"].type == "kubernetes:kueue.x-k8s.io/v1beta2:LocalQueue"
    cluster_queue = records["cluster-queues-research"]  # from a file, relative to the project directory
    assert cluster_queue.parent == records["cluster-queues"].urn
    assert cluster_queue.inputs["spec"]["resourceGroups"][0]["flavors"][0]["resources"][0]["nominalQuota"] == 8


def test_reads_explicit_providers_and_outputs_between_resources():
    records = {r.name: r for r in _run("reads_and_providers", "dev").records}
    existing = records["existing"]
    assert existing.external and existing.options["external"]
    assert (existing.outputs["name"], existing.outputs["location"]) == ("ml-prod", "us-east5")  # from the id read
    provider = records["k8s"]
    assert provider.inputs["kubeconfig"] == f"server: https://{existing.outputs['endpoint']}"
    namespace = records["vision"]
    assert namespace.provider == f"{provider.urn}::{provider.id}"
    assert namespace.options["customTimeouts"] == {"create": "5m", "update": "", "delete": ""}
    assert records["nodes-logging"].inputs["member"] == "serviceAccount:gke-nodes@offline-project.iam.gserviceaccount.com"


def test_an_error_raised_after_the_program_returned_fails_the_run():
    with pytest.raises(ProgramFailed) as failure:
        _run("late_failure", "dev")
    assert isinstance(failure.value.cause, ValueError)
    assert "no role for" in str(failure.value.cause)


def test_the_run_waits_for_chained_applies_and_resources_registered_in_an_apply():
    records = {r.name: r for r in _run("output_chains", "dev").records}
    email = records["nodes"].outputs["email"]
    assert records["nodes-role"].inputs["member"] == f"serviceAccount:{email}"
    assert records["late"].inputs["description"] == email  # registered from inside an apply
    stack = next(r for r in records.values() if r.type == "pulumi:pulumi:Stack")
    assert stack.outputs["email"] == email
