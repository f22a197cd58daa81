"""In-process mode (`--pack-in-process`): the bundled pack served in gkecap's process gives the findings its
own process gives over the Analyzer gRPC protocol, and starts no process."""

from __future__ import annotations

import json
import subprocess

import pytest
from typer.testing import CliRunner

from gkecap.cli import app
from gkecap.plan import PlanError, plan
from testkit.cli_process import run_gkecap
from testkit.engine_fixtures import MINI_PACK, PROGRAMS

# A node pool a resource rule rejects (mandatory) and a ClusterQueue two stack rules flag (advisory).
RAW = PROGRAMS / "raw_resources"


def _findings(**kwargs) -> list[tuple[str, str, str | None, str]]:
    result = plan(RAW, **kwargs)
    return [(d.policy, d.enforcement_level, d.urn, d.message) for d in result.violations]


@pytest.fixture(scope="module")
def over_grpc():
    return _findings()


def test_same_findings_as_the_pack_process(over_grpc):
    kinds = {policy for policy, *_ in over_grpc}
    assert {"flex-start-settings", "kueue-references"} <= kinds  # a resource rule's and a stack rule's
    assert _findings(pack_in_process=True) == over_grpc


def test_same_findings_under_a_policy_config(tmp_path):
    config = tmp_path / "policy-config.json"
    config.write_text(json.dumps({"flex-start-settings": "advisory", "kueue-references": "disabled"}))
    in_process = _findings(policy_config_file=config, pack_in_process=True)
    assert ("flex-start-settings", "advisory") in {(p, level) for p, level, *_ in in_process}
    assert in_process == _findings(policy_config_file=config)


def test_starts_no_process(monkeypatch):
    def no_process(*args, **kwargs):
        raise AssertionError(f"started a process: {args[0]}")

    monkeypatch.setattr(subprocess, "Popen", no_process)
    assert _findings(pack_in_process=True)


def test_refuses_another_pack():
    with pytest.raises(PlanError, match="--pack-in-process runs only the bundled"):
        plan(RAW, policy_pack=MINI_PACK, pack_in_process=True)


def test_environment_variable_turns_it_on(monkeypatch):
    # The same refusal, reached only if GKECAP_PACK_IN_PROCESS=1 asked for in-process mode.
    result = CliRunner().invoke(app, ["plan", "--program", str(RAW), "--policy-pack", str(MINI_PACK), "--format", "json"],
                                env={"GKECAP_PACK_IN_PROCESS": "1"})
    assert result.exit_code == 2
    assert "--pack-in-process runs only the bundled" in result.stderr


def test_the_console_flag_gives_the_same_json(tmp_path):
    """As a user runs it: the installed command, --format json piped, with and without --pack-in-process."""
    def violations(*flag: str) -> list:
        run = run_gkecap(["plan", "--program", str(RAW), "--format", "json", *flag], cwd=tmp_path)
        assert run.exit_code == 1, run.stderr  # the raw program has a mandatory violation
        return json.loads(run.stdout)["violations"]

    found = violations()
    assert found and violations("--pack-in-process") == found
