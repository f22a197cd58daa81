"""gkecap.policy_pack.messages: requests in wire form parse to the messages built field by field."""

from __future__ import annotations

from pathlib import Path

import pytest
from pulumi.runtime.proto import analyzer_pb2

from gkecap.engine.program import find_program
from gkecap.engine.run import run_program
from gkecap.engine.stack_config import load_stack_config
from gkecap.policy_pack import messages
from testkit.engine_fixtures import PROGRAMS

STACKS = Path(__file__).resolve().parents[3] / "stacks"


def _records(program_dir: Path, stack: str):
    program = find_program(program_dir)
    stack_file = program.stack_file(stack)
    return run_program(program, stack, load_stack_config(stack_file if stack_file.is_file() else None, program.project)).records


@pytest.mark.parametrize(
    ("program_dir", "stack"),
    [(STACKS, "dev"), (PROGRAMS / "raw_resources", "test"), (PROGRAMS / "reads_and_providers", "dev"), (PROGRAMS / "output_chains", "dev")],
    ids=["dev", "raw_resources", "reads_and_providers", "output_chains"],
)
def test_analyze_stack_request_bytes_parse_to_the_built_request(program_dir, stack):
    records = _records(program_dir, stack)
    providers = {r.urn: r for r in records if r.is_provider}
    built = messages.analyze_stack_request(records, providers)
    parsed = analyzer_pb2.AnalyzeStackRequest.FromString(messages.analyze_stack_request_bytes(records, providers))
    assert len(parsed.resources) == len(built.resources) > 0
    assert parsed == built


@pytest.mark.parametrize(
    ("program_dir", "stack"), [(STACKS, "dev"), (PROGRAMS / "reads_and_providers", "dev")], ids=["dev", "reads_and_providers"]
)
def test_analyze_request_bytes_parse_to_the_built_request(program_dir, stack):
    records = _records(program_dir, stack)
    providers = {r.urn: r for r in records if r.is_provider}
    cache: dict = {}
    used = set()
    for record in records:
        provider = messages.provider_of(record, providers)
        if provider is not None:
            used.add(provider.urn)
        parsed = analyzer_pb2.AnalyzeRequest.FromString(messages.analyze_request_bytes(record, provider, cache))
        assert parsed == messages.analyze_request(record, provider), record.urn
    assert used and len(cache) == len(used)  # a provider's field is serialized once, then reused


def test_resource_references_are_downgraded_in_wire_form_too():
    # The engine marshals a reference to another resource as that resource's id for an analyzer.
    from google.protobuf import struct_pb2

    from gkecap.engine.resource_record import ResourceRecord
    from gkecap.engine.struct_values import RESOURCE_REF_SIG, SIG_KEY

    inputs = struct_pb2.Struct()
    inputs.update({"network": {SIG_KEY: RESOURCE_REF_SIG, "urn": "urn:pulumi:dev::p::gcp:compute/network:Network::net", "id": "net-1"}})
    record = ResourceRecord(
        urn="urn:pulumi:dev::p::gcp:container/cluster:Cluster::c", type="gcp:container/cluster:Cluster", name="c", custom=True,
        parent=None, dependencies=(), property_dependencies={}, provider=None, id="c", options={}, inputs_struct=inputs, output_extra={},
    )
    assert RESOURCE_REF_SIG.encode() in record.properties_wire(outputs=record.has_outputs)
    parsed = analyzer_pb2.AnalyzeStackRequest.FromString(messages.analyze_stack_request_bytes([record], {}))
    assert parsed == messages.analyze_stack_request([record], {})
    assert parsed.resources[0].properties.fields["network"].string_value == "net-1"
    analyze = analyzer_pb2.AnalyzeRequest.FromString(messages.analyze_request_bytes(record, None, {}))
    assert analyze == messages.analyze_request(record, None)
    assert analyze.properties.fields["network"].string_value == "net-1"
