"""Property values on the wire (protobuf Struct, Pulumi's encoding) as plain JSON-ready data.

Pulumi encodes special values inside the Struct as maps with a signature key (sdk/go/common/resource/
properties.go; pulumi/runtime/rpc.py): secrets, resource references, assets and archives; unknown
values (preview) are sentinel strings. As plain data, a secret becomes `SECRET` (its value never
reaches a report), an unknown becomes `UNKNOWN`, a resource reference becomes the referenced
resource's id (its URN for a component), as the engine downgrades references for a consumer that does
not accept them. Integral numbers become int: the Struct holds every number as a double.
"""

from __future__ import annotations

from typing import Any

from google.protobuf import struct_pb2

SIG_KEY = "4dabf18193072939515e22adb298388d"
SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270"
RESOURCE_REF_SIG = "5cf8f73096256a8f31e491e813e4eb8e"
OUTPUT_VALUE_SIG = "d0e6a833031e9bbcd3f4e8bde6ca49a4"
UNKNOWN_SENTINEL = "04da6b54-80e4-46f7-96ec-b56ff0331ba9"

SECRET = "[secret]"
UNKNOWN = "[unknown]"


def struct_to_plain(struct: struct_pb2.Struct) -> dict[str, Any]:
    return {key: _value(value) for key, value in struct.fields.items()}


def _value(value: struct_pb2.Value) -> Any:
    kind = value.WhichOneof("kind")
    if kind == "string_value":
        text = value.string_value
        return UNKNOWN if text == UNKNOWN_SENTINEL else text
    if kind == "number_value":
        number = value.number_value
        return int(number) if number.is_integer() else number
    if kind == "bool_value":
        return value.bool_value
    if kind == "struct_value":
        fields = value.struct_value.fields
        if SIG_KEY in fields:
            return _special(fields)
        return {key: _value(item) for key, item in fields.items()}
    if kind == "list_value":
        return [_value(item) for item in value.list_value.values]
    return None


def _special(fields: Any) -> Any:
    sig = fields[SIG_KEY].string_value
    if sig == SECRET_SIG:
        return SECRET
    if sig == RESOURCE_REF_SIG:
        ref_id = fields["id"].string_value if "id" in fields else ""
        return ref_id or fields["urn"].string_value
    if sig == OUTPUT_VALUE_SIG:
        if fields["secret"].bool_value if "secret" in fields else False:
            return SECRET
        return _value(fields["value"]) if "value" in fields else UNKNOWN
    # Assets and archives: their fields without the signature.
    return {key: _value(item) for key, item in fields.items() if key != SIG_KEY}


def has_resource_refs(struct: struct_pb2.Struct) -> bool:
    """Whether `struct` holds a resource reference (cheap byte check before a walk)."""
    return RESOURCE_REF_SIG.encode() in struct.SerializeToString()


def downgrade_resource_refs(struct: struct_pb2.Struct) -> struct_pb2.Struct:
    """A copy of `struct` with each resource reference replaced by the referenced id (or URN),
    as the engine marshals properties for an analyzer (MarshalOptions without KeepResources)."""
    copy = struct_pb2.Struct()
    copy.CopyFrom(struct)
    for value in copy.fields.values():
        _downgrade(value)
    return copy


def _downgrade(value: struct_pb2.Value) -> None:
    kind = value.WhichOneof("kind")
    if kind == "struct_value":
        fields = value.struct_value.fields
        if SIG_KEY in fields and fields[SIG_KEY].string_value == RESOURCE_REF_SIG:
            ref_id = fields["id"].string_value if "id" in fields else ""
            value.string_value = ref_id or fields["urn"].string_value
            return
        for item in fields.values():
            _downgrade(item)
    elif kind == "list_value":
        for item in value.list_value.values:
            _downgrade(item)
