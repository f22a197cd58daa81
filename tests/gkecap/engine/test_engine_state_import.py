"""Reading a `pulumi stack export` file into records."""

import pytest

from gkecap.engine.state_import import StateError, load_state, records_from_export
from gkecap.engine.struct_values import SECRET
from testkit.engine_fixtures import STATES


def test_export_resources_become_records():
    records, stack, project = load_state(STATES / "stack_export.json")
    assert (stack, project) == ("prod", "ml-infra")
    pool = next(r for r in records if r.name == "h100-big")
    assert pool.inputs["autoscaling"]["totalMaxNodeCount"] == 6
    assert pool.options["protect"] is True
    assert pool.provider.startswith("urn:pulumi:prod::ml-infra::pulumi:providers:gcp::default_9_6_0::")


def test_secret_ciphertext_is_never_shown():
    records, _, _ = load_state(STATES / "stack_export.json")
    pool = next(r for r in records if r.name == "h100-big")
    assert pool.inputs["nodeConfig"]["labels"]["token"] == SECRET


def test_resources_pending_deletion_are_left_out():
    document = {"deployment": {"resources": [{"urn": "urn:pulumi:s::p::a:b:C::x", "type": "a:b:C", "delete": True}]}}
    assert records_from_export(document)[0] == []


def test_every_bad_resource_is_reported():
    document = {"deployment": {"resources": [{"urn": "x", "type": "a:b:C"}, {"urn": "urn:pulumi:s::p::a:b:C::y"}]}}
    with pytest.raises(StateError) as error:
        records_from_export(document)
    assert [p.split(": ", 1)[1] for p in error.value.problems] == [
        "deployment.resources[0].urn: 'x' is not a Pulumi URN (urn:pulumi:<stack>::<project>::<type>::<name>)",
        "deployment.resources[1].type: missing",
    ]
