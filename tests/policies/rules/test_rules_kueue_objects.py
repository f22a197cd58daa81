"""kueue-object-valid and kueue-references on Kueue CustomResources of any stack."""

from __future__ import annotations

from testkit.rule_resources import kueue

from gkecap.policies.resource_view import UNKNOWN, ResourceView
from gkecap.policies.rules.kueue_objects import check_kueue_object_valid, check_kueue_references


def cluster_queue(name="team-a", *, version="v1beta2", cohort=None, quota=8, borrowing=None, lending=None, **extra):
    resource = {"name": "nvidia.com/gpu", "nominalQuota": quota}
    if borrowing is not None:
        resource["borrowingLimit"] = borrowing
    if lending is not None:
        resource["lendingLimit"] = lending
    spec = {
        "namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": name}},
        "resourceGroups": [{"coveredResources": ["nvidia.com/gpu"], "flavors": [{"name": "h100", "resources": [resource]}]}],
        **extra,
    }
    if cohort:
        spec["cohortName" if version == "v1beta2" else "cohort"] = cohort
    return kueue("ClusterQueue", name, spec, version=version)


def check(view: ResourceView) -> list[str]:
    return check_kueue_object_valid(view, {})


def test_valid_cluster_queues_pass_in_both_versions():
    assert check(cluster_queue()) == []
    assert check(cluster_queue(version="v1beta1", cohort="research", borrowing=4)) == []
    assert check(cluster_queue(cohort="research", borrowing=4, lending=8)) == []


def test_borrowing_limit_without_cohort_is_rejected():
    [message] = check(cluster_queue(borrowing=4))
    assert "ClusterQueue 'team-a'" in message and "borrowingLimit" in message and "R-CQ-7" in message


def test_lending_limit_above_nominal_quota_is_rejected():
    [message] = check(cluster_queue(cohort="research", lending=16))
    assert "lendingLimit" in message and "R-CQ-8" in message


def test_negative_quota_is_rejected():
    messages = check(cluster_queue(quota="-1"))
    assert any("R-CQ-5" in m for m in messages)


def test_resources_out_of_covered_order_are_rejected():
    spec = {
        "namespaceSelector": {},
        "resourceGroups": [{
            "coveredResources": ["cpu", "nvidia.com/gpu"],
            "flavors": [{"name": "h100", "resources": [{"name": "nvidia.com/gpu", "nominalQuota": 8},
                                                       {"name": "cpu", "nominalQuota": 96}]}],
        }],
    }
    messages = check(kueue("ClusterQueue", "cq", spec))
    assert any("R-CQ-4" in m for m in messages)


def test_invalid_flavor_taint_effect_is_rejected():
    flavor = kueue("ResourceFlavor", "h100", {"nodeTaints": [{"key": "a", "value": "b", "effect": "Sometimes"}]})
    assert any("R-RF-7" in m or "effect" in m for m in check(flavor))


def test_object_without_metadata_name_is_auto_named_by_pulumi():
    assert check(kueue("ResourceFlavor", None, {"nodeLabels": {"cloud.google.com/gke-accelerator": "nvidia-h100-80gb"}})) == []


def test_unknown_quota_is_not_judged():
    assert check(cluster_queue(quota=UNKNOWN)) == []


def test_objects_of_other_groups_and_patches_are_ignored():
    patch = ResourceView("kubernetes:kueue.x-k8s.io/v1beta2:ClusterQueuePatch", "p", props={"spec": {"cohortName": 1}})
    other = ResourceView("kubernetes:apps/v1:Deployment", "d", props={"spec": {}})
    assert check(patch) == [] and check(other) == []


def test_reference_to_a_missing_flavor_is_advised():
    [(urn, message)] = check_kueue_references([cluster_queue()], {})
    assert urn.endswith("::team-a") and "ResourceFlavor 'h100'" in message and "not in this stack" in message


def test_references_inside_the_stack_pass():
    stack = [
        cluster_queue(cohort="research"),  # a Cohort need not exist (implicit cohort)
        kueue("ResourceFlavor", "h100", {"nodeLabels": {"cloud.google.com/gke-accelerator": "nvidia-h100-80gb"}}),
        kueue("LocalQueue", "team-a", {"clusterQueue": "team-a"}),
    ]
    assert check_kueue_references(stack, {}) == []


def test_local_queue_naming_a_missing_cluster_queue_is_advised():
    [(_, message)] = check_kueue_references([kueue("LocalQueue", "lq", {"clusterQueue": "nope"})], {})
    assert "ClusterQueue 'nope'" in message


def test_references_to_a_kind_with_an_auto_named_object_are_not_judged():
    stack = [cluster_queue(), kueue("ResourceFlavor", None, {})]
    assert check_kueue_references(stack, {}) == []


def test_a_validator_crash_becomes_a_finding_not_an_error(monkeypatch):
    from gkecap.policies.rules import kueue_objects

    def crash(obj, require_name=True):
        raise TypeError("unhashable type: 'list'")

    monkeypatch.setattr(kueue_objects, "validate_kueue_object", crash)
    [message] = check(cluster_queue())
    assert "could not be validated" in message and "TypeError" in message
