"""The GitOps folder of both bundled stacks, built by the real `kubectl kustomize` as `kubectl apply -k`, Argo CD and
Flux build it: every object validates (strict core schemas, the real Kueue CRDs), the charts come before the objects
in each tool's own ordering, and the Helm values are the ones the Pulumi path installs."""

from __future__ import annotations

import re
import subprocess
from functools import lru_cache
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from gkecap.cli import app
from testkit.k8s_core import validate_core
from testkit.kueue_crds import requires_crds, validate_against_crds
from testkit.tools import require_tool

ROOT = Path(__file__).resolve().parents[2]
STACKS = ("dev", "prod")
FOLDERS = (".", "argocd", "flux")
CORE_API_VERSIONS = {"v1", "rbac.authorization.k8s.io/v1", "admissionregistration.k8s.io/v1"}
# Not in ../shared or kubernetes-validate: their shape is checked by the ordering tests below.
TOOL_KINDS = {("argoproj.io/v1alpha1", "Application"), ("source.toolkit.fluxcd.io/v1", "HelmRepository"),
              ("helm.toolkit.fluxcd.io/v2", "HelmRelease"), ("kustomize.toolkit.fluxcd.io/v1", "Kustomization")}
WAVE = "argocd.argoproj.io/sync-wave"


@lru_cache(maxsize=None)
def _folder(stack: str, tmp: str) -> Path:
    out = Path(tmp) / stack / "manifests"
    result = CliRunner().invoke(app, ["manifests", "--config", str(ROOT / "stacks" / f"Pulumi.{stack}.yaml"),
                                      "--out", str(out), "--repo-path", f"./clusters/{stack}"])
    assert result.exit_code == 0, result.stderr
    return out


