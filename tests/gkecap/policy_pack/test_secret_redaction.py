"""Secret plaintexts are replaced in violation messages (gkecap.policy_pack.secret_redaction)."""

from google.protobuf import struct_pb2

from gkecap.engine.resource_record import ResourceRecord
from gkecap.engine.struct_values import OUTPUT_VALUE_SIG, SECRET_SIG, SIG_KEY
from gkecap.policy_pack.results import Diagnostic
from gkecap.policy_pack.secret_redaction import redact, secret_texts


def record(inputs: dict) -> ResourceRecord:
    struct = struct_pb2.Struct()
    struct.update(inputs)
    return ResourceRecord(urn="urn:pulumi:s::p::t::r", type="t", name="r", custom=True, parent=None, dependencies=(),
                          property_dependencies={}, provider=None, id=None, options={}, inputs_struct=struct)


def diagnostic(message: str) -> Diagnostic:
    return Diagnostic("p", "pack", "1", "mandatory", None, message, "")


def test_secret_and_secret_outputs_are_collected():
    found = secret_texts([record({
        "a": {SIG_KEY: SECRET_SIG, "value": "hunter2"},
        "b": {SIG_KEY: OUTPUT_VALUE_SIG, "secret": True, "value": {"deep": ["s3cr3t-token"]}},
        "c": "public",
        "d": {SIG_KEY: SECRET_SIG, "value": "no"},  # too short to redact
    })])
    assert found == {"hunter2", "s3cr3t-token"}


def test_messages_are_redacted_longest_first():
    [out] = redact([diagnostic("saw hunter2 and hunter22")], {"hunter2", "hunter22"})
    assert out.message == "saw [secret] and [secret]"


def test_records_without_secrets_are_not_read():
    assert secret_texts([record({"a": "hunter2"})]) == set()


def test_a_secret_quoted_in_any_notation_is_redacted():
    # A rule may quote a value with repr(), or a message may carry it JSON- or YAML-escaped (issue 25).
    import json

    from gkecap.manifests import yaml_double_quoted

    secret = "zz-S3CRET\\val\nue"
    for quoted in (secret, repr(secret), json.dumps(secret), yaml_double_quoted(secret), repr({"k": secret})):
        [redacted] = redact([diagnostic(f"machine type {quoted} is unknown")], {secret})
        assert "S3CRET" not in redacted.message and "[secret]" in redacted.message, quoted
