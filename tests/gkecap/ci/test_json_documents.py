"""`--format json` prints exactly one JSON document, also for invalid input (exit 2), with located diagnostics;
spec warnings are diagnostics (in JSON) and printed once (in text)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from gkecap.cli import app
from gkecap.report import render_json, render_plan
from testkit.engine_fixtures import PROGRAMS

ROOT = Path(__file__).resolve().parents[3]

runner = CliRunner()
_OUT = tempfile.TemporaryDirectory(prefix="gkecap-ci-")


def _plan(*args: str):
    return runner.invoke(app, ["plan", *args, "--out", tempfile.mkdtemp(dir=_OUT.name)])


def test_invalid_input_prints_one_document_with_located_diagnostics():
    result = _plan("--program", str(PROGRAMS / "spec_error"), "--stack", "bad", "--no-policies", "--format", "json")
    assert result.exit_code == 2
    document = json.loads(result.stdout)  # one document, nothing else on stdout
    assert (document["resources"], document["violations"], document["summary"]["exitCode"]) == ([], [], 2)
    first = document["diagnostics"][0]
    assert first["severity"] == "error" and first["path"] == "nodePools[0].tpuTopology"
    assert first["file"].endswith("spec_error/Pulumi.bad.yaml") and first["line"] == 7
    assert first["message"].startswith("'4x3' is not a valid v6e topology")


def test_a_missing_file_is_a_diagnostic_too():
    result = _plan("--program", str(PROGRAMS / "nope"), "--format", "json")
    assert result.exit_code == 2
    [diagnostic] = json.loads(result.stdout)["diagnostics"]
    assert "program directory not found" in diagnostic["message"] and diagnostic["file"] is None


def test_sarif_is_printed_for_invalid_input_too():
    result = _plan("--program", str(PROGRAMS / "spec_error"), "--stack", "bad", "--no-policies", "--format", "sarif")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["version"] == "2.1.0"


def test_spec_warnings_are_diagnostics(overcommitted_plan):
    warnings = [d for d in json.loads(render_json(overcommitted_plan))["diagnostics"] if d["severity"] == "warning"]
    [warning] = warnings  # quotas of the pool over its capacity, across the teams
    assert (warning["path"], warning["file"].rsplit("/", 1)[-1]) == ("teams", "Pulumi.over.yaml")
    assert "h100-flex" in warning["message"] and warning["line"] > 1


def test_spec_warnings_are_printed_once(overcommitted_plan):
    console = Console(record=True, width=4096)
    render_plan(overcommitted_plan, console)
    text = console.export_text()
    for warning in overcommitted_plan.spec.warnings:
        assert text.count(warning) == 1, warning


def test_an_unknown_config_key_is_a_warning_naming_the_closest(tmp_path):
    stack = tmp_path / "Pulumi.test.yaml"
    stack.write_text((PROGRAMS / "raw_resources" / "Pulumi.test.yaml").read_text().replace("config:\n", "config:\n  gcp:projct: acme\n", 1))
    result = _plan("--program", str(PROGRAMS / "raw_resources"), "--config", str(stack), "--no-policies", "--format", "json")
    [warning] = json.loads(result.stdout)["diagnostics"]
    assert warning["severity"] == "warning" and "did you mean gcp:project?" in warning["message"] and warning["line"] == 2


def test_an_unknown_config_key_stays_a_warning_beside_spec_errors(tmp_path):
    # Exit 2 on a spec error must still carry the config's own warnings in the one JSON document.
    text = (ROOT / "stacks" / "Pulumi.dev.yaml").read_text()
    text = text.replace("config:\n", "config:\n  gcp:projct: acme\n", 1).replace("maxNodes: 2", "maxNodes: 2.5", 1)
    stack = tmp_path / "Pulumi.broken.yaml"
    stack.write_text(text)
    result = _plan("--config", str(stack), "--format", "json")
    assert result.exit_code == 2
    document = json.loads(result.stdout)
    severities = sorted(d["severity"] for d in document["diagnostics"])
    assert severities == ["error", "warning"]
    assert document["summary"]["warnings"] == 1
