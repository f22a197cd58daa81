"""ResourceFlavor and Topology spec models (shared/kueue-crds resourceflavors.yaml, topologies.yaml).

Taint effects and toleration operators are plain strings in the schema: the CRD checks them with CEL
(R-RF-7, R-RF-8), see gkecap.components.kueue_api.cel_rules.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from gkecap.components.kueue_api.fields import (
    DateTime, DnsSubdomain, Int64, KueueModel, LabelKeyFormat316, OmitEmpty,
)

StrictStr = Annotated[str, Field(strict=True)]


class Taint(KueueModel):
    default_rule = "R-RF-6"

    key: StrictStr
    """Taint key."""
    effect: StrictStr
    """NoSchedule, PreferNoSchedule or NoExecute."""
    value: Annotated[StrictStr | None, OmitEmpty] = None
    """Taint value."""
    time_added: DateTime | None = None
    """When a NoExecute taint was added (RFC 3339)."""


class Toleration(KueueModel):
    default_rule = "R-RF-6"

    key: Annotated[StrictStr | None, OmitEmpty] = None
    """Taint key it tolerates; empty with Exists: every key."""
    operator: Annotated[StrictStr | None, OmitEmpty] = None
    """Equal (default) or Exists."""
    value: Annotated[StrictStr | None, OmitEmpty] = None
    """Taint value it tolerates (Equal)."""
    effect: Annotated[StrictStr | None, OmitEmpty] = None
    """Taint effect it tolerates; empty: every effect."""
    toleration_seconds: Int64 | None = None
    """How long a NoExecute taint is tolerated; unset: forever."""


class ResourceFlavorSpec(KueueModel):
    """kueue.x-k8s.io ResourceFlavor spec (identical in v1beta1 and v1beta2)."""

    default_rule = "R-RF-6"

    node_labels: Annotated[dict[str, StrictStr], Field(max_length=8)] | None = None
    """Labels of the flavor's nodes; admitted pods get them as node selectors."""
    node_taints: Annotated[list[Taint], Field(max_length=8)] | None = None
    """Taints of the flavor's nodes; a workload must tolerate them to be admitted on the flavor."""
    tolerations: Annotated[list[Toleration], Field(max_length=8)] | None = None
    """Tolerations added to the pods admitted on the flavor."""
    topology_name: DnsSubdomain | None = None
    """Topology of the flavor's nodes (topology-aware scheduling)."""


class TopologyLevel(KueueModel):
    default_rule = "R-TOPO-1"

    node_label: LabelKeyFormat316
    """Node label of the level, e.g. cloud.google.com/gke-nodepool."""


class TopologySpec(KueueModel):
    """kueue.x-k8s.io Topology spec (v1beta1 and v1beta2 share the schema; only the update rule differs)."""

    default_rule = "R-TOPO-1"

    levels: Annotated[list[TopologyLevel], Field(min_length=1, max_length=16)]
    """Levels from the widest to the narrowest (at most 16)."""
