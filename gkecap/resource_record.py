"""One resource as the engine saw it: a registration of the program, or a resource of a stack export.

Records keep the wire form (protobuf Structs) and convert to plain data on first use, so recording
tens of thousands of registrations costs almost nothing and the policy pack receives the exact
properties the program sent.
"""

from __future__ import annotations

from typing import Any

from google.protobuf import struct_pb2

from gkecap.struct_values import struct_to_plain

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
    """A resource: identity, relations, options, inputs and outputs (plain data, converted lazily)."""

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
        "inputs_struct",
        "outputs_struct",
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
    ) -> None:
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
        self.inputs_struct = inputs_struct
        self.outputs_struct = outputs_struct
        self._inputs = inputs
        self._outputs = outputs

    @property
    def inputs(self) -> dict[str, Any]:
        """Inputs as the engine sees them: camelCase keys, plain values (see gkecap.struct_values)."""
        if self._inputs is None:
            self._inputs = struct_to_plain(self.inputs_struct) if self.inputs_struct is not None else {}
        return self._inputs

    @property
    def outputs(self) -> dict[str, Any]:
        """Outputs: for a custom resource its inputs plus what the (mocked) provider computed; for a
        component what it passed to `register_outputs`; for the stack its exports."""
        if self._outputs is None:
            self._outputs = struct_to_plain(self.outputs_struct) if self.outputs_struct is not None else {}
        return self._outputs

    def set_outputs(self, outputs_struct: struct_pb2.Struct) -> None:
        self.outputs_struct = outputs_struct
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

    @property
    def has_outputs(self) -> bool:
        return self.outputs_struct is not None or self._outputs is not None

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
