"""`gkecap plan` and `gkecap check`: evaluate offline, run the policy pack, print, exit 0/1/2.

Exit codes (ARCHITECTURE.md): 0 no mandatory violation; 1 mandatory violations; 2 invalid config,
program, state or policy config (one message per problem on stderr, never a traceback).
"""

from __future__ import annotations

import enum
import os
import sys
import traceback
from collections.abc import Callable
from pathlib import Path

import typer
from rich.console import Console

from gkecap.plan import PlanError, PlanResult, check_state, plan


class OutputFormat(str, enum.Enum):
    text = "text"
    json = "json"


_FORMAT = typer.Option(OutputFormat.text, "--format", help="text (terminal) or json (one document on stdout).")
_POLICY_CONFIG = typer.Option(None, "--policy-config", help="Policy pack config JSON, as `pulumi preview --policy-pack-config`.", dir_okay=False)
_NO_POLICIES = typer.Option(False, "--no-policies", help="Do not run the policy pack.")
_POLICY_PACK = typer.Option(None, "--policy-pack", help="Policy pack directory (default: the gke-capacity pack).", file_okay=False)


def plan_command(
    program: Path | None = typer.Option(None, "--program", help="Python Pulumi program directory (default: stacks/).", file_okay=False),
    config: Path | None = typer.Option(None, "--config", help="Stack config file (Pulumi.<stack>.yaml).", dir_okay=False),
    stack: str | None = typer.Option(None, "--stack", help="Stack name: uses Pulumi.<stack>.yaml beside the program."),
    output: OutputFormat = _FORMAT,
    policy_config: Path | None = _POLICY_CONFIG,
    no_policies: bool = _NO_POLICIES,
    policy_pack: Path | None = _POLICY_PACK,
    out: Path | None = typer.Option(None, "--out", help="Directory for plan.json, report.html and manifests/ (default: out/<stack>).", file_okay=False),
    state: Path | None = typer.Option(None, "--state", help="The stack's deployed state (`pulumi stack export`): refuse what cannot be undone, such as un-submitting a calendar reservation.", dir_okay=False),
) -> None:
    """Evaluate an environment or any Python Pulumi program offline and check it with the policy pack."""
    _run(lambda: plan(program, config, stack, policy_pack=policy_pack, policy_config_file=policy_config, no_policies=no_policies, previous_state=state), output, out=out, write_files=True)


def check_command(
    state: Path = typer.Option(..., "--state", help="A `pulumi stack export` file.", dir_okay=False),
    output: OutputFormat = _FORMAT,
    policy_config: Path | None = _POLICY_CONFIG,
    policy_pack: Path | None = _POLICY_PACK,
) -> None:
    """Run the policy pack over the resources of a stack export."""
    _run(lambda: check_state(state, policy_pack=policy_pack, policy_config_file=policy_config), output)


def _run(action: Callable[[], PlanResult], output: OutputFormat, *, out: Path | None = None, write_files: bool = False) -> None:
    written = None
    try:
        result = action()
        if write_files:  # the report package writes out/<stack>/: plan.json, report.html, manifests/
            from gkecap.report import default_out_dir, write_outputs

            written = write_outputs(result, out or default_out_dir(result))
    except PlanError as exc:
        for problem in exc.problems:
            typer.echo(f"error: {problem}", err=True)
        raise typer.Exit(2) from None
    except OSError as exc:
        typer.echo(f"error: --out: cannot write {exc.filename}: {exc.strerror}", err=True)
        raise typer.Exit(2) from None
    except Exception as exc:  # noqa: BLE001 -- a bug: one line, the traceback only on request
        if os.environ.get("GKECAP_DEBUG"):
            traceback.print_exc()
        typer.echo(f"error: internal error: {type(exc).__name__}: {exc} (GKECAP_DEBUG=1 shows the traceback)", err=True)
        raise typer.Exit(2) from None
    if output is OutputFormat.json:
        from gkecap.report import render_json

        sys.stdout.write(render_json(result) + "\n")
    else:
        from gkecap.report import render_plan

        render_plan(result, Console(), written=written)
    raise typer.Exit(result.exit_code)
