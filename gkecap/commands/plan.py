"""`gkecap plan` and `gkecap check`: evaluate offline, run the policy pack, print, exit 0/1/2.

Exit codes (ARCHITECTURE.md): 0 no mandatory violation; 1 mandatory violations; 2 invalid config,
program, state or policy config (one message per problem on stderr, never a traceback).
`--format json` prints one document also when the input is invalid (its `diagnostics` say why);
`--format sarif` prints SARIF 2.1.0 for code scanning (gkecap.ci.sarif).
"""

from __future__ import annotations

import enum
import json
import os
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer
from gkecap.ci.diagnostics import ConfigDiagnostic, of_problems
from gkecap.commands.terminal_io import printable, progress, stdout_console
from gkecap.engine.deadline import DEFAULT_TIMEOUT, DeadlineExceeded, deadline, timeout_message, timeout_problem
from gkecap.engine.stack_references import StackOutputsError, load_stack_outputs
from gkecap.plan import PlanError, PlanResult, check_state, plan
from gkecap.collector import fewer_collections


class OutputFormat(str, enum.Enum):
    text = "text"
    json = "json"
    sarif = "sarif"


_FORMAT = typer.Option(OutputFormat.text, "--format", help="text (terminal), json (one document on stdout) or sarif (SARIF 2.1.0, for code scanning).")
_POLICY_CONFIG = typer.Option(None, "--policy-config", help="Policy pack config JSON, as `pulumi preview --policy-pack-config`.", dir_okay=False)
_NO_POLICIES = typer.Option(False, "--no-policies", help="Do not run the policy pack.")
_POLICY_PACK = typer.Option(None, "--policy-pack", help="Policy pack directory (default: the gke-capacity pack).", file_okay=False)
# The env var's name is gkecap.policy_pack.in_process.IN_PROCESS_ENV (not imported here: that module loads grpc).
_PACK_IN_PROCESS = typer.Option(
    False, "--pack-in-process", envvar="GKECAP_PACK_IN_PROCESS",
    help="Serve the bundled gke-capacity pack in gkecap's own process (same policies and findings; less time and "
    "memory) instead of its own process over the Analyzer gRPC protocol, as the Pulumi CLI runs it (the default).",
)


def plan_command(
    program: Path | None = typer.Option(None, "--program", help="Python Pulumi program directory (default: stacks/).", file_okay=False),
    config: Path | None = typer.Option(None, "--config", help="Stack config file (Pulumi.<stack>.yaml).", dir_okay=False),
    stack: str | None = typer.Option(None, "--stack", help="Stack name: uses Pulumi.<stack>.yaml beside the program."),
    output: OutputFormat = _FORMAT,
    policy_config: Path | None = _POLICY_CONFIG,
    no_policies: bool = _NO_POLICIES,
    policy_pack: Path | None = _POLICY_PACK,
    out: Path | None = typer.Option(None, "--out", help="Directory for plan.json, report.html and manifests/ (default: out/<project>/<stack>; with --format json only when given).", file_okay=False),
    stack_outputs: list[str] = typer.Option([], "--stack-outputs", metavar="NAME=FILE", help="Outputs of a stack the program references with pulumi.StackReference(NAME): the JSON of `pulumi stack output --json`. Repeatable."),
    timeout: float = typer.Option(DEFAULT_TIMEOUT, "--timeout", callback=lambda value: checked_timeout(value), help="Stop and exit 2 when the plan takes longer (seconds; 0: no limit)."),
    state: Path | None = typer.Option(None, "--state", help="The stack's deployed state (`pulumi stack export`): refuse what cannot be undone, such as un-submitting a calendar reservation.", dir_okay=False),
    pack_in_process: bool = _PACK_IN_PROCESS,
    base: str | None = typer.Option(None, "--base", help="Show what changed since this side (an environment file, a plan.json or git:<ref>:<path>) in every output."),
) -> None:
    """Evaluate an environment or any Python Pulumi program offline and check it with the policy pack."""

    def action() -> PlanResult:
        try:
            outputs = load_stack_outputs(stack_outputs)
        except StackOutputsError as exc:
            raise PlanError(exc.problems) from None
        result = plan(program, config, stack, policy_pack=policy_pack, policy_config_file=policy_config, no_policies=no_policies, stack_outputs=outputs, previous_state=state,
                      pack_in_process=pack_in_process)
        if base is not None:
            result.diff = _diff_against(base, result, program, policy_config, no_policies)
        return result

    # --format json is for machines reading stdout: the report files (charts, manifests) only on request.
    write_files = output is not OutputFormat.json or out is not None
    _run(action, output, out=out, write_files=write_files, timeout=timeout)


def _diff_against(base: str, result: PlanResult, program: Path | None, policy_config: Path | None, no_policies: bool) -> Any:
    """The plan's changes since `base` (planned like the head, with the same program and policy settings)."""
    from gkecap.commands.diff import EnvironmentPlanner
    from gkecap.diff import compare
    from gkecap.diff.sides import SideError, load_side, side_of_result

    planner = EnvironmentPlanner(program, policy_config, no_policies)
    try:
        before = load_side(base, "--base", planner.side)
    except SideError as exc:
        raise PlanError(exc.problems) from None
    config = result.stack_config
    label = str(config.path) if config is not None and config.path is not None else f"stack {result.stack}"
    return compare(before, side_of_result(result, label))


