"""The `gkecap` command line. Each command lives in its own module and registers itself here."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="gkecap",
    help="Accelerator capacity as code for GKE: show the catalog, plan and check environments offline.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _register() -> None:
    # Imported for their side effect: each module adds its commands to `app`.
    from gkecap import cmd_catalog  # noqa: F401
    from gkecap import cmd_plan  # noqa: F401
    from gkecap import cmd_manifests  # noqa: F401


def main() -> None:
    _register()
    app()
