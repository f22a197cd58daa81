"""The GitOps delivery of an environment's Kueue install: what Argo CD, Flux and `kubectl apply -k` each expect, as
they are set up by default. Pure: plain object dicts in, plain object dicts out (`gkecap.manifests` writes them).

The manifests folder holds the plain objects (Kueue objects, team Namespaces and RBAC, and the `kueue-system` and
`jobset-system` Namespaces the charts need, since neither chart templates its namespace) with a
`kustomization.yaml` that lists only them: `kubectl apply -k` and Flux's kustomize-controller build it as is, with no
`helmCharts` (which need `--enable-helm`, and which Flux never inflates). The charts are delivered the way each tool
installs a chart:

* `argocd/`: a kustomization of the plain objects (`../`) plus, per chart, an Argo CD `Application` with the chart's
  OCI repository (and the repository Secret declaring it OCI, Argo CD's declarative setup: label
  `argocd.argoproj.io/secret-type: repository`, `enableOCI: "true"`). Ordering is Argo CD's sync waves
  (`argocd.argoproj.io/sync-wave`): repository Secrets, then the chart Applications, then the objects in the apply
  order of their kinds; the Kueue objects also carry `SkipDryRunOnMissingResource=true`, so a sync started before
  Kueue's CRDs exist retries instead of failing its dry run.
* `flux/`: `HelmRepository` (type oci) and `HelmRelease` per chart (CRDs created and replaced on install and
  upgrade), and two Flux `Kustomization`s: `gkecap-kueue` (this folder, healthy when the HelmReleases are Ready,
  that is when Helm has seen the Kueue controller, and so its webhooks, ready) and `gkecap-objects` (the plain
  objects), which `dependsOn` it.

The chart values come from `kueue_chart.chart_values(**chart_arguments(install_args(model)))`, the values the
Pulumi path's `KueueInstall` passes to its Chart.
"""

from __future__ import annotations

from typing import Any

from gkecap.components.kubernetes_objects.build import KIND_ORDER
from gkecap.components.kubernetes_objects.jobset_chart import JOBSET_CHART, JOBSET_CHART_VERSION, JOBSET_NAMESPACE
from gkecap.components.kubernetes_objects.kueue_chart import (
    KUEUE_CHART,
    KUEUE_FULLNAME,
    KUEUE_NAMESPACE,
    chart_arguments,
    chart_values,
    chart_version,
)
from gkecap.components.kubernetes_objects.team_access import MANAGED_BY, MANAGED_BY_LABEL

ARGOCD_NAMESPACE = "argocd"  # where Argo CD's install manifests put Argo CD and its Applications
FLUX_NAMESPACE = "flux-system"  # `flux bootstrap`'s namespace and the name of its GitRepository
FLUX_SOURCE = {"kind": "GitRepository", "name": "flux-system"}
SYNC_WAVE = "argocd.argoproj.io/sync-wave"
SYNC_OPTIONS = "argocd.argoproj.io/sync-options"
KUEUE_GROUP = "kueue.x-k8s.io"
# Sync waves: repository Secrets, chart Applications, then the objects (wave = 1 + the kind's apply order).
REPOSITORY_WAVE, CHART_WAVE, OBJECTS_FIRST_WAVE = -2, -1, 1
FLUX_INTERVAL = "10m"
FLUX_TIMEOUT = "10m"


def _labels() -> dict[str, str]:
    return {MANAGED_BY_LABEL: MANAGED_BY}


def chart_namespaces(install: dict[str, Any]) -> list[dict]:
    """The Namespaces the charts install into (no chart templates its own namespace)."""
    names = [KUEUE_NAMESPACE] + ([JOBSET_NAMESPACE] if install.get("install_jobset") else [])
    return [{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name, "labels": _labels()}} for name in names]


def object_wave(obj: dict) -> int:
    """The Argo CD sync wave of a plain object: after the charts, in the apply order of its kind."""
    return OBJECTS_FIRST_WAVE + KIND_ORDER.index(obj["kind"])


def with_argocd_annotations(obj: dict) -> dict:
    """`obj` with its sync wave (harmless to kubectl and Flux, which ignore the annotation)."""
    annotations = {**obj["metadata"].get("annotations", {}), SYNC_WAVE: str(object_wave(obj))}
    if obj["apiVersion"].startswith(KUEUE_GROUP + "/"):
        annotations[SYNC_OPTIONS] = "SkipDryRunOnMissingResource=true"
    return {**obj, "metadata": {**obj["metadata"], "annotations": annotations}}


def helm_values(install: dict[str, Any]) -> dict[str, Any]:
    """The Kueue chart's values: the same function and arguments as `KueueInstall`'s."""
    return chart_values(**chart_arguments(install))


