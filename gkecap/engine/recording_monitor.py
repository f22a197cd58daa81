"""A resource monitor for `pulumi.runtime` mocks that records every registration.

It subclasses pulumi's `MockMonitor` (pulumi/runtime/mocks.py) and replaces the registration calls:
the stock ones deserialize every input into Python objects and serialize the outputs back through the
SDK's async serializer; here the inputs stay the Struct the SDK sent (converted to plain data only when
read), and the outputs are that Struct plus the few fields the mocked provider computes. Invokes,
feature probes and the rest are the stock ones.
"""

from __future__ import annotations

import threading
from pathlib import Path
from collections.abc import Callable
from typing import Any

from google.protobuf import struct_pb2
from pulumi.runtime import rpc
from pulumi.runtime.mocks import MockMonitor
from pulumi.runtime.proto import resource_pb2

from gkecap.compat import pulumi_runtime
from gkecap.engine import remote_components
from gkecap.engine.mocks import GkeMocks
from gkecap.engine.resource_record import ROOT_STACK_TYPE, ResourceRecord, make_urn
from gkecap.engine.stack_references import STACK_REFERENCE_TYPE, reference_state
from gkecap.engine.struct_values import struct_to_plain


class RecordingMonitor(MockMonitor):
    """Records registrations (`records`, in registration order) and component/stack outputs.

    `on_record` (optional) is called with each new record from the SDK's worker thread, e.g. to stream
    it to the policy pack while the program still runs.
    """

    def __init__(
        self,
        mocks: GkeMocks,
        project: str,
        stack: str,
        on_record: Callable[[ResourceRecord], None] | None = None,
    ) -> None:
        super().__init__(mocks)
        self.mocks: GkeMocks = mocks
        self.project = project
        self.stack = stack
        self.on_record = on_record
        self.records: list[ResourceRecord] = []
        self.by_urn: dict[str, ResourceRecord] = {}
        self.invokes: list[str] = []
        self.notes: list[str] = []  # what could not be evaluated offline
        self.stack_outputs: dict[str, Any] = {}  # {stack name: outputs} for pulumi.StackReference
        self._lock = threading.Lock()

    # Engine URN scheme, not MockMonitor's (which drops all but the last parent type and keeps the stack's).
    def make_urn(self, parent: str, type_: str, name: str) -> str:
        return make_urn(self.stack, self.project, parent, type_, name)

    def RegisterResource(self, request: resource_pb2.RegisterResourceRequest) -> resource_pb2.RegisterResourceResponse:  # noqa: N802
        type_ = request.type
        name = request.name
        urn = self.make_urn(request.parent, type_, name)
        inputs = request.object
        custom = request.custom
        extra: dict[str, Any] | None = None  # a custom resource's outputs: its inputs updated with these
        if type_ == ROOT_STACK_TYPE:
            resource_id, outputs = "", struct_pb2.Struct()
        elif custom:
            resource_id, extra = self.mocks.computed_outputs(type_, name, inputs)
            extra = extra or {}
            if request.importId:
                resource_id = request.importId
            outputs = struct_pb2.Struct()
            outputs.CopyFrom(inputs)
            if extra:
                outputs.update(extra)
        elif request.remote:
            resource_id, outputs = "", struct_pb2.Struct()
            outputs.CopyFrom(inputs)  # a remote component echoes its inputs; its children come from _construct
        else:
            resource_id, outputs = "", struct_pb2.Struct()  # a component's outputs come from register_outputs
        record = ResourceRecord(
            urn=urn,
            type=type_,
            name=name,
            custom=custom,
            parent=request.parent or None,
            dependencies=tuple(request.dependencies),
            property_dependencies={k: tuple(v.urns) for k, v in request.propertyDependencies.items()},
            provider=request.provider or None,
            id=resource_id or None,
            options=_options(request),
            inputs_struct=inputs,
            outputs_struct=outputs if extra is None else None,
            output_extra=extra,
        )
        non_finite = record.non_finite_inputs()
        if non_finite:
            # Before the SDK fails on the echoed output with no name ("cannot convert float NaN to integer").
            raise ValueError(f"{type_} {name!r}: {', '.join(non_finite)}: NaN or Infinity is not a value a resource "
                             "input can hold (Pulumi's encodings are JSON numbers)")
        self._record(record)
        if request.remote:
            self._construct(record)
        return resource_pb2.RegisterResourceResponse(urn=urn, id=resource_id, object=outputs)

    def _construct(self, component: ResourceRecord) -> None:
        """Register what the provider's Construct would for a remote component we can expand."""
        children, notes = remote_components.expand(component.type, component.name, component.inputs, Path.cwd())
        self.notes += notes
        for child in children:
            resource_id, extra = self.mocks.computed_outputs(child.type, child.name, child.object)
            self._record(
                ResourceRecord(
                    urn=self.make_urn(component.urn, child.type, child.name),
                    type=child.type,
                    name=child.name,
                    custom=True,
                    parent=component.urn,
                    dependencies=(),
                    property_dependencies={},
                    provider=component.provider,
                    id=resource_id,
                    options={**_DEFAULT_OPTIONS, "provider": component.provider},
                    inputs=child.object,
                    outputs={**child.object, **extra},
                )
            )

    def ReadResource(self, request: resource_pb2.ReadResourceRequest) -> resource_pb2.ReadResourceResponse:  # noqa: N802
        # `Resource.get(...)`: an existing resource the program reads; the engine marks it external.
        urn = self.make_urn(request.parent, request.type, request.name)
        known = {**self.mocks.fields_of_id(request.id), **struct_to_plain(request.properties)}
        _, extra = self.mocks.computed_outputs(request.type, request.name, known)
        outputs = struct_pb2.Struct()
        outputs.CopyFrom(request.properties)
        outputs.update({**self.mocks.fields_of_id(request.id), **extra})
        if request.type == STACK_REFERENCE_TYPE:  # another stack's outputs, from --stack-outputs
            outputs.update(reference_state(request.id, self.stack_outputs))
        self._record(
            ResourceRecord(
                urn=urn,
                type=request.type,
                name=request.name,
                custom=True,
                parent=request.parent or None,
                dependencies=tuple(request.dependencies),
                property_dependencies={},
                provider=request.provider or None,
                id=request.id or None,
                options={"custom": True, "external": True, "provider": request.provider or None},
                inputs_struct=request.properties,
                outputs_struct=outputs,
                external=True,
            )
        )
        return resource_pb2.ReadResourceResponse(urn=urn, properties=outputs)

    def RegisterResourceOutputs(self, request: resource_pb2.RegisterResourceOutputsRequest) -> Any:  # noqa: N802
        record = self.by_urn.get(request.urn)
        if record is not None:
            record.set_outputs(request.outputs)
        return super().RegisterResourceOutputs(request)

    def Invoke(self, request: resource_pb2.ResourceInvokeRequest) -> resource_pb2.ResourceInvokeResponse:  # noqa: N802
        self.invokes.append(request.tok)
        if request.tok == "pulumi:pulumi:getResource":
            urn = str(request.args["urn"]) if "urn" in request.args else ""
            record = self.by_urn.get(urn)
            if record is None:
                raise Exception(f"unknown resource {urn}")  # noqa: TRY002 -- what MockMonitor raises
            state = {"urn": record.urn, "id": record.id or "", "state": record.outputs}
            response = resource_pb2.ResourceInvokeResponse()
            getattr(response, "return").CopyFrom(pulumi_runtime.run_awaitable(rpc.serialize_properties(state, {})))
            return response
        return super().Invoke(request)

    def ExistsResource(self, request: Any) -> Any:  # noqa: N802
        exists = any(r.id == request.id and r.type == request.type for r in self.records)
        return resource_pb2.ExistsResourceResponse(exists=exists)

    def _record(self, record: ResourceRecord) -> None:
        with self._lock:
            if record.urn in self.by_urn:
                # The engine rejects a second registration of one URN; so does this monitor.
                raise Exception(f"Duplicate resource URN '{record.urn}'; try giving it a unique name")  # noqa: TRY002
            self.records.append(record)
            self.by_urn[record.urn] = record
        if self.on_record is not None:
            self.on_record(record)


