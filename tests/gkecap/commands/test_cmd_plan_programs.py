"""`gkecap plan --program` on programs as users write them: StackReference fed by `--stack-outputs`."""

import json
import tempfile

from typer.testing import CliRunner

from gkecap.cli import app
from testkit.engine_fixtures import PROGRAMS

PROGRAM = PROGRAMS / "stack_reference"
runner = CliRunner()
_OUT = tempfile.TemporaryDirectory(prefix="gkecap-programs-")


def _plan(*args: str):
    return runner.invoke(app, ["plan", "--program", str(PROGRAM), "--no-policies", "--out", tempfile.mkdtemp(dir=_OUT.name), *args])


def test_stack_outputs_flag_feeds_the_reference():
    result = _plan("--stack-outputs", f"acme/network/prod={PROGRAM / 'network-outputs.json'}", "--format", "json")
    assert result.exit_code == 0, result.stderr
    [cluster] = [r for r in json.loads(result.stdout)["resources"] if r["type"] == "gcp:container/cluster:Cluster"]
    assert cluster["inputs"]["network"] == "projects/acme-net/global/networks/ml-vpc"


def test_without_the_flag_the_error_names_the_reference_the_flag_and_the_line():
    result = _plan()
    assert result.exit_code == 2 and "Traceback" not in result.stderr
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("error: tests/fixtures/programs/stack_reference/__main__.py:6: pulumi.StackReference('acme/network/prod')")
    assert "--stack-outputs acme/network/prod=FILE" in line


def test_a_bad_outputs_file_exits_2_before_the_program_runs(tmp_path):
    result = _plan("--stack-outputs", f"acme/network/prod={tmp_path / 'missing.json'}")
    assert result.exit_code == 2
    assert "--stack-outputs acme/network/prod=" in result.stderr and "cannot read" in result.stderr
