"""Recognising Kueue objects among a stack's resources and reading their quotas.

pulumi-kubernetes registers a CustomResource (and every object a yaml ConfigGroup or a Helm chart
creates) under the type token `kubernetes:<apiVersion>:<kind>`, e.g.
`kubernetes:kueue.x-k8s.io/v1beta2:ClusterQueue` (pulumi_kubernetes/apiextensions/CustomResource.py);
a CustomResourcePatch appends `Patch` to the kind. Inputs are {apiVersion, kind, metadata, spec}.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from fractions import Fraction
from typing import Any

from gkecap.components.kueue_api import GROUP, MULTIKUEUE_CONTROLLER
from gkecap.components.k8s.quantity import QuantityError, parse_quantity
from gkecap.policies.resource_view import ResourceView, is_unknown
from gkecap.policies.rules.known_values import at, known_str


def kueue_type(token: str) -> tuple[str, str] | None:
    """(version, kind) of a Kueue object's type token; None for anything else (patches included)."""
    parts = token.split(":")
    if len(parts) != 3 or parts[0] != "kubernetes":
        return None
    group, _, version = parts[1].partition("/")
    kind = parts[2]
    if group != GROUP or not version or kind.endswith("Patch") or kind.endswith("List"):
        return None
    return version, kind


def is_kueue_token(token: str) -> bool:
    return kueue_type(token) is not None


def kueue_kind(resource: ResourceView) -> str | None:
    found = kueue_type(resource.type)
    return found[1] if found else None


def object_name(resource: ResourceView) -> str | None:
    """metadata.name when known (an auto-named object's name is known only after creation)."""
    return known_str(at(resource.props, "metadata.name"))


def display_name(resource: ResourceView) -> str:
    return object_name(resource) or resource.name


def objects_of(resources: list[ResourceView], kind: str) -> Iterator[ResourceView]:
    return (r for r in resources if kueue_kind(r) == kind)


def quantity(raw: Any) -> Fraction | None:
    """Exact value of a Kubernetes quantity; None when absent, unknown or malformed."""
    if raw is None or is_unknown(raw):
        return None
    try:
        return parse_quantity(raw).value
    except QuantityError:
        return None


def resource_groups(spec: Any) -> list[Mapping]:
    groups = at(spec, "resourceGroups")
    return [g for g in groups if isinstance(g, Mapping)] if isinstance(groups, list) else []


def flavor_quotas(spec: Any) -> Iterator[tuple[str, str, Any]]:
    """(flavor name, resource name, nominalQuota as written) for every quota of a ClusterQueue or Cohort spec."""
    for group in resource_groups(spec):
        flavors = group.get("flavors")
        if not isinstance(flavors, list):
            continue
        for flavor in flavors:
            if not isinstance(flavor, Mapping):
                continue
            flavor_name = known_str(flavor.get("name"))
            resources = flavor.get("resources")
            if flavor_name is None or not isinstance(resources, list):
                continue
            for resource in resources:
                if isinstance(resource, Mapping) and known_str(resource.get("name")) is not None:
                    yield flavor_name, resource["name"], resource.get("nominalQuota")


def number_text(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def _dispatches(resources: list[ResourceView]) -> bool:
    """Whether these Kueue objects are a MultiKueue manager's: an AdmissionCheck of Kueue's MultiKueue controller."""
    return any(known_str(at(r.props, "spec.controllerName")) == MULTIKUEUE_CONTROLLER
               for r in resources if kueue_kind(r) == "AdmissionCheck")


def capacity_scopes(resources: list[ResourceView]) -> list[list[ResourceView]]:
    """The stack's resources per cluster whose Kueue quotas local nodes back: the Kueue objects of one Kubernetes
    provider (one cluster) with every other resource, one list per provider. A MultiKueue manager's objects are
    left out: its quotas admit work that runs on the workers (kueue.sigs.k8s.io/docs/concepts/multikueue), whose
    own queues are judged against their pools. One provider and no manager: the resources as they are."""
    scopes: dict[str, list[ResourceView]] = {}
    others: list[ResourceView] = []
    for resource in resources:
        if kueue_kind(resource) is None:
            others.append(resource)
        else:
            scopes.setdefault(resource.provider.urn if resource.provider is not None else "", []).append(resource)
    if len(scopes) <= 1:
        only = next(iter(scopes.values()), [])
        return [] if only and _dispatches(only) else [resources]
    return [others + objects for objects in scopes.values() if not _dispatches(objects)]
