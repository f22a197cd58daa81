"""`pulumi.StackReference` offline: outputs from `--stack-outputs` files, a clear error without them."""

import json

import pytest

from gkecap.engine.stack_references import StackOutputsError, load_stack_outputs
from gkecap.plan import PlanError, plan
from testkit.engine_fixtures import PROGRAMS

PROGRAM = PROGRAMS / "stack_reference"
OUTPUTS = json.loads((PROGRAM / "network-outputs.json").read_text())


def test_referenced_outputs_reach_the_program():
    result = plan(PROGRAM, no_policies=True, stack_outputs={"acme/network/prod": OUTPUTS})
    [cluster] = [r for r in result.resources if r.type == "gcp:container/cluster:Cluster"]
    assert (cluster.inputs["network"], cluster.inputs["subnetwork"]) == (OUTPUTS["vpc"], OUTPUTS["subnet"])


def test_a_reference_without_outputs_names_the_stack_the_flag_and_the_program_line():
    with pytest.raises(PlanError) as failure:
        plan(PROGRAM, no_policies=True)
    [problem] = failure.value.problems
    assert problem.startswith("tests/fixtures/programs/stack_reference/__main__.py:6: pulumi.StackReference('acme/network/prod')")
    assert "--stack-outputs acme/network/prod=FILE" in problem
    [diagnostic] = failure.value.diagnostics
    assert (diagnostic.file, diagnostic.line) == ("tests/fixtures/programs/stack_reference/__main__.py", 6)


def test_outputs_files_are_read_by_stack_name(tmp_path):
    (tmp_path / "net.json").write_text('{"vpc": "v"}')
    assert load_stack_outputs([f"acme/net/prod={tmp_path / 'net.json'}"]) == {"acme/net/prod": {"vpc": "v"}}


def test_every_bad_outputs_argument_is_reported(tmp_path):
    (tmp_path / "list.json").write_text("[1]")
    with pytest.raises(StackOutputsError) as failure:
        load_stack_outputs(["no-equals-sign", f"a={tmp_path / 'missing.json'}", f"b={tmp_path / 'list.json'}"])
    first, second, third = failure.value.problems
    assert "expected NAME=FILE" in first and "cannot read" in second and "expected a JSON object" in third
