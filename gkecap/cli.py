"""The `gkecap` command line: builds the Typer app and registers the commands of `gkecap.commands`.

Commands never import this module; it imports them, so there is no import cycle and no registration by
side effect (`python -m gkecap` and the console script build the same app).
"""

from __future__ import annotations

from importlib import metadata

import typer

from gkecap.commands import catalog, manifests, plan, policies, simulate, vertex_job, workload
from gkecap.commands.help_texts import COMMANDS, MAIN


def _version(value: bool) -> None:
    if value:
        typer.echo(f"gkecap {metadata.version('gke-capacity')}")
        raise typer.Exit(0)


def _root(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Show the version and exit.")) -> None:
    """Accelerator capacity as code for GKE: show the catalog, plan and check environments offline."""


def build_app() -> typer.Typer:
    """A fresh app with every command registered."""
    app = typer.Typer(
        name="gkecap",
        help="Accelerator capacity as code for GKE: show the catalog, plan and check environments offline.",
        epilog=MAIN,
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    app.callback()(_root)
    app.command("catalog", epilog=COMMANDS["catalog"])(catalog.catalog_command)
    app.command("slice", epilog=COMMANDS["slice"])(catalog.slice_command)
    app.command("plan", epilog=COMMANDS["plan"])(plan.plan_command)
    app.command("check", epilog=COMMANDS["check"])(plan.check_command)
    app.command("manifests", epilog=COMMANDS["manifests"])(manifests.manifests_command)
    app.command("policies", epilog=COMMANDS["policies"])(policies.policies_command)
    app.command("workload", epilog=COMMANDS["workload"])(workload.workload_command)
    app.command("vertex-job", epilog=COMMANDS["vertex-job"])(vertex_job.vertex_job_command)
    app.command("simulate", epilog=COMMANDS["simulate"])(simulate.simulate_command)
    return app


app = build_app()


def main() -> None:
    app()
