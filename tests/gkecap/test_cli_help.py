"""First contact: `gkecap --help`, `-h`, every command's help with examples and exit codes, `--version`."""

from importlib import metadata

import pytest
from typer.testing import CliRunner

from gkecap.cli import app

runner = CliRunner()
COMMANDS = ["catalog", "slice", "plan", "check", "check-stacks", "manifests", "policies", "workload", "vertex-job", "simulate"]


@pytest.mark.parametrize("args", [["--help"], ["-h"], *([command, "-h"] for command in COMMANDS)], ids=" ".join)
def test_help_has_examples_and_exit_codes(args):
    result = runner.invoke(app, args, terminal_width=200)
    assert result.exit_code == 0, result.output
    assert "Examples:" in result.output and "Exit codes: 0" in result.output


def test_version():
    result = runner.invoke(app, ["--version"])
    assert (result.exit_code, result.output.strip()) == (0, f"gkecap {metadata.version('gke-capacity')}")


def test_every_command_is_listed_in_the_main_help():
    output = runner.invoke(app, ["--help"], terminal_width=200).output
    assert all(f" {command} " in output for command in COMMANDS)
