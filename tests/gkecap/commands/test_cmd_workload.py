"""`gkecap workload` and `gkecap vertex-job`: one manifest or request on stdout, ready to pipe into kubectl or gcloud;
a shape the pool cannot run, an unknown team or profile, exits 2 naming the option and the reason."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from typer.testing import CliRunner

from gkecap.cli import app
from testkit.k8s_core import validate_core
from testkit.spec_data import prod, stack_file
from testkit.vertex_types import vertex_types  # noqa: F401  (the session's aiplatform_v1 parser)

runner = CliRunner()
VERTEX = {"region": "us-central1", "profiles": [
    {"name": "llm-h100", "team": "team-d", "machineType": "a3-highgpu-8g", "acceleratorType": "NVIDIA_H100_80GB",
     "acceleratorCount": 8, "replicaCount": 2, "maxWaitDuration": "30m", "timeout": "2d"}]}


def _config(tmp_path: Path) -> str:
    environment = prod()
    environment["reservations"][0]["start"] = "2027-01-10T00:00:00Z"  # the CLI judges windows against today
    environment["vertex"] = VERTEX
    path = tmp_path / "Pulumi.prod.yaml"
    path.write_text(yaml.safe_dump(stack_file(environment)))
    return str(path)


def test_a_workload_prints_one_valid_job_for_the_team(tmp_path):
    result = runner.invoke(app, ["workload", "--config", _config(tmp_path), "--team", "team-a", "--pool", "h100-dws",
                                 "--pods", "2", "--accelerators", "8", "--priority-class", "low"])
    assert result.exit_code == 0, result.stderr
    [manifest] = [d for d in yaml.safe_load_all(result.stdout) if d]
    validate_core(manifest)
    assert manifest["metadata"]["labels"] == {"kueue.x-k8s.io/queue-name": "team-a", "kueue.x-k8s.io/priority-class": "low"}


def test_a_shape_the_pool_cannot_hold_exits_2_with_the_reason(tmp_path):
    result = runner.invoke(app, ["workload", "--config", _config(tmp_path), "--team", "team-a", "--pool", "h100-dws",
                                 "--pods", "5"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("error: --pods: 5 pods x 8 nvidia.com/gpu need 5 nodes")


def test_an_unknown_team_exits_2_listing_the_teams(tmp_path):
    result = runner.invoke(app, ["workload", "--config", _config(tmp_path), "--team", "nobody"])
    assert result.exit_code == 2 and "--team: 'nobody'" in result.stderr and "team-a" in result.stderr


def test_vertex_job_prints_the_custom_job_request(tmp_path, vertex_types):
    result = runner.invoke(app, ["vertex-job", "--config", _config(tmp_path), "--profile", "llm-h100",
                                 "--image", "us-docker.pkg.dev/acme/train:1"])
    assert result.exit_code == 0, result.stderr
    job = vertex_types.parse("CustomJob", json.loads(result.stdout))
    assert job["job_spec"]["worker_pool_specs"][0]["container_spec"]["image_uri"] == "us-docker.pkg.dev/acme/train:1"


def test_vertex_job_prints_the_gcloud_config(tmp_path, vertex_types):
    result = runner.invoke(app, ["vertex-job", "--config", _config(tmp_path), "--profile", "llm-h100", "--format", "gcloud"])
    assert result.exit_code == 0, result.stderr
    spec = vertex_types.parse("CustomJobSpec", yaml.safe_load(result.stdout))
    assert sum(int(p["replica_count"]) for p in spec["worker_pool_specs"]) == 2


def test_an_unknown_profile_exits_2_listing_the_profiles(tmp_path):
    result = runner.invoke(app, ["vertex-job", "--config", _config(tmp_path), "--profile", "nope"])
    assert result.exit_code == 2 and "--profile: 'nope'" in result.stderr and "llm-h100" in result.stderr


def test_with_the_defaults_a_workload_is_the_plans_starter_for_that_team_and_pool(tmp_path):
    """The starter file's header tells a team to take one pool's starter with `gkecap workload ... > job.yaml`."""
    from gkecap.components.model import derive
    from gkecap.components.spec import load_environment
    from gkecap.starters import workload_files
    from testkit.spec_data import NOW

    config = _config(tmp_path)
    result = runner.invoke(app, ["workload", "--config", config, "--team", "team-a", "--pool", "l4-spot"])
    assert result.exit_code == 0, result.stderr
    [manifest] = [d for d in yaml.safe_load_all(result.stdout) if d]
    team_file = workload_files(derive(load_environment(prod(), project="acme-ml-prod", now=NOW)), "prod")["workloads/team-a.yaml"]
    assert manifest in [d for d in yaml.safe_load_all(team_file) if d]
