"""`gkecap vertex-job`: print the Vertex AI training request of one FLEX_START profile of the environment.

`--format json` (default) prints the CustomJob request body (REST, for projects.locations.customJobs.create);
`--format gcloud` prints the job spec as `gcloud ai custom-jobs create --config` reads it. Exit 2 for an invalid
config or an unknown profile.
"""

from __future__ import annotations

import enum
import sys
from pathlib import Path

import typer

from gkecap.commands.workload import fail, load_model
from gkecap.plan import PlanError


class VertexFormat(str, enum.Enum):
    json = "json"
    gcloud = "gcloud"


def vertex_job_command(
    profile: str = typer.Option(..., "--profile", help="A profile of the environment's `vertex.profiles`."),
    image: str | None = typer.Option(None, "--image", help="Training container image (default: the profile's)."),
    output: VertexFormat = typer.Option(VertexFormat.json, "--format", help="json (REST request body) or gcloud (--config YAML)."),
    program: Path | None = typer.Option(None, "--program", help="Python Pulumi program directory (default: stacks/).", file_okay=False),
    config: Path | None = typer.Option(None, "--config", help="Stack config file (Pulumi.<stack>.yaml).", dir_okay=False),
    stack: str | None = typer.Option(None, "--stack", help="Stack name: uses Pulumi.<stack>.yaml beside the program."),
) -> None:
    """Print a Vertex AI CustomJob (FLEX_START) for a training profile of the environment."""
    from gkecap.starters import gcloud_config, request_json

    try:
        _stack, model = load_model(program, config, stack)
    except PlanError as exc:
        fail(exc.problems)
    profiles = {p.name: p for p in model.vertex_profiles}
    if profile not in profiles:
        fail([f"--profile: {profile!r} is not a Vertex profile of this environment; profiles: {', '.join(profiles) or 'none (add vertex.profiles)'}"])
    plan = profiles[profile]
    sys.stdout.write(request_json(plan, image) if output is VertexFormat.json else gcloud_config(plan, model.project, image))
