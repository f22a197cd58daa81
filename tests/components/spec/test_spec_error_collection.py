"""All problems come back in one SpecError: structural and cross-field, one line each, in file order."""

from __future__ import annotations

import pytest

from gkecap.components.issues import Issue
from gkecap.components.spec import SpecError, load_environment
from testkit.spec_data import NOW, prod


def test_all_issues_are_collected_in_one_error():
    env = prod()
    env["region"] = "us_east5"  # cross-field
    env["nodePools"][0]["maxNode"] = 2  # structural (unknown key)
    env["nodePools"][1]["tpuTopology"] = "4x3"  # catalog
    env["reservations"][0]["days"] = 120  # calendar window
    env["teams"][0]["quota"]["nope"] = 1  # reference
    env["teams"][1]["weight"] = -1  # structural (range)
    with pytest.raises(SpecError) as err:
        load_environment(env, now=NOW)
    paths = [issue.path for issue in err.value.issues]
    for expected in (
        "region",
        "nodePools[0].maxNode",
        "nodePools[1].tpuTopology",
        "reservations[0].days",
        "teams[0].quota.nope",
        "teams[1].weight",
    ):
        assert expected in paths


def test_issues_are_in_file_order():
    env = prod()
    env["teams"][0]["quota"]["nope"] = 1
    env["nodePools"][1]["tpuTopology"] = "4x3"
    env["region"] = "nowhere"
    with pytest.raises(SpecError) as err:
        load_environment(env, now=NOW)
    assert [issue.path for issue in err.value.issues] == ["region", "nodePools[1].tpuTopology", "teams[0].quota.nope"]


def test_str_is_one_line_per_issue():
    error = SpecError([Issue("a.b", "first"), Issue("c[0]", "second")])
    assert str(error) == "a.b: first\nc[0]: second"
    assert isinstance(error, ValueError)


def test_entries_with_structural_errors_still_get_cross_field_checks():
    env = prod()
    env["nodePools"][0]["maxNode"] = 2  # the entry fails to parse...
    env["nodePools"][0]["zones"] = ["europe-west4-a"]  # ...but its zone is still checked
    with pytest.raises(SpecError) as err:
        load_environment(env, now=NOW)
    assert "nodePools[0].zones[0]" in [issue.path for issue in err.value.issues]


def test_a_bad_value_is_reported_once():
    env = prod()
    env["nodePools"][0]["maxNodes"] = "two"  # not also "maxNodes: required"
    with pytest.raises(SpecError) as err:
        load_environment(env, now=NOW)
    assert [i.path for i in err.value.issues if i.path.startswith("nodePools[0].maxNodes")] == ["nodePools[0].maxNodes"]


def test_references_to_a_malformed_section_are_not_reported_as_dangling():
    env = prod()
    env["nodePools"] = {"h100-dws": {}}  # not a list
    with pytest.raises(SpecError) as err:
        load_environment(env, now=NOW)
    assert [str(i) for i in err.value.issues] == ["nodePools: expected a list, got a mapping"]


def _paths(env) -> list[str]:
    with pytest.raises(SpecError) as err:
        load_environment(env, now=NOW)
    return [issue.path for issue in err.value.issues]


def test_a_team_with_a_bad_name_still_has_its_cohort_checked():
    env = prod()
    env["teams"][0]["name"] = "Vision_Team"  # the required key fails: the entry used to be dropped whole
    env["teams"][0]["cohort"] = "nope"
    assert {"teams[0].name", "teams[0].cohort"} <= set(_paths(env))


def test_a_team_without_a_name_still_has_its_quota_pools_checked():
    env = prod()
    del env["teams"][1]["name"]
    env["teams"][1]["quota"]["ghost"] = 2
    assert {"teams[1].name", "teams[1].quota.ghost"} <= set(_paths(env))


def test_a_pool_with_a_bad_name_still_has_its_own_rules_checked():
    env = prod()
    env["nodePools"][1]["name"] = "V6E_16"
    env["nodePools"][1]["tpuTopology"] = "4x3"
    assert {"nodePools[1].name", "nodePools[1].tpuTopology"} <= set(_paths(env))


def test_a_stood_in_name_adds_no_finding_of_its_own():
    env = prod()
    del env["teams"][0]["name"]
    del env["teams"][1]["name"]  # two nameless teams: neither their names nor default namespaces collide
    assert _paths(env) == ["teams[0].name", "teams[1].name"]


def test_a_finding_names_the_entry_as_written():
    env = prod()
    env["teams"][0]["name"] = "Vision_Team"
    env["teams"][0]["quota"]["l4-spot"] = 10_000  # above the spot pool: the message lists each team's share
    with pytest.raises(SpecError) as err:
        load_environment(env, now=NOW)
    over = [str(issue) for issue in err.value.issues if "l4-spot" in issue.message]
    assert len(over) == 1 and "Vision_Team 10000" in over[0]
