"""local-queue-namespace-admitted: a LocalQueue lives in a namespace its ClusterQueue admits.

Kueue admits a workload only when the namespace of its LocalQueue matches the ClusterQueue's `namespaceSelector`
(FACTS D [S2 clusterqueue_types.go]: null selects no namespace, `{}` every namespace); otherwise the workloads
of that LocalQueue stay pending for ever, with the queue's quota unused. Every Namespace gets the label
`kubernetes.io/metadata.name: <name>` from the API server (https://kubernetes.io/docs/reference/labels-annotations-taints/
#kubernetes-io-metadata-name), so a selector on that label is decided even for a namespace outside the stack;
one on other labels is decided only for a Namespace of the stack whose labels are known.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gkecap.components.k8s.label_selector import selects
from gkecap.policies.resource_view import ResourceView
from gkecap.policies.rules.known_values import at, has_unknown, known_str
from gkecap.policies.rules.kueue_props import display_name, kueue_kind, object_name

NAMESPACE_TYPE = "kubernetes:core/v1:Namespace"
NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name"  # set by the API server on every Namespace


def is_namespace_token(token: str) -> bool:
    return token == NAMESPACE_TYPE


def _namespace_labels(resources: list[ResourceView]) -> dict[str, Mapping[str, Any] | None]:
    """Namespace name -> its labels (None when unknown), for the Namespaces of the stack."""
    found: dict[str, Mapping[str, Any] | None] = {}
    for resource in resources:
        if resource.type != NAMESPACE_TYPE:
            continue
        name = known_str(at(resource.props, "metadata.name"))
        if name is None:
            continue
        labels = at(resource.props, "metadata.labels") or {}
        found[name] = labels if isinstance(labels, Mapping) and not has_unknown(labels) else None
    return found


def check_local_queue_admitted(resources: list[ResourceView], config: dict) -> list[tuple[str | None, str]]:
    """local-queue-namespace-admitted: a LocalQueue whose namespace its ClusterQueue's selector does not admit."""
    queues = {object_name(r): r for r in resources if kueue_kind(r) == "ClusterQueue" and object_name(r)}
    namespaces = _namespace_labels(resources)
    findings: list[tuple[str | None, str]] = []
    for local_queue in (r for r in resources if kueue_kind(r) == "LocalQueue"):
        namespace = known_str(at(local_queue.props, "metadata.namespace"))
        target = known_str(at(local_queue.props, "spec.clusterQueue"))
        cluster_queue = queues.get(target) if target else None
        if namespace is None or cluster_queue is None:
            continue  # no namespace written (the provider's default) or a queue of another stack: cannot tell
        selector = at(cluster_queue.props, "spec.namespaceSelector")
        if selector is None:
            continue  # cluster-queue-namespace-selector reports the nothing-selector on the ClusterQueue itself
        if has_unknown(selector):
            continue
        if namespace in namespaces:
            labels = namespaces[namespace]
            if labels is None:
                continue
            admitted = selects(selector, {**labels, NAMESPACE_NAME_LABEL: namespace})
        else:
            admitted = selects(selector, {NAMESPACE_NAME_LABEL: namespace}, known_keys={NAMESPACE_NAME_LABEL})
        if admitted is False:
            findings.append((
                local_queue.urn,
                f"LocalQueue {display_name(local_queue)!r} in namespace {namespace!r} points at ClusterQueue "
                f"{target!r}, whose spec.namespaceSelector {selector!r} does not admit that namespace: its workloads "
                "would never be admitted. Add the namespace to the ClusterQueue's selector, or move the LocalQueue.",
            ))
    return findings
