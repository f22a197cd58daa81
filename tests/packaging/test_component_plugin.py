"""`pulumi package add <repo>/components` from another language, crossed as the Pulumi CLI crosses it: a fresh
clone, the venv PulumiPlugin.yaml names holding what the folder's requirements declare, the plugin started as the Python language host starts
it (`python <folder> <engine address>`), GetSchema and Construct over gRPC, and the children it registers
through a ResourceMonitor (testkit.grpc_engine). Every number crosses the wire as a double, as TypeScript, Go,
C#, Java and YAML send them."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import grpc
import pytest
import yaml
from google.protobuf import struct_pb2
from google.protobuf.json_format import MessageToDict
from pulumi.runtime.proto import provider_pb2, provider_pb2_grpc

from gkecap.components.environment import Environment
from gkecap.engine.recording_monitor import RecordingMonitor
from gkecap.engine.run import RecordingEngine, run_callable
from gkecap.engine.mocks import GkeMocks
from testkit.distribution import ROOT, child_env
from testkit.grpc_engine import serve_engine
from testkit.spec_data import as_doubles

GCP_PROJECT, REGION = "acme-ml-dev", "us-east5"
DEV = yaml.safe_load((ROOT / "stacks" / "Pulumi.dev.yaml").read_text())["config"]["gkecap:environment"]


@pytest.fixture(scope="module")
def engine():
    with serve_engine("gke-capacity", "dev", GCP_PROJECT, REGION) as endpoints:
        yield endpoints


@pytest.fixture(scope="module")
def plugin(plugin_clone, engine):
    """The plugin process, started from the clone as the language host starts it, and a client of its
    ResourceProvider service."""
    folder, python = plugin_clone
    process = subprocess.Popen([str(python), str(folder), engine.engine_address], cwd=folder.parent,
                               env=child_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        port = process.stdout.readline().strip()
        assert port.isdigit(), process.stderr.read()
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            yield provider_pb2_grpc.ResourceProviderStub(channel)
    finally:
        process.kill()
        process.wait()


def _construct(plugin, engine, environment) -> provider_pb2.ConstructResponse:
    inputs = struct_pb2.Struct()
    inputs.update({"environment": environment})
    request = provider_pb2.ConstructRequest(
        project="gke-capacity", stack="dev", organization="organization", dryRun=True, parallel=4,
        monitorEndpoint=engine.monitor_address, type="gkecap:index:Environment", name="dev",
        parent=engine.stack_urn, inputs=inputs, config={"gcp:project": GCP_PROJECT, "gcp:region": REGION},
    )
    return plugin.Construct(request, timeout=120)


def _in_process() -> list[tuple[str, str, str]]:
    """What the same environment registers from Python (ints, no wire): (type, name, inputs as JSON)."""
    monitor = RecordingMonitor(GkeMocks(project=GCP_PROJECT, region=REGION), "gke-capacity", "dev")
    run_callable(lambda: Environment("dev", {"environment": DEV}), monitor, RecordingEngine(),
                 config={"gcp:project": GCP_PROJECT, "gcp:region": REGION})
    return _registrations(monitor.records)


def _registrations(records) -> list[tuple[str, str, str]]:
    return sorted((r.type, r.name, json.dumps(r.inputs, sort_keys=True)) for r in records if r.type != "pulumi:pulumi:Stack")


def test_schema_over_grpc_types_the_environment(plugin):
    schema = json.loads(plugin.GetSchema(provider_pb2.GetSchemaRequest(version=0), timeout=60).schema)
    environment = schema["resources"]["gkecap:index:Environment"]["inputProperties"]["environment"]
    assert environment["$ref"] == "#/types/gkecap:index:EnvironmentSpec"
    assert schema["types"]["gkecap:index:NodePoolSpec"]["properties"]["maxNodes"]["type"] == "integer"


def test_environment_from_the_dev_stack_with_doubles_constructs_its_children(plugin, engine):
    response = _construct(plugin, engine, as_doubles(DEV))
    assert response.urn.endswith("gkecap:index:Environment::dev")
    registered = _registrations(engine.monitor.records)
    # The same children, with the same inputs (ints where the component has ints), as from Python.
    assert registered == _in_process()
    pools = [r for r in engine.monitor.records if r.type == "gcp:container/nodePool:NodePool"]
    assert sorted(r.inputs["autoscaling"]["totalMaxNodeCount"] for r in pools) == [2, 2]
    state = MessageToDict(response.state)
    assert sorted(state["pools"]) == ["h100-flex", "v6e-2x2"]


def test_a_fraction_is_an_error_at_its_path(plugin, engine):
    environment = as_doubles(DEV)
    environment["nodePools"][0]["maxNodes"] = 2.5
    with pytest.raises(grpc.RpcError) as raised:
        _construct(plugin, engine, environment)
    assert raised.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "environment.nodePools[0].maxNodes" in raised.value.details() + str(raised.value.trailing_metadata())


def test_the_plugin_runs_the_clones_code(plugin_clone):
    folder, python = plugin_clone
    where = subprocess.run([str(python), "-c", "import gkecap.components as c; print(c.__file__)"], cwd=folder.parent,
                           env=child_env(), capture_output=True, text=True, check=True).stdout.strip()
    assert Path(where) == folder / "__init__.py"
