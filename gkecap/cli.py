"""The `gkecap` command line: a Typer app whose commands are loaded only when they run.

Commands never import this module; it names them in `COMMANDS` (module, function, one-line help) and imports a
command's module only when that command runs or prints its own help, so `gkecap --help` and `gkecap catalog`
never pay for the Pulumi SDKs, gRPC or the policy pack that `gkecap plan` needs. To add a command, add a line to
`COMMANDS`; tests/gkecap/test_cli.py checks that each line's help is its function's own (docstring, first paragraph).
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import json
import os
import sys
from importlib import metadata
from typing import Any, NamedTuple

import typer
from typer.core import TyperGroup
from typer.models import CommandInfo

from gkecap import shutdown  # stdlib only: signal handling and child clean-up for main()
from gkecap.commands import help_texts  # plain strings: examples and exit codes each help ends with


class CommandEntry(NamedTuple):
    module: str
    function: str
    help: str  # the first paragraph of the function's docstring, as `gkecap --help` lists it


COMMANDS: dict[str, CommandEntry] = {
    "catalog": CommandEntry("gkecap.commands.catalog", "catalog_command", "Show the accelerator catalog: GPU machine types, TPU families and their topology rules."),
    "slice": CommandEntry("gkecap.commands.catalog", "slice_command", "Explain a TPU slice (chips, VMs, single- or multi-host, node-pool settings) or a GPU machine type."),
    "plan": CommandEntry("gkecap.commands.plan", "plan_command", "Evaluate an environment or any Python Pulumi program offline and check it with the policy pack."),
    "check": CommandEntry("gkecap.commands.plan", "check_command", "Run the policy pack over the resources of a stack export."),
    "check-stacks": CommandEntry("gkecap.commands.check_stacks", "check_stacks_command", "Plan every environment file given (a pre-commit hook's entry); print one line per finding."),
    "manifests": CommandEntry("gkecap.commands.manifests", "manifests_command", (
        "Write every generated Kubernetes object (Kueue flavors, queues, cohorts, checks; team Namespaces and "
        "RoleBindings) as kubectl-ready YAML, one file per kind in apply order, with what kubectl apply -k, Argo CD "
        "and Flux need to install Kueue and JobSet first (README \"GitOps\")."
    )),
    "policies": CommandEntry("gkecap.commands.policies", "policies_command", "List every policy of the pack: name, enforcement level, description and config schema."),
    "workload": CommandEntry("gkecap.commands.workload", "workload_command", (
        "Print a ready-to-apply Job or JobSet for a team: queue, node selector, tolerations, accelerator requests and "
        "provisioning/topology annotations from the environment."
    )),
    "vertex-job": CommandEntry("gkecap.commands.vertex_job", "vertex_job_command", "Print a Vertex AI CustomJob (FLEX_START) for a training profile of the environment."),
    "diff": CommandEntry("gkecap.commands.diff", "diff_command", "Show what changes from one plan to another per team, cohort, pool and reservation, and the new findings."),
    "simulate": CommandEntry("gkecap.commands.simulate", "simulate_command", (
        "Simulate Kueue admission of a workloads file over an environment's queues, cohorts, flavors and capacity."
    )),
}


def load_command_function(name: str) -> Any:
    """The function behind command `name` (imports its module)."""
    entry = COMMANDS[name]
    return getattr(importlib.import_module(entry.module), entry.function)


class LazyCommandGroup(TyperGroup):
    """Lists `COMMANDS` from the table and builds a command (importing its module) only when it is used."""

    _listing = False

    def list_commands(self, ctx: Any) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return None
        if self._listing:  # `gkecap --help`: the name and one line of help are all it shows
            return typer.core.TyperCommand(name=cmd_name, help=entry.help)
        if cmd_name not in self.commands:
            info = CommandInfo(name=cmd_name, callback=load_command_function(cmd_name), epilog=help_texts.COMMANDS.get(cmd_name))
            self.commands[cmd_name] = typer.main.get_command_from_info(info, pretty_exceptions_short=True, rich_markup_mode=self.rich_markup_mode)
        return self.commands[cmd_name]

    def invoke(self, ctx: Any) -> Any:
        args = list(ctx.args)  # the command's arguments (the group's invoke hands them on and clears them)
        try:
            return super().invoke(ctx)
        except typer.TyperException as exc:  # a usage error (an unknown option, a bad value): typer prints it
            if hasattr(exc, "format_message") and (document := _usage_error_document(exc, args)):
                sys.stdout.write(document)
            raise

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False


def requested_format(args: list[str]) -> str | None:
    """The value of `--format` among a command line's arguments (`--format json` or `--format=json`)."""
    found = None
    for i, arg in enumerate(args):
        if arg == "--format" and i + 1 < len(args):
            found = args[i + 1]
        elif arg.startswith("--format="):
            found = arg.split("=", 1)[1]
    return found


def _usage_error_document(exc: Any, args: list[str]) -> str | None:
    """Under `--format json` (or sarif), stdout holds one document also for a usage error: the invalid-input
    document with the error as its diagnostic, at the option it names."""
    output = requested_format(args)
    if output not in ("json", "sarif"):
        return None
    from gkecap.ci.diagnostics import ConfigDiagnostic

    param = getattr(exc, "param", None)
    option = max(getattr(param, "opts", None) or [""], key=len)
    diagnostics = [ConfigDiagnostic("error", exc.format_message(), path=option)]
    if output == "sarif":
        from gkecap.ci.sarif import sarif_log

        return json.dumps(sarif_log(None, diagnostics), indent=2) + "\n"
    from gkecap.ci.documents import invalid_input_document

    return json.dumps(invalid_input_document(diagnostics), indent=2) + "\n"


def _version(value: bool) -> None:
    if value:
        typer.echo(f"gkecap {metadata.version('gke-capacity')}")
        raise typer.Exit(0)


def _root(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Show the version and exit.")) -> None:
    """Accelerator capacity as code for GKE: show the catalog, plan and check environments offline."""


def build_app() -> typer.Typer:
    """A fresh app with every command of `COMMANDS` (each loaded when used)."""
    app = typer.Typer(
        name="gkecap",
        cls=LazyCommandGroup,
        help="Accelerator capacity as code for GKE: show the catalog, plan and check environments offline.",
        epilog=help_texts.MAIN,
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    app.callback()(_root)
    return app


app = build_app()


EXIT_OUTPUT_FAILED = 2


def _output_failed(exc: OSError) -> int:
    """stdout could not be written: say so on stderr once, without a traceback, and make sure the interpreter's
    own flush at exit does not fail again (it would print "Exception ignored")."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.write(f"error: cannot write the output: {exc.strerror or exc}\n")
        sys.stderr.flush()
    return EXIT_OUTPUT_FAILED


def main() -> None:
    # Every way out stops the policy pack (gkecap.shutdown): SIGTERM/SIGHUP/SIGINT become `Terminated`.
    shutdown.install_signal_handlers()
    try:
        app()
    except shutdown.Terminated as exc:
        shutdown.stop_children()
        typer.echo(f"error: {exc}; the run was abandoned", err=True)
        raise SystemExit(exc.exit_code) from None
    except OSError as exc:  # the commands handle their files' errors: this is stdout failing (a full disk, EIO)
        raise SystemExit(_output_failed(exc)) from None
    finally:
        shutdown.stop_children()
        # The interpreter's last collections would traverse every object a large plan left (0.9 s of a 300-team
        # plan's exit, measured); frozen objects are not traversed, and are still freed with the process.
        gc.freeze()
