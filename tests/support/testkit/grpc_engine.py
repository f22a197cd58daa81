"""The engine's side of a provider's Construct, over gRPC: a ResourceMonitor that records what the provider
registers (gkecap's RecordingMonitor with the GCP mocks) and an Engine that collects its logs.

A component provider started as the Pulumi CLI starts it gets the engine address on its command line and the
monitor endpoint in each ConstructRequest, and registers the component's children through them; this serves
both on loopback for a test.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent import futures
from contextlib import contextmanager
from dataclasses import dataclass

import grpc
from google.protobuf import empty_pb2
from pulumi.runtime.proto import engine_pb2_grpc, resource_pb2, resource_pb2_grpc

from gkecap.engine.mocks import GkeMocks
from gkecap.engine.recording_monitor import RecordingMonitor
from gkecap.engine.run import RecordingEngine


class _Monitor(resource_pb2_grpc.ResourceMonitorServicer):
    def __init__(self, monitor: RecordingMonitor) -> None:
        self.monitor = monitor

    def SupportsFeature(self, request, context):  # noqa: N802
        return resource_pb2.SupportsFeatureResponse(hasSupport=self.monitor.SupportsFeature(request).hasSupport)

    def RegisterResourceOutputs(self, request, context):  # noqa: N802
        self.monitor.RegisterResourceOutputs(request)
        return empty_pb2.Empty()


# Every other monitor call goes to the RecordingMonitor as it is.
for _name in ("GetDeploymentInfo", "Invoke", "ReadResource", "RegisterResource", "RegisterPackage",
              "SignalAndWaitForShutdown", "RegisterStackTransform", "RegisterStackInvokeTransform"):
    setattr(_Monitor, _name, lambda self, request, context, _n=_name: getattr(self.monitor, _n)(request))


class _Engine(engine_pb2_grpc.EngineServicer):
    def __init__(self, engine: RecordingEngine) -> None:
        self.engine = engine

    def Log(self, request, context):  # noqa: N802
        self.engine.Log(request)
        return empty_pb2.Empty()


@dataclass
class EngineEndpoints:
    monitor: RecordingMonitor
    engine: RecordingEngine
    monitor_address: str
    engine_address: str
    stack_urn: str


@contextmanager
def serve_engine(project: str, stack: str, gcp_project: str, region: str) -> Iterator[EngineEndpoints]:
    """A monitor and an engine on loopback, with the stack's root resource registered."""
    monitor = RecordingMonitor(GkeMocks(project=gcp_project, region=region), project, stack)
    engine = RecordingEngine()
    stack_urn = monitor.RegisterResource(resource_pb2.RegisterResourceRequest(
        type="pulumi:pulumi:Stack", name=f"{project}-{stack}", custom=False)).urn
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    resource_pb2_grpc.add_ResourceMonitorServicer_to_server(_Monitor(monitor), server)
    engine_pb2_grpc.add_EngineServicer_to_server(_Engine(engine), server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        address = f"127.0.0.1:{port}"
        yield EngineEndpoints(monitor, engine, address, address, stack_urn)
    finally:
        server.stop(grace=None)
