"""Small constructors of raw Kueue object dicts for the kueue_api tests (plain data, as a user would write)."""

from __future__ import annotations

import copy
from typing import Any

V1 = "kueue.x-k8s.io/v1beta1"
V2 = "kueue.x-k8s.io/v1beta2"


def obj(kind: str, spec: dict[str, Any] | None = None, *, name: str = "obj", version: str = V2,
        namespace: str | None = None, **top: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"apiVersion": version, "kind": kind, "metadata": {"name": name}}
    if namespace is not None:
        out["metadata"]["namespace"] = namespace
    if spec is not None:
        out["spec"] = spec
    out.update(top)
    return out


def rq(name: str, nominal: Any = 0, borrowing: Any = None, lending: Any = None) -> dict[str, Any]:
    quota = {"name": name, "nominalQuota": nominal}
    if borrowing is not None:
        quota["borrowingLimit"] = borrowing
    if lending is not None:
        quota["lendingLimit"] = lending
    return quota


def fq(name: str, *resources: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "resources": list(resources)}


def rg(*flavors: dict[str, Any], covered: list[str] | None = None) -> dict[str, Any]:
    """A resource group; coveredResources from the first flavor, like Kueue's test wrapper."""
    if covered is None:
        covered = [r["name"] for r in flavors[0]["resources"]] if flavors else []
    return {"coveredResources": covered, "flavors": list(flavors)}


def cq(spec: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
    return obj("ClusterQueue", spec if spec is not None else {}, **kw)


def to_v1beta1(o: dict[str, Any]) -> dict[str, Any]:
    """The same object as v1beta1 (ClusterQueue cohortName -> cohort; MultiKueueCluster clusterSource's fields
    -> spec)."""
    out = copy.deepcopy(o)
    out["apiVersion"] = V1
    spec = out.get("spec")
    if out["kind"] == "ClusterQueue" and isinstance(spec, dict) and "cohortName" in spec:
        spec["cohort"] = spec.pop("cohortName")
    if out["kind"] == "MultiKueueCluster" and isinstance(spec, dict) and isinstance(spec.get("clusterSource"), dict):
        spec.update(spec.pop("clusterSource"))
    return out


def cpu_mem_group(flavor: str = "default", cpu: Any = 9, memory: Any = "36Gi") -> dict[str, Any]:
    return rg(fq(flavor, rq("cpu", cpu), rq("memory", memory)))
