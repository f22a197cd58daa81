"""team-quota-bypass, team-quota-layers, cluster-queue-reachable and team-priority-allowance over plain resources; the
same rules through the real pack on a hand-written `--program` (tests/fixtures/programs/kueue_holes)."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import given, settings, strategies as st
from testkit.engine_fixtures import PROGRAMS
from testkit.rule_resources import kueue, resource

from gkecap.components.k8s.label_selector import selects
from gkecap.policies.resource_view import UNKNOWN
from gkecap.policies.rules.quota_enforcement import (
    BINDING_TYPE,
    CONFIG_MAP_TYPE,
    POLICY_TYPE,
    candidates,
    check_cluster_queue_reachable,
    check_enforcement_layers,
    check_priority_allowance,
    check_quota_bypass,
)

NAMESPACE = "kubernetes:core/v1:Namespace"
CHART = "kubernetes:helm.sh/v4:Chart"
BY_NAME = "kubernetes.io/metadata.name"


def team(name: str, selector: dict | None = None) -> list:
    selector = selector or {"matchExpressions": [{"key": BY_NAME, "operator": "In", "values": [name]}]}
    return [
        resource(NAMESPACE, name, metadata={"name": name, "labels": {"team": name}}),
        kueue("ClusterQueue", name, {"namespaceSelector": selector, "resourceGroups": []}),
        kueue("LocalQueue", None, {"clusterQueue": name}, resource_name=f"lq-{name}"),
    ]


def _lq_in(resources: list, namespace: str) -> list:
    for r in resources:
        if r.type.endswith(":LocalQueue"):
            r.props.setdefault("metadata", {"name": namespace, "namespace": namespace})
    return resources


def stack(*names: str) -> list:
    out = []
    for name in names:
        out += _lq_in(team(name), name)
    return out


def kueue_chart(config: dict | None) -> object:
    values = {"managerConfig": {"controllerManagerConfigYaml": yaml.safe_dump(config)}} if config is not None else {}
    return resource(CHART, "kueue", chart="oci://registry.k8s.io/kueue/charts/kueue", values=values)


def queue_policy(name="require-queue", priority=False, annotation=None) -> object:
    expression = "'kueue.x-k8s.io/queue-name' in object.metadata.labels"
    if priority:
        expression += " && object.metadata.labels['kueue.x-k8s.io/priority-class'] in ['low']"
    metadata = {"name": name}
    if annotation is not None:
        metadata["annotations"] = {"gkecap.dev/priority-classes": annotation}
    return resource(POLICY_TYPE, name, metadata=metadata, spec={"validations": [{"expression": expression}]})


def binding(policy="require-queue", actions=("Deny",), selector=None) -> object:
    spec = {"policyName": policy, "validationActions": list(actions)}
    if selector is not None:
        spec["matchResources"] = {"namespaceSelector": selector}
    return resource(BINDING_TYPE, f"bind-{policy}", metadata={"name": f"bind-{policy}"}, spec=spec)


MANAGED = {"manageJobsWithoutQueueName": True}


def test_a_team_namespace_without_either_layer_is_a_bypass():
    resources = stack("vision") + [kueue_chart(None)]
    [(urn, message)] = check_quota_bypass(resources, {})
    assert urn == resources[2].urn and "team namespace 'vision'" in message and "outside every quota" in message


def test_kueue_managing_every_job_closes_the_bypass_but_one_layer_is_advised():
    resources = stack("vision") + [kueue_chart(MANAGED)]
    assert check_quota_bypass(resources, {}) == []
    [(_, message)] = check_enforcement_layers(resources, {})
    assert "no ValidatingAdmissionPolicy" in message


def test_the_default_managed_namespace_selector_leaves_out_only_kube_system_and_kueue():
    resources = stack("kueue-system") + [kueue_chart(MANAGED)]
    assert check_quota_bypass(resources, {}) != []


def test_a_managed_namespace_selector_that_misses_the_namespace_is_a_bypass():
    config = {**MANAGED, "managedJobsNamespaceSelector": {"matchLabels": {"kueue-managed": "true"}}}
    assert check_quota_bypass(stack("vision") + [kueue_chart(config)], {}) != []


def test_kueues_config_map_counts_as_its_configuration():
    config_map = resource(CONFIG_MAP_TYPE, "cfg", metadata={"name": "kueue-manager-config"},
                          data={"controller_manager_config.yaml": yaml.safe_dump(MANAGED)})
    assert check_quota_bypass(stack("vision") + [config_map], {}) == []


def test_a_denying_admission_policy_closes_the_bypass():
    resources = stack("vision") + [queue_policy(), binding(selector={"matchLabels": {"team": "vision"}})]
    assert check_quota_bypass(resources, {}) == []


@pytest.mark.parametrize("actions", [("Warn",), ("Audit",)])
def test_a_policy_that_only_warns_or_audits_does_not_count(actions):
    assert check_quota_bypass(stack("vision") + [queue_policy(), binding(actions=actions)], {}) != []


def test_a_policy_bound_elsewhere_does_not_count():
    resources = stack("vision") + [queue_policy(), binding(selector={"matchLabels": {"team": "nlp"}})]
    assert check_quota_bypass(resources, {}) != []


def test_an_unknown_binding_selector_is_not_judged():
    resources = stack("vision") + [queue_policy(), binding(selector=UNKNOWN)]
    assert check_quota_bypass(resources, {}) == [] and check_enforcement_layers(resources, {}) == []


def test_both_layers_pass():
    resources = stack("vision") + [kueue_chart(MANAGED), queue_policy(), binding()]
    assert check_quota_bypass(resources, {}) == [] and check_enforcement_layers(resources, {}) == []


def test_a_queue_admitting_another_teams_namespace_is_reachable():
    wide = {"matchExpressions": [{"key": BY_NAME, "operator": "In", "values": ["vision", "nlp"]}]}
    resources = _lq_in(team("vision"), "vision") + _lq_in(team("nlp", wide), "nlp")
    [(urn, message)] = check_cluster_queue_reachable(resources, {})
    assert urn == resources[4].urn and "admits namespace 'vision' (feeds vision)" in message


def test_a_queue_admitting_only_its_own_namespaces_passes():
    assert check_cluster_queue_reachable(stack("vision", "nlp"), {}) == []


def test_a_queue_admitting_every_namespace_is_left_to_team_isolation():
    assert check_cluster_queue_reachable(_lq_in(team("vision"), "vision") + _lq_in(team("nlp", {}), "nlp"), {}) == []


def classes(*pairs) -> list:
    views = []
    for name, value in pairs:
        view = kueue("WorkloadPriorityClass", name, None)
        view.props["value"] = value
        views.append(view)
    return views


PRIORITIES = classes(("low", 100), ("high", 1000), ("critical", 100000))


def test_an_unrestricted_namespace_can_use_the_highest_class():
    [(_, message)] = check_priority_allowance(stack("vision") + PRIORITIES, {})
    assert "critical (100000), above the team's allowance (high, low)" in message


def test_a_policy_allowing_only_the_allowance_passes():
    resources = stack("vision") + PRIORITIES + [queue_policy(priority=True, annotation="high,low"), binding()]
    assert check_priority_allowance(resources, {}) == []


def test_a_policy_that_allows_the_top_class_is_flagged():
    resources = stack("vision") + PRIORITIES + [queue_policy(priority=True, annotation="critical,low"), binding()]
    [(_, message)] = check_priority_allowance(resources, {})
    assert "critical (100000)" in message and "its admission policy allows them" in message


def test_the_allowance_can_be_configured_per_queue():
    resources = stack("vision") + PRIORITIES
    assert check_priority_allowance(resources, {"priorityAllowance": {"vision": ["critical"]}}) == []


# ---- through the real pack, on a hand-written program ------------------------------------------------------

@pytest.fixture(scope="module")
def holes():
    from gkecap.plan import plan

    return plan(program_dir=PROGRAMS / "kueue_holes", stack="test")


def _found(result, policy):
    return sorted(v.message.split(" (")[0] for v in result.violations if v.policy == policy)


def test_the_pack_names_every_hole_of_a_hand_written_stack(holes):
    assert holes.exit_code == 1
    assert _found(holes, "team-quota-bypass") == ["team namespace 'team-a'", "team namespace 'team-b'"]
    assert [v.message.split(":")[0] for v in holes.violations if v.policy == "cluster-queue-reachable"] == [
        "ClusterQueue 'team-b'"]
    assert _found(holes, "team-priority-allowance") == [
        "team namespace 'team-a'", "team namespace 'team-b'", "team namespace 'team-c'"]
    assert _found(holes, "team-quota-layers") == ["team namespace 'team-c'"]


def test_the_holes_are_mandatory_where_quota_can_be_bypassed(holes):
    levels = {v.policy: v.enforcement_level for v in holes.violations}
    assert (levels["team-quota-bypass"], levels["cluster-queue-reachable"], levels["team-priority-allowance"]) == (
        "mandatory", "mandatory", "mandatory")
    assert levels["team-quota-layers"] == "advisory"


# ---- the selector prefilter is exact --------------------------------------------------------------------------

NAMES = st.sampled_from(["a", "b", "c", "d", "e"])
REQUIREMENTS = st.one_of(
    st.builds(lambda values: {"key": BY_NAME, "operator": "In", "values": values}, st.lists(NAMES, max_size=3)),
    st.builds(lambda values: {"key": BY_NAME, "operator": "NotIn", "values": values}, st.lists(NAMES, max_size=3)),
    st.builds(lambda value: {"key": "team", "operator": "In", "values": [value]}, NAMES),
)
SELECTORS = st.builds(
    lambda expressions, by_name, team: {
        "matchExpressions": expressions,
        "matchLabels": {**({BY_NAME: by_name} if by_name else {}), **({"team": team} if team else {})}},
    st.lists(REQUIREMENTS, max_size=3), st.one_of(st.none(), NAMES), st.one_of(st.none(), NAMES))


@settings(max_examples=300, deadline=None)
@given(SELECTORS, st.lists(NAMES, unique=True))
def test_candidates_keep_every_namespace_the_selector_selects(selector, namespaces):
    def labels(ns):
        return {BY_NAME: ns, "team": ns}

    plain = {ns for ns in namespaces if selects(selector, labels(ns))}
    assert {ns for ns in candidates(selector, namespaces) if selects(selector, labels(ns))} == plain
