"""`gkecap manifests`: write an environment's Kubernetes objects (Kueue, Namespaces, RBAC) as kubectl-ready YAML.

Same ways to name the environment as `gkecap plan` (--stack, --config, --program). With MultiKueue workers the
folder is the manager's unit and `workers/<worker>/` each worker's, as `gkecap plan` writes them (one code path:
`gkecap.manifests.write_environment_manifests`). Exit 0 when written, 2 when the config is invalid (one message per
problem on stderr, no traceback).
"""

from __future__ import annotations

import os
import sys
import traceback
from pathlib import Path
from typing import Any

import typer

from gkecap.commands.terminal_io import printable
from gkecap.manifests import WORKERS_DIR, cluster_units, to_yaml, write_environment_manifests
from gkecap.plan import PlanError, error_problems, resolve_program, validate_environment
from gkecap.engine.stack_config import StackConfigError, config_file_exists, load_stack_config
from gkecap.engine.stack_names import name_problem

EXIT_INVALID = 2
DEFAULT_PROJECT = "gkecap"  # namespace of bare config keys when no Pulumi project is at hand


def stack_name_of(path: Path) -> str:
    """`dev` for Pulumi.dev.yaml; the file's stem otherwise."""
    name = path.name
    if name.startswith("Pulumi.") and name.endswith((".yaml", ".yml")):
        return name[len("Pulumi."):].rsplit(".", 1)[0]
    return path.stem


def environment_objects(program_dir: Path | None, config_file: Path | None, stack: str | None) -> tuple[str, Any, list[dict], str]:
    """(stack name, the environment derived once (a DerivedEnvironment: spec, model, objects, install), its objects,
    source description) of the environment the options name; PlanError if invalid."""
    stack_name, derived, objects, source, _project = environment_and_project(program_dir, config_file, stack)
    return stack_name, derived, objects, source


def environment_and_project(program_dir: Path | None, config_file: Path | None, stack: str | None) -> tuple[str, Any, list[dict], str, str]:
    """`environment_objects` and the Pulumi project (for `out/<project>/<stack>/`)."""
    from gkecap.components.kubernetes_objects.derived import DerivedEnvironment

    stack_file: Path | None
    if config_file is not None and program_dir is None:
        # Manifests need only the config: no program has to exist beside it.
        if not config_file_exists(config_file):
            raise PlanError([f"--config: {config_file}: file not found"])
        project, stack_name, stack_file = DEFAULT_PROJECT, stack or stack_name_of(config_file), config_file
        if problem := name_problem(stack_name):  # it names out/<stack>/manifests: Pulumi's rule, as for plan
            raise PlanError([f"{'--stack' if stack else config_file}: {problem}"])
    else:
        program, stack_name, stack_file = resolve_program(program_dir, config_file, stack)
        project = program.project
    try:
        config = load_stack_config(stack_file, project)
    except StackConfigError as exc:
        raise PlanError([str(exc)]) from None
    spec = validate_environment(config)
    if spec is None:
        where = stack_file or f"stack {stack_name!r}"
        raise PlanError([f"{where}: no gkecap:environment to generate manifests from"])
    derived = DerivedEnvironment(spec)  # derived once for the objects and the install
    try:
        derived.objects
    except ValueError as exc:
        raise PlanError(error_problems(exc, prefix=str(stack_file or "config"))) from None
    return stack_name, derived, derived.objects, stack_file.name if stack_file else f"stack {stack_name}", project


def _cluster_objects(derived: Any, cluster: str | None) -> list[dict]:
    """The objects of one cluster for --stdout: the environment's (the manager's), or the worker `cluster`'s."""
    units = cluster_units(derived)
    if cluster is None:
        return units[0][2]
    workers = [worker for worker, _, _ in units[1:] if worker is not None]  # the manager's is None
    if cluster not in workers:
        allowed = ", ".join(workers) if workers else "none: this environment has no workers"
        raise PlanError([f"--cluster: {cluster!r} is not a worker of the environment; workers: {allowed}"])
    return next(objects for worker, _, objects in units if worker == cluster)


def manifests_command(
    program: Path | None = typer.Option(None, "--program", help="Python Pulumi program directory (default: stacks/).", file_okay=False),
    config: Path | None = typer.Option(None, "--config", help="Stack config file (Pulumi.<stack>.yaml).", dir_okay=False),
    stack: str | None = typer.Option(None, "--stack", help="Stack name: uses Pulumi.<stack>.yaml beside the program."),
    out: Path | None = typer.Option(None, "--out", help="Directory to write (default: out/<project>/<stack>/manifests).", file_okay=False),
    stdout: bool = typer.Option(False, "--stdout", help="Print one YAML stream instead of writing files."),
    repo_path: str | None = typer.Option(None, "--repo-path", help="The folder's path in the Git repository Flux syncs (default: the --out folder relative to the current directory)."),
    cluster: str | None = typer.Option(None, "--cluster", help="With --stdout and MultiKueue workers: print this worker's objects (default: the manager's)."),
) -> None:
    """Write every generated Kubernetes object (Kueue flavors, queues, cohorts, checks; team Namespaces and
    RoleBindings) as kubectl-ready YAML, one file per kind in apply order, with what kubectl apply -k, Argo CD
    and Flux need to install Kueue and JobSet first (README "GitOps").

    With MultiKueue workers: the manager's unit, and each worker's in workers/<worker>/."""
    try:
        stack_name, derived, objects, source, project = environment_and_project(program, config, stack)
        if stdout:
            sys.stdout.write(to_yaml(_cluster_objects(derived, cluster)))
            raise typer.Exit(0)
        if cluster is not None:
            raise PlanError(["--cluster: only with --stdout (the folder holds every cluster's unit)"])
        directory = out or Path("out") / project / stack_name / "manifests"
        units = write_environment_manifests(derived, directory, source=source, repo_path=repo_path)
    except PlanError as exc:
        for problem in exc.problems:
            typer.echo(printable(f"error: {problem}"), err=True)
        raise typer.Exit(EXIT_INVALID) from None
    except OSError as exc:
        typer.echo(printable(f"error: --out: cannot write {exc.filename}: {exc.strerror}"), err=True)
        raise typer.Exit(EXIT_INVALID) from None
    except typer.Exit:
        raise
    except Exception as exc:  # noqa: BLE001 -- a bug: one line, the traceback only on request
        if os.environ.get("GKECAP_DEBUG"):
            traceback.print_exc()
        typer.echo(printable(f"error: internal error: {type(exc).__name__}: {exc} (GKECAP_DEBUG=1 shows the traceback)"), err=True)
        raise typer.Exit(EXIT_INVALID) from None
    objects_count = sum(len(unit_objects) for unit_objects, _ in units.values())
    files_count = sum(len(files) for _, files in units.values())
    workers = [w for w in units if w is not None]
    where = f" (the manager's; each worker's in {directory}/{WORKERS_DIR}/<worker>/: {', '.join(workers)})" if workers else ""
    typer.echo(f"wrote {objects_count} objects in {files_count} files to {directory}/{where} (kubectl apply --server-side -k {directory}/ once Kueue is installed; README \"GitOps\" for Argo CD and Flux)")
