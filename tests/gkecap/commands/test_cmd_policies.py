"""`gkecap policies`: every policy of the pack, as the started pack describes itself (GetAnalyzerInfo)."""

import json

import pytest
from typer.testing import CliRunner

from gkecap.cli import app
from gkecap.policies.registry import ALL_POLICIES
from gkecap.policies.rule_runner import RUNNER_NAMES
from testkit.engine_fixtures import MINI_PACK

runner = CliRunner()


@pytest.fixture(scope="module")
def document():
    result = runner.invoke(app, ["policies", "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_json_lists_every_registered_policy_with_its_level(document):
    # Every rule, and the two policies that run them (gkecap.policies.rule_runner; advisory, never reporting).
    assert {p["name"]: p["enforcementLevel"] for p in document["policies"]} == {
        **{p.name: p.enforcement_level.value for p in ALL_POLICIES}, **dict.fromkeys(RUNNER_NAMES, "advisory")}
    assert document["policyPack"]["name"] == "gke-capacity"


def test_json_carries_descriptions_kinds_and_config_schemas(document):
    by_name = {p["name"]: p for p in document["policies"]}
    assert all(p["description"] for p in document["policies"])
    assert by_name["quota-capacity"]["kind"] == "stack" and by_name["gpu-accelerator"]["kind"] == "resource"
    assert by_name["team-isolation"]["configSchema"]["properties"]["sharedQueues"]["default"] == []
    assert by_name["gpu-accelerator"]["configSchema"] is None


def test_text_names_every_policy_with_its_level_and_config_defaults():
    result = runner.invoke(app, ["policies"])
    assert result.exit_code == 0
    for policy in ALL_POLICIES:
        assert f"{policy.name}  [{policy.enforcement_level.value}, " in result.stdout
    assert "sharedQueues (default [])" in result.stdout


def test_another_pack_can_be_listed():
    result = runner.invoke(app, ["policies", "--policy-pack", str(MINI_PACK), "--format", "json"])
    assert [p["name"] for p in json.loads(result.stdout)["policies"]] == ["max-nodes", "protected-pools"]


def test_a_folder_that_is_no_pack_exits_2(tmp_path):
    result = runner.invoke(app, ["policies", "--policy-pack", str(tmp_path)])
    assert result.exit_code == 2
    assert "not a policy pack" in result.stderr
