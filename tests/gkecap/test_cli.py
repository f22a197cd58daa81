"""gkecap.cli: every command listed from one table, each loaded only when it runs."""

from __future__ import annotations

import importlib
import inspect
import json
import subprocess
import sys

from typer.testing import CliRunner

from gkecap.cli import COMMANDS, app

_HEAVY_PACKAGES = {"pulumi", "pulumi_gcp", "pulumi_kubernetes", "pulumi_policy", "grpc", "matplotlib"}
_HEAVY_MODULES = {"gkecap.plan", "gkecap.commands.plan"}


def test_help_lists_every_command_with_its_help():
    result = CliRunner().invoke(app, ["--help"], env={"COLUMNS": "300"})
    assert result.exit_code == 0
    for name, entry in COMMANDS.items():
        assert name in result.stdout and entry.help in result.stdout


def test_each_listed_help_is_the_commands_own_docstring():
    # The table repeats the first paragraph of each docstring so that `--help` imports no command.
    for name, entry in COMMANDS.items():
        function = getattr(importlib.import_module(entry.module), entry.function)
        first_paragraph = " ".join(inspect.getdoc(function).split("\n\n")[0].split())
        assert entry.help == first_paragraph, name


def test_help_and_catalog_import_no_pulumi_grpc_or_matplotlib():
    # A fresh interpreter, as a user's shell starts one: what `gkecap --help` and `gkecap catalog` load.
    code = (
        "import sys, json\n"
        "from gkecap.cli import app\n"
        "loaded = {}\n"
        "for argv in (['--help'], ['catalog', '--format', 'json']):\n"
        "    try:\n"
        "        app(argv, standalone_mode=False)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "    loaded[argv[0]] = sorted(m for m in sys.modules if m.split('.')[0] in %r or m in %r)\n"
        "print(json.dumps(loaded))\n"
    ) % (_HEAVY_PACKAGES, _HEAVY_MODULES)
    process = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = json.loads(process.stdout.strip().splitlines()[-1])
    assert loaded == {"--help": [], "catalog": []}


def test_a_command_runs_after_lazy_loading():
    result = CliRunner().invoke(app, ["slice", "ct6e-standard-4t", "4x4", "--format", "json"])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)
