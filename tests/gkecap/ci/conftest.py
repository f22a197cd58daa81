"""Plans shared by the CI-output tests: each runs once per session (a plan with the real pack takes seconds)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gkecap.plan import plan
from testkit.engine_fixtures import MINI_PACK, PROGRAMS

STACKS = Path(__file__).resolve().parents[3] / "stacks"


@pytest.fixture(scope="session")
def overcommitted_stack(tmp_path_factory) -> Path:
    """The dev environment with a flex-start quota far above the pool: a spec warning and a pack violation."""
    document = yaml.safe_load((STACKS / "Pulumi.dev.yaml").read_text())
    document["config"]["gkecap:environment"]["teams"][0]["quota"]["h100-flex"] = 64
    path = tmp_path_factory.mktemp("stack") / "Pulumi.over.yaml"
    path.write_text(yaml.safe_dump(document, sort_keys=False))
    return path


@pytest.fixture(scope="session")
def overcommitted_plan(overcommitted_stack):
    return plan(config_file=overcommitted_stack)


@pytest.fixture(scope="session")
def raw_program_plan():
    """A hand-written program (no environment) whose node pool the mini pack flags (mandatory max-nodes)."""
    return plan(PROGRAMS / "raw_resources", policy_pack=MINI_PACK)
