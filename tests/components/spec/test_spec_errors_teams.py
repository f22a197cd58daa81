"""Team and cohort checks (issue 4 item 3): each invalid team spec gets its own clear error."""

from __future__ import annotations

import pytest

from gkecap.components.spec import SpecError, load_environment
from testkit.spec_data import NOW, dev, prod


def issues(env) -> dict[str, str]:
    with pytest.raises(SpecError) as err:
        load_environment(env, now=NOW)
    return {issue.path: issue.message for issue in err.value.issues}


def team(env, index=0):
    return env["teams"][index]


def test_quota_must_name_an_existing_pool():
    env = prod()
    team(env)["quota"]["h100-dwz"] = 1
    assert (
        issues(env)["teams[0].quota.h100-dwz"]
        == "no node pool named 'h100-dwz'; did you mean 'h100-dws'? pools: h100-dec, h100-dws, l4-spot, v6e-16"
    )


def test_borrowing_limit_must_name_an_existing_pool():
    env = prod()
    team(env)["borrowingLimit"] = {"nope": 1}
    assert issues(env)["teams[0].borrowingLimit.nope"].startswith("no node pool named 'nope'")


def test_quota_values_are_non_negative():
    env = prod()
    team(env)["quota"]["h100-dws"] = -1
    assert issues(env)["teams[0].quota.h100-dws"] == "-1 is too small; must be at least 0"


def test_quota_values_are_whole_numbers():
    env = prod()
    team(env)["quota"]["h100-dws"] = 1.5
    assert issues(env)["teams[0].quota.h100-dws"] == "1.5 is not a whole number"


def test_lending_limit_at_most_the_quota():
    env = prod()
    team(env)["lendingLimit"] = {"h100-dws": 5}
    assert (
        issues(env)["teams[0].lendingLimit.h100-dws"]
        == "5 exceeds the team's quota 4 on pool 'h100-dws'; lendingLimit must be at most the quota"
    )


def test_borrowing_needs_a_cohort():
    env = dev()
    team(env)["borrowingLimit"] = {"l4-flex": 2}
    assert (
        issues(env)["teams[0].borrowingLimit"]
        == "needs a cohort: borrowing and lending happen between teams of one cohort; set cohort or remove it"
    )


def test_lending_needs_a_cohort():
    env = dev()
    team(env)["lendingLimit"] = {"l4-flex": 1}
    assert issues(env)["teams[0].lendingLimit"].startswith("needs a cohort")


def test_cohort_must_be_declared():
    env = prod()
    team(env)["cohort"] = "reserch"
    assert issues(env)["teams[0].cohort"] == "'reserch' is not a declared cohort; declared: research"


def test_weight_must_not_be_negative():
    env = prod()
    team(env)["weight"] = -1
    assert issues(env)["teams[0].weight"] == "-1 is too small; must be at least 0"


def test_a_weight_between_zero_and_one_nano_is_rejected():
    # Kueue's webhook: a weight is 0 or more than 1n (KUEUE_VALIDATION R-CQ-12).
    env = prod()
    team(env)["weight"] = 1e-10
    assert "is too small; a weight is 0 or more than 0.000000001 (1n)" in issues(env)["teams[0].weight"]


def test_flavor_fungibility_values_are_kueues():
    env = prod()
    team(env)["flavorFungibility"] = {"whenCanBorrow": "Borrow"}
    assert "teams[0].flavorFungibility.whenCanBorrow" in issues(env)


def test_team_names_are_unique():
    env = prod()
    team(env, 1)["name"] = "team-a"
    team(env, 1)["namespaces"] = ["team-a-2"]
    assert issues(env)["teams[1].name"] == "'team-a' is already used by teams[0]; team names must be unique"


def test_team_name_is_a_dns_label():
    env = dev()
    team(env)["name"] = "Vision"
    team(env)["namespaces"] = ["vision"]
    assert issues(env)["teams[0].name"].startswith("'Vision' is not a DNS-1123 label: a lowercase RFC 1123 label")


def test_namespace_belongs_to_one_team():
    env = dev()
    team(env, 1)["namespaces"] = ["vision"]
    assert (
        issues(env)["teams[1].namespaces[0]"]
        == "'vision' already belongs to teams[0]; a namespace belongs to one team only"
    )


