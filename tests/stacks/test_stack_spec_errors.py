"""A bad environment file fails `gkecap plan` with exit 2 and the YAML path of the field, never a message without a
path: the spec runs the same rule sets as the components (a pool's `gke.check_pool_request`, the cluster's
`gke.check_cluster_request`), so a value the spec accepts never fails later inside the program."""

from __future__ import annotations

import copy
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

STACKS = Path(__file__).resolve().parents[2] / "stacks"
GKECAP = Path(sys.executable).parent / "gkecap"  # the console script this installation put beside python


def plan_with(tmp_path: Path, change) -> subprocess.CompletedProcess:
    document = yaml.safe_load((STACKS / "Pulumi.dev.yaml").read_text())
    change(document["config"]["gkecap:environment"])
    config = tmp_path / "Pulumi.broken.yaml"
    config.write_text(yaml.safe_dump(document))
    return subprocess.run([GKECAP, "plan", "--config", str(config), "--no-policies", "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300)


def add_calendar_pool_keeping_nodes(env: dict) -> None:
    env.setdefault("reservations", []).append(
        {"name": "r", "machineType": "a3-highgpu-8g", "count": 2, "zone": f"{env['region']}-a",
         "start": "2026-01-01T00:00:00Z", "days": 7, "submit": True})  # ended: a warning, never an error
    env["nodePools"].append({"name": "cal", "machineType": "a3-highgpu-8g", "capacity": "calendar",
                             "reservation": "r", "minNodes": 1})


def create_cluster_without_channel(env: dict) -> None:
    env["cluster"].update({"create": True, "releaseChannel": "UNSPECIFIED"})


@pytest.mark.parametrize(
    ("change", "path"),
    [(add_calendar_pool_keeping_nodes, "nodePools[2].minNodes: "), (create_cluster_without_channel, "cluster.releaseChannel: ")],
)
def test_component_rule_is_a_spec_error_at_its_yaml_path(tmp_path, change, path):
    done = plan_with(tmp_path, change)
    assert done.returncode == 2, done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert errors and all(f"gkecap:environment.{path}" in line for line in errors), done.stderr
    assert "error: error:" not in done.stderr and "Traceback" not in done.stderr
    assert "stacks/__main__.py" not in done.stderr


def test_unchanged_copy_plans(tmp_path):
    done = plan_with(tmp_path, lambda env: copy.deepcopy(env))
    assert done.returncode == 0, done.stderr


def test_a_component_rejecting_its_arguments_names_it_and_each_argument(tmp_path):
    # A program of the user's own (`--program`): the component's InputPropertiesError, one line per argument.
    program = Path(__file__).resolve().parents[1] / "fixtures" / "programs" / "bad_component"
    done = subprocess.run([GKECAP, "plan", "--program", str(program), "--no-policies", "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    where = f"{Path(os.path.relpath(program / '__main__.py')).as_posix()}:6"  # the program line that made the component
    assert errors == [
        f"error: {where}: AcceleratorNodePool 'h100-cal': minNodes: must be 0 for calendar pools (the reservation's VMs "
        "exist only in its window); minNodes > 0 is for reservation, spot, on-demand",
        f"error: {where}: AcceleratorNodePool 'h100-cal': maxRunDurationSeconds: applies to flex-start and queued pools "
        "only, not calendar",
    ], done.stderr
