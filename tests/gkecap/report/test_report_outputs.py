"""out/<project>/<stack>/: plan.json is the --format json document, report.html, manifests/ for an environment."""

from __future__ import annotations

import json

import yaml

from gkecap.report import default_out_dir, render_json, write_outputs

from testkit.report_fixtures import NOW


def test_plan_json_is_the_format_json_document(result, tmp_path):
    written = write_outputs(result, tmp_path, now=NOW)
    document = json.loads(written["plan"].read_text())
    assert document == json.loads(render_json(result))
    assert set(document) == {"schemaVersion", "resources", "violations", "diagnostics", "summary", "capacity"}  # capacity: an environment's
    assert set(document["resources"][0]) == {"urn", "type", "name", "parent", "dependencies", "inputs", "options"}
    assert set(document["violations"][0]) == {"policy", "enforcementLevel", "urn", "message"}


def test_outputs_of_an_environment_include_manifests(result, tmp_path):
    written = write_outputs(result, tmp_path / "out", now=NOW)
    assert written["report"].read_text().startswith("<!DOCTYPE html>")
    files = sorted(p.name for p in (written["manifests"] / "objects").iterdir())
    assert "08-localqueues.yaml" in files
    assert {"kustomization.yaml", "kueue-values.yaml", "argocd", "flux"} <= {p.name for p in written["manifests"].iterdir()}
    queues = [d for d in yaml.safe_load_all((written["manifests"] / "objects" / "07-clusterqueues.yaml").read_text()) if d]
    assert sorted(q["metadata"]["name"] for q in queues) == ["llm", "recsys", "speech", "vision"]


def test_bare_program_writes_no_manifests(bare_result, tmp_path):
    written = write_outputs(bare_result, tmp_path, now=NOW)
    assert "manifests" not in written
    assert not (tmp_path / "manifests").exists()


def test_default_out_dir_is_keyed_by_project_and_stack(result, tmp_path):
    # a program's `dev` stack must not land in the bundled environments' out/gke-capacity/dev
    assert default_out_dir(result, tmp_path) == tmp_path / "out" / "gke-capacity" / "test"


def test_a_bare_program_run_removes_the_manifests_of_an_earlier_environment_run(result, bare_result, tmp_path):
    write_outputs(result, tmp_path, now=NOW)
    (tmp_path / "manifests" / "notes.txt").write_text("mine")  # not ours: kept
    write_outputs(bare_result, tmp_path, now=NOW)
    assert sorted(p.name for p in (tmp_path / "manifests").iterdir()) == ["notes.txt"]