def check_command(
    state: Path = typer.Option(..., "--state", help="A `pulumi stack export` file; `-` reads it from stdin.", dir_okay=False),
    output: OutputFormat = _FORMAT,
    policy_config: Path | None = _POLICY_CONFIG,
    policy_pack: Path | None = _POLICY_PACK,
    pack_in_process: bool = _PACK_IN_PROCESS,
) -> None:
    """Run the policy pack over the resources of a stack export."""
    _run(lambda: check_state(state, policy_pack=policy_pack, policy_config_file=policy_config, pack_in_process=pack_in_process), output)


def checked_timeout(value: float) -> float:
    """`--timeout`'s check: seconds from 0 to a week; `inf`, `nan` and `1e300` are a usage error naming it."""
    if problem := timeout_problem(value):
        raise typer.BadParameter(problem.removeprefix("--timeout: "))
    return value


def expiry_output(output: OutputFormat, what: str, seconds: float) -> tuple[str, str]:
    """What gkecap prints when the watchdog ends a run at its deadline: the error line, and the document of
    `--format json`/`sarif` for invalid input (stdout holds one document however the run ends)."""
    message = timeout_message(seconds, what) + " (it kept running past the limit: gkecap ended it)"
    document = ""
    if output is OutputFormat.json:
        from gkecap.ci.documents import invalid_input_document

        document = json.dumps(invalid_input_document(of_problems([message])), indent=2) + "\n"
    elif output is OutputFormat.sarif:
        from gkecap.ci.sarif import sarif_log

        document = json.dumps(sarif_log(None, of_problems([message])), indent=2) + "\n"
    return f"error: {message}\n", document


def _run(action: Callable[[], PlanResult], output: OutputFormat, *, out: Path | None = None, write_files: bool = False, timeout: float | None = None) -> None:
    written = None
    try:
        # A plan is a batch of millions of short-lived objects: fewer collections (gkecap.collector).
        expiry = (lambda: expiry_output(output, "plan", timeout)) if timeout else None
        with deadline(timeout, on_expiry=expiry), fewer_collections(), progress("Planning: running the program and the policy pack..."):
            result = action()
            if write_files:  # the report package writes out/<project>/<stack>/: plan.json, report.html, manifests/
                from gkecap.report import default_out_dir, write_outputs

                written = write_outputs(result, out or default_out_dir(result))
    except PlanError as exc:
        _invalid(output, exc.problems, exc.diagnostics)
    except DeadlineExceeded as exc:
        _invalid(output, [str(exc)], of_problems([str(exc)]))
    except OSError as exc:
        _invalid(output, [f"--out: cannot write {exc.filename}: {exc.strerror}"])
    except Exception as exc:  # noqa: BLE001 -- a bug: one line, the traceback only on request
        if os.environ.get("GKECAP_DEBUG"):
            traceback.print_exc()
        _invalid(output, [f"internal error: {type(exc).__name__}: {exc} (GKECAP_DEBUG=1 shows the traceback)"])
    # The output of a large plan allocates as much as its run, over a heap of every resource: with the default
    # thresholds, its full collections made a 1,000-team JSON document take 1.23 s instead of 0.27 s (measured).
    with fewer_collections():
        if output is OutputFormat.json:
            from gkecap.report import render_json

            sys.stdout.write(render_json(result) + "\n")
        elif output is OutputFormat.sarif:
            _print_sarif(result, result.diagnostics)
        else:
            from gkecap.report import render_plan

            render_plan(result, stdout_console(), written=written)
    raise typer.Exit(result.exit_code)


def _invalid(output: OutputFormat, problems: list[str], diagnostics: list[ConfigDiagnostic] | None = None) -> None:
    """Invalid input: one line per problem on stderr and, for json and sarif, one document on stdout; exit 2."""
    diagnostics = diagnostics if diagnostics is not None else of_problems(problems)
    for diagnostic in diagnostics:
        if diagnostic.severity == "warning":
            typer.echo(printable(f"warning: {diagnostic.message}"), err=True)
    for problem in problems:
        typer.echo(printable(f"error: {problem.removeprefix('error: ')}"), err=True)
    if output is OutputFormat.json:
        from gkecap.ci.documents import invalid_input_document

        sys.stdout.write(json.dumps(invalid_input_document(diagnostics), indent=2) + "\n")
    elif output is OutputFormat.sarif:
        _print_sarif(None, diagnostics)
    raise typer.Exit(2)


def _print_sarif(result: PlanResult | None, diagnostics: list[ConfigDiagnostic]) -> None:
    from gkecap.ci.sarif import sarif_log

    sys.stdout.write(json.dumps(sarif_log(result, diagnostics), indent=2) + "\n")
