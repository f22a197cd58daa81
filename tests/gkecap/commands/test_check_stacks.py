"""`gkecap check-stacks FILE...`: the pre-commit hook's entry, through the console script."""

from __future__ import annotations

from pathlib import Path

import yaml

from testkit.cli_process import run_gkecap

REPO = Path(__file__).resolve().parents[3]


def _stack_and_allow_list(tmp_path: Path) -> tuple[Path, Path]:
    """The prod stack, copied, and a policy config whose region allow-list leaves its region out (mandatory)."""
    path = tmp_path / "Pulumi.over.yaml"
    path.write_text((REPO / "stacks" / "Pulumi.prod.yaml").read_text())
    config = tmp_path / "policy-config.json"
    config.write_text('{"allow-lists": {"allowedRegions": ["europe-west4"]}}')
    return path, config


def test_valid_environments_pass(tmp_path):
    run = run_gkecap(["check-stacks", "stacks/Pulumi.dev.yaml", "stacks/Pulumi.prod.yaml"], cwd=REPO)
    assert run.exit_code == 0, run.stdout + run.stderr
    assert "stacks/Pulumi.prod.yaml: planned" in run.stderr


def test_files_without_an_environment_are_skipped(tmp_path):
    other = tmp_path / "Pulumi.web.yaml"
    other.write_text("config:\n  aws:region: us-east-1\n")
    run = run_gkecap(["check-stacks", str(other), "Pulumi.yaml"], cwd=REPO)
    assert (run.exit_code, run.stdout, run.stderr) == (0, "", "")


def test_a_mandatory_violation_fails_at_its_entry_line(tmp_path):
    stack, config = _stack_and_allow_list(tmp_path)
    run = run_gkecap(["check-stacks", str(stack), "--policy-config", str(config)], cwd=tmp_path)
    assert run.exit_code == 1, run.stdout + run.stderr
    lines = [line for line in run.stdout.splitlines() if ": mandatory: " in line]
    assert lines and all(line.startswith("Pulumi.over.yaml:") for line in lines), run.stdout
    assert int(lines[0].split(":")[1]) > 1  # the line of the pool or team entry, not the file's top


def test_invalid_input_is_exit_2_at_the_field_line(tmp_path):
    document = yaml.safe_load((REPO / "stacks" / "Pulumi.dev.yaml").read_text())
    document["config"]["gkecap:environment"]["nodePools"][0]["machineType"] = "a3-nonesuch-8g"
    stack = tmp_path / "Pulumi.bad.yaml"
    stack.write_text(yaml.safe_dump(document, sort_keys=False))
    run = run_gkecap(["check-stacks", str(stack)], cwd=tmp_path)
    assert run.exit_code == 2
    assert any(line.startswith("Pulumi.bad.yaml:") and ": error: " in line and "machineType" in line for line in run.stdout.splitlines()), run.stdout
