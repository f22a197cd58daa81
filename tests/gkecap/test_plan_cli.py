"""`gkecap plan` / `gkecap check`: exit codes 0/1/2, the JSON document, messages without tracebacks."""

import json
import tempfile

import pytest
from typer.testing import CliRunner

import gkecap.commands.plan  # noqa: F401  (registers the commands on the app)
from gkecap.cli import app
from testkit.engine_fixtures import MINI_PACK, PROGRAMS, STATES

runner = CliRunner()
_OUT = tempfile.TemporaryDirectory(prefix="gkecap-plan-")  # removed when the test process ends
RAW = str(PROGRAMS / "raw_resources")


def _run(*args: str):
    if args[0] == "plan":  # keep the report files (out/<stack>/) out of the working tree
        args = (*args, "--out", tempfile.mkdtemp(dir=_OUT.name))
    return runner.invoke(app, list(args))


@pytest.fixture(scope="module")
def raw_plan():
    return _run("plan", "--program", RAW, "--policy-pack", str(MINI_PACK), "--format", "json")


def test_mandatory_violation_exits_1(raw_plan):
    assert raw_plan.exit_code == 1, raw_plan.stderr


def test_json_document_shape(raw_plan):
    document = json.loads(raw_plan.stdout)
    assert set(document) == {"schemaVersion", "resources", "violations", "diagnostics", "summary"}
    assert all(set(r) == {"urn", "type", "name", "parent", "dependencies", "inputs", "options"} for r in document["resources"])
    assert document["violations"] == [
        {
            "policy": "max-nodes",
            "enforcementLevel": "mandatory",
            "urn": "urn:pulumi:test::raw-resources::gcp:container/nodePool:NodePool::v6e-16",
            "message": "node pool 'v6e-16' scales to 4 nodes, above the limit of 2; lower totalMaxNodeCount",
        }
    ]
    summary = document["summary"]
    assert (summary["stack"], summary["resources"], summary["violations"]) == ("test", 5, {"mandatory": 1, "advisory": 0})


def test_policy_config_can_clear_the_violation(tmp_path):
    config = tmp_path / "policy-config.json"
    config.write_text(json.dumps({"max-nodes": {"maxNodes": 4}}))
    result = _run("plan", "--program", RAW, "--policy-pack", str(MINI_PACK), "--policy-config", str(config), "--format", "json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["violations"] == []


def test_text_output_lists_resources_and_violations():
    result = _run("plan", "--program", RAW, "--policy-pack", str(MINI_PACK))
    assert result.exit_code == 1
    assert "gcp:container/nodePool:NodePool" in result.stdout and "max-nodes" in result.stdout


def test_no_policies_exits_0_with_resources():
    result = _run("plan", "--program", RAW, "--no-policies", "--format", "json")
    assert result.exit_code == 0
    assert len(json.loads(result.stdout)["resources"]) == 5


def test_spec_error_exits_2_with_one_line_per_issue():
    result = _run("plan", "--program", str(PROGRAMS / "spec_error"), "--stack", "bad", "--no-policies")
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 2 and "Traceback" not in result.stderr
    assert lines[0].startswith("error: ") and "gkecap:environment.nodePools[0].tpuTopology: '4x3' is not a valid v6e topology" in lines[0]
    assert "gkecap:environment.teams[0].qouta: unknown key; did you mean quota?" in lines[1]


def test_failing_program_exits_2_naming_the_line():
    result = _run("plan", "--program", str(PROGRAMS / "failing"), "--no-policies")
    assert result.exit_code == 2
    assert result.stderr.strip() == "error: tests/fixtures/programs/failing/__main__.py:8: KeyError: 'zone'"


def test_missing_config_file_exits_2():
    result = _run("plan", "--program", str(PROGRAMS / "spec_error"), "--config", str(PROGRAMS / "spec_error" / "Pulumi.nope.yaml"), "--no-policies")
    assert result.exit_code == 2
    assert "Pulumi.nope.yaml: file not found" in result.stderr


def test_invalid_policy_config_exits_2(tmp_path):
    config = tmp_path / "policy-config.json"
    config.write_text('{"max-nodes": "strict"}')
    result = _run("plan", "--program", RAW, "--policy-pack", str(MINI_PACK), "--policy-config", str(config))
    assert result.exit_code == 2
    assert "max-nodes: 'strict' is not a valid enforcement level" in result.stderr


def test_check_state_runs_the_pack_over_a_stack_export():
    result = _run("check", "--state", str(STATES / "stack_export.json"), "--policy-pack", str(MINI_PACK), "--format", "json")
    assert result.exit_code == 1, result.stderr
    violations = {(v["policy"], v["enforcementLevel"], v["urn"].rsplit("::", 1)[-1]) for v in json.loads(result.stdout)["violations"]}
    assert violations == {("max-nodes", "mandatory", "h100-big"), ("protected-pools", "advisory", "l4-spot")}


def test_check_state_rejects_a_file_that_is_not_an_export(tmp_path):
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"deployment": {"resources": [{"urn": "bucket", "type": "aws:s3:Bucket"}]}}))
    result = _run("check", "--state", str(state))
    assert result.exit_code == 2
    assert "deployment.resources[0].urn: 'bucket' is not a Pulumi URN" in result.stderr


def test_a_directory_that_is_not_a_pack_exits_2(tmp_path):
    result = _run("plan", "--program", RAW, "--policy-pack", str(tmp_path))
    assert result.exit_code == 2
    assert result.stderr.strip() == f"error: --policy-pack: {tmp_path}: not a policy pack (no PulumiPolicy.yaml)"
