"""ResourceFlavor and Topology spec models (shared/kueue-crds resourceflavors.yaml, topologies.yaml).

Taint effects and toleration operators are plain strings in the schema: the CRD checks them with CEL
(R-RF-7, R-RF-8), see gkecap.components.kueue_api.cel_rules.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from gkecap.components.kueue_api.fields import (
    DateTime, DnsSubdomain, Int64, KueueModel, OmitEmpty, label_key_format,
)

StrictStr = Annotated[str, Field(strict=True)]


class Taint(KueueModel):
    default_rule = "R-RF-6"

    key: StrictStr
    effect: StrictStr
    value: Annotated[StrictStr | None, OmitEmpty] = None
    time_added: DateTime | None = None


class Toleration(KueueModel):
    default_rule = "R-RF-6"

    key: Annotated[StrictStr | None, OmitEmpty] = None
    operator: Annotated[StrictStr | None, OmitEmpty] = None
    value: Annotated[StrictStr | None, OmitEmpty] = None
    effect: Annotated[StrictStr | None, OmitEmpty] = None
    toleration_seconds: Int64 | None = None


class ResourceFlavorSpec(KueueModel):
    """kueue.x-k8s.io ResourceFlavor spec (identical in v1beta1 and v1beta2)."""

    default_rule = "R-RF-6"

    node_labels: Annotated[dict[str, StrictStr], Field(max_length=8)] | None = None
    node_taints: Annotated[list[Taint], Field(max_length=8)] | None = None
    tolerations: Annotated[list[Toleration], Field(max_length=8)] | None = None
    topology_name: DnsSubdomain | None = None


class TopologyLevel(KueueModel):
    default_rule = "R-TOPO-1"

    node_label: label_key_format(316)


class TopologySpec(KueueModel):
    """kueue.x-k8s.io Topology spec (v1beta1 and v1beta2 share the schema; only the update rule differs)."""

    default_rule = "R-TOPO-1"

    levels: Annotated[list[TopologyLevel], Field(min_length=1, max_length=16)]
