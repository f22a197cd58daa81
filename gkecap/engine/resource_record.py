"""One resource as the engine saw it: a registration of the program, or a resource of a stack export.

Records keep the wire form (protobuf Structs, serialized) and convert to plain data on first use, so
recording tens of thousands of registrations costs little time and memory and the policy pack receives
the exact properties the program sent.
"""

from __future__ import annotations

from typing import Any

from google.protobuf import struct_pb2

from gkecap.engine.struct_values import OUTPUT_VALUE_SIG, SECRET_SIG, non_finite_paths, struct_to_plain

ROOT_STACK_TYPE = "pulumi:pulumi:Stack"
PROVIDER_TYPE_PREFIX = "pulumi:providers:"


def urn_qualified_type(urn: str) -> str:
    """`a$b$type` of `urn:pulumi:stack::project::a$b$type::name`."""
    return urn.split("::", 3)[2]


def make_urn(stack: str, project: str, parent: str, type_: str, name: str) -> str:
    # As the engine builds URNs (sdk/go/common/resource/urn: NewURN): a child's type is prefixed with
    # its parent's full qualified type, except under the root stack.
    if parent:
        parent_type = urn_qualified_type(parent)
        if parent_type != ROOT_STACK_TYPE:
            type_ = f"{parent_type}${type_}"
    return f"urn:pulumi:{stack}::{project}::{type_}::{name}"


class ResourceRecord:
    """A resource: identity, relations, options, inputs and outputs (plain data, converted lazily).

    The wire form is kept serialized: a protobuf Struct in memory is about ten times its encoded size, and a
    1,000-team organisation registers tens of MB of properties. A custom resource's outputs are its inputs
    plus the few fields the (mocked) provider computed (`output_extra`), built when read.
    """

    __slots__ = (
        "urn",
        "type",
        "name",
        "custom",
        "parent",
        "dependencies",
        "property_dependencies",
        "provider",
        "id",
        "external",
        "options",
        "_inputs_wire",
        "_outputs_wire",
        "_output_extra",
        "_inputs",
        "_outputs",
    )

    def __init__(
        self,
        *,
        urn: str,
        type: str,  # noqa: A002 -- the engine's field name
        name: str,
        custom: bool,
        parent: str | None,
        dependencies: tuple[str, ...],
        property_dependencies: dict[str, tuple[str, ...]],
        provider: str | None,
        id: str | None,  # noqa: A002
        options: dict[str, Any],
        inputs_struct: struct_pb2.Struct | None = None,
        outputs_struct: struct_pb2.Struct | None = None,
        inputs: dict[str, Any] | None = None,
        outputs: dict[str, Any] | None = None,
        external: bool = False,
        output_extra: dict[str, Any] | None = None,
    ) -> None:
        """`output_extra` (with `inputs_struct`, without `outputs_struct`): outputs are the inputs updated
        with these fields, as `Struct.update` merges them."""
        self.urn = urn
        self.type = type
        self.name = name
        self.custom = custom
        self.parent = parent
        self.dependencies = dependencies
        self.property_dependencies = property_dependencies
        self.provider = provider
        self.id = id
        self.external = external
        self.options = options
        self._inputs_wire = _wire(inputs_struct)
        self._outputs_wire = _wire(outputs_struct)
        self._output_extra = output_extra if outputs_struct is None else None
        self._inputs = inputs
        self._outputs = outputs

    @property
    def inputs_struct(self) -> struct_pb2.Struct | None:
        """The inputs as sent on the wire (a new Struct each time; None when only plain data is known)."""
        return _struct(self._inputs_wire)

    @property
    def outputs_struct(self) -> struct_pb2.Struct | None:
        """The outputs in wire form (a new Struct each time; None when only plain data, or none, is known)."""
        if self._outputs_wire is not None:
            return _struct(self._outputs_wire)
        if self._output_extra is not None and self._inputs_wire is not None:
            outputs = _struct(self._inputs_wire)
            if outputs is not None and self._output_extra:
                outputs.update(self._output_extra)
            return outputs
        return None

    @property
    def inputs(self) -> dict[str, Any]:
        """Inputs as the engine sees them: camelCase keys, plain values (see gkecap.engine.struct_values)."""
        if self._inputs is None:
            struct = self.inputs_struct
            self._inputs = struct_to_plain(struct) if struct is not None else {}
        return self._inputs

    @property
    def outputs(self) -> dict[str, Any]:
        """Outputs: for a custom resource its inputs plus what the (mocked) provider computed; for a
        component what it passed to `register_outputs`; for the stack its exports."""
        if self._outputs is None:
            struct = self.outputs_struct
            self._outputs = struct_to_plain(struct) if struct is not None else {}
        return self._outputs

    def set_outputs(self, outputs_struct: struct_pb2.Struct) -> None:
        self._outputs_wire = _wire(outputs_struct)
        self._output_extra = None
        self._outputs = None

    def properties_struct(self, *, outputs: bool) -> struct_pb2.Struct:
        """The wire form of inputs (or outputs), building it from plain data when only that is known."""
        struct = self.outputs_struct if outputs else self.inputs_struct
        if struct is None:
            struct = struct_pb2.Struct()
            data = self._outputs if outputs else self._inputs
            if data:
                struct.update(data)
        return struct

    def properties_wire(self, *, outputs: bool) -> bytes:
        """`properties_struct(outputs=...)` serialized (deterministic), without a parse where the record holds it."""
        wire = self._outputs_wire if outputs else self._inputs_wire
        return wire if wire is not None else self.properties_struct(outputs=outputs).SerializeToString(deterministic=True)

    def non_finite_inputs(self) -> list[str]:
        """Paths of NaN/Infinity inputs: no Pulumi encoding (JSON, the state file) can hold them."""
        return non_finite_paths(self._inputs_wire)

    def may_hold_secrets(self) -> bool:
        """Whether the inputs may hold a secret (a cheap byte check on the wire form; plain-only inputs: True)."""
        wire = self._inputs_wire
        return wire is None or SECRET_SIG.encode() in wire or OUTPUT_VALUE_SIG.encode() in wire

    @property
    def has_outputs(self) -> bool:
        computed = self._output_extra is not None and self._inputs_wire is not None
        return self._outputs_wire is not None or computed or self._outputs is not None

    @property
    def is_provider(self) -> bool:
        return self.type.startswith(PROVIDER_TYPE_PREFIX)

    def to_json(self) -> dict[str, Any]:
        """The `resources[]` entry of `gkecap plan --format json`."""
        return {
            "urn": self.urn,
            "type": self.type,
            "name": self.name,
            "parent": self.parent,
            "dependencies": list(self.dependencies),
            "inputs": self.inputs,
            "options": self.options,
        }

    def __repr__(self) -> str:
        return f"ResourceRecord({self.urn!r})"


def _wire(struct: struct_pb2.Struct | None) -> bytes | None:
    return struct.SerializeToString(deterministic=True) if struct is not None else None


def _struct(wire: bytes | None) -> struct_pb2.Struct | None:
    if wire is None:
        return None
    struct = struct_pb2.Struct()
    struct.ParseFromString(wire)
    return struct
