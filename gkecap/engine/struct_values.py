"""Property values on the wire (protobuf Struct, Pulumi's encoding) as plain JSON-ready data.

Pulumi encodes special values inside the Struct as maps with a signature key (sdk/go/common/resource/
properties.go; pulumi/runtime/rpc.py): secrets, resource references, assets and archives; unknown
values (preview) are sentinel strings. As plain data, a secret becomes `SECRET` (its value never
reaches a report), an unknown becomes `UNKNOWN`, a resource reference becomes the referenced
resource's id (its URN for a component), as the engine downgrades references for a consumer that does
not accept them. Integral numbers become int: the Struct holds every number as a double.
"""

from __future__ import annotations

import math
import re
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


# A Value's number_value is field 2, a double (wire type 1): tag 0x11, then 8 little-endian bytes. NaN and
# the infinities have every exponent bit set: the last two bytes are [xF-] [x7F|xFF]. A byte search finds
# candidates in C; only then is the Struct walked for their paths.
_NON_FINITE_CANDIDATE = re.compile(rb"\x11.{6}[\xf0-\xff][\x7f\xff]", re.DOTALL)


def non_finite_paths(wire: bytes | None) -> list[str]:
    """Dotted paths of NaN/Infinity numbers in a serialized Struct (Pulumi's JSON-based encodings have none)."""
    if not wire or _NON_FINITE_CANDIDATE.search(wire) is None:
        return []
    struct = struct_pb2.Struct()
    struct.ParseFromString(wire)
    found: list[str] = []
    for key, value in struct.fields.items():
        _non_finite(value, key, found)
    return found


def _non_finite(value: struct_pb2.Value, path: str, found: list[str]) -> None:
    kind = value.WhichOneof("kind")
    if kind == "number_value" and not math.isfinite(value.number_value):
        found.append(path)
    elif kind == "struct_value":
        for key, item in value.struct_value.fields.items():
            _non_finite(item, f"{path}.{key}", found)
    elif kind == "list_value":
        for index, item in enumerate(value.list_value.values):
            _non_finite(item, f"{path}[{index}]", found)
