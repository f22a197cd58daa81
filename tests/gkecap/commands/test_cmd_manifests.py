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


# MultiKueue (issue 24): the command writes what `gkecap plan` writes, every cluster's GitOps unit.
ROOT = Path(__file__).resolve().parents[3]
GLOBAL = ROOT / "stacks" / "Pulumi.global.yaml"


def _tree(directory: Path) -> dict[str, str]:
    return {p.relative_to(directory).as_posix(): p.read_text() for p in sorted(directory.rglob("*")) if p.is_file()}


def test_with_workers_every_clusters_unit_is_written_as_plan_writes_it(tmp_path: Path):
    from gkecap.components.kubernetes_objects.derived import DerivedEnvironment
    from gkecap.components.spec import load_stack_file
    from gkecap.manifests import write_environment_manifests

    out = tmp_path / "manifests"
    result = runner.invoke(app, ["manifests", "--config", str(GLOBAL), "--out", str(out)])
    assert result.exit_code == 0, result.stderr
    expected = tmp_path / "plan" / "manifests"  # the folder's name is in the files' headers
    write_environment_manifests(DerivedEnvironment(load_stack_file(GLOBAL)), expected, source=GLOBAL.name, repo_path="./manifests")
    assert _tree(out) == _tree(expected)
    assert {"workers/east/kustomization.yaml", "workers/central/objects/kustomization.yaml",
            "workers/east/objects/03-provisioningrequestconfigs.yaml"} <= set(_tree(out))


def test_a_workers_unit_holds_its_own_queues_and_kueue_install(tmp_path: Path):
    out = tmp_path / "manifests"
    assert runner.invoke(app, ["manifests", "--config", str(GLOBAL), "--out", str(out)]).exit_code == 0
    central = out / "workers" / "central"
    flavors = [d["metadata"]["name"] for d in yaml.safe_load_all((central / "objects" / "02-resourceflavors.yaml").read_text()) if d]
    assert sorted(flavors) == ["h100-flex", "v6e-4x4"]
    assert "h100-dws" not in (central / "objects" / "07-clusterqueues.yaml").read_text()
    assert (central / "kueue-values.yaml").is_file() and (central / "flux" / "releases.yaml").is_file()
    assert not list(central.rglob("*multikueue*"))


def test_a_worker_removed_from_the_file_loses_its_unit(tmp_path: Path):
    out = tmp_path / "manifests"
    assert runner.invoke(app, ["manifests", "--config", str(GLOBAL), "--out", str(out)]).exit_code == 0
    (out / "workers" / "central" / "notes.md").write_text("mine")
    environment = yaml.safe_load(GLOBAL.read_text())["config"]["gkecap:environment"]
    environment["workers"].pop()  # central
    for team in environment["teams"]:
        team["quota"] = {pool: q for pool, q in team["quota"].items() if pool == "h100-dws"}
    config = tmp_path / "Pulumi.global.yaml"
    config.write_text(yaml.safe_dump({"config": {"gcp:project": "acme-ml-global", "gkecap:environment": environment}}))
    assert runner.invoke(app, ["manifests", "--config", str(config), "--out", str(out)]).exit_code == 0
    central = out / "workers" / "central"
    assert sorted(p.relative_to(central).as_posix() for p in central.rglob("*")) == ["notes.md"]
    assert (out / "workers" / "east" / "kustomization.yaml").is_file()


def test_stdout_prints_one_clusters_stream_the_worker_named_by_cluster(tmp_path: Path):
    manager = runner.invoke(app, ["manifests", "--config", str(GLOBAL), "--stdout"])
    east = runner.invoke(app, ["manifests", "--config", str(GLOBAL), "--stdout", "--cluster", "east"])
    assert manager.exit_code == 0 and east.exit_code == 0, manager.stderr + east.stderr
    kinds = {d["kind"] for d in yaml.safe_load_all(manager.stdout) if d}
    assert "MultiKueueCluster" in kinds
    east_documents = [d for d in yaml.safe_load_all(east.stdout) if d]
    assert "MultiKueueCluster" not in {d["kind"] for d in east_documents}
    assert [d["metadata"]["name"] for d in east_documents if d["kind"] == "ResourceFlavor"] == ["h100-dws"]


def test_a_workers_flux_path_is_its_place_below_the_environments_folder(tmp_path: Path, monkeypatch):
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")  # the folder is outside the working directory: Flux sees ./global
    assert runner.invoke(app, ["manifests", "--config", str(GLOBAL), "--out", str(tmp_path / "global")]).exit_code == 0
    releases = (tmp_path / "global" / "workers" / "east" / "flux" / "releases.yaml").read_text()
    paths = {d["spec"]["path"] for d in yaml.safe_load_all(releases) if d and d["kind"] == "Kustomization"}
    assert paths and all(path.startswith("./global/workers/east") for path in paths)


def test_cluster_must_name_a_worker(tmp_path: Path):
    result = runner.invoke(app, ["manifests", "--config", str(GLOBAL), "--stdout", "--cluster", "west"])
    assert result.exit_code == 2
    assert "--cluster: 'west' is not a worker" in result.stderr and "east, central" in result.stderr
