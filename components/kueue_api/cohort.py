"""Cohort and LocalQueue spec models (shared/kueue-crds cohorts.yaml, localqueues.yaml; R-CO-3, R-LQ-2..3)."""

from __future__ import annotations

from typing import Annotated

from gkecap.components.kueue_api.cluster_queue import FairSharing, ResourceGroups
from gkecap.components.kueue_api.fields import DnsSubdomain, KueueModel, OmitEmpty, QuantityValue, StopPolicy


class KueueCohortSpec(KueueModel):
    """kueue.x-k8s.io Cohort spec (same in v1beta1 and v1beta2). Rule ids are ClusterQueue's, remapped to R-CO-*.
    Kueue calls it `CohortSpec`; named apart from the environment file's cohort entry (`spec.CohortSpec`)."""

    field_rules = {"parentName": "R-CQ-21", "resourceGroups": "R-CQ-19"}
    field_hints = {"parent": "the field is parentName"}

    parent_name: Annotated[DnsSubdomain | None, OmitEmpty] = None
    """Parent cohort (hierarchical cohorts)."""
    resource_groups: ResourceGroups | None = None
    """Quota the cohort itself holds, shared by its members."""
    fair_sharing: FairSharing | None = None
    """The cohort's fair-sharing weight in its parent."""


class LocalQueueFairSharing(KueueModel):
    field_rules = {"weight": "R-LQ-3"}

    weight: QuantityValue | None = None
    """The LocalQueue's weight in admission fair sharing (a quantity; default 1)."""


class LocalQueueSpec(KueueModel):
    """kueue.x-k8s.io LocalQueue spec (same in v1beta1 and v1beta2)."""

    field_rules = {"clusterQueue": "R-LQ-2", "stopPolicy": "R-LQ-3"}

    cluster_queue: Annotated[DnsSubdomain | None, OmitEmpty] = None
    """The ClusterQueue the LocalQueue's workloads go to."""
    stop_policy: StopPolicy = "None"
    """None: admit; Hold: admit nothing new; HoldAndDrain: also evict the admitted workloads."""
    fair_sharing: LocalQueueFairSharing | None = None
    """Admission fair sharing settings."""
