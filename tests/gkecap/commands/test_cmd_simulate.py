"""`gkecap simulate`: one JSON document on stdout, the text report, the HTML timeline, exit 2 naming the path of
bad input without a traceback; the bundled scenario of every stack runs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from gkecap.cli import app
from testkit.cli_process import run_with_terminal_stderr
from testkit.spec_data import prod, stack_file

ROOT = Path(__file__).resolve().parents[3]
runner = CliRunner()


def _config(tmp_path: Path) -> Path:
    path = tmp_path / "Pulumi.prod.yaml"
    path.write_text(yaml.safe_dump(stack_file(prod())))
    return path


def _workloads(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "workloads.yaml"
    path.write_text(text)
    return path


STORY = """start: 2026-12-01T00:00:00Z
workloads:
  - {name: d, team: team-d, pods: 2, accelerators: 8, pool: h100-dws, duration: 6h}
  - {name: b, team: team-b, accelerators: 2, pool: h100-dws, submit: 1h, duration: 2h}
"""


def test_json_is_one_document_on_a_pipe(tmp_path: Path):
    # The real seam: the installed CLI in a subprocess, stdout piped.
    done = subprocess.run(
        [sys.executable, "-m", "gkecap", "simulate", "--config", str(_config(tmp_path)),
         "--workloads", str(_workloads(tmp_path, STORY)), "--format", "json"],
        capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert set(document) == {"schemaVersion", "workloads", "events", "teams", "pools", "cycles", "limits", "summary"}
    assert [(e["event"], e["workload"]) for e in document["events"] if e["event"] == "preempted"] == [("preempted", "d")]
    d = next(w for w in document["workloads"] if w["name"] == "d")
    # d's pods terminate for the default 30 s before b is admitted; b runs 2h, then d, set aside meanwhile, competes
    # again at Kueue's batched requeue 1 s after b's release (gkecap.simulate.timing) and starts over (6h).
    assert (d["preemptions"], d["admitted"], d["finished"]) == (1, 0, 3600 + 30 + 2 * 3600 + 1 + 6 * 3600)


# Longer than a few seconds to simulate: 10,000 workloads of one team on a queued pool.
MANY = ("start: 2026-12-01T00:00:00Z\nworkloads:\n  - {name: s, team: team-b, accelerators: 2, pool: h100-dws, "
        "duration: 45m, count: 10000, every: 1m}\n")


def test_a_timeout_says_how_far_the_simulation_got(tmp_path: Path):
    done = subprocess.run(
        [sys.executable, "-m", "gkecap", "simulate", "--config", str(_config(tmp_path)),
         "--workloads", str(_workloads(tmp_path, MANY)), "--format", "json", "--timeout", "2"],
        capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    [message] = [d["message"] for d in json.loads(done.stdout)["diagnostics"]]
    assert message.startswith("--timeout: the simulation did not finish within 2 s")
    assert "; it had simulated " in message and " of 10,000 workloads submitted, " in message
    assert f"error: {message}" in done.stderr


def test_a_terminal_sees_how_far_a_long_simulation_got_while_it_runs(tmp_path: Path):
    code, output = run_with_terminal_stderr(
        [sys.executable, "-m", "gkecap", "simulate", "--config", str(_config(tmp_path)),
         "--workloads", str(_workloads(tmp_path, MANY)), "--timeout", "5"], timeout=120)
    assert code == 2
    assert b"Simulating: " in output and b" h simulated, " in output  # refreshed while it runs
    assert b"--timeout: the simulation did not finish within 5 s" in output


def test_a_timeout_during_a_try_fixes_trial_says_so():
    from gkecap.commands.simulate import _progress, _status
    from gkecap.simulate import Progress

    class Run:
        def progress(self) -> Progress:
            return Progress(reached=7200, last_submission=3600, workloads=9, submitted=9, finished=4, preemptions=2,
                            cycles=40)

    assert _progress([Run()]).startswith("; it had simulated 2.0 h")
    assert _progress([Run(), Run(), Run()]).startswith(
        "; the scenario was simulated, trial 2 of --try-fixes was running; it had simulated 2.0 h")
    assert _status([Run(), Run()]) == "trial 1 of --try-fixes, 2.0 h simulated, 4/9 workloads finished, 2 preemptions"


def test_the_watchdogs_hard_stop_says_how_far_the_simulation_got_too():
    # The watchdog ends gkecap from its own thread when the simulation ignores the timeout (engine.deadline).
    from gkecap.commands.simulate import OutputFormat, _expiry_output
    from gkecap.simulate import Progress

    class Run:
        def progress(self) -> Progress:
            return Progress(reached=3600, last_submission=3600, workloads=9, submitted=9, finished=4, preemptions=2,
                            cycles=40)

    stderr, stdout = _expiry_output(OutputFormat.json, 5, [Run()])
    [diagnostic] = json.loads(stdout)["diagnostics"]
    assert "gkecap ended it); it had simulated 1.0 h" in diagnostic["message"]
    assert stderr == f"error: {diagnostic['message']}\n"


def test_text_reports_teams_and_notable_events(tmp_path: Path):
    result = runner.invoke(app, ["simulate", "--config", str(_config(tmp_path)),
                                 "--workloads", str(_workloads(tmp_path, STORY))])
    assert result.exit_code == 0, result.stderr
    assert "team-d" in result.stdout and "preempted" in result.stdout and "InCohortReclamation" in result.stdout


def test_out_writes_the_html_timeline(tmp_path: Path):
    out = tmp_path / "sim"
    result = runner.invoke(app, ["simulate", "--config", str(_config(tmp_path)),
                                 "--workloads", str(_workloads(tmp_path, STORY)), "--out", str(out)])
    assert result.exit_code == 0, result.stderr
    html = (out / "simulation.html").read_text()
    assert html.count("<svg") == 2 and "Pool h100-dws" in html
    assert html.count("<script") == 1 and "<script>" in html  # its own inline script: nothing loaded


def test_bad_workloads_exit_2_with_paths_and_a_json_document(tmp_path: Path):
    bad = _workloads(tmp_path, "workloads:\n  - {name: x, team: nobody, accelerators: 1, duration: 1h, gpu: 1}\n")
    result = runner.invoke(app, ["simulate", "--config", str(_config(tmp_path)), "--workloads", str(bad),
                                 "--format", "json"])
    assert result.exit_code == 2
    assert f"{bad}: workloads[0].gpu: unknown key" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert json.loads(result.stdout)["diagnostics"][0]["severity"] == "error"


def test_unknown_team_exits_2_naming_the_path(tmp_path: Path):
    bad = _workloads(tmp_path, "workloads:\n  - {name: x, team: nobody, accelerators: 1, duration: 1h}\n")
    result = runner.invoke(app, ["simulate", "--config", str(_config(tmp_path)), "--workloads", str(bad)])
    assert result.exit_code == 2 and "workloads[0].team: 'nobody' is not a team" in result.stderr


def test_stack_or_config_is_required(tmp_path: Path):
    result = runner.invoke(app, ["simulate", "--workloads", str(_workloads(tmp_path, STORY))])
    assert result.exit_code == 2 and "--stack NAME or --config FILE" in result.stderr


@pytest.mark.parametrize("stack", sorted(p.stem for p in (ROOT / "stacks" / "scenarios").glob("*.yaml")))
def test_each_stack_has_a_scenario_that_runs(stack: str, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = runner.invoke(app, ["simulate", "--stack", stack, "--workloads", f"stacks/scenarios/{stack}.yaml",
                                 "--format", "json"])
    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)["summary"]
    assert summary["preemptions"] >= 1 and summary["finished"] == summary["workloads"]


def test_every_stack_has_a_scenario():
    stacks = {p.name[len("Pulumi."):-len(".yaml")] for p in (ROOT / "stacks").glob("Pulumi.*.yaml")}
    assert stacks == {p.stem for p in (ROOT / "stacks" / "scenarios").glob("*.yaml")}
