"""Team isolation: which namespaces a ClusterQueue admits.

Kueue: `namespaceSelector` "defaults to null which is a nothing selector (no namespaces eligible). If set
to an empty selector `{}`, then all namespaces are eligible." (FACTS D [S2 clusterqueue_types.go])
So `{}` lets every team's LocalQueue submit into (and spend) this queue's quota.
"""

from __future__ import annotations

from collections.abc import Mapping
from fnmatch import fnmatchcase
from typing import Any

from gkecap.policies.resource_view import ResourceView
from gkecap.policies.rules.known_values import at, has_unknown
from gkecap.policies.rules.kueue_props import display_name, kueue_kind, object_name

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


def _cohort_of(resource: ResourceView) -> str | None:
    spec = resource.props.get("spec")
    if not isinstance(spec, Mapping):
        return None
    cohort = spec.get("cohortName", spec.get("cohort"))  # v1beta2 cohortName, v1beta1 cohort
    return cohort if isinstance(cohort, str) and cohort else None


def _open_queues(resources: list[ResourceView], config: dict) -> tuple[list[ResourceView], int]:
    """ClusterQueues of the stack that admit every namespace (and are not allow-listed), and the queue count."""
    shared = [p for p in config.get("sharedQueues") or [] if isinstance(p, str)]
    queues = [r for r in resources if kueue_kind(r) == "ClusterQueue"]
    open_queues = []
    for queue in queues:
        if not selects_every_namespace(at(queue.props, "spec.namespaceSelector")):
            continue
        name = object_name(queue)
        if name is not None and any(fnmatchcase(name, pattern) for pattern in shared):
            continue
        open_queues.append(queue)
    return open_queues, len(queues)


def _open_queue_message(resource: ResourceView, why: str) -> str:
    selector = at(resource.props, "spec.namespaceSelector")
    return (
        f"ClusterQueue {display_name(resource)!r} has spec.namespaceSelector {selector!r}, which admits every "
        f"namespace: {why}. Select the team's namespaces (e.g. matchLabels "
        "{kubernetes.io/metadata.name: <team namespace>}), or, if the queue is meant to be shared, list it in "
        "this policy's config sharedQueues."
    )


def check_team_isolation(resources: list[ResourceView], config: dict) -> list[tuple[str | None, str]]:
    """team-isolation: a ClusterQueue admitting every namespace where other teams' queues or quota exist.

    Teams see each other's capacity when such a queue shares a cohort (it borrows the others' quota) or sits
    beside other ClusterQueues (any team's LocalQueue can point at it and spend its quota).
    """
    open_queues, total = _open_queues(resources, config)
    findings: list[tuple[str | None, str]] = []
    for queue in open_queues:
        cohort = _cohort_of(queue)
        if cohort is not None:
            why = f"any team's LocalQueue can point at it and borrow the quota of cohort {cohort!r}"
        elif total > 1:
            why = f"any team's LocalQueue can point at it and use its quota ({total} ClusterQueues in this stack)"
        else:
            continue
        findings.append((queue.urn, _open_queue_message(queue, why)))
    return findings


def check_single_open_queue(resources: list[ResourceView], config: dict) -> list[tuple[str | None, str]]:
    """team-isolation-single-queue: the only ClusterQueue of a stack, in no cohort, admits every namespace.

    That is the one-queue-for-everyone layout (xpk, Cluster Toolkit): not a leak between teams here, but a
    stack that adds a second team later inherits it, so it is advised.
    """
    open_queues, total = _open_queues(resources, config)
    if total != 1:
        return []
    return [
        (queue.urn, _open_queue_message(queue, "every namespace shares this one queue, so teams cannot be told apart"))
        for queue in open_queues
        if _cohort_of(queue) is None
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
