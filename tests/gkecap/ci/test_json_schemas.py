"""Every `--format json` document the CLI prints carries its `schemaVersion` and validates against the schema
published in docs/schemas/ (JSON Schema 2020-12), through the console script as consumers read it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from gkecap.ci.documents import SCHEMA_VERSIONS
from testkit.cli_process import run_gkecap
from testkit.engine_fixtures import MINI_PACK, PROGRAMS, STATES

REPO = Path(__file__).resolve().parents[3]
SCHEMAS = REPO / "docs" / "schemas"


def _validator(kind: str) -> Draft202012Validator:
    schema = json.loads((SCHEMAS / f"{kind}.schema.json").read_text())
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def _document(args: list[str]) -> dict:
    run = run_gkecap([*args, "--format", "json"], cwd=REPO)
    return json.loads(run.stdout)


CASES = {
    "plan dev": ("plan", ["plan", "--stack", "dev"]),
    "plan prod": ("plan", ["plan", "--stack", "prod"]),
    "plan invalid": ("plan", ["plan", "--program", str(PROGRAMS / "spec_error"), "--stack", "bad"]),
    "plan program": ("plan", ["plan", "--program", str(PROGRAMS / "raw_resources"), "--policy-pack", str(MINI_PACK)]),
    "check state": ("plan", ["check", "--state", str(STATES / "stack_export.json"), "--policy-pack", str(MINI_PACK)]),
    "simulate prod": ("simulate", ["simulate", "--stack", "prod", "--workloads", "stacks/scenarios/prod.yaml"]),
    "simulate invalid": ("simulate", ["simulate", "--stack", "prod", "--workloads", "no-such-file.yaml"]),
    "policies": ("policies", ["policies"]),
    "diff": ("diff", ["diff", "--base", "stacks/Pulumi.dev.yaml", "--head", "stacks/Pulumi.prod.yaml", "--no-policies"]),
}


@pytest.mark.parametrize("case", list(CASES))
def test_the_document_validates_against_its_published_schema(case):
    kind, args = CASES[case]
    document = _document(args)
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in _validator(kind).iter_errors(document)]
    assert errors == [], f"docs/schemas/{kind}.schema.json: update it (and bump schemaVersion, CHANGELOG) or the output"
    assert document["schemaVersion"] == SCHEMA_VERSIONS[kind]


@pytest.mark.parametrize("kind", sorted(SCHEMA_VERSIONS))
def test_the_schema_states_the_version_the_code_prints(kind):
    schema = json.loads((SCHEMAS / f"{kind}.schema.json").read_text())
    assert schema["properties"]["schemaVersion"]["const"] == SCHEMA_VERSIONS[kind]


def test_a_document_of_another_version_is_refused_by_the_schema():
    document = _document(["policies"])
    document["schemaVersion"] = "2.0"
    assert list(_validator("policies").iter_errors(document))


def test_cycles_and_limits_validate_against_the_schema(tmp_path):
    # The drawn livelock (issue 29's cycles, and a safety limit reached): both lists are filled.
    import yaml

    data = yaml.safe_load((REPO / "tests/gkecap/simulate/data/cycles/livelock.yaml").read_text())
    config = tmp_path / "Pulumi.livelock.yaml"
    config.write_text(yaml.safe_dump({"config": {"gkecap:environment": data["environment"]}}))
    workloads = tmp_path / "workloads.yaml"
    workloads.write_text(yaml.safe_dump(data["workloads"]))
    document = _document(["simulate", "--config", str(config), "--workloads", str(workloads)])
    assert document["cycles"] and [limit["limit"] for limit in document["limits"]] == ["LIVELOCK_REPEATS"]
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in _validator("simulate").iter_errors(document)]
    assert errors == []
