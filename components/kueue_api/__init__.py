"""The project's own Kueue API (pure Python, no Pulumi): typed models of the kueue.x-k8s.io kinds,
builders of CustomResource-ready dicts, and validate_kueue_object(), shared by the components that emit
Kueue objects and by the policy pack that checks any Kueue object in any stack.

Facts: shared/reference/KUEUE_VALIDATION.md (rule ids R-*), FACTS.md section D; tests prove agreement with
the real CRDs (tests/components/kueue_api).
"""

from gkecap.components.kueue_api.admission_check import (
    DWS_PROVISIONING_CLASS, PROVISIONING_REQUEST_CONTROLLER, AdmissionCheckParametersReference, AdmissionCheckSpec,
    AdmissionCheckSpecV1Beta1, ProvisioningRequestConfigSpec, ProvisioningRequestConfigSpecV1Beta1,
    ProvisioningRequestPodSetUpdates, ProvisioningRequestPodSetUpdatesNodeSelector, ProvisioningRequestRetryStrategy,
)
from gkecap.components.kueue_api.builders import (
    KueueValidationError, Quota, admission_check, cluster_queue, cohort, flavor_quotas, local_queue,
    provisioning_admission_check, provisioning_request_config, resource_flavor, resource_group, topology,
    workload_priority_class,
)
from gkecap.components.kueue_api.cluster_queue import (
    AdmissionChecksStrategy, AdmissionCheckStrategyRule, BorrowWithinCohort, ClusterQueuePreemption,
    ClusterQueueSpec, ClusterQueueSpecV1Beta1, FairSharing, FlavorFungibility, FlavorFungibilityV1Beta1,
    FlavorQuotas, LabelSelector, LabelSelectorRequirement, ResourceGroup, ResourceQuota,
)
from gkecap.components.kueue_api.cohort import KueueCohortSpec, LocalQueueSpec
from gkecap.components.kueue_api.fields import GROUP, V1BETA1, V1BETA2, V1BETA2_SINCE, KueueModel
from gkecap.components.kueue_api.objects import KINDS, OBJECT_MODELS, SERVED_VERSIONS, manifest, spec_model
from gkecap.components.k8s.quantity import Quantity, QuantityError, parse_quantity
from gkecap.components.kueue_api.multikueue import (
    KUBECONFIG_SECRET_KEY, MULTIKUEUE_CONTROLLER, ClusterProfileReference, ClusterSource, KubeConfig,
    MultiKueueClusterSpec, MultiKueueClusterSpecV1Beta1, MultiKueueConfigSpec, MultiKueueConfigSpecV1Beta1,
)
from gkecap.components.kueue_api.references import Reference, references
from gkecap.components.kueue_api.resource_flavor import ResourceFlavorSpec, Taint, Toleration, TopologyLevel, TopologySpec
from gkecap.components.kueue_api.releases import OLDEST_SUPPORTED_RELEASE, SERVED_API_VERSIONS, served_api_versions
from gkecap.components.kueue_api.rules import NOT_CHECKED, RULES, RULES_BY_ID, TRANSITION_RULES, Rule, is_transition_rule
from gkecap.components.kueue_api.validation import KueueViolation, kueue_kind, validate_kueue_object

__all__ = [
    "DWS_PROVISIONING_CLASS", "GROUP", "KINDS", "KUBECONFIG_SECRET_KEY", "MULTIKUEUE_CONTROLLER", "NOT_CHECKED", "OBJECT_MODELS", "OLDEST_SUPPORTED_RELEASE",
    "PROVISIONING_REQUEST_CONTROLLER", "SERVED_API_VERSIONS", "served_api_versions",
    "RULES", "RULES_BY_ID", "SERVED_VERSIONS", "TRANSITION_RULES", "V1BETA1", "V1BETA2", "V1BETA2_SINCE",
    "AdmissionCheckParametersReference", "AdmissionCheckSpec", "AdmissionCheckSpecV1Beta1",
    "AdmissionChecksStrategy", "AdmissionCheckStrategyRule", "BorrowWithinCohort", "ClusterProfileReference",
    "ClusterQueuePreemption", "ClusterSource", "KubeConfig", "MultiKueueClusterSpec", "MultiKueueClusterSpecV1Beta1",
    "MultiKueueConfigSpec", "MultiKueueConfigSpecV1Beta1",
    "ClusterQueueSpec", "ClusterQueueSpecV1Beta1", "KueueCohortSpec", "FairSharing", "FlavorFungibility",
    "FlavorFungibilityV1Beta1", "FlavorQuotas", "KueueModel", "KueueValidationError", "KueueViolation",
    "LabelSelector", "LabelSelectorRequirement", "LocalQueueSpec", "ProvisioningRequestConfigSpec",
    "ProvisioningRequestConfigSpecV1Beta1", "ProvisioningRequestPodSetUpdates",
    "ProvisioningRequestPodSetUpdatesNodeSelector", "ProvisioningRequestRetryStrategy", "Quantity", "QuantityError",
    "Quota", "Reference", "ResourceFlavorSpec", "ResourceGroup", "ResourceQuota", "Rule", "Taint", "Toleration",
    "TopologyLevel", "TopologySpec",
    "admission_check", "cluster_queue", "cohort", "flavor_quotas", "is_transition_rule", "kueue_kind",
    "local_queue", "manifest", "parse_quantity", "provisioning_admission_check", "provisioning_request_config",
    "references", "resource_flavor", "resource_group", "spec_model", "topology", "validate_kueue_object",
    "workload_priority_class",
]