_DEFAULT_OPTIONS: dict[str, Any] = {
    "custom": True,
    "protect": False,
    "ignoreChanges": [],
    "deleteBeforeReplace": None,
    "retainOnDelete": None,
    "aliases": [],
    "additionalSecretOutputs": [],
    "replaceOnChanges": [],
    "customTimeouts": None,
    "deletedWith": None,
    "provider": None,
    "importId": None,
}


def _options(request: resource_pb2.RegisterResourceRequest) -> dict[str, Any]:
    """The registration's resource options, camelCase as in the engine's state."""
    options: dict[str, Any] = {
        "custom": request.custom,
        "protect": request.protect if request.HasField("protect") else False,
        "ignoreChanges": list(request.ignoreChanges),
        "deleteBeforeReplace": request.deleteBeforeReplace if request.deleteBeforeReplaceDefined else None,
        "retainOnDelete": request.retainOnDelete if request.HasField("retainOnDelete") else None,
        "aliases": [_alias(a) for a in request.aliases] + list(request.aliasURNs),
        "additionalSecretOutputs": list(request.additionalSecretOutputs),
        "replaceOnChanges": list(request.replaceOnChanges),
        "customTimeouts": None,
        "deletedWith": request.deletedWith or None,
        "provider": request.provider or None,
        "importId": request.importId or None,
    }
    if request.HasField("customTimeouts"):
        timeouts = request.customTimeouts
        options["customTimeouts"] = {"create": timeouts.create, "update": timeouts.update, "delete": timeouts.delete}
    if request.providers:
        options["providers"] = dict(request.providers)
    if request.remote:
        options["remote"] = True
    if request.version:
        options["version"] = request.version
    return options


def _alias(alias: Any) -> Any:
    if alias.HasField("urn"):
        return alias.urn
    spec = alias.spec
    out: dict[str, Any] = {k: v for k in ("name", "type", "stack", "project") if (v := getattr(spec, k))}
    if spec.HasField("parentUrn") and spec.parentUrn:  # empty: the resource's own parent
        out["parentUrn"] = spec.parentUrn
    if spec.HasField("noParent"):
        out["noParent"] = spec.noParent
    return out
