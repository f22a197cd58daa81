"""Wire values (protobuf Struct with Pulumi's signatures) to plain data."""

from google.protobuf import struct_pb2

from gkecap.engine.struct_values import (
    RESOURCE_REF_SIG,
    SECRET,
    SECRET_SIG,
    SIG_KEY,
    UNKNOWN,
    UNKNOWN_SENTINEL,
    downgrade_resource_refs,
    has_resource_refs,
    struct_to_plain,
)


def _struct(data):
    struct = struct_pb2.Struct()
    struct.update(data)
    return struct


def test_numbers_strings_lists_and_maps():
    assert struct_to_plain(_struct({"n": 4, "f": 0.5, "s": "x", "l": [1, True], "m": {"k": None}})) == {"n": 4, "f": 0.5, "s": "x", "l": [1, True], "m": {"k": None}}


def test_secrets_and_unknowns_are_markers():
    plain = struct_to_plain(_struct({"token": {SIG_KEY: SECRET_SIG, "value": "hunter2"}, "endpoint": UNKNOWN_SENTINEL}))
    assert plain == {"token": SECRET, "endpoint": UNKNOWN}


def test_resource_references_become_the_referenced_id():
    ref = {SIG_KEY: RESOURCE_REF_SIG, "urn": "urn:pulumi:s::p::gcp:container/cluster:Cluster::c", "id": "projects/p/clusters/c"}
    struct = _struct({"cluster": ref, "components": [{SIG_KEY: RESOURCE_REF_SIG, "urn": "urn:pulumi:s::p::x:index:C::c"}]})
    assert has_resource_refs(struct)
    assert struct_to_plain(downgrade_resource_refs(struct)) == {"cluster": "projects/p/clusters/c", "components": ["urn:pulumi:s::p::x:index:C::c"]}
    assert struct_to_plain(struct)["cluster"] == "projects/p/clusters/c"
    assert not has_resource_refs(_struct({"a": 1}))
