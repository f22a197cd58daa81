"""The policy-rules entries of the pack: names, levels, config schemas, and one run through pulumi_policy."""

from __future__ import annotations

import jsonschema
from pulumi_policy import PolicyResource, PolicyResourceOptions, ResourceValidationArgs, StackValidationArgs
from pulumi_policy.proxy import UNKNOWN_NUMBER_VALUE, unknown_checking_proxy

from gkecap.policies.registry import ALL_POLICIES

EXPECTED_LEVELS = {
    "tpu-slice-topology": "mandatory",
    "tpu-workload-policy": "mandatory",
    "gpu-accelerator": "mandatory",
    "compact-placement-zone": "mandatory",
    "flex-start-settings": "mandatory",
    "flex-start-recommended": "advisory",
    "queued-provisioning-admission-check": "advisory",
    "calendar-reservation-window": "mandatory",
    "calendar-reservation-ended": "advisory",
    "submitted-reservation-protected": "mandatory",
    "reservation-affinity-match": "mandatory",
    "reservation-affinity-reference": "advisory",
    "kueue-object-valid": "mandatory",
    "kueue-references": "advisory",
    "team-isolation": "mandatory",
    "cluster-queue-namespace-selector": "advisory",
    "quota-capacity": "mandatory",
    "quota-capacity-dws": "advisory",
    "team-accelerator-limit": "mandatory",
    "allow-lists": "mandatory",
}
BY_NAME = {p.name: p for p in ALL_POLICIES}


def test_every_rule_is_registered_once_with_its_default_level():
    names = [p.name for p in ALL_POLICIES]
    assert len(names) == len(set(names))
    assert {n: BY_NAME[n].enforcement_level.value for n in EXPECTED_LEVELS} == EXPECTED_LEVELS


def test_every_rule_has_a_description():
    assert all(BY_NAME[n].description and len(BY_NAME[n].description) > 30 for n in EXPECTED_LEVELS)


def test_config_schemas_are_valid_json_schema_and_accept_their_defaults():
    for name in EXPECTED_LEVELS:
        schema = BY_NAME[name].config_schema
        if schema is None:
            continue
        document = {"type": "object", "properties": schema.properties}
        jsonschema.Draft7Validator.check_schema(document)
        defaults = {k: v["default"] for k, v in schema.properties.items() if "default" in v}
        jsonschema.validate(defaults, document)


def test_config_schemas_reject_wrong_types():
    schema = BY_NAME["allow-lists"].config_schema
    document = {"type": "object", "properties": schema.properties}
    assert list(jsonschema.Draft7Validator(document).iter_errors({"allowedRegions": "us-east5"}))


def _options(protect: bool = False) -> PolicyResourceOptions:
    return PolicyResourceOptions(protect, [], None, [], None, [], None)


def _validate(policy_name: str, type_: str, name: str, props: dict, config: dict | None = None) -> list[str]:
    found: list[str] = []
    args = ResourceValidationArgs(type_, unknown_checking_proxy(props), f"urn:pulumi:s::p::{type_}::{name}", name,
                                  _options(), None, config or {})
    BY_NAME[policy_name].validate(args, lambda message, urn=None: found.append(message))
    return found


def test_resource_rule_runs_through_pulumi_policy_args():
    props = {"nodeConfig": {"machineType": "ct6e-standard-4t"}, "nodeLocations": ["us-east5-a"],
             "placementPolicy": {"type": "COMPACT", "tpuTopology": "4x4"}, "autoscaling": {"totalMaxNodeCount": 8.0}}
    [message] = _validate("tpu-slice-topology", "gcp:container/nodePool:NodePool", "v6e", props)
    assert "totalMaxNodeCount is 8" in message


def test_unknown_values_at_preview_raise_no_violation():
    props = {"nodeConfig": {"machineType": "ct6e-standard-4t"}, "nodeLocations": ["us-east5-a"],
             "placementPolicy": {"type": "COMPACT", "tpuTopology": "4x4"},
             "autoscaling": {"totalMaxNodeCount": UNKNOWN_NUMBER_VALUE}}
    assert _validate("tpu-slice-topology", "gcp:container/nodePool:NodePool", "v6e", props) == []


def test_config_reaches_the_rule():
    props = {"location": "us-east5", "nodeConfig": {"machineType": "a3-highgpu-8g"}}
    token = "gcp:container/nodePool:NodePool"
    assert _validate("allow-lists", token, "h100", props) == []  # nothing configured, nothing enforced
    assert _validate("allow-lists", token, "h100", props, {"allowedMachineTypes": ["g2-*"]})


def test_stack_rule_runs_through_pulumi_policy_args():
    def resource(type_, name, props):
        return PolicyResource(type_, props, f"urn:pulumi:s::p::{type_}::{name}", name, _options(), None, None, [], {})

    flavor = {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ResourceFlavor", "metadata": {"name": "h100"},
              "spec": {"nodeLabels": {"cloud.google.com/gke-accelerator": "nvidia-h100-80gb"}}}
    queue = {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue", "metadata": {"name": "a"},
             "spec": {"namespaceSelector": {"matchLabels": {"team": "a"}}, "resourceGroups": [
                 {"coveredResources": ["nvidia.com/gpu"],
                  "flavors": [{"name": "h100", "resources": [{"name": "nvidia.com/gpu", "nominalQuota": 32}]}]}]}}
    pool = {"location": "us-east5-a", "autoscaling": {"totalMaxNodeCount": 2},
            "nodeConfig": {"machineType": "a3-highgpu-8g"}}
    resources = [
        resource("gcp:container/nodePool:NodePool", "h100", pool),
        resource("kubernetes:kueue.x-k8s.io/v1beta2:ResourceFlavor", "h100-flavor", flavor),
        resource("kubernetes:kueue.x-k8s.io/v1beta2:ClusterQueue", "a", queue),
    ]
    found: list[tuple[str, str | None]] = []
    BY_NAME["quota-capacity"].validate(StackValidationArgs(resources, {}), lambda m, urn=None: found.append((m, urn)))
    [(message, urn)] = found
    assert "total 32" in message and "hold 16" in message and urn.endswith("::h100-flavor")