def test_namespace_is_a_dns_label():
    env = dev()
    team(env)["namespaces"] = ["vision_ns"]
    assert issues(env)["teams[0].namespaces[0]"].startswith("'vision_ns' is not a DNS-1123 label")


def test_system_namespaces_are_reserved():
    env = dev()
    team(env)["namespaces"] = ["kube-system"]
    assert issues(env)["teams[0].namespaces[0]"].startswith("'kube-system' is reserved for the cluster, GKE or Kueue")


def test_namespaces_list_cannot_be_empty():
    env = dev()
    team(env)["namespaces"] = []
    assert issues(env)["teams[0].namespaces"] == "must have at least 1 item(s)"


def test_members_are_iam_style_principals():
    env = dev()
    team(env)["members"] = ["vision@acme.example"]
    assert (
        issues(env)["teams[0].members[0]"]
        == "'vision@acme.example' is not a principal; allowed: user:EMAIL, group:EMAIL or serviceAccount:EMAIL"
    )


def test_member_kind_must_be_known():
    env = dev()
    team(env)["members"] = ["domain:acme.example"]
    assert "is not a principal" in issues(env)["teams[0].members[0]"]


def test_preemption_values_are_enums():
    env = prod()
    team(env)["preemption"] = {"reclaimWithinCohort": "Sometimes"}
    assert (
        issues(env)["teams[0].preemption.reclaimWithinCohort"]
        == "'Sometimes' is not allowed; allowed: Never, LowerPriority, Any"
    )


def test_borrow_within_cohort_needs_reclaim():
    env = prod()
    env["kueue"]["fairSharing"] = False
    team(env)["preemption"] = {"reclaimWithinCohort": "Never", "borrowWithinCohort": "LowerPriority"}
    assert issues(env)["teams[0].preemption.borrowWithinCohort"].startswith(
        "'LowerPriority' requires reclaimWithinCohort other than Never (Kueue R-CQ-10)"
    )


def test_borrow_within_cohort_with_fair_sharing_is_a_warning():
    env = prod()
    team(env)["preemption"] = {"borrowWithinCohort": "LowerPriority"}
    spec = load_environment(env, now=NOW)
    assert any(
        w.startswith("teams[0].preemption.borrowWithinCohort: 'LowerPriority' has no effect") for w in spec.warnings
    )


def test_weight_without_fair_sharing_is_a_warning():
    env = prod()
    env["kueue"]["fairSharing"] = False
    spec = load_environment(env, now=NOW)
    assert "teams[0].weight: has no effect while kueue.fairSharing is false" in spec.warnings


def test_cohort_parent_must_exist():
    env = prod()
    env["cohorts"][0]["parent"] = "org"
    assert issues(env)["cohorts[0].parent"] == "'org' is not a declared cohort; declared: research"


def test_cohort_cycle_is_rejected():
    env = prod()
    env["cohorts"] = [
        {"name": "research", "parent": "org"},
        {"name": "org", "parent": "lab"},
        {"name": "lab", "parent": "research"},
    ]
    found = issues(env)
    cycle = [message for path, message in found.items() if path.endswith(".parent")]
    assert cycle == ["cohorts form a cycle (research -> org -> lab -> research); a cohort cannot be its own ancestor"]


def test_cohort_cannot_be_its_own_parent():
    env = prod()
    env["cohorts"][0]["parent"] = "research"
    assert issues(env)["cohorts[0].parent"].startswith("cohorts form a cycle (research -> research)")


def test_cohort_names_are_unique():
    env = prod()
    env["cohorts"].append({"name": "research"})
    assert issues(env)["cohorts[1].name"].startswith("'research' is already used by cohorts[0]")


def test_cohort_quota_names_existing_pools():
    env = prod()
    env["cohorts"][0]["quota"] = {"h200": 8}
    assert issues(env)["cohorts[0].quota.h200"].startswith("no node pool named 'h200'")


def test_priority_class_value_fits_int32():
    env = prod()
    env["priorityClasses"][0]["value"] = 2**31
    assert issues(env)["priorityClasses[0].value"] == "2147483648 is too large; must be at most 2147483647"


