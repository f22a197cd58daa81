"""stacks/__main__.py on the offline engine (in process, no policy pack): it exports what other stacks use."""

from __future__ import annotations

from pathlib import Path

import pytest

from gkecap.engine.run import run_program
from gkecap.engine.program import find_program
from gkecap.engine.stack_config import load_stack_config

STACKS = Path(__file__).resolve().parents[2] / "stacks"


@pytest.fixture(scope="module")
def dev_run():
    program = find_program(STACKS)
    config = load_stack_config(program.stack_file("dev"), program.project)
    return run_program(program, "dev", config)


def test_exports_cluster(dev_run):
    assert dev_run.exports["cluster"] == {"name": "ml-dev", "location": "us-east5"}


def test_exports_pools_with_their_node_pools(dev_run):
    pools = dev_run.exports["pools"]
    assert set(pools) == {"h100-flex", "v6e-2x2"}
    assert pools["v6e-2x2"]["resource"] == "google.com/tpu"
    assert pools["h100-flex"]["nodePools"]


def test_exports_queues_per_team(dev_run):
    queues = dev_run.exports["queues"]
    assert set(queues) == {"research", "platform"}
    assert queues["research"]["cohort"] == "dev"


def test_environment_component_is_named_after_the_stack(dev_run):
    envs = [r for r in dev_run.records if r.type == "gkecap:index:Environment"]
    assert [r.name for r in envs] == ["dev"]
