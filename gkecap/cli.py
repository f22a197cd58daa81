"""The `gkecap` command line: builds the Typer app and registers the commands of `gkecap.commands`.

Commands never import this module; it imports them, so there is no import cycle and no registration by
side effect (`python -m gkecap` and the console script build the same app).
"""

from __future__ import annotations

import typer

from gkecap import shutdown
from gkecap.commands import catalog, manifests, plan, policies


def build_app() -> typer.Typer:
    """A fresh app with every command registered."""
    app = typer.Typer(
        name="gkecap",
        help="Accelerator capacity as code for GKE: show the catalog, plan and check environments offline.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    app.command("catalog")(catalog.catalog_command)
    app.command("slice")(catalog.slice_command)
    app.command("plan")(plan.plan_command)
    app.command("check")(plan.check_command)
    app.command("manifests")(manifests.manifests_command)
    app.command("policies")(policies.policies_command)
    return app


app = build_app()


def main() -> None:
    # Every way out stops the policy pack (gkecap.shutdown): SIGTERM/SIGHUP/SIGINT become `Terminated`.
    shutdown.install_signal_handlers()
    try:
        app()
    except shutdown.Terminated as exc:
        shutdown.stop_children()
        typer.echo(f"error: {exc}; the run was abandoned", err=True)
        raise SystemExit(exc.exit_code) from None
    finally:
        shutdown.stop_children()
