"""The `gkecap` command line: builds the Typer app and registers the commands of `gkecap.commands`.

Commands never import this module; it imports them, so there is no import cycle and no registration by
side effect (`python -m gkecap` and the console script build the same app).
"""

from __future__ import annotations

import typer

from gkecap.commands import catalog, manifests, plan, policies, simulate


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
    app.command("simulate")(simulate.simulate_command)
    return app


app = build_app()


def main() -> None:
    app()
