"""Convenience constructors: plain dicts ready to be a CustomResource's inputs ({apiVersion, kind, metadata,
spec}), camelCase, quantities as given (int or Kubernetes quantity string).

Every builder validates its result with validate_kueue_object and raises KueueValidationError listing all
violations, so a bad object is never returned (nothing half-built reaches `pulumi up`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from gkecap.components.issues import InvalidInput, Issue
from gkecap.components.kueue_api.admission_check import DWS_PROVISIONING_CLASS, PROVISIONING_REQUEST_CONTROLLER
from gkecap.components.kueue_api.fields import GROUP, V1BETA1, V1BETA2, KueueModel
from gkecap.components.kueue_api.multikueue import MULTIKUEUE_CONTROLLER
from gkecap.components.kueue_api.objects import manifest
from gkecap.components.kueue_api.validation import KueueViolation, validate_kueue_object

QuantityLike = int | str


class KueueValidationError(InvalidInput):
    """A built object Kueue would reject: one issue per violation (field path, message and rule id);
    `.violations` keeps Kueue's own detail (rule id, layer)."""

    def __init__(self, kind: str, name: str, violations: list[KueueViolation]):
        self.violations = violations
        super().__init__([Issue(v.path, f"{v.message} [{v.rule}]", v.rule) for v in violations],
                         subject=f"{kind} {name!r}")

    def __str__(self) -> str:
        lines = "\n".join(f"  {issue}" for issue in self.issues)
        return f"{self.subject} would be rejected by Kueue:\n{lines}"


@dataclass(frozen=True)
class Quota:
    """Quota of one resource in one flavor: nominal, and optional borrowing/lending limits."""

    nominal: QuantityLike
    borrowing_limit: QuantityLike | None = None
    lending_limit: QuantityLike | None = None

    def to_dict(self, resource: str) -> dict[str, Any]:
        quota: dict[str, Any] = {"name": resource, "nominalQuota": self.nominal}
        if self.borrowing_limit is not None:
            quota["borrowingLimit"] = self.borrowing_limit
        if self.lending_limit is not None:
            quota["lendingLimit"] = self.lending_limit
        return quota


def _plain(value: KueueModel | Mapping[str, Any] | None) -> dict[str, Any] | None:
    if value is None:
        return None
    return value.to_dict() if isinstance(value, KueueModel) else dict(value)


def _checked(obj: dict[str, Any]) -> dict[str, Any]:
    violations = validate_kueue_object(obj)
    if violations:
        raise KueueValidationError(obj["kind"], obj["metadata"]["name"], violations)
    return obj


def _spec(**fields: Any) -> dict[str, Any]:
    return {k: v for k, v in fields.items() if v is not None}


def _weight(weight: QuantityLike | None) -> dict[str, Any] | None:
    return None if weight is None else {"weight": weight}


def flavor_quotas(name: str, quotas: Mapping[str, Quota | QuantityLike]) -> dict[str, Any]:
    """One flavor of a resource group: {resource: Quota(...) or nominal quantity}, in coveredResources order."""
    resources = [(q if isinstance(q, Quota) else Quota(q)).to_dict(resource) for resource, q in quotas.items()]
    return {"name": name, "resources": resources}


def resource_group(flavors: Sequence[Mapping[str, Any]], covered_resources: Sequence[str] | None = None) \
        -> dict[str, Any]:
    """A resource group; coveredResources default to the first flavor's resources, in order."""
    flavor_list = [dict(f) for f in flavors]
    if covered_resources is None:
        covered_resources = [r["name"] for r in flavor_list[0]["resources"]] if flavor_list else []
    return {"coveredResources": list(covered_resources), "flavors": flavor_list}


def _full_api_version(api_version: str) -> str:
    """Accept both "v1beta2" and "kueue.x-k8s.io/v1beta2", as `manifest` does."""
    return api_version if "/" in api_version else f"{GROUP}/{api_version}"


