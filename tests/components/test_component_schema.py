"""The components form a Pulumi component package other languages can use (`pulumi package add`).

Pulumi infers the package schema from the components' annotations with its analyzer
(pulumi.provider.experimental.analyzer); the plugin (components/__main__.py, PulumiPlugin.yaml) serves
it over the provider gRPC protocol, and maps a consumer's inputs back to the Python arguments.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import grpc
import pytest
import yaml
from pulumi.provider.experimental.analyzer import Analyzer, PropertyType
from pulumi.provider.experimental.component import ComponentProvider
from pulumi.runtime.proto import provider_pb2, provider_pb2_grpc

COMPONENTS_DIR = Path(__file__).resolve().parents[2] / "components"
plugin = importlib.import_module("gkecap.components.__main__")


@pytest.fixture(scope="module")
def analysis():
    return Analyzer(plugin.PACKAGE_NAME).analyze(plugin.COMPONENTS)


def test_every_component_is_analyzed(analysis):
    assert sorted(analysis["component_definitions"]) == ["AcceleratorNodePool", "CalendarReservation", "Environment",
                                                         "GkeCluster", "KueueInstall", "KueueObjects",
                                                         "VertexTrainingQuota"]
    assert sorted(analysis["type_definitions"]) == ["AttachedGpuArgs", "GpuSharingArgs", "MultiKueueSettingsArgs",
                                                    "NodeTaintArgs", "RequeuingStrategyArgs", "ReservationTargetArgs",
                                                    "SystemPoolArgs", "WaitForPodsReadyArgs"]


def test_node_pool_inputs(analysis):
    inputs = analysis["component_definitions"]["AcceleratorNodePool"].inputs
    required = sorted(name for name, prop in inputs.items() if not prop.optional)
    assert required == ["capacity", "cluster", "location", "machineType", "serviceAccount"]
    # What decides the node pools' shape must be known when the program runs: plain in the schema.
    assert {n for n in ("machineType", "capacity", "tpuTopology", "slices", "maxNodes") if inputs[n].plain} == {
        "machineType", "capacity", "tpuTopology", "slices", "maxNodes"}
    assert not inputs["cluster"].plain and not inputs["serviceAccount"].plain  # may come from other resources
    assert inputs["maxNodes"].type == PropertyType.INTEGER
    assert inputs["reservation"].ref == "#/types/gkecap:index:ReservationTargetArgs"
    assert inputs["taints"].items.ref == "#/types/gkecap:index:NodeTaintArgs"
    assert inputs["maxRunDurationSeconds"].description.startswith("Flex-start and queued pools")


def test_component_outputs(analysis):
    defs = analysis["component_definitions"]
    assert sorted(defs["AcceleratorNodePool"].outputs) == ["maxAccelerators", "maxNodes", "nodePoolNames", "nodeSelector"]
    assert sorted(defs["CalendarReservation"].outputs) == ["count", "endTime", "planningStatus", "reservationName",
                                                           "startTime", "zone"]
    assert sorted(defs["GkeCluster"].outputs) == ["clusterCaCertificate", "endpoint", "kubeconfig", "location",
                                                  "name", "project"]


def test_reservation_target_type(analysis):
    target = analysis["type_definitions"]["ReservationTargetArgs"]
    assert {name: prop.optional for name, prop in target.properties.items()} == {
        "name": False, "project": True, "block": True}


def test_plugin_manifest_runs_python():
    manifest = yaml.safe_load((COMPONENTS_DIR / "PulumiPlugin.yaml").read_text())
    assert manifest["runtime"]["name"] == "python"
    assert (COMPONENTS_DIR / "__main__.py").is_file()


def test_plugin_serves_the_schema_over_grpc():
    # Start the plugin as the language host would and ask it for its schema, as `pulumi package add` does.
    process = subprocess.Popen(
        [sys.executable, str(COMPONENTS_DIR / "__main__.py"), "127.0.0.1:1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        port = process.stdout.readline().strip()
        assert port.isdigit(), process.stderr.read()
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = provider_pb2_grpc.ResourceProviderStub(channel)
            schema = json.loads(stub.GetSchema(provider_pb2.GetSchemaRequest(version=0), timeout=60).schema)
    finally:
        process.kill()
        process.wait()
    assert schema["name"] == "gkecap"
    assert sorted(schema["resources"]) == [
        "gkecap:index:AcceleratorNodePool", "gkecap:index:CalendarReservation", "gkecap:index:Environment",
        "gkecap:index:GkeCluster", "gkecap:index:KueueInstall", "gkecap:index:KueueObjects",
        "gkecap:index:VertexTrainingQuota"]
    assert all(resource["isComponent"] for resource in schema["resources"].values())
    pool = schema["resources"]["gkecap:index:AcceleratorNodePool"]
    assert pool["inputProperties"]["capacity"] == {
        "description": "Capacity model: flex-start, queued, calendar, reservation, spot or on-demand.",
        "$ref": "#/types/gkecap:index:CapacityModel", "plain": True}


def test_provider_maps_consumer_inputs_to_the_component(pulumi_run):
    # Another language sends camelCase inputs with integers as floats; the provider maps them back.
    provider = ComponentProvider(plugin.COMPONENTS, plugin.PACKAGE_NAME)
    definition = provider._component_defs["AcceleratorNodePool"]
    mapped = provider.map_inputs(
        {"cluster": "ml", "location": "us-east5", "machineType": "a3-highgpu-8g", "capacity": "queued",
         "serviceAccount": "gke-nodes@acme-ml.iam.gserviceaccount.com", "maxNodes": 4.0, "zones": ["us-east5-a"],
         "gpuSharing": {"strategy": "MPS", "maxSharedClientsPerGpu": 2.0}},
        definition,
    )
    run = pulumi_run(lambda: plugin.AcceleratorNodePool("h100", mapped))
    inputs = run.one("gcp:container/nodePool:NodePool").inputs
    assert inputs["autoscaling"]["totalMaxNodeCount"] == 4
    assert inputs["nodeConfig"]["guestAccelerators"][0]["gpuSharingConfig"] == {
        "gpuSharingStrategy": "MPS", "maxSharedClientsPerGpu": 2}
