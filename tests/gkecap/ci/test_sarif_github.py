"""SARIF as GitHub code scanning takes it: Microsoft's SARIF Multitool with GitHub's rules (`--rule-kind Gh`)
reports no error on any SARIF the CLI writes, for each way it is used (a stack, invalid input, any program,
a state export read from stdin)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from testkit.cli_process import run_gkecap
from testkit.engine_fixtures import MINI_PACK, PROGRAMS, STATES
from testkit.external_tools import REPO, sarif_multitool


def _sarif(tmp_path: Path, name: str, args: list[str], *, stdin: str | None = None, cwd: Path | None = None) -> Path:
    if stdin is None:
        run = run_gkecap([*args, "--format", "sarif"], cwd=cwd or REPO)
        out = run.stdout
    else:
        done = subprocess.run(  # noqa: S603 -- our own interpreter and module
            [__import__("sys").executable, "-m", "gkecap", *args, "--format", "sarif"],
            input=stdin, capture_output=True, text=True, cwd=cwd or REPO, timeout=120,
        )
        out = done.stdout
    document = json.loads(out)
    path = tmp_path / f"{name}.sarif"
    path.write_text(json.dumps(document))
    return path


@pytest.fixture(scope="module")
def sarif_files(tmp_path_factory) -> list[Path]:
    tmp_path = tmp_path_factory.mktemp("sarif")
    project = tmp_path / "project"  # a Pulumi project root, as a CI job checks it out
    project.mkdir()
    (project / "Pulumi.yaml").write_text("name: demo\nruntime: python\n")
    over = tmp_path / "Pulumi.over.yaml"
    document = __import__("yaml").safe_load((REPO / "stacks" / "Pulumi.dev.yaml").read_text())
    document["config"]["gkecap:environment"]["teams"][0]["quota"]["h100-flex"] = 64
    over.write_text(__import__("yaml").safe_dump(document, sort_keys=False))
    return [
        _sarif(tmp_path, "prod", ["plan", "--stack", "prod", "--no-outputs"] if False else ["plan", "--stack", "prod"]),
        _sarif(tmp_path, "over", ["plan", "--config", str(over)]),
        _sarif(tmp_path, "invalid", ["plan", "--program", str(PROGRAMS / "spec_error"), "--stack", "bad"]),
        _sarif(tmp_path, "program", ["plan", "--program", str(PROGRAMS / "raw_resources"), "--policy-pack", str(MINI_PACK)]),
        _sarif(tmp_path, "state-stdin", ["check", "--state", "-", "--policy-pack", str(MINI_PACK)],
               stdin=(STATES / "stack_export.json").read_text(), cwd=project),
    ]


def _github_errors(tool: Path, sarif: Path, tmp_path: Path) -> list[str]:
    out = tmp_path / f"{sarif.stem}.validation.sarif"
    done = subprocess.run(  # noqa: S603 -- the Multitool .ci/run installed
        [str(tool), "validate", "--rule-kind", "Gh", "--output", str(out), str(sarif)],
        capture_output=True, text=True, timeout=300,
    )
    assert out.is_file(), done.stdout + done.stderr
    results = json.loads(out.read_text())["runs"][0].get("results", [])
    return [f"{r['ruleId']}: {r['message']}" for r in results if r.get("level", "warning") == "error"]


@pytest.mark.parametrize("name", ["prod", "over", "invalid", "program", "state-stdin"])
def test_github_rules_report_no_error(sarif_files, name, tmp_path):
    tool = sarif_multitool()
    [sarif] = [f for f in sarif_files if f.stem == name]
    assert _github_errors(tool, sarif, tmp_path) == []


def test_every_result_is_located_and_fingerprinted(sarif_files):
    for sarif in sarif_files:
        for result in json.loads(sarif.read_text())["runs"][0]["results"]:
            assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], (sarif.stem, result)
            assert result["partialFingerprints"], (sarif.stem, result)


def test_a_state_from_stdin_is_located_at_the_project_and_the_resource(sarif_files):
    [sarif] = [f for f in sarif_files if f.stem == "state-stdin"]
    results = json.loads(sarif.read_text())["runs"][0]["results"]
    assert results
    for result in results:
        [location] = result["locations"]
        assert location["physicalLocation"]["artifactLocation"]["uri"] == "Pulumi.yaml"
        assert location["logicalLocations"][0]["fullyQualifiedName"].startswith("urn:pulumi:")


def test_each_project_and_stack_is_its_own_category(sarif_files):
    categories = {f.stem: json.loads(f.read_text())["runs"][0].get("automationDetails", {}).get("id") for f in sarif_files}
    assert categories["prod"] == "gkecap/gke-capacity/prod/"
    assert len({categories["prod"], categories["over"], categories["program"]}) == 3


def test_fingerprints_are_stable_across_runs(tmp_path):
    args = ["plan", "--program", str(PROGRAMS / "raw_resources"), "--policy-pack", str(MINI_PACK)]
    first, second = (_sarif(tmp_path, name, args) for name in ("a", "b"))
    prints = [[r["partialFingerprints"] for r in json.loads(f.read_text())["runs"][0]["results"]] for f in (first, second)]
    assert prints[0] and prints[0] == prints[1]


def test_every_rule_has_what_github_requires(sarif_files):
    [sarif] = [f for f in sarif_files if f.stem == "prod"]
    rules = json.loads(sarif.read_text())["runs"][0]["tool"]["driver"]["rules"]
    assert len(rules) > 20
    for rule in rules:
        assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"], rule["id"]
        assert "How to fix" in rule["help"]["text"] and rule["help"]["markdown"], rule["id"]
        assert rule["helpUri"].endswith("#" + rule["id"]), rule["id"]
