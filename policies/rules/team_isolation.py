"""Team isolation: which namespaces a ClusterQueue admits.

Kueue: `namespaceSelector` "defaults to null which is a nothing selector (no namespaces eligible). If set
to an empty selector `{}`, then all namespaces are eligible." (FACTS D [S2 clusterqueue_types.go])
So `{}` lets every team's LocalQueue submit into (and spend) this queue's quota.
"""

from __future__ import annotations

from collections.abc import Mapping
from fnmatch import fnmatchcase
from typing import Any

from policies.resource_view import ResourceView
from policies.rules.known_values import at, has_unknown
from policies.rules.kueue_props import display_name, kueue_kind, object_name

# Config of team-isolation: ClusterQueues meant to be shared by every namespace (names or globs).
SHARED_QUEUES_SCHEMA = {
    "sharedQueues": {
        "type": "array",
        "items": {"type": "string"},
        "default": [],
        "description": "ClusterQueue names (or globs such as 'shared-*') allowed to admit every namespace "
        "(namespaceSelector: {}).",
    }
}


def selects_every_namespace(selector: Any) -> bool:
    """True for a label selector with no requirement at all ({} or empty matchLabels/matchExpressions)."""
    if not isinstance(selector, Mapping) or has_unknown(selector):
        return False
    return not selector.get("matchLabels") and not selector.get("matchExpressions")


def check_team_isolation(resource: ResourceView, config: dict) -> list[str]:
    """team-isolation: a ClusterQueue admits every namespace only when the config allows it."""
    if kueue_kind(resource) != "ClusterQueue":
        return []
    selector = at(resource.props, "spec.namespaceSelector")
    if not selects_every_namespace(selector):
        return []
    name = object_name(resource)
    shared = [p for p in config.get("sharedQueues") or [] if isinstance(p, str)]
    if name is not None and any(fnmatchcase(name, pattern) for pattern in shared):
        return []
    return [
        f"ClusterQueue {display_name(resource)!r} has spec.namespaceSelector {selector!r}, which admits every "
        "namespace: any team's LocalQueue can point at it and use its quota. Select the team's namespaces "
        "(e.g. matchLabels {kubernetes.io/metadata.name: <team namespace>}), or, if the queue is meant to be "
        "shared, list it in this policy's config sharedQueues."
    ]


def check_namespace_selector_present(resource: ResourceView, config: dict) -> list[str]:
    """cluster-queue-namespace-selector: a ClusterQueue without namespaceSelector admits no namespace."""
    if kueue_kind(resource) != "ClusterQueue":
        return []
    spec = resource.props.get("spec")
    if not isinstance(spec, Mapping) or spec.get("namespaceSelector") is not None:
        return []
    return [
        f"ClusterQueue {display_name(resource)!r} has no spec.namespaceSelector, which Kueue reads as a nothing "
        "selector: no namespace can submit to it. Set namespaceSelector to the team's namespaces "
        "(e.g. matchLabels {kubernetes.io/metadata.name: <team namespace>})."
    ]
