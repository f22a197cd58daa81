"""The pre-commit hook (.pre-commit-hooks.yaml), as pre-commit runs it: `pre-commit try-repo` of this checkout on a
fixture repository installs the hook's own environment (a wheel of this project with its dependencies, as a user's
`rev:` does) and runs it on the given stack files."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from testkit.external_tools import require_tool

REPO = Path(__file__).resolve().parents[2]


def _git(repo: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, env=env)


@pytest.fixture(scope="module")
def try_repo(tmp_path_factory):
    pre_commit = require_tool("pre-commit", [Path(sys.executable).parent / "pre-commit", "pre-commit"], "pip install pre-commit")
    repo = tmp_path_factory.mktemp("user-repo")
    home = tmp_path_factory.mktemp("pre-commit-home")  # the hook's environment, installed once for the module
    _git(repo, "init", "-q")
    (repo / "Pulumi.good.yaml").write_text((REPO / "stacks" / "Pulumi.dev.yaml").read_text())
    document = yaml.safe_load((REPO / "stacks" / "Pulumi.dev.yaml").read_text())
    document["config"]["gkecap:environment"]["nodePools"][0]["machineType"] = "a3-nonesuch-8g"
    (repo / "Pulumi.bad.yaml").write_text(yaml.safe_dump(document, sort_keys=False))
    (repo / "Pulumi.web.yaml").write_text("config:\n  aws:region: us-east-1\n")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "stacks")

    def run(*files: str) -> subprocess.CompletedProcess:
        # No bytecode for the hook environment: the typed SDKs compile for minutes and the hook runs twice here.
        env = {**os.environ, "PRE_COMMIT_HOME": str(home), "PIP_NO_COMPILE": "1"}
        return subprocess.run(
            [str(pre_commit), "try-repo", str(REPO), "gkecap-check-stacks", "--files", *files],
            cwd=repo, env=env, capture_output=True, text=True, timeout=1200,
        )

    return run


@pytest.fixture(scope="module")
def hook_run(try_repo) -> subprocess.CompletedProcess:
    # One run over the three files: installing the hook's environment is most of the cost.
    return try_repo("Pulumi.good.yaml", "Pulumi.bad.yaml", "Pulumi.web.yaml")


def test_the_hook_fails_an_invalid_environment_at_its_line(hook_run):
    assert hook_run.returncode == 1, hook_run.stdout + hook_run.stderr
    assert "Failed" in hook_run.stdout
    assert any(line.startswith("Pulumi.bad.yaml:") and ": error: " in line and "machineType" in line for line in hook_run.stdout.splitlines())


def test_the_hook_plans_the_valid_environment_and_skips_other_stacks(hook_run):
    lines = hook_run.stdout.splitlines()
    assert not any(line.startswith(("Pulumi.good.yaml:", "Pulumi.web.yaml:")) and ": error: " in line for line in lines)
    assert "Pulumi.good.yaml: planned" in hook_run.stdout  # pre-commit shows the hook's stderr with its stdout
    assert "Pulumi.web.yaml: planned" not in hook_run.stdout
