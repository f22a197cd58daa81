"""gkecap.policies.adapter: pure rule functions become pulumi_policy policies that see plain data."""

import pytest
from google.protobuf import json_format, struct_pb2
from pulumi_policy import EnforcementLevel, PolicyCustomTimeouts, PolicyResource, PolicyResourceOptions, ResourceValidationArgs, StackValidationArgs
from pulumi_policy.deserialize import deserialize_properties
from pulumi_policy.proxy import UNKNOWN_NUMBER_VALUE, UnknownValueError, unknown_checking_proxy

from gkecap.policies.adapter import resource_policy, stack_policy
from gkecap.policies.resource_view import UNKNOWN

POOL = "gcp:container/nodePool:NodePool"


def _props(data: dict):
    # What pulumi_policy hands a policy: the Struct from the wire, deserialized, behind its unknown proxy.
    struct = struct_pb2.Struct()
    struct.update(data)
    return unknown_checking_proxy(deserialize_properties(json_format.MessageToDict(struct)))


def _options(protect=False, parent=None):
    return PolicyResourceOptions(protect, ["nodeCount"], True, [], PolicyCustomTimeouts(60, 0, 0), [], parent)


def _args(props: dict, type_=POOL, name="pool", config=None):
    return ResourceValidationArgs(type_, _props(props), f"urn:pulumi:s::p::{type_}::{name}", name, _options(protect=True), None, config)


def _validate(policy, args):
    reports = []
    policy.validate(args, lambda message, urn=None: reports.append(message))
    return reports


def test_resource_check_sees_plain_camel_case_data_and_options():
    seen = {}

    def check(resource, config):
        seen.update(props=resource.props, options=resource.options, config=config, urn=resource.urn)
        return []

    policy = resource_policy("p", "d", check, config={"limit": {"type": "integer", "default": 4}})
    _validate(policy, _args({"autoscaling": {"totalMaxNodeCount": 4.0}, "nodeLocations": ["a"]}))
    assert seen["props"] == {"autoscaling": {"totalMaxNodeCount": 4}, "nodeLocations": ["a"]}
    assert type(seen["props"]["autoscaling"]["totalMaxNodeCount"]) is int
    assert (seen["options"].protect, seen["options"].ignore_changes, seen["options"].delete_before_replace) == (True, ("nodeCount",), True)
    assert seen["options"].custom_timeouts["create"] == 60
    assert seen["config"] == {"limit": 4}  # schema default when nothing is configured
    assert seen["urn"] == f"urn:pulumi:s::p::{POOL}::pool"


def test_configured_values_override_defaults():
    seen = {}
    policy = resource_policy("p", "d", lambda r, c: seen.update(c) or [], config={"limit": {"type": "integer", "default": 4}})
    _validate(policy, _args({}, config={"limit": 8.0}))
    assert seen == {"limit": 8}


def test_types_filter_which_resources_are_checked():
    calls = []
    policy = resource_policy("p", "d", lambda r, c: calls.append(r.type) or [], types=[POOL])
    _validate(policy, _args({}, type_="gcp:container/cluster:Cluster"))
    _validate(policy, _args({}))
    assert calls == [POOL]


def test_each_message_is_one_violation():
    policy = resource_policy("p", "d", lambda r, c: [f"{r.name}: one", f"{r.name}: two"])
    assert _validate(policy, _args({})) == ["pool: one", "pool: two"]


def test_unknown_values_reach_the_rule_as_unknown():
    seen = {}
    policy = resource_policy("p", "d", lambda r, c: seen.update(r.props) or [])
    _validate(policy, _args({"nodeCount": UNKNOWN_NUMBER_VALUE}))
    assert seen["nodeCount"] is UNKNOWN


def test_a_rule_failing_on_an_unknown_becomes_cannot_know_during_preview():
    policy = resource_policy("p", "d", lambda r, c: [str(r.props["spec"]["n"] + 1)])
    with pytest.raises(UnknownValueError) as error:
        _validate(policy, _args({"spec": {"n": UNKNOWN_NUMBER_VALUE}}))
    assert error.value.props == ["spec", "n"]


def test_a_rule_that_raises_reports_it_could_not_check():
    policy = resource_policy("p", "d", lambda r, c: [str(1 + r.props["name"])])
    [message] = _validate(policy, _args({"name": "x"}))
    assert message.startswith("policy 'p' could not check this: TypeError:")


def test_stack_check_gets_views_with_relations_and_reports_by_urn():
    pool = PolicyResource(POOL, _props({"a": 1.0}), "urn:pulumi:s::p::pool::a", "a", _options(parent="urn:stack"), None, None, [], {})
    queue = PolicyResource("kubernetes:kueue.x-k8s.io/v1beta2:ClusterQueue", _props({}), "urn:pulumi:s::p::q::b", "b", _options(), None, None, [pool], {"spec": [pool]})
    seen = {}

    def check(resources, config):
        seen.update({r.name: r for r in resources})
        return [(resources[0].urn, "first"), (None, "whole stack")]

    reports = []
    policy = stack_policy("s", "d", check)
    policy.validate(StackValidationArgs([pool, queue], None), lambda message, urn=None: reports.append((urn, message)))
    assert seen["a"].props == {"a": 1} and seen["a"].parent == "urn:stack"
    assert seen["b"].dependencies == ("urn:pulumi:s::p::pool::a",)
    assert seen["b"].property_dependencies == {"spec": ("urn:pulumi:s::p::pool::a",)}
    assert reports == [("urn:pulumi:s::p::pool::a", "first"), (None, "whole stack")]


def test_enforcement_level_and_schema_are_declared():
    policy = resource_policy("p", "d", lambda r, c: [], enforcement_level="advisory", config={"x": {"type": "string"}}, required_config=["x"])
    assert policy.enforcement_level is EnforcementLevel.ADVISORY
    assert (policy.config_schema.properties, policy.config_schema.required) == ({"x": {"type": "string"}}, ["x"])


def test_an_unknown_enforcement_level_names_the_policy():
    with pytest.raises(ValueError, match="policy 'p': enforcement_level 'strict' is not one of"):
        resource_policy("p", "d", lambda r, c: [], enforcement_level="strict")