@pytest.fixture(scope="module")
def folders(tmp_path_factory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("gitops")
    return {stack: _folder(stack, str(tmp)) for stack in STACKS}


@lru_cache(maxsize=1)
def _kubectl() -> str:
    kubectl = require_tool("kubectl", "with kustomize v4 or later; .ci/run installs one")
    version = subprocess.run([kubectl, "version", "--client"], capture_output=True, text=True, timeout=60).stdout
    match = re.search(r"Kustomize Version: v(\d+)\.", version)
    assert match and int(match[1]) >= 4, f"kubectl's kustomize is too old for directory resources: {version!r}"
    return kubectl


def _kustomize(folder: Path) -> list[dict]:
    kubectl = _kubectl()
    built = subprocess.run([kubectl, "kustomize", str(folder)], capture_output=True, text=True, timeout=120)
    assert built.returncode == 0, built.stderr
    return [d for d in yaml.safe_load_all(built.stdout) if d]


def _files(folder: Path, name: str) -> list[dict]:
    return [d for d in yaml.safe_load_all((folder / name).read_text()) if d]


@requires_crds
@pytest.mark.parametrize("stack", STACKS)
@pytest.mark.parametrize("where", FOLDERS)
def test_kubectl_kustomize_builds_every_folder_and_every_object_validates(folders, stack, where):
    objects = _kustomize(folders[stack] / where)
    assert objects
    problems = []
    for obj in objects:
        key = (obj["apiVersion"], obj["kind"])
        if obj["apiVersion"] in CORE_API_VERSIONS:
            validate_core(obj)
        elif obj["apiVersion"].startswith("kueue.x-k8s.io/"):
            problems += [(obj["kind"], obj["metadata"]["name"], e) for e in validate_against_crds(obj)]
        else:
            assert key in TOOL_KINDS, key
    assert problems == []


@pytest.mark.parametrize("stack", STACKS)
def test_the_plain_kustomization_needs_no_helm(folders, stack):
    # `kubectl kustomize` without --enable-helm, and Flux's kustomize-controller, which never inflates helmCharts.
    root = yaml.safe_load((folders[stack] / "kustomization.yaml").read_text())
    assert "helmCharts" not in root and root["resources"] == ["objects"]
    kinds = {o["kind"] for o in _kustomize(folders[stack])}
    assert "Application" not in kinds and "HelmRelease" not in kinds


@pytest.mark.parametrize("stack", STACKS)
def test_the_chart_namespaces_are_created(folders, stack):
    names = {o["metadata"]["name"] for o in _files(folders[stack], "objects/00-namespaces.yaml")}
    assert {"kueue-system", "jobset-system"} <= names


@pytest.mark.parametrize("stack", STACKS)
def test_argo_cd_syncs_repositories_then_charts_then_objects_in_kind_order(folders, stack):
    objects = _kustomize(folders[stack] / "argocd")
    wave = {(o["kind"], o["metadata"].get("namespace"), o["metadata"]["name"]): int(o["metadata"]["annotations"][WAVE])
            for o in objects}
    secrets = [w for (kind, _, _), w in wave.items() if kind == "Secret"]
    charts = {name: w for (kind, _, name), w in wave.items() if kind == "Application"}
    assert set(charts) == {"gkecap-kueue", "gkecap-jobset"}
    kueue = [w for o, w in zip(objects, wave.values()) if o["apiVersion"].startswith("kueue.x-k8s.io/")]
    assert max(secrets) < min(charts.values()) and max(charts.values()) < min(kueue)
    by_kind = {}
    for (kind, _, _), w in wave.items():
        by_kind.setdefault(kind, set()).add(w)
    assert max(by_kind["Namespace"]) < min(by_kind["LocalQueue"]) and max(by_kind["Cohort"]) < min(by_kind["ClusterQueue"])
    assert max(by_kind["ClusterQueue"]) < min(by_kind["LocalQueue"])
    for obj in objects:  # a sync started before the CRDs exist is retried, not failed at its dry run
        if obj["apiVersion"].startswith("kueue.x-k8s.io/"):
            assert obj["metadata"]["annotations"]["argocd.argoproj.io/sync-options"] == "SkipDryRunOnMissingResource=true"


@pytest.mark.parametrize("stack", STACKS)
def test_flux_applies_the_objects_after_the_releases_are_ready(folders, stack):
    objects = _kustomize(folders[stack] / "flux")
    kustomizations = {o["metadata"]["name"]: o["spec"] for o in objects if o["kind"] == "Kustomization"}
    releases = {o["metadata"]["name"] for o in objects if o["kind"] == "HelmRelease"}
    assert releases == {"gkecap-kueue", "gkecap-jobset"}
    kueue, objects_ = kustomizations["gkecap-kueue"], kustomizations["gkecap-objects"]
    assert {check["name"] for check in kueue["healthChecks"]} == releases
    assert objects_["dependsOn"] == [{"name": "gkecap-kueue"}]
    assert (kueue["path"], objects_["path"]) == (f"./clusters/{stack}/flux", f"./clusters/{stack}")
    for release in (o for o in objects if o["kind"] == "HelmRelease"):  # the charts own the CRDs
        assert release["spec"]["install"]["crds"] == release["spec"]["upgrade"]["crds"] == "CreateReplace"


@pytest.mark.parametrize("stack", STACKS)
def test_every_gitops_path_gets_the_values_the_pulumi_path_installs(folders, stack):
    from gkecap.components.environment import Environment
    from gkecap.engine.mocks import GkeMocks
    from gkecap.engine.recording_monitor import RecordingMonitor
    from gkecap.engine.run import RecordingEngine, run_callable

    config = yaml.safe_load((ROOT / "stacks" / f"Pulumi.{stack}.yaml").read_text())["config"]
    project = config["gcp:project"]
    monitor = RecordingMonitor(GkeMocks(project=project, region="us-east5"), "gke-capacity", stack)
    run_callable(lambda: Environment("env", {"environment": config["gkecap:environment"], "project": project}),
                 monitor, RecordingEngine(), config={"gcp:project": project})
    [chart] = [r for r in monitor.records if r.type == "kubernetes:helm.sh/v4:Chart" and r.name == "kueue"]
    pulumi_values = chart.inputs["values"]

    folder = folders[stack]
    [release] = [o for o in _files(folder, "flux/releases.yaml") if o["kind"] == "HelmRelease"
                 and o["metadata"]["name"] == "gkecap-kueue"]
    [application] = [o for o in _files(folder, "argocd/applications.yaml") if o["kind"] == "Application"
                     and o["metadata"]["name"] == "gkecap-kueue"]
    assert yaml.safe_load((folder / "kueue-values.yaml").read_text()) == pulumi_values
    assert release["spec"]["values"] == pulumi_values
    assert application["spec"]["source"]["helm"]["valuesObject"] == pulumi_values
    assert application["spec"]["source"]["targetRevision"] == chart.inputs["version"]
    assert release["spec"]["chart"]["spec"]["version"] == chart.inputs["version"]


# MultiKueue (issue 24): the manager's unit and each worker's, as `gkecap manifests` writes them for the global stack.
UNITS = (".", "workers/east", "workers/central")


@pytest.fixture(scope="module")
def global_folder(tmp_path_factory) -> Path:
    return _folder("global", str(tmp_path_factory.mktemp("gitops-global")))


@requires_crds
@pytest.mark.parametrize("unit", UNITS)
@pytest.mark.parametrize("where", FOLDERS)
def test_every_clusters_unit_builds_and_every_object_validates(global_folder, unit, where):
    objects = _kustomize(global_folder / unit / where)
    problems = []
    for obj in objects:
        if obj["apiVersion"] in CORE_API_VERSIONS:
            validate_core(obj)
        elif obj["apiVersion"].startswith("kueue.x-k8s.io/"):
            problems += [(obj["kind"], obj["metadata"]["name"], e) for e in validate_against_crds(obj)]
        else:
            assert (obj["apiVersion"], obj["kind"]) in TOOL_KINDS
    assert objects and problems == []


@pytest.mark.parametrize("unit", UNITS[1:])
def test_a_workers_unit_gives_the_manager_its_identity_there_after_the_kueue_objects(global_folder, unit):
    objects = _kustomize(global_folder / unit / "argocd")
    access = {o["kind"]: o for o in objects if o["metadata"]["name"] == "gkecap-multikueue"}
    assert set(access) == {"ServiceAccount", "ClusterRole", "ClusterRoleBinding", "Secret"}
    assert access["Secret"]["type"] == "kubernetes.io/service-account-token" and "data" not in access["Secret"]
    waves = {kind: int(o["metadata"]["annotations"][WAVE]) for kind, o in access.items()}
    assert waves["ServiceAccount"] < waves["Secret"] and waves["ServiceAccount"] < waves["ClusterRoleBinding"]


def test_a_workers_flux_objects_are_at_its_path_below_the_environments(global_folder):
    paths = {o["spec"]["path"] for o in _kustomize(global_folder / "workers" / "east" / "flux")
             if o["kind"] == "Kustomization"}
    assert paths == {"./clusters/global/workers/east/flux", "./clusters/global/workers/east"}
