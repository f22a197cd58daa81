"""`gkecap diff --base BASE --head HEAD`: what a change does to each team, cohort, pool and reservation.

Each side is an environment file (planned offline, with the policy pack), a plan.json written by `gkecap plan`, or
either at a git ref (`git:<ref>:<path>`, the path from the repository's root or `./`-relative). Exit codes: 0 the
diff was printed; 1 the head adds a mandatory violation; 2 a side cannot be read or planned.
"""

from __future__ import annotations

import enum
import sys
from pathlib import Path

import typer

from gkecap.commands.terminal_io import printable
from gkecap.diff.changes import PlanDiff, Side

BASE_HELP = "The side before the change: an environment file, a plan.json, or git:<ref>:<path> (e.g. git:main:stacks/Pulumi.prod.yaml)."


class DiffFormat(str, enum.Enum):
    text = "text"
    markdown = "markdown"
    json = "json"


def diff_command(
    base: str = typer.Option(..., "--base", help=BASE_HELP),
    head: str = typer.Option(..., "--head", help="The side after the change: an environment file, a plan.json, or git:<ref>:<path>."),
    output: DiffFormat = typer.Option(DiffFormat.text, "--format", help="text (terminal and logs), markdown (a pull-request comment) or json."),
    program: Path | None = typer.Option(None, "--program", help="Python Pulumi program that plans an environment file (default: stacks/).", file_okay=False),
    policy_config: Path | None = typer.Option(None, "--policy-config", help="Policy pack config JSON for the environment files' plans.", dir_okay=False),
    no_policies: bool = typer.Option(False, "--no-policies", help="Compare capacity only: plan environment files without the policy pack."),
) -> None:
    """Show what changes from one plan to another per team, cohort, pool and reservation, and the new findings."""
    from gkecap.diff.sides import SideError

    planner = EnvironmentPlanner(program, policy_config, no_policies)
    try:
        diff = diff_of(base, head, planner)
    except SideError as exc:
        for problem in exc.problems:
            typer.echo(printable(f"error: {problem}"), err=True)
        raise typer.Exit(2) from None
    sys.stdout.write(render(diff, output))
    raise typer.Exit(1 if diff.new_mandatory else 0)


def render(diff: PlanDiff, output: DiffFormat) -> str:
    """The diff in `output`'s format. Names and messages come from users' files (a hand-edited plan.json, a
    program's resource names): text and Markdown carry their control characters escaped (`\\x1b`), as every
    terminal output does (`terminal_io.printable`); JSON escapes them itself."""
    from gkecap.diff.render import render_json, render_markdown, render_text

    if output is DiffFormat.json:
        from gkecap.ci.documents import SCHEMA_VERSIONS

        return render_json(diff, schema_version=SCHEMA_VERSIONS["diff"]) + "\n"
    return printable(render_markdown(diff) if output is DiffFormat.markdown else render_text(diff))


def diff_of(base: str, head: str, planner: "EnvironmentPlanner") -> PlanDiff:
    from gkecap.diff.changes import compare
    from gkecap.diff.sides import SideError, load_side

    problems: list[str] = []
    sides: list[Side] = []
    for option, spec in (("--base", base), ("--head", head)):  # both read before failing: every problem at once
        try:
            sides.append(load_side(spec, option, planner.side))
        except SideError as exc:
            problems += exc.problems
    if problems:
        raise SideError(problems)
    return compare(*sides)


class EnvironmentPlanner:
    """Plans an environment file as `gkecap plan --config FILE` does, into a diff side."""

    def __init__(self, program: Path | None = None, policy_config: Path | None = None, no_policies: bool = False) -> None:
        self.program, self.policy_config, self.no_policies = program, policy_config, no_policies

    def side(self, path: Path, label: str) -> Side:
        from gkecap.diff.sides import SideError, side_of_result
        from gkecap.engine.deadline import DEFAULT_TIMEOUT, DeadlineExceeded, deadline
        from gkecap.plan import PlanError, plan
        from gkecap.collector import fewer_collections

        try:
            with deadline(DEFAULT_TIMEOUT), fewer_collections():
                result = plan(self.program, path, policy_config_file=self.policy_config, no_policies=self.no_policies)
        except PlanError as exc:
            raise SideError([_labelled(problem, path, label) for problem in exc.problems]) from None
        except DeadlineExceeded as exc:
            raise SideError([f"{label}: {exc}"]) from None
        return side_of_result(result, label)


def _labelled(problem: str, path: Path, label: str) -> str:
    """A plan's problem under the side's name (a git side is planned from a scratch copy, never named)."""
    for shown in (str(path), str(path.resolve())):
        if problem.startswith(shown):
            return label + problem[len(shown):]
    return f"{label}: {problem}"
