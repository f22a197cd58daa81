"""A ResourceRecord keeps properties in wire form and builds a custom resource's outputs from its inputs."""

from google.protobuf import struct_pb2

from gkecap.engine.resource_record import ResourceRecord


def _struct(data: dict) -> struct_pb2.Struct:
    struct = struct_pb2.Struct()
    struct.update(data)
    return struct


def _record(**wire) -> ResourceRecord:
    return ResourceRecord(urn="urn:pulumi:dev::p::gcp:x:Y::a", type="gcp:x:Y", name="a", custom=True, parent=None,
                          dependencies=(), property_dependencies={}, provider=None, id="a-id", options={}, **wire)


def test_outputs_are_the_inputs_updated_with_the_computed_fields():
    record = _record(inputs_struct=_struct({"name": "a", "size": 2, "labels": {"x": "1"}}),
                     output_extra={"name": "a-1234567", "email": "a@p.iam.gserviceaccount.com"})
    assert record.inputs == {"name": "a", "size": 2, "labels": {"x": "1"}}
    assert record.outputs == {"name": "a-1234567", "size": 2, "labels": {"x": "1"}, "email": "a@p.iam.gserviceaccount.com"}
    assert record.has_outputs


def test_registered_outputs_replace_computed_ones():
    record = _record(inputs_struct=_struct({"name": "a"}), output_extra={})
    record.set_outputs(_struct({"kubeconfig": "k"}))
    assert record.outputs == {"kubeconfig": "k"}


def test_a_record_without_outputs_says_so():
    record = _record(inputs_struct=_struct({"name": "a"}))
    assert not record.has_outputs
    assert record.outputs_struct is None and record.outputs == {}


def test_structs_read_from_a_record_are_copies():
    record = _record(inputs_struct=_struct({"name": "a"}), output_extra={})
    record.inputs_struct["name"] = "changed"
    record.outputs_struct["name"] = "changed"
    assert record.properties_struct(outputs=False)["name"] == "a"
    assert record.properties_struct(outputs=True)["name"] == "a"
