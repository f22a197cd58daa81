"""team-isolation and cluster-queue-namespace-selector."""

from __future__ import annotations

from rule_resources import kueue

from policies.resource_view import UNKNOWN
from policies.rules.team_isolation import check_namespace_selector_present, check_team_isolation


def queue(name="vision", selector=None, *, with_selector=True, version="v1beta2"):
    spec = {"resourceGroups": []}
    if with_selector:
        spec["namespaceSelector"] = selector
    return kueue("ClusterQueue", name, spec, version=version)


def test_team_selector_passes():
    assert check_team_isolation(queue(selector={"matchLabels": {"kubernetes.io/metadata.name": "vision"}}), {}) == []


def test_empty_selector_admits_every_namespace():
    [message] = check_team_isolation(queue(selector={}), {})
    assert "ClusterQueue 'vision'" in message and "admits every namespace" in message and "sharedQueues" in message


def test_selector_with_empty_lists_is_still_everything():
    assert check_team_isolation(queue(selector={"matchLabels": {}, "matchExpressions": []}, version="v1beta1"), {})


def test_allow_listed_shared_queue_passes_also_by_glob():
    assert check_team_isolation(queue("shared-cpu", selector={}), {"sharedQueues": ["shared-*"]}) == []
    assert check_team_isolation(queue("vision", selector={}), {"sharedQueues": ["shared-*"]})


def test_unknown_selector_is_not_judged():
    assert check_team_isolation(queue(selector={"matchLabels": UNKNOWN}), {}) == []


def test_other_kinds_are_ignored():
    assert check_team_isolation(kueue("LocalQueue", "lq", {"clusterQueue": "x"}), {}) == []


def test_missing_selector_admits_nothing_and_is_advised():
    [message] = check_namespace_selector_present(queue(with_selector=False), {})
    assert "no namespace can submit" in message
    assert check_namespace_selector_present(queue(selector={}), {}) == []
