"""`gkecap simulate`: what each team actually gets, before anyone submits a job.

Simulates Kueue v0.19 admission of a workloads file over the environment's own ClusterQueues, Cohorts, flavors
and capacity (the objects `gkecap manifests` writes). Exit 0 when simulated, 2 when the config or the workloads
file is invalid (one `path: message` line per problem on stderr, no traceback; with `--format json`, stdout
still holds one document, `{"diagnostics": [...]}`).
"""

from __future__ import annotations

import enum
import json
import os
import sys
import traceback
from pathlib import Path

import typer
from gkecap.commands.terminal_io import printable, progress, stdout_console

from gkecap.commands.plan import checked_timeout
from gkecap.engine.deadline import DEFAULT_TIMEOUT, DeadlineExceeded, deadline, timeout_message
from gkecap.plan import PlanError, error_problems

EXIT_INVALID = 2


class OutputFormat(str, enum.Enum):
    text = "text"
    json = "json"


def _simulate(config: Path | None, stack: str | None, workloads: Path, try_fixes: bool = False,
              max_workloads: int | None = None, started=None):
    from gkecap.commands.manifests import environment_objects
    from gkecap.simulate import WorkloadsFileError, load_workloads_file, simulate_environment
    from gkecap.simulate.workloads_file import MAX_WORKLOADS

    if (config is None) == (stack is None):
        raise PlanError(["give one of --stack NAME or --config FILE"])
    stack_name, derived, objects, source = environment_objects(None, config, stack)
    try:
        parsed = load_workloads_file(workloads, max_workloads=max_workloads or MAX_WORKLOADS)
        return simulate_environment(derived.model, objects, parsed, where=str(workloads), try_fixes=try_fixes,
                                    started=started), source
    except WorkloadsFileError as exc:  # `file: path: message`, as spec errors name their file
        raise PlanError([f"{workloads}: {issue}" for issue in exc.issues]) from None
    except ValueError as exc:
        raise PlanError(error_problems(exc, prefix=str(workloads))) from None


def simulate_command(
    config: Path | None = typer.Option(None, "--config", help="Stack config file (Pulumi.<stack>.yaml).", dir_okay=False),
    stack: str | None = typer.Option(None, "--stack", help="Stack name: uses stacks/Pulumi.<stack>.yaml."),
    workloads: Path = typer.Option(..., "--workloads", help="Workloads file (YAML): what is submitted when.", dir_okay=False),
    output: OutputFormat = typer.Option(OutputFormat.text, "--format", help="text (terminal) or json (one document on stdout)."),
    out: Path | None = typer.Option(None, "--out", help="Directory for simulation.html, a timeline per pool and team.", file_okay=False),
    try_fixes: bool = typer.Option(False, "--try-fixes", help="For each preemption cycle found, simulate the scenario "
                                   "again with each change that may break it (at most 2,000 workloads)."),
    max_workloads: int = typer.Option(10_000, "--max-workloads", min=1, help="Refuse a workloads file that submits "
                                      "more workloads in all (a safety cap against hostile input; raise it to "
                                      "simulate more, e.g. 100000)."),
    timeout: float = typer.Option(DEFAULT_TIMEOUT, "--timeout", callback=lambda value: checked_timeout(value), help="Stop and exit 2 when the simulation takes longer (seconds; 0: no limit)."),
) -> None:
    """Simulate Kueue admission of a workloads file over an environment's queues, cohorts, flavors and capacity."""
    running: list = []  # the Simulation, once it starts: how far it got when --timeout stops it
    try:
        expiry = (lambda: _expiry_output(output, timeout, running)) if timeout else None
        with deadline(timeout, what="simulation", on_expiry=expiry):
            with progress("Simulating", detail=lambda: _status(running)):
                result, source = _simulate(config, stack, workloads, try_fixes, max_workloads, started=running.append)
            written = None
            if out is not None:
                try:
                    from gkecap.simulate.timeline import write_timeline
                except ModuleNotFoundError as exc:
                    if (exc.name or "").partition(".")[0] != "matplotlib":
                        raise
                    raise PlanError(['--out: the timelines need matplotlib, the report extra: '
                                     'pip install "gke-capacity[report]"']) from None
                written = write_timeline(result, out, source=source)
    except PlanError as exc:
        _fail(exc.problems, output)
    except DeadlineExceeded as exc:
        _fail([str(exc) + _progress(running)], output)
    except OSError as exc:
        _fail([f"--out: cannot write {exc.filename}: {exc.strerror}"], output)
    except Exception as exc:  # noqa: BLE001 -- a bug: one line, the traceback only on request
        if os.environ.get("GKECAP_DEBUG"):
            traceback.print_exc()
        _fail([f"internal error: {type(exc).__name__}: {exc} (GKECAP_DEBUG=1 shows the traceback)"], output)
    if output is OutputFormat.json:
        from gkecap.simulate.output import to_document

        from gkecap.ci.documents import versioned  # docs/schemas/simulate.schema.json

        sys.stdout.write(json.dumps(versioned("simulate", to_document(result)), allow_nan=False) + "\n")  # never `Infinity`: not JSON
    else:
        from gkecap.simulate.output import render_text

        console = stdout_console()
        render_text(result, console, source=source)
        if written is not None:
            console.print(f"wrote {written}")
    raise typer.Exit(0)


def _progress(running: list) -> str:
    """How far the simulation got, for the timeout message ("" before it started); the runs after the first are
    --try-fixes trials."""
    if not running:
        return ""
    trial = f"; the scenario was simulated, trial {len(running) - 1} of --try-fixes was running" if len(running) > 1 else ""
    try:
        return trial + "; " + running[-1].progress().describe()
    except Exception:  # noqa: BLE001 -- read from the watchdog thread while the run may be changing: best effort
        return trial


def _status(running: list) -> str:
    """The progress line while it runs."""
    if not running:
        return ""
    status = running[-1].progress().status()
    return f"trial {len(running) - 1} of --try-fixes, {status}" if len(running) > 1 else status


def _expiry_output(output: OutputFormat, seconds: float, running: list) -> tuple[str, str]:
    message = (timeout_message(seconds, "simulation") + " (it kept running past the limit: gkecap ended it)"
               + _progress(running))
    document = json.dumps({"diagnostics": [{"severity": "error", "message": message}]}) + "\n" if output is OutputFormat.json else ""
    return f"error: {message}\n", document


def _fail(problems: list[str], output: OutputFormat) -> None:
    for problem in problems:
        typer.echo(printable(f"error: {problem}"), err=True)
    if output is OutputFormat.json:
        diagnostics = [{"severity": "error", "message": p} for p in problems]
        from gkecap.ci.documents import versioned

        sys.stdout.write(json.dumps(versioned("simulate", {"diagnostics": diagnostics})) + "\n")
    raise typer.Exit(EXIT_INVALID)
