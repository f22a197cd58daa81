"""MultiKueueCluster and MultiKueueConfig spec models (shared/kueue-crds multikueueclusters.yaml,
multikueueconfigs.yaml; Go types apis/kueue/v1beta2/multikueue_types.go; rules R-MKC-*, R-MKCFG-*).

v1beta2 moves the connection under `clusterSource` (exactly one of kubeConfig and clusterProfileRef, CEL rule
R-MKC-2), bounds the strings, and makes `clusters` an atomic list with a uniqueness CEL rule instead of a set.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, StrictStr

from gkecap.components.kueue_api.fields import KueueModel, ListSet, OmitEmpty

MULTIKUEUE_CONTROLLER = "kueue.x-k8s.io/multikueue"  # multikueue_types.go MultiKueueControllerName (FACTS D [S2])
KUBECONFIG_SECRET_KEY = "kubeconfig"  # multikueue_types.go MultiKueueConfigSecretKey: the Secret's data key
MAX_CLUSTERS = 20  # CRD multikueueconfigs.yaml: spec.clusters maxItems
# MultiKueue with topology-aware scheduling: Kueue v0.14 keeps a ClusterQueue with a TAS flavor and a MultiKueue
# check inactive ("TAS is not supported with MultiKueue admission check", pkg/cache/scheduler/clusterqueue.go
# at v0.14.0); from v0.15.0 the manager skips TAS and the worker places the pods (clusterqueue.go isTASViolated at
# v0.15.0; site/.../tasks/dev/setup_multikueue_development_environment.md: "available since Kueue v0.15.0").
MULTIKUEUE_TAS_SINCE = (0, 15, 0)

LocationType = Literal["Secret", "Path"]


class ClusterProfileReference(KueueModel):
    default_rule = "R-MKC-1"

    name: Annotated[StrictStr, Field(min_length=1, max_length=256)]
    """Name of the ClusterProfile."""


class KubeConfig(KueueModel):
    """Where the manager reads the worker's kubeconfig: a Secret in Kueue's namespace (key `kubeconfig`) or a
    path on the controller's disk."""

    default_rule = "R-MKC-1"

    location: Annotated[StrictStr, Field(min_length=1, max_length=256)]
    """Name of the Secret (key kubeconfig) in Kueue's namespace, or a file path."""
    location_type: Annotated[LocationType, OmitEmpty] = "Secret"  # CRD default
    """Secret or Path."""


def _location_type_required(schema: dict[str, Any]) -> None:
    # CRD v1beta1 lists locationType as required and defaults it, so the API server fills a missing one in.
    schema["required"] = sorted({*schema.get("required", []), "locationType"})


class KubeConfigV1Beta1(KubeConfig):
    model_config = ConfigDict(json_schema_extra=_location_type_required)

    location: Annotated[StrictStr, Field(min_length=0)]
    """Name of the Secret (key kubeconfig) in Kueue's namespace, or a file path."""


class ClusterSource(KueueModel):
    default_rule = "R-MKC-1"

    kube_config: KubeConfig | None = None
    """Reach the worker with a kubeconfig."""
    cluster_profile_ref: ClusterProfileReference | None = None
    """Reach the worker through a ClusterProfile."""


class MultiKueueClusterSpec(KueueModel):
    """kueue.x-k8s.io/v1beta2 MultiKueueCluster spec."""

    default_rule = "R-MKC-1"
    field_hints = {"kubeConfig": "v1beta2 has it under clusterSource (spec.clusterSource.kubeConfig)"}

    cluster_source: ClusterSource
    """How the manager reaches the worker."""


class MultiKueueClusterSpecV1Beta1(KueueModel):
    """kueue.x-k8s.io/v1beta1 MultiKueueCluster spec: kubeConfig at the top (clusterProfileRef has no effect)."""

    default_rule = "R-MKC-1"
    field_hints = {"clusterSource": "v1beta1 has kubeConfig directly under spec (clusterSource is v1beta2)"}

    kube_config: KubeConfigV1Beta1
    """Reach the worker with a kubeconfig."""
    cluster_profile_ref: ClusterProfileReference | None = None
    """Reach the worker through a ClusterProfile (no effect in v1beta1)."""


class MultiKueueConfigSpec(KueueModel):
    """kueue.x-k8s.io/v1beta2 MultiKueueConfig spec: the MultiKueueClusters a ClusterQueue's workloads go to,
    most preferred first (the Incremental dispatcher nominates them in this order)."""

    default_rule = "R-MKCFG-1"

    clusters: Annotated[list[Annotated[StrictStr, Field(min_length=0, max_length=256)]],
                        Field(min_length=1, max_length=MAX_CLUSTERS)]
    """MultiKueueClusters the workloads are dispatched to."""
    quota_management: Literal["Manual", "Automated"] | None = None
    """Manual or Automated quota on the workers."""


class MultiKueueConfigSpecV1Beta1(KueueModel):
    """kueue.x-k8s.io/v1beta1 MultiKueueConfig spec: clusters is a set, names unbounded."""

    default_rule = "R-MKCFG-1"

    clusters: Annotated[list[Annotated[StrictStr, Field(min_length=0)]], Field(min_length=1, max_length=MAX_CLUSTERS),
                        ListSet]
    """MultiKueueClusters the workloads are dispatched to."""
