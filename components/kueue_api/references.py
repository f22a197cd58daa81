"""Names a Kueue object uses to point at other objects, for advisory cross-object checks.

`must_exist` is False for cohorts: a cohortName or parentName with no Cohort object makes an implicit Cohort
(KUEUE_VALIDATION.md, Cohort: pkg/cache/hierarchy/manager.go:120), so its absence is not a mistake.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gkecap.components.kueue_api.access import get_dict, get_list, get_str
from gkecap.components.kueue_api.fields import GROUP
from gkecap.components.kueue_api.validation import kueue_kind


@dataclass(frozen=True)
class Reference:
    kind: str
    name: str
    path: str
    must_exist: bool = True
    api_group: str = GROUP


def _cluster_queue(spec: dict[str, Any], version: str) -> list[Reference]:
    refs = []
    for i, group in enumerate(get_list(spec, "resourceGroups")):
        for j, flavor in enumerate(get_list(group, "flavors")):
            name = get_str(flavor, "name")
            if name:
                refs.append(Reference("ResourceFlavor", name, f"spec.resourceGroups[{i}].flavors[{j}].name"))
    cohort_field = "cohortName" if version == "v1beta2" else "cohort"
    cohort = get_str(spec, cohort_field)
    if cohort:
        refs.append(Reference("Cohort", cohort, f"spec.{cohort_field}", must_exist=False))
    for i, rule in enumerate(get_list(get_dict(spec, "admissionChecksStrategy"), "admissionChecks")):
        name = get_str(rule, "name")
        if name:
            refs.append(Reference("AdmissionCheck", name, f"spec.admissionChecksStrategy.admissionChecks[{i}].name"))
    if version == "v1beta1":
        for i, name in enumerate(get_list(spec, "admissionChecks")):
            if isinstance(name, str) and name:
                refs.append(Reference("AdmissionCheck", name, f"spec.admissionChecks[{i}]"))
    return refs


def _cohort(spec: dict[str, Any], version: str) -> list[Reference]:
    refs = []
    parent = get_str(spec, "parentName")
    if parent:
        refs.append(Reference("Cohort", parent, "spec.parentName", must_exist=False))
    for i, group in enumerate(get_list(spec, "resourceGroups")):
        for j, flavor in enumerate(get_list(group, "flavors")):
            name = get_str(flavor, "name")
            if name:
                refs.append(Reference("ResourceFlavor", name, f"spec.resourceGroups[{i}].flavors[{j}].name"))
    return refs


def _local_queue(spec: dict[str, Any], version: str) -> list[Reference]:
    name = get_str(spec, "clusterQueue")
    return [Reference("ClusterQueue", name, "spec.clusterQueue")] if name else []


def _resource_flavor(spec: dict[str, Any], version: str) -> list[Reference]:
    name = get_str(spec, "topologyName")
    return [Reference("Topology", name, "spec.topologyName")] if name else []


def _admission_check(spec: dict[str, Any], version: str) -> list[Reference]:
    params = get_dict(spec, "parameters")
    kind, name, group = get_str(params, "kind"), get_str(params, "name"), get_str(params, "apiGroup")
    if kind and name and group:
        return [Reference(kind, name, "spec.parameters.name", api_group=group)]
    return []


def _multikueue_config(spec: dict[str, Any], version: str) -> list[Reference]:
    return [Reference("MultiKueueCluster", name, f"spec.clusters[{i}]")
            for i, name in enumerate(get_list(spec, "clusters")) if isinstance(name, str) and name]


_FINDERS = {"ClusterQueue": _cluster_queue, "Cohort": _cohort, "LocalQueue": _local_queue,
            "ResourceFlavor": _resource_flavor, "AdmissionCheck": _admission_check,
            "MultiKueueConfig": _multikueue_config}


def references(obj: Any) -> list[Reference]:
    """The objects `obj` refers to by name (ResourceFlavors, Cohorts, AdmissionChecks, ClusterQueue, Topology,
    the ProvisioningRequestConfig of an AdmissionCheck); [] for other objects. Tolerates malformed input."""
    identified = kueue_kind(obj)
    spec = obj.get("spec") if identified else None
    if identified is None or not isinstance(spec, dict) or identified[0] not in _FINDERS:
        return []
    kind, version = identified
    return _FINDERS[kind](spec, version)