def _charts(install: dict[str, Any]) -> list[dict[str, Any]]:
    """(name, OCI repository, chart, version, namespace, values) of every chart the install needs."""
    repo, _, chart = KUEUE_CHART.rpartition("/")
    charts = [{"name": KUEUE_FULLNAME, "repository": repo, "chart": chart, "version": chart_version(install["version"]),
               "namespace": KUEUE_NAMESPACE, "values": helm_values(install)}]
    if install.get("install_jobset"):
        jobset_repo, _, jobset_chart = JOBSET_CHART.rpartition("/")
        charts.insert(0, {"name": "jobset", "repository": jobset_repo, "chart": jobset_chart,
                          "version": JOBSET_CHART_VERSION, "namespace": JOBSET_NAMESPACE, "values": {}})
    return charts


def argocd_objects(install: dict[str, Any]) -> list[dict]:
    """Per chart: the OCI repository Secret and the Application, in sync-wave order."""
    secrets, applications = [], []
    for chart in _charts(install):
        host_path = chart["repository"].removeprefix("oci://")  # Argo CD names OCI Helm repositories without a scheme
        secrets.append({
            "apiVersion": "v1", "kind": "Secret",
            "metadata": {"name": f"gkecap-{chart['name']}-chart-repository", "namespace": ARGOCD_NAMESPACE,
                         "labels": {**_labels(), "argocd.argoproj.io/secret-type": "repository"},
                         "annotations": {SYNC_WAVE: str(REPOSITORY_WAVE)}},
            "stringData": {"type": "helm", "name": f"gkecap-{chart['name']}", "url": host_path, "enableOCI": "true"},
        })
        helm: dict[str, Any] = {"releaseName": chart["name"]}
        if chart["values"]:
            helm["valuesObject"] = chart["values"]
        applications.append({
            "apiVersion": "argoproj.io/v1alpha1", "kind": "Application",
            "metadata": {"name": f"gkecap-{chart['name']}", "namespace": ARGOCD_NAMESPACE, "labels": _labels(),
                         "annotations": {SYNC_WAVE: str(CHART_WAVE)}},
            "spec": {
                "project": "default",
                "source": {"repoURL": host_path, "chart": chart["chart"], "targetRevision": chart["version"],
                           "helm": helm},
                "destination": {"server": "https://kubernetes.default.svc", "namespace": chart["namespace"]},
                # Server-side apply: Kueue's CRDs exceed the 256 KiB last-applied annotation of client-side apply.
                "syncPolicy": {"automated": {"prune": True, "selfHeal": True},
                               "syncOptions": ["CreateNamespace=true", "ServerSideApply=true"]},
            },
        })
    return secrets + applications


def flux_objects(install: dict[str, Any], repo_path: str) -> list[dict]:
    """Per chart a HelmRepository and a HelmRelease; then the Kustomizations that order the objects after them.
    `repo_path` is the manifests folder's path in the Git repository Flux syncs (`./...`)."""
    repositories, releases, health = [], [], []
    for chart in _charts(install):
        repositories.append({
            "apiVersion": "source.toolkit.fluxcd.io/v1", "kind": "HelmRepository",
            "metadata": {"name": f"gkecap-{chart['name']}", "namespace": FLUX_NAMESPACE, "labels": _labels()},
            "spec": {"type": "oci", "interval": "1h", "url": chart["repository"]},
        })
        release: dict[str, Any] = {
            "apiVersion": "helm.toolkit.fluxcd.io/v2", "kind": "HelmRelease",
            "metadata": {"name": f"gkecap-{chart['name']}", "namespace": FLUX_NAMESPACE, "labels": _labels()},
            "spec": {
                "interval": FLUX_INTERVAL,
                "releaseName": chart["name"],
                "targetNamespace": chart["namespace"],
                "chart": {"spec": {"chart": chart["chart"], "version": chart["version"],
                                   "sourceRef": {"kind": "HelmRepository", "name": f"gkecap-{chart['name']}"}}},
                "install": {"createNamespace": True, "crds": "CreateReplace"},
                "upgrade": {"crds": "CreateReplace"},
            },
        }
        if chart["values"]:
            release["spec"]["values"] = chart["values"]
        releases.append(release)
        health.append({"apiVersion": "helm.toolkit.fluxcd.io/v2", "kind": "HelmRelease",
                       "name": f"gkecap-{chart['name']}", "namespace": FLUX_NAMESPACE})
    path = repo_path.rstrip("/")

    def kustomization(name: str, at: str, extra: dict[str, Any]) -> dict:
        return {
            "apiVersion": "kustomize.toolkit.fluxcd.io/v1", "kind": "Kustomization",
            "metadata": {"name": name, "namespace": FLUX_NAMESPACE, "labels": _labels()},
            "spec": {"interval": FLUX_INTERVAL, "path": at, "prune": True, "sourceRef": dict(FLUX_SOURCE),
                     "timeout": FLUX_TIMEOUT, **extra},
        }

    ordering = [
        # Ready once every HelmRelease is (not `wait: true`: that would also wait for gkecap-objects, which waits
        # for this one).
        kustomization("gkecap-kueue", f"{path}/flux", {"healthChecks": health}),
        kustomization("gkecap-objects", path, {"dependsOn": [{"name": "gkecap-kueue"}], "wait": True}),
    ]
    return repositories + releases + ordering
