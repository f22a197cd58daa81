"""team-isolation and cluster-queue-namespace-selector."""

from __future__ import annotations

from testkit.rule_resources import kueue

from gkecap.policies.resource_view import UNKNOWN
from gkecap.policies.rules.team_isolation import (
    check_namespace_selector_present,
    check_single_open_queue,
    check_team_isolation,
)


def queue(name="vision", selector=None, *, with_selector=True, version="v1beta2"):
    spec = {"resourceGroups": []}
    if with_selector:
        spec["namespaceSelector"] = selector
    return kueue("ClusterQueue", name, spec, version=version)


def queue_in(name, cohort=None, selector=None):
    q = queue(name, selector=selector)
    if cohort:
        q.props["spec"]["cohortName"] = cohort
    return q


TEAM_SELECTOR = {"matchLabels": {"kubernetes.io/metadata.name": "vision"}}


def test_team_selectors_pass():
    assert check_team_isolation([queue("vision", TEAM_SELECTOR), queue("nlp", TEAM_SELECTOR)], {}) == []


def test_open_queue_beside_other_queues_is_flagged():
    stack = [queue("vision", selector={}), queue("nlp", TEAM_SELECTOR)]
    [(urn, message)] = check_team_isolation(stack, {})
    assert urn == stack[0].urn
    assert "ClusterQueue 'vision'" in message and "admits every namespace" in message and "sharedQueues" in message
    assert "2 ClusterQueues" in message


def test_open_queue_in_a_cohort_is_flagged_even_alone():
    [(_, message)] = check_team_isolation([queue_in("vision", cohort="research", selector={})], {})
    assert "cohort 'research'" in message


def test_selector_with_empty_lists_is_still_everything():
    stack = [queue("a", selector={"matchLabels": {}, "matchExpressions": []}, version="v1beta1"), queue("b", TEAM_SELECTOR)]
    assert check_team_isolation(stack, {})


def test_allow_listed_shared_queue_passes_also_by_glob():
    stack = [queue("shared-cpu", selector={}), queue("vision", selector={})]
    findings = check_team_isolation(stack, {"sharedQueues": ["shared-*"]})
    assert [urn for urn, _ in findings] == [stack[1].urn]


def test_lone_open_queue_is_only_advised():
    lone = [queue("everyone", selector={})]
    assert check_team_isolation(lone, {}) == []
    [(_, message)] = check_single_open_queue(lone, {})
    assert "every namespace shares this one queue" in message
    assert check_single_open_queue(lone, {"sharedQueues": ["everyone"]}) == []


def test_unknown_selector_is_not_judged():
    assert check_team_isolation([queue(selector={"matchLabels": UNKNOWN}), queue("b", selector={})], {}) != []
    assert check_team_isolation([queue(selector={"matchLabels": UNKNOWN}), queue("b", TEAM_SELECTOR)], {}) == []


def test_other_kinds_are_ignored():
    assert check_team_isolation([kueue("LocalQueue", "lq", {"clusterQueue": "x"})], {}) == []


def test_missing_selector_admits_nothing_and_is_advised():
    [message] = check_namespace_selector_present(queue(with_selector=False), {})
    assert "no namespace can submit" in message
    assert check_namespace_selector_present(queue(selector={}), {}) == []
