"""The composite GitHub Action (action.yml): its work, scripts/github-action.sh, run as the Action runs it, on a
fixture repository with a pull request's base commit; and the Action's wiring of inputs, steps and outputs."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "github-action.sh"


def _git(repo: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True, env=env).stdout.strip()


@pytest.fixture(scope="module")
def pull_request(tmp_path_factory) -> tuple[Path, str]:
    """A repository with two environments; the pull request raises a quota in one. (repo, base commit)."""
    repo = tmp_path_factory.mktemp("repo")
    _git(repo, "init", "-q")
    (repo / "stacks").mkdir()
    for env in ("dev", "prod"):
        (repo / "stacks" / f"Pulumi.{env}.yaml").write_text((REPO / "stacks" / f"Pulumi.{env}.yaml").read_text())
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "base")
    base = _git(repo, "rev-parse", "HEAD")
    prod = repo / "stacks" / "Pulumi.prod.yaml"
    prod.write_text(prod.read_text().replace("quota: {h100-dws: 8,", "quota: {h100-dws: 12,", 1))
    return repo, base


def _run_action(repo: Path, base: str, out: Path, **extra: str) -> dict[str, str]:
    outputs = out / "github-output"
    out.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",  # gkecap as the Action installs it
        "GKECAP_STACKS": "stacks/Pulumi.dev.yaml\nstacks/Pulumi.prod.yaml",
        "GKECAP_OUT": str(out / "gkecap"),
        "GKECAP_BASE_REF": base,
        "GITHUB_OUTPUT": str(outputs),
        **extra,
    }
    done = subprocess.run(["bash", str(SCRIPT)], cwd=repo, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr  # the script never fails the step: the last step decides
    return dict(line.split("=", 1) for line in outputs.read_text().splitlines())


@pytest.fixture(scope="module")
def action_outputs(pull_request, tmp_path_factory) -> dict[str, str]:
    return _run_action(*pull_request, tmp_path_factory.mktemp("action"))


def test_one_sarif_per_stack_each_its_own_category(action_outputs):
    import json

    outputs = action_outputs
    assert outputs["exit-code"] == "0"
    files = sorted(Path(outputs["sarif-dir"]).glob("*.sarif"))
    assert [f.name for f in files] == ["dev.sarif", "prod.sarif"]
    categories = {json.loads(f.read_text())["runs"][0]["automationDetails"]["id"] for f in files}
    assert categories == {"gkecap/gke-capacity/dev/", "gkecap/gke-capacity/prod/"}


def test_the_comment_reports_each_stack(action_outputs):
    outputs = action_outputs
    comment = Path(outputs["comment-file"]).read_text()
    assert "### `stacks/Pulumi.dev.yaml`: passes" in comment and "### `stacks/Pulumi.prod.yaml`: passes" in comment


def test_the_comment_shows_what_the_pull_request_does_to_each_team(action_outputs):
    comment = Path(action_outputs["comment-file"]).read_text()
    assert "| llm | quota.h100-dws | 8 GPUs | 12 GPUs |" in comment


def test_mandatory_violations_set_the_exit_code_the_last_step_fails_on(pull_request, tmp_path):
    config = tmp_path / "policy-config.json"
    config.write_text('{"allow-lists": {"allowedRegions": ["europe-west4"]}}')
    outputs = _run_action(*pull_request, tmp_path, GKECAP_POLICY_CONFIG=str(config), GKECAP_STACKS="stacks/Pulumi.dev.yaml")
    assert outputs["exit-code"] == "1"
    assert "mandatory" in Path(outputs["comment-file"]).read_text()


def test_the_action_declares_every_input_it_uses_and_runs_the_script():
    action = yaml.safe_load((REPO / "action.yml").read_text())
    text = (REPO / "action.yml").read_text()
    used = set(re.findall(r"inputs\.([a-z-]+)", text))
    assert used <= set(action["inputs"]), used - set(action["inputs"])
    steps = action["runs"]["steps"]
    plan = next(s for s in steps if s.get("id") == "plan")
    assert "scripts/github-action.sh" in plan["run"]
    script = SCRIPT.read_text()
    for output in ("exit-code", "sarif-dir", "comment-file"):
        assert f"echo \"{output}=" in script
    for name in re.findall(r"steps\.plan\.outputs\.([a-z-]+)", text):
        assert f"echo \"{name}=" in script, name
