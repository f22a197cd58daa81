"""Every policy says how to fix its findings and where its documentation is, and docs/policies.md is current."""

from __future__ import annotations

from pathlib import Path

from gkecap.policies.registry import ALL_POLICIES
from gkecap.policies.rule_help import CATEGORIES, HELP
from testkit.cli_process import run_gkecap

REPO = Path(__file__).resolve().parents[2]


def test_every_policy_of_the_pack_has_help():
    missing = [p.name for p in ALL_POLICIES if p.name not in HELP]
    assert missing == [], f"add a RuleHelp for {missing} in policies/rule_help.py"


def test_help_names_only_policies_of_the_pack():
    names = {p.name for p in ALL_POLICIES} | {"gke-capacity-resource-rules", "gke-capacity-stack-rules"}
    assert set(HELP) - names == set()


def test_every_category_is_a_known_one():
    assert {h.category for h in HELP.values()} <= set(CATEGORIES)


def test_the_pack_serves_remediation_url_and_category(tmp_path):
    import json

    run = run_gkecap(["policies", "--format", "json"], cwd=REPO)
    policies = json.loads(run.stdout)["policies"]
    for policy in policies:
        assert policy["remediation"] and policy["url"].endswith("#" + policy["name"]), policy["name"]
        assert any(tag.startswith("category:") for tag in policy["tags"]), policy["name"]


def test_docs_policies_md_is_what_the_pack_describes():
    run = run_gkecap(["policies", "--format", "markdown"], cwd=REPO)
    assert run.exit_code == 0, run.stderr
    assert (REPO / "docs" / "policies.md").read_text() == run.stdout, (
        "docs/policies.md is out of date: regenerate it with `gkecap policies --format markdown > docs/policies.md`"
    )