def cluster_queue(name: str, *, resource_groups: Sequence[Mapping[str, Any]] = (), cohort: str | None = None,
                  namespace_selector: Mapping[str, Any] | None = None, queueing_strategy: str | None = None,
                  preemption: KueueModel | Mapping[str, Any] | None = None,
                  flavor_fungibility: KueueModel | Mapping[str, Any] | None = None,
                  fair_sharing_weight: QuantityLike | None = None,
                  admission_checks: Mapping[str, Sequence[str] | None] | None = None,
                  stop_policy: str | None = None, labels: Mapping[str, str] | None = None,
                  api_version: str = V1BETA2) -> dict[str, Any]:
    """A ClusterQueue. `admission_checks` maps an AdmissionCheck name to the flavors it applies to (None: all)."""
    strategy = None
    if admission_checks:
        strategy = {"admissionChecks": [_spec(name=check, onFlavors=list(on) if on is not None else None)
                                        for check, on in admission_checks.items()]}
    v1beta1 = _full_api_version(api_version) == V1BETA1  # v1beta1 calls the field `cohort`
    spec = _spec(resourceGroups=[dict(g) for g in resource_groups] or None,
                 cohortName=None if v1beta1 else cohort,
                 cohort=cohort if v1beta1 else None,
                 namespaceSelector=dict(namespace_selector) if namespace_selector is not None else None,
                 queueingStrategy=queueing_strategy, preemption=_plain(preemption),
                 flavorFungibility=_plain(flavor_fungibility), fairSharing=_weight(fair_sharing_weight),
                 admissionChecksStrategy=strategy, stopPolicy=stop_policy)
    return _checked(manifest("ClusterQueue", name, spec, api_version=api_version, labels=labels))


def cohort(name: str, *, parent: str | None = None, resource_groups: Sequence[Mapping[str, Any]] = (),
           fair_sharing_weight: QuantityLike | None = None, labels: Mapping[str, str] | None = None,
           api_version: str = V1BETA2) -> dict[str, Any]:
    """A Cohort, optionally in a parent Cohort and with quota of its own to share."""
    spec = _spec(parentName=parent, resourceGroups=[dict(g) for g in resource_groups] or None,
                 fairSharing=_weight(fair_sharing_weight))
    return _checked(manifest("Cohort", name, spec, api_version=api_version, labels=labels))


def local_queue(name: str, namespace: str, cluster_queue: str, *, stop_policy: str | None = None,
                fair_sharing_weight: QuantityLike | None = None, labels: Mapping[str, str] | None = None,
                api_version: str = V1BETA2) -> dict[str, Any]:
    """A LocalQueue in `namespace` feeding `cluster_queue`."""
    spec = _spec(clusterQueue=cluster_queue, stopPolicy=stop_policy, fairSharing=_weight(fair_sharing_weight))
    return _checked(manifest("LocalQueue", name, spec, api_version=api_version, namespace=namespace, labels=labels))


def resource_flavor(name: str, *, node_labels: Mapping[str, str] | None = None,
                    node_taints: Sequence[Mapping[str, Any]] | None = None,
                    tolerations: Sequence[Mapping[str, Any]] | None = None, topology_name: str | None = None,
                    labels: Mapping[str, str] | None = None, api_version: str = V1BETA2) -> dict[str, Any]:
    """A ResourceFlavor selecting nodes by `node_labels` (taints/tolerations as Kubernetes dicts)."""
    spec = _spec(nodeLabels=dict(node_labels) if node_labels else None,
                 nodeTaints=[dict(t) for t in node_taints] if node_taints else None,
                 tolerations=[dict(t) for t in tolerations] if tolerations else None, topologyName=topology_name)
    return _checked(manifest("ResourceFlavor", name, spec, api_version=api_version, labels=labels))


def admission_check(name: str, controller_name: str, *, parameters: tuple[str, str, str] | None = None,
                    labels: Mapping[str, str] | None = None, api_version: str = V1BETA2) -> dict[str, Any]:
    """An AdmissionCheck; `parameters` is (apiGroup, kind, name) of its configuration object."""
    params = None
    if parameters is not None:
        group, kind, ref = parameters
        params = {"apiGroup": group, "kind": kind, "name": ref}
    spec = _spec(controllerName=controller_name, parameters=params)
    return _checked(manifest("AdmissionCheck", name, spec, api_version=api_version, labels=labels))


def provisioning_admission_check(name: str, config_name: str, *, labels: Mapping[str, str] | None = None,
                                 api_version: str = V1BETA2) -> dict[str, Any]:
    """The ProvisioningRequest admission check for DWS, configured by ProvisioningRequestConfig `config_name`."""
    # FACTS D [S14]: controllerName kueue.x-k8s.io/provisioning-request, parameters -> ProvisioningRequestConfig
    return admission_check(name, PROVISIONING_REQUEST_CONTROLLER,
                           parameters=(GROUP, "ProvisioningRequestConfig", config_name), labels=labels,
                           api_version=api_version)


