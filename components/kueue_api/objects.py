"""Whole Kueue objects (apiVersion, kind, metadata, spec) per kind and served version, and `manifest()`.

The registry `OBJECT_MODELS[(kind, version)]` is what validation dispatches on; a kind of kueue.x-k8s.io not in
KINDS (Workload, ...) is outside this package's scope.
"""

from __future__ import annotations

from typing import Annotated, Any, Mapping

from pydantic import Field, StrictStr

from gkecap.components.kueue_api.admission_check import (
    AdmissionCheckSpec, AdmissionCheckSpecV1Beta1, ProvisioningRequestConfigSpec,
    ProvisioningRequestConfigSpecV1Beta1,
)
from gkecap.components.kueue_api.cluster_queue import ClusterQueueSpec, ClusterQueueSpecV1Beta1
from gkecap.components.kueue_api.cohort import KueueCohortSpec, LocalQueueSpec
from gkecap.components.kueue_api.fields import GROUP, V1BETA2, Int32, KueueModel
from gkecap.components.kueue_api.multikueue import (
    MultiKueueClusterSpec, MultiKueueClusterSpecV1Beta1, MultiKueueConfigSpec, MultiKueueConfigSpecV1Beta1,
)
from gkecap.components.kueue_api.resource_flavor import ResourceFlavorSpec, TopologySpec

SERVED_VERSIONS = ("v1beta1", "v1beta2")  # shared/kueue-crds/SOURCE.txt: every kind serves both, stores v1beta2
NAMESPACED_KINDS = frozenset({"LocalQueue"})


class _KueueObject(KueueModel):
    api_version: str
    kind: str
    metadata: dict[str, Any] | None = None
    status: Any = None  # dropped by the API server on create (status subresource); not validated


def _object_model(kind: str, spec_model: type[KueueModel] | None, rule: str) -> type[_KueueObject]:
    fields: dict[str, Any] = {}
    if spec_model is not None:
        fields["spec"] = (spec_model | None, None)
    model = type(kind, (_KueueObject,), {"__annotations__": {k: v[0] for k, v in fields.items()},
                                        **{k: v[1] for k, v in fields.items()}, "default_rule": rule,
                                        "__module__": __name__})
    return model


class WorkloadPriorityClass(_KueueObject):
    """kueue.x-k8s.io WorkloadPriorityClass: no spec, top-level value and description."""

    field_rules = {"value": "R-WPC-1", "description": "R-WPC-2"}

    value: Int32
    description: Annotated[StrictStr, Field(min_length=0, max_length=2048)] | None = None


class WorkloadPriorityClassV1Beta1(WorkloadPriorityClass):
    """v1beta1 does not bound the description (CRD workloadpriorityclasses.yaml v1beta1)."""

    description: Annotated[StrictStr, Field(min_length=0)] | None = None


_SPECS: dict[tuple[str, str], type[KueueModel]] = {
    ("ClusterQueue", "v1beta2"): ClusterQueueSpec,
    ("ClusterQueue", "v1beta1"): ClusterQueueSpecV1Beta1,
    ("Cohort", "v1beta2"): KueueCohortSpec,
    ("Cohort", "v1beta1"): KueueCohortSpec,
    ("LocalQueue", "v1beta2"): LocalQueueSpec,
    ("LocalQueue", "v1beta1"): LocalQueueSpec,
    ("ResourceFlavor", "v1beta2"): ResourceFlavorSpec,
    ("ResourceFlavor", "v1beta1"): ResourceFlavorSpec,
    ("AdmissionCheck", "v1beta2"): AdmissionCheckSpec,
    ("AdmissionCheck", "v1beta1"): AdmissionCheckSpecV1Beta1,
    ("ProvisioningRequestConfig", "v1beta2"): ProvisioningRequestConfigSpec,
    ("ProvisioningRequestConfig", "v1beta1"): ProvisioningRequestConfigSpecV1Beta1,
    ("Topology", "v1beta2"): TopologySpec,
    ("Topology", "v1beta1"): TopologySpec,
    ("MultiKueueCluster", "v1beta2"): MultiKueueClusterSpec,
    ("MultiKueueCluster", "v1beta1"): MultiKueueClusterSpecV1Beta1,
    ("MultiKueueConfig", "v1beta2"): MultiKueueConfigSpec,
    ("MultiKueueConfig", "v1beta1"): MultiKueueConfigSpecV1Beta1,
}
_SPEC_RULE = {"ClusterQueue": "R-SCHEMA-1", "Cohort": "R-SCHEMA-1", "LocalQueue": "R-SCHEMA-1",
              "ResourceFlavor": "R-RF-6", "AdmissionCheck": "R-SCHEMA-1", "ProvisioningRequestConfig": "R-SCHEMA-1",
              "Topology": "R-TOPO-1", "MultiKueueCluster": "R-MKC-1", "MultiKueueConfig": "R-MKCFG-1"}

OBJECT_MODELS: dict[tuple[str, str], type[_KueueObject]] = {
    (kind, version): _object_model(kind, spec, _SPEC_RULE[kind]) for (kind, version), spec in _SPECS.items()
}
OBJECT_MODELS[("WorkloadPriorityClass", "v1beta1")] = WorkloadPriorityClassV1Beta1
OBJECT_MODELS[("WorkloadPriorityClass", "v1beta2")] = WorkloadPriorityClass

KINDS: tuple[str, ...] = tuple(sorted({kind for kind, _ in OBJECT_MODELS}))


def spec_model(kind: str, api_version: str = V1BETA2) -> type[KueueModel]:
    """The spec model of a kind at an apiVersion (`kueue.x-k8s.io/v1beta2` or just `v1beta2`)."""
    return _SPECS[(kind, api_version.rsplit("/", 1)[-1])]


def manifest(kind: str, name: str, spec: KueueModel | Mapping[str, Any] | None = None, *,
             api_version: str = V1BETA2, namespace: str | None = None, labels: Mapping[str, str] | None = None,
             annotations: Mapping[str, str] | None = None, **top_level: Any) -> dict[str, Any]:
    """A plain dict ready to be a CustomResource: {apiVersion, kind, metadata, spec}; spec fields as set."""
    metadata: dict[str, Any] = {"name": name}
    if namespace is not None:
        metadata["namespace"] = namespace
    if labels:
        metadata["labels"] = dict(labels)
    if annotations:
        metadata["annotations"] = dict(annotations)
    obj: dict[str, Any] = {"apiVersion": api_version if "/" in api_version else f"{GROUP}/{api_version}",
                           "kind": kind, "metadata": metadata}
    if spec is not None:
        obj["spec"] = spec.to_dict() if isinstance(spec, KueueModel) else dict(spec)
    obj.update({k: v for k, v in top_level.items() if v is not None})
    return obj

