"""Which jobs Kueue manages: `manageJobsWithoutQueueName` limited to the team namespaces by
`managedJobsNamespaceSelector`, and the `default` LocalQueue that unlabelled work lands in. Pure.

Kueue's rules (kubernetes-sigs/kueue):
* `manageJobsWithoutQueueName` is a Configuration field at every supported release (apis/config/v1beta1
  configuration_types.go at v0.9.0 already) and `managedJobsNamespaceSelector` from v0.10.0 (same file); both are in
  config v1beta2 (v0.15.0+). With both set, a job without a queue name is suspended (gated, for pods) only in the
  namespaces the selector matches (pkg/controller/jobframework/defaults.go @ v0.14.0); pod-based integrations
  (pod, deployment, statefulset, LWS) are never managed outside them, label or not (apis/config/v1beta2
  configuration_types.go `ManagedJobsNamespaceSelector` @ v0.19.2).
* The selector must not match `kube-system` nor Kueue's own namespace (pkg/config/validation.go
  `validateManagedJobsNamespaceSelector`, v0.14.0 .. v0.19.2); the pod integration requires a selector (ibid.
  `validatePodIntegrationOptions`).
* LocalQueue defaulting: a job created without a queue name in a namespace that has a LocalQueue named `default`
  gets `kueue.x-k8s.io/queue-name: default` (pkg/controller/constants/constants.go `DefaultLocalQueueName`,
  jobframework/defaults.go `ApplyDefaultLocalQueue`). Feature gate `LocalQueueDefaulting`: alpha v0.10, beta and on
  by default from v0.12, GA from v0.17 (pkg/features/kube_features.go @ v0.18.6), removed in v0.19 where it is
  always on (v0.19.2 has no gate and defaults unconditionally).
"""

from __future__ import annotations

from typing import Iterable

from gkecap.components.issues import Issue
from gkecap.components.kueue_api.releases import parse_kueue_release

MANAGE_JOBS_WITHOUT_QUEUE_NAME_SINCE = (0, 9, 0)
MANAGED_JOBS_NAMESPACE_SELECTOR_SINCE = (0, 10, 0)
LOCAL_QUEUE_DEFAULTING_SINCE = (0, 12, 0)  # on by default from here (beta), always on from v0.19
DEFAULT_LOCAL_QUEUE = "default"
NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name"  # set by the API server on every namespace (Kubernetes >= 1.22)
KUBE_SYSTEM = "kube-system"


def _since(version: str, release: tuple[int, int, int]) -> bool:
    parsed = parse_kueue_release(version)
    return parsed is not None and parsed >= release


def supports_namespace_scoped_management(version: str) -> bool:
    """Whether Kueue `version` has both `manageJobsWithoutQueueName` and `managedJobsNamespaceSelector`."""
    return _since(version, MANAGE_JOBS_WITHOUT_QUEUE_NAME_SINCE) and _since(version, MANAGED_JOBS_NAMESPACE_SELECTOR_SINCE)


def supports_default_local_queue(version: str) -> bool:
    """Whether Kueue `version` labels unlabelled jobs with the `default` LocalQueue of their namespace (without
    a feature gate to set)."""
    return _since(version, LOCAL_QUEUE_DEFAULTING_SINCE)


def team_namespace_selector(namespaces: Iterable[str]) -> dict | None:
    """A label selector matching exactly `namespaces`, by the name label the API server sets (a namespace cannot
    pose as another); None when there is none (`In` needs at least one value). The one selector of "the team
    namespaces" for Kueue's configuration and anything else that must match the same set."""
    names = sorted(set(namespaces))
    if not names:
        return None
    return {"matchExpressions": [{"key": NAMESPACE_NAME_LABEL, "operator": "In", "values": names}]}


def selector_issues(path: str, namespaces: Iterable[str], kueue_namespace: str) -> list[Issue]:
    """What Kueue's configuration check refuses in the selector of `namespaces`: one matching kube-system or
    Kueue's own namespace."""
    return [Issue(path, f"would match the {ns!r} namespace, which Kueue refuses to manage; remove it from the teams' "
                        "namespaces") for ns in (KUBE_SYSTEM, kueue_namespace) if ns in set(namespaces)]


def job_management(version: str, namespaces: Iterable[str]) -> dict:
    """The Configuration fields that make Kueue manage every job in `namespaces` and nothing elsewhere ({} when
    there is no namespace or the release lacks the fields)."""
    selector = team_namespace_selector(namespaces)
    if selector is None or not supports_namespace_scoped_management(version):
        return {}
    return {"manageJobsWithoutQueueName": True, "managedJobsNamespaceSelector": selector}
