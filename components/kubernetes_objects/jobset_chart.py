"""JobSet, which Kueue's `jobset.x-k8s.io/jobset` integration needs: its Helm chart and pinned version. Pure.

Kueue's chart enables the JobSet integration at every supported release (`kueue_api.integrations`), but Kueue does not ship JobSet: xpk installs it on every cluster
(JOBSET_VERSION in xpk's core) and Cluster Toolkit's kubectl-apply module installs it from the chart
``oci://registry.k8s.io/jobset/charts/jobset`` into ``jobset-system`` (docs/sources.md "JobSet"). Without it a
JobSet never runs. Version: v0.12.0 (kubernetes-sigs/jobset tag f22e565a, the CRD in ../shared/jobset-crd).
"""

from __future__ import annotations

JOBSET_CHART = "oci://registry.k8s.io/jobset/charts/jobset"
JOBSET_VERSION = "v0.12.0"
JOBSET_CHART_VERSION = JOBSET_VERSION[1:]  # chart versions drop the v (helm install ... --version 0.12.0)
JOBSET_NAMESPACE = "jobset-system"
JOBSET_FRAMEWORK = "jobset.x-k8s.io/jobset"


def jobset_integration_on(frameworks: list[str] | tuple[str, ...]) -> bool:
    """Whether Kueue's configuration (its integrations.frameworks) integrates JobSet, so JobSet must be installed."""
    return JOBSET_FRAMEWORK in frameworks