def test_priority_class_names_are_unique():
    env = prod()
    env["priorityClasses"][1]["name"] = "low"
    assert issues(env)["priorityClasses[1].name"] == (
        "'low' is already used by priorityClasses[0]; priority class names must be unique"
    )


# --- cohort borrowingLimit / lendingLimit (Kueue R-CO-2) ---------------------------------------------------


def nested_cohorts(env):
    env["cohorts"] = [{"name": "org"}, {"name": "research", "parent": "org", "quota": {"h100-dws": 4}}]
    env["teams"][3]["quota"]["h100-dws"] = 4  # the cohort's 4 + teams' 12 stay within the pool's 16
    return env["cohorts"][1]


def test_cohort_with_a_parent_may_set_borrowing_and_lending_limits():
    env = prod()
    nested_cohorts(env).update(borrowingLimit={"h100-dws": 8}, lendingLimit={"h100-dws": 2})
    spec = load_environment(env, now=NOW)
    research = spec.cohorts[1]
    assert (research.borrowing_limit, research.lending_limit) == ({"h100-dws": 8}, {"h100-dws": 2})


def test_cohort_lending_limit_may_exceed_its_own_quota():
    # R-CO-2: a Cohort lends what its subtree holds; unlike a team's, its lendingLimit is not capped by its quota.
    env = prod()
    nested_cohorts(env)["lendingLimit"] = {"h100-dws": 12, "l4-spot": 4}
    load_environment(env, now=NOW)


def test_cohort_borrowing_limit_needs_a_parent():
    env = prod()
    env["cohorts"][0]["borrowingLimit"] = {"h100-dws": 4}
    assert (
        issues(env)["cohorts[0].borrowingLimit"]
        == "needs a parent: a cohort borrows from its parent cohort, and Kueue rejects borrowingLimit on a cohort "
        "without parent (R-CO-2); set parent or remove it"
    )


def test_cohort_lending_limit_needs_a_parent():
    env = prod()
    env["cohorts"][0]["lendingLimit"] = {"h100-dws": 4}
    assert issues(env)["cohorts[0].lendingLimit"].startswith("needs a parent: a cohort lends to its parent cohort")


def test_empty_cohort_limits_are_fine_without_a_parent():
    env = prod()
    env["cohorts"][0].update(borrowingLimit={}, lendingLimit={})
    load_environment(env, now=NOW)


def test_cohort_limits_name_existing_pools():
    env = prod()
    nested_cohorts(env)["borrowingLimit"] = {"h100-dwz": 4}
    assert issues(env)["cohorts[1].borrowingLimit.h100-dwz"].startswith(
        "no node pool named 'h100-dwz'; did you mean 'h100-dws'?"
    )


def test_cohort_limits_are_whole_non_negative_numbers():
    env = prod()
    nested_cohorts(env)["lendingLimit"] = {"h100-dws": -1}
    assert issues(env)["cohorts[1].lendingLimit.h100-dws"] == "-1 is too small; must be at least 0"


def test_a_team_may_use_the_existing_default_namespace_but_not_kube_system():
    # `namespace:` names an existing namespace (issue 11 item 9); system namespaces stay off limits.
    env = dev()
    env["teams"][0]["namespace"] = "default"
    assert load_environment(env, now=NOW).teams[0].namespaces == ["default"]
    env["teams"][0]["namespace"] = "kube-system"
    assert "teams[0].namespace" in issues(env)


def test_namespace_and_namespaces_together_are_refused():
    env = dev()
    env["teams"][0].update(namespace="ml", namespaces=["ml2"])
    assert "give either namespace" in str(issues(env))


def test_priorities_name_declared_priority_classes():
    env = prod()
    team(env)["priorities"] = ["low", "urgent", "low"]
    found = issues(env)
    assert found["teams[0].priorities[1]"] == "'urgent' is not a priority class of this environment; declared: low, high"
    assert found["teams[0].priorities[2]"] == "'low' is listed twice"


def test_priorities_may_name_the_default_classes_when_the_file_declares_none():
    env = dev()
    team(env)["priorities"] = ["high"]
    load_environment(env, now=NOW)


def test_resource_quota_is_a_boolean():
    env = dev()
    team(env)["resourceQuota"] = "yes"
    assert "teams[0].resourceQuota" in issues(env)
