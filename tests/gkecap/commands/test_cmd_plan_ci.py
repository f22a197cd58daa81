"""`gkecap plan`/`check` where CI runs them: through real pipes and a real terminal, in parallel, from stdin.

Each test crosses the seam the way a CI job does: the installed `gkecap` script in a subprocess, its stdout a
pipe (a CI log, `| tee`) or its stderr a pseudo-terminal (a developer's shell).
"""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gkecap.cli import app
from testkit.cli_process import run_with_terminal_stderr
from testkit.engine_fixtures import MINI_PACK, PROGRAMS, STATES

GKECAP = str(Path(sys.executable).with_name("gkecap"))
TINY = str(PROGRAMS / "tiny")


def _gkecap(*args: str, **options) -> subprocess.CompletedProcess:
    return subprocess.run([GKECAP, *args], capture_output=True, text=True, timeout=300, **options)


@pytest.fixture(scope="module")
def prod_piped(tmp_path_factory):
    """The prod environment planned with stdout and stderr as pipes, as in a CI log."""
    return _gkecap("plan", "--stack", "prod", "--no-policies", "--out", str(tmp_path_factory.mktemp("out")))


def test_piped_tables_are_never_cut(prod_piped):
    assert prod_piped.returncode == 0, prod_piped.stderr
    rows = [line.split()[0] for line in prod_piped.stdout.splitlines() if line.strip().startswith("h100-")]
    assert {"h100-dws", "h100-dws-long", "h100-cal"} <= set(rows)
    assert "…" not in prod_piped.stdout


def test_no_progress_indicator_when_stderr_is_not_a_terminal(prod_piped):
    assert prod_piped.stderr == ""


def test_a_progress_indicator_when_stderr_is_a_terminal(tmp_path):
    # a plan that takes more than a moment: a program that runs until --timeout stops it
    code, output = run_with_terminal_stderr([GKECAP, "plan", "--program", str(PROGRAMS / "never_ends"), "--no-policies",
                                             "--timeout", "3", "--out", str(tmp_path)])
    assert code == 2
    assert b"Planning" in output and b"--timeout" in output  # the spinner, then the message


def test_check_reads_the_state_from_stdin():
    result = _gkecap("check", "--state", "-", "--policy-pack", str(MINI_PACK), "--format", "json",
                     input=(STATES / "stack_export.json").read_text())
    assert result.returncode == 1, result.stderr
    violations = {(v["policy"], v["urn"].rsplit("::", 1)[-1]) for v in json.loads(result.stdout)["violations"]}
    assert violations == {("max-nodes", "h100-big"), ("protected-pools", "l4-spot")}


def test_parallel_plans_never_leave_a_partial_file(tmp_path):
    out = tmp_path / "out"
    seen: list[str] = []
    done = threading.Event()

    def watch() -> None:  # a reader (a CI artifact upload, a browser) while the plans write
        while not done.is_set():
            for name in ("plan.json", "report.html"):
                try:
                    text = (out / name).read_text()
                except FileNotFoundError:
                    continue
                seen.append(name)
                assert text.endswith("\n") or text.rstrip().endswith("</html>"), f"{name} was read half-written"
                if name == "plan.json":
                    json.loads(text)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        with ThreadPoolExecutor(16) as pool:
            results = list(pool.map(lambda _: _gkecap("plan", "--program", TINY, "--no-policies", "--out", str(out)), range(16)))
    finally:
        done.set()
        watcher.join()
    assert [r.returncode for r in results] == [0] * 16, [r.stderr for r in results if r.returncode]
    assert json.loads((out / "plan.json").read_text())["summary"]["project"] == "tiny"
    assert sorted(p.name for p in out.iterdir()) == ["plan.json", "report.html"]  # no temporary file left behind
    assert seen  # the watcher did read while plans were writing


def test_timeout_exits_2_naming_it():
    result = CliRunner().invoke(app, ["plan", "--program", str(PROGRAMS / "never_ends"), "--no-policies", "--timeout", "1", "--format", "json"])
    assert result.exit_code == 2
    [diagnostic] = json.loads(result.stdout)["diagnostics"]
    assert diagnostic["message"].startswith("--timeout: the plan did not finish within 1 s")


def test_a_quick_plan_shows_no_progress_indicator(tmp_path):
    from gkecap.commands.terminal_io import progress

    primary, secondary = pty.openpty()
    with os.fdopen(secondary, "w") as terminal:
        with progress("Planning", stream=terminal, delay=60):
            pass
    os.set_blocking(primary, False)
    try:
        written = os.read(primary, 4096)
    except OSError:  # nothing was written (EAGAIN), or the terminal is closed and empty (EIO)
        written = b""
    os.close(primary)
    assert b"Planning" not in written