def multikueue_admission_check(name: str, config_name: str, *, labels: Mapping[str, str] | None = None,
                               api_version: str = V1BETA2) -> dict[str, Any]:
    """The MultiKueue admission check, dispatching to the clusters of MultiKueueConfig `config_name`."""
    # multikueue_types.go MultiKueueControllerName; parameters -> MultiKueueConfig (setup_multikueue.md, v0.19.2)
    return admission_check(name, MULTIKUEUE_CONTROLLER, parameters=(GROUP, "MultiKueueConfig", config_name),
                           labels=labels, api_version=api_version)


def multikueue_config(name: str, clusters: Sequence[str], *, labels: Mapping[str, str] | None = None,
                      api_version: str = V1BETA2) -> dict[str, Any]:
    """A MultiKueueConfig: the MultiKueueClusters a workload may go to, most preferred first."""
    return _checked(manifest("MultiKueueConfig", name, _spec(clusters=list(clusters)), api_version=api_version,
                             labels=labels))


def multikueue_cluster(name: str, secret: str, *, labels: Mapping[str, str] | None = None,
                       api_version: str = V1BETA2) -> dict[str, Any]:
    """A MultiKueueCluster reaching its worker with the kubeconfig in Secret `secret` (key `kubeconfig`) of the
    namespace Kueue runs in. v1beta2 puts it under clusterSource, v1beta1 directly under spec."""
    kube_config = {"locationType": "Secret", "location": secret}
    spec = {"kubeConfig": kube_config} if _full_api_version(api_version) == V1BETA1 else \
        {"clusterSource": {"kubeConfig": kube_config}}
    return _checked(manifest("MultiKueueCluster", name, spec, api_version=api_version, labels=labels))


def provisioning_request_config(name: str, *, provisioning_class_name: str = DWS_PROVISIONING_CLASS,
                                managed_resources: Sequence[str] | None = None,
                                parameters: Mapping[str, str] | None = None,
                                retry_strategy: Mapping[str, int] | None = None,
                                pod_set_updates_node_selector: Sequence[tuple[str, str]] | None = None,
                                pod_set_merge_policy: str | None = None, labels: Mapping[str, str] | None = None,
                                api_version: str = V1BETA2) -> dict[str, Any]:
    """A ProvisioningRequestConfig (defaults to GKE's queued-provisioning.gke.io class, FACTS D [S14]).
    `pod_set_updates_node_selector` is [(node label key, provisioning class detail)], e.g. xpk's
    [("autoscaling.gke.io/provisioning-request", "ResizeRequestName")] (FACTS D [S1])."""
    updates = None
    if pod_set_updates_node_selector:
        updates = {"nodeSelector": [{"key": key, "valueFromProvisioningClassDetail": detail}
                                    for key, detail in pod_set_updates_node_selector]}
    spec = _spec(provisioningClassName=provisioning_class_name,
                 managedResources=list(managed_resources) if managed_resources else None,
                 parameters=dict(parameters) if parameters else None,
                 retryStrategy=dict(retry_strategy) if retry_strategy else None, podSetUpdates=updates,
                 podSetMergePolicy=pod_set_merge_policy)
    return _checked(manifest("ProvisioningRequestConfig", name, spec, api_version=api_version, labels=labels))


def topology(name: str, levels: Sequence[str], *, labels: Mapping[str, str] | None = None,
             api_version: str = V1BETA2) -> dict[str, Any]:
    """A Topology from node labels, highest level first (kubernetes.io/hostname, if used, last)."""
    spec = {"levels": [{"nodeLabel": level} for level in levels]}
    return _checked(manifest("Topology", name, spec, api_version=api_version, labels=labels))


def workload_priority_class(name: str, value: int, description: str | None = None, *,
                            labels: Mapping[str, str] | None = None, api_version: str = V1BETA2) -> dict[str, Any]:
    """A WorkloadPriorityClass (top-level value and description, no spec)."""
    return _checked(manifest("WorkloadPriorityClass", name, None, api_version=api_version, labels=labels,
                             value=value, description=description))
