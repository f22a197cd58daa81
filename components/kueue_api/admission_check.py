"""AdmissionCheck and ProvisioningRequestConfig spec models (shared/kueue-crds admissionchecks.yaml,
provisioningrequestconfigs.yaml; R-AC-*, R-PRC-*). v1beta2 adds minimum lengths and drops retryDelayMinutes.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictStr

from gkecap.components.kueue_api.fields import (
    DnsLabel, DnsSubdomain, Int32, Int64, KindName, KueueModel, LabelKeyFormat317, ListSet, list_map,
)

PROVISIONING_REQUEST_CONTROLLER = "kueue.x-k8s.io/provisioning-request"  # FACTS D [S2]
DWS_PROVISIONING_CLASS = "queued-provisioning.gke.io"  # FACTS D [S14]


class AdmissionCheckParametersReference(KueueModel):
    default_rule = "R-AC-3"

    api_group: Annotated[DnsSubdomain, Field(min_length=1)]
    """API group of the parameters object, e.g. kueue.x-k8s.io."""
    kind: KindName
    """Kind of the parameters object, e.g. ProvisioningRequestConfig."""
    name: Annotated[DnsLabel, Field(min_length=1)]
    """Name of the parameters object."""


class AdmissionCheckSpec(KueueModel):
    """kueue.x-k8s.io/v1beta2 AdmissionCheck spec."""

    field_rules = {"controllerName": "R-AC-1", "parameters": "R-AC-3"}
    field_hints = {"retryDelayMinutes": "v1beta2 removed it (v1beta1 only)"}

    controller_name: Annotated[StrictStr, Field(min_length=1, max_length=253)]
    """Controller that runs the check, e.g. kueue.x-k8s.io/provisioning-request."""
    parameters: AdmissionCheckParametersReference | None = None
    """The object that configures the check (a ProvisioningRequestConfig for DWS)."""


class AdmissionCheckSpecV1Beta1(AdmissionCheckSpec):
    controller_name: Annotated[StrictStr, Field(min_length=0)]
    """Controller that runs the check, e.g. kueue.x-k8s.io/provisioning-request."""
    retry_delay_minutes: Int64 = 15  # CRD admissionchecks.yaml v1beta1 default
    """Minutes before a workload whose check failed is retried (v1beta1 only)."""


class ProvisioningRequestRetryStrategy(KueueModel):
    default_rule = "R-PRC-5"

    backoff_limit_count: Int32 = 3
    """Retries of a failed ProvisioningRequest before the workload is rejected."""
    backoff_base_seconds: Int32 = 60
    """Base of the exponential back-off between retries, in seconds."""
    backoff_max_seconds: Int32 = 1800
    """Longest back-off between retries, in seconds."""


class ProvisioningRequestPodSetUpdatesNodeSelector(KueueModel):
    default_rule = "R-PRC-4"

    key: LabelKeyFormat317
    """Node selector key added to the admitted pods."""
    value_from_provisioning_class_detail: Annotated[StrictStr, Field(min_length=1, max_length=32768)]
    """Key of the ProvisioningRequest's provisioning class details whose value becomes the selector's value."""


class ProvisioningRequestPodSetUpdates(KueueModel):
    default_rule = "R-PRC-4"

    node_selector: Annotated[list[ProvisioningRequestPodSetUpdatesNodeSelector], Field(max_length=8),
                             list_map("key")] | None = None
    """Node selectors added to the pods once the request is provisioned."""


class ProvisioningRequestPodSetUpdatesV1Beta1(ProvisioningRequestPodSetUpdates):
    node_selector: Annotated[list[ProvisioningRequestPodSetUpdatesNodeSelector], Field(max_length=8)] | None = None
    """Node selectors added to the pods once the request is provisioned."""


class ProvisioningRequestConfigSpec(KueueModel):
    """kueue.x-k8s.io/v1beta2 ProvisioningRequestConfig spec."""

    field_rules = {"provisioningClassName": "R-PRC-1", "parameters": "R-PRC-2", "managedResources": "R-PRC-3",
                   "podSetUpdates": "R-PRC-4", "podSetMergePolicy": "R-PRC-5", "retryStrategy": "R-PRC-5"}

    provisioning_class_name: Annotated[DnsSubdomain, Field(min_length=1)]
    """Provisioning class of the requests, e.g. queued-provisioning.gke.io."""
    parameters: Annotated[dict[str, Annotated[StrictStr, Field(min_length=0, max_length=255)]],
                          Field(max_length=100)] | None = None
    """Parameters passed to the provisioning class, e.g. maxRunDurationSeconds."""
    managed_resources: Annotated[list[Annotated[str, Field(strict=True)]], Field(max_length=100), ListSet] | None \
        = None
    """Resources the requests are made for (others skip the check), e.g. nvidia.com/gpu."""
    retry_strategy: ProvisioningRequestRetryStrategy | None = None
    """How a failed ProvisioningRequest is retried."""
    pod_set_updates: ProvisioningRequestPodSetUpdates | None = None
    """Changes made to the admitted pods from the provisioned request."""
    pod_set_merge_policy: Literal["IdenticalPodTemplates", "IdenticalWorkloadSchedulingRequirements"] | None = None
    """Which pod sets of a workload may share one ProvisioningRequest pod set."""


class ProvisioningRequestConfigSpecV1Beta1(ProvisioningRequestConfigSpec):
    provisioning_class_name: DnsSubdomain
    """Provisioning class of the requests, e.g. queued-provisioning.gke.io."""
    pod_set_updates: ProvisioningRequestPodSetUpdatesV1Beta1 | None = None
    """Changes made to the admitted pods from the provisioned request."""
