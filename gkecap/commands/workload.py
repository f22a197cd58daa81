"""`gkecap workload`: print one ready-to-apply manifest (a Job or a JobSet) for a team, from the environment.

Same ways to name the environment as `gkecap manifests` (--stack, --config, --program). The manifest carries the
team's queue and namespace and the pool's selectors, tolerations, resources and annotations
(`gkecap.components.kubernetes_objects.workloads`). Exit 0 with the YAML on stdout; 2 when the config is invalid
or the shape cannot run on the pool (one `error: --option: reason` line per problem on stderr).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NoReturn

import typer

from gkecap.commands.terminal_io import printable
from gkecap.commands.manifests import EXIT_INVALID, environment_objects
from gkecap.plan import PlanError

# Python argument names of the workload API -> the options that carry them.
OPTIONS = {
    "team": "--team", "pool": "--pool", "kind": "--kind", "pods": "--pods", "accelerators": "--accelerators",
    "image": "--image", "name": "--name", "priorityClass": "--priority-class", "namespace": "--namespace",
    "topology": "--topology",
}


def load_model(program: Path | None, config: Path | None, stack: str | None):
    """(stack name, capacity model) of the environment the options name; PlanError when it is invalid."""
    stack_name, derived, _objects, _source = environment_objects(program, config, stack)
    return stack_name, derived.model


def fail(problems: list[str]) -> NoReturn:
    for problem in problems:
        typer.echo(printable(f"error: {problem}"), err=True)
    raise typer.Exit(EXIT_INVALID)


def workload_command(
    team: str = typer.Option(..., "--team", help="The team whose queue runs the workload."),
    pool: str | None = typer.Option(None, "--pool", help="Pool to run on (default: the team's first pool with quota)."),
    kind: str | None = typer.Option(None, "--kind", help="job or jobset (default: jobset on multi-host TPU pools)."),
    pods: int | None = typer.Option(None, "--pods", help="Pods (default 1; a whole slice on multi-host TPU pools)."),
    accelerators: int | None = typer.Option(None, "--accelerators", help="GPUs or TPU chips per pod (default: a whole node)."),
    image: str | None = typer.Option(None, "--image", help="Container image (default: a starter that lists its accelerators)."),
    name: str | None = typer.Option(None, "--name", help="Workload name (default: <team>-<pool>)."),
    priority_class: str | None = typer.Option(None, "--priority-class", help="A Kueue WorkloadPriorityClass of the environment."),
    namespace: str | None = typer.Option(None, "--namespace", help="One of the team's namespaces (default: its first)."),
    topology: str = typer.Option("preferred", "--topology", help="On topology-aware pools: preferred or required."),
    program: Path | None = typer.Option(None, "--program", help="Python Pulumi program directory (default: stacks/).", file_okay=False),
    config: Path | None = typer.Option(None, "--config", help="Stack config file (Pulumi.<stack>.yaml).", dir_okay=False),
    stack: str | None = typer.Option(None, "--stack", help="Stack name: uses Pulumi.<stack>.yaml beside the program."),
) -> None:
    """Print a ready-to-apply Job or JobSet for a team: queue, node selector, tolerations, accelerator requests and
    provisioning/topology annotations from the environment."""
    from gkecap.components.kubernetes_objects.workloads import WorkloadError, workload_manifest
    from gkecap.manifests import to_yaml

    try:
        _stack, model = load_model(program, config, stack)
        manifest = workload_manifest(
            model, team, pool, kind=kind, pods=pods, accelerators=accelerators, image=image, name=name,  # type: ignore[arg-type]
            priority_class=priority_class, namespace=namespace, topology=topology,
        )
    except PlanError as exc:
        fail(exc.problems)
    except WorkloadError as exc:
        fail([f"{OPTIONS.get(issue.path, issue.path)}: {issue.message}" if issue.path else issue.message for issue in exc.issues])
    sys.stdout.write(to_yaml([manifest]))
