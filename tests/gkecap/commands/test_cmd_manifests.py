"""`gkecap manifests`: writes kubectl-ready YAML for a stack config; an invalid config exits 2 with one message
per problem and no traceback."""

from __future__ import annotations

from pathlib import Path

import yaml
from typer.testing import CliRunner

from gkecap.cli import app
from testkit.spec_data import prod, stack_file

runner = CliRunner()


def _config(tmp_path: Path, environment: dict) -> Path:
    path = tmp_path / "Pulumi.prod.yaml"
    path.write_text(yaml.safe_dump(stack_file(environment)))
    return path


def test_writes_one_file_per_kind_for_the_stack(tmp_path: Path):
    out = tmp_path / "manifests"
    result = runner.invoke(app, ["manifests", "--config", str(_config(tmp_path, prod())), "--out", str(out)])
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in out.iterdir()) == ["argocd", "flux", "kueue-values.yaml", "kustomization.yaml", "objects"]
    assert sorted(p.name for p in (out / "objects").iterdir()) == [
        "00-namespaces.yaml", "02-resourceflavors.yaml", "03-provisioningrequestconfigs.yaml",
        "04-admissionchecks.yaml", "05-workloadpriorityclasses.yaml", "06-cohorts.yaml", "07-clusterqueues.yaml",
        "08-localqueues.yaml", "12-validatingadmissionpolicies.yaml", "13-validatingadmissionpolicybindings.yaml",
        "kustomization.yaml"]
    queues = [d for d in yaml.safe_load_all((out / "objects" / "07-clusterqueues.yaml").read_text()) if d]
    assert [q["metadata"]["name"] for q in queues] == ["team-a", "team-b", "team-c", "team-d"]


def test_stdout_prints_one_stream(tmp_path: Path):
    result = runner.invoke(app, ["manifests", "--config", str(_config(tmp_path, prod())), "--stdout"])
    assert result.exit_code == 0, result.stderr
    documents = [d for d in yaml.safe_load_all(result.stdout) if d]
    assert documents[0]["kind"] == "Namespace" and documents[-1]["kind"] == "ValidatingAdmissionPolicyBinding"


def test_an_invalid_environment_exits_2_naming_each_problem(tmp_path: Path):
    environment = prod()
    environment["teams"][0]["quota"]["nope"] = 1
    environment["teams"][1]["members"] = ["ana@acme.example"]
    result = runner.invoke(app, ["manifests", "--config", str(_config(tmp_path, environment))])
    assert result.exit_code == 2
    assert "teams[0].quota.nope" in result.stderr and "teams[1].members[0]" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_a_missing_config_exits_2(tmp_path: Path):
    result = runner.invoke(app, ["manifests", "--config", str(tmp_path / "Pulumi.none.yaml")])
    assert result.exit_code == 2 and "file not found" in result.stderr


def test_the_directory_lists_every_object_file_in_apply_order(tmp_path: Path):
    out = tmp_path / "manifests"
    assert runner.invoke(app, ["manifests", "--config", str(_config(tmp_path, prod())), "--out", str(out)]).exit_code == 0
    kustomization = yaml.safe_load((out / "objects" / "kustomization.yaml").read_text())
    manifests = sorted(p.name for p in (out / "objects").glob("[0-9][0-9]-*.yaml"))
    assert kustomization["resources"] == manifests  # every file, in apply (file name) order


def test_without_a_kueue_install_only_the_objects_are_delivered(tmp_path: Path):
    environment = prod()
    environment["kueue"] = {"install": False}
    out = tmp_path / "manifests"
    assert runner.invoke(app, ["manifests", "--config", str(_config(tmp_path, environment)), "--out", str(out)]).exit_code == 0
    assert sorted(p.name for p in out.iterdir()) == ["kustomization.yaml", "objects"]


def test_the_helm_values_keep_fair_sharing_and_the_feature_gates(tmp_path: Path):
    environment = prod()
    environment["kueue"] = {"version": "v0.19.2", "fairSharing": True, "topologyAwareScheduling": True}
    out = tmp_path / "manifests"
    assert runner.invoke(app, ["manifests", "--config", str(_config(tmp_path, environment)), "--out", str(out)]).exit_code == 0
    values = yaml.safe_load((out / "kueue-values.yaml").read_text())
    assert {"name": "TopologyAwareScheduling", "enabled": True} in values["controllerManager"]["featureGates"]
    assert "fairSharing" in yaml.safe_load(values["managerConfig"]["controllerManagerConfigYaml"])


def test_no_file_carries_an_absolute_path(tmp_path: Path):
    out = tmp_path / "manifests"
    assert runner.invoke(app, ["manifests", "--config", str(_config(tmp_path, prod())), "--out", str(out)]).exit_code == 0
    for path in out.rglob("*.yaml"):
        assert str(tmp_path) not in path.read_text(), path.name
