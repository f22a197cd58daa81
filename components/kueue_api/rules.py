"""The Kueue validation rules we enforce, as data: one row per rule of shared/reference/KUEUE_VALIDATION.md
(ids R-CQ-*, R-LQ-*, R-RF-*, R-CO-*, R-AC-*, R-PRC-*, R-TOPO-*; R-MKC-* and R-MKCFG-* are ours, from
the MultiKueue CRDs) plus a few generic API-server checks (R-API,
R-META, R-FIELD, R-QTY, R-SCHEMA, R-WPC). `layer` is where Kueue's API server enforces it: "schema" (OpenAPI,
HTTP 422), "cel" (x-kubernetes-validations, 422), "webhook" (Kueue's validating webhook, 403) or "apiserver".
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    id: str
    kind: str
    layer: str
    summary: str
    source: str


# Sources are repository paths of kubernetes-sigs/kueue @ ff69552e79 unless noted (see KUEUE_VALIDATION.md).
RULES: tuple[Rule, ...] = (
    Rule("R-CQ-1", "ClusterQueue", "webhook", "coveredResources names are qualified names (label-key format)",
         "pkg/webhooks/common.go:29-35, clusterqueue_webhook.go:311"),
    Rule("R-CQ-2", "ClusterQueue", "webhook", "a resource appears in only one resourceGroup",
         "clusterqueue_webhook.go:312-316"),
    Rule("R-CQ-3", "ClusterQueue", "webhook", "a flavor appears in only one resourceGroup",
         "clusterqueue_webhook.go:321-325"),
    Rule("R-CQ-4", "ClusterQueue", "webhook", "flavor resources[i].name equals coveredResources[i] (same order)",
         "clusterqueue_webhook.go:339-341"),
    Rule("R-CQ-5", "ClusterQueue", "webhook", "nominalQuota >= 0", "clusterqueue_webhook.go:342, :359-365"),
    Rule("R-CQ-6", "ClusterQueue", "webhook", "borrowingLimit >= 0 and nil without cohortName",
         "clusterqueue_webhook.go:343-347, :368-380"),
    Rule("R-CQ-7", "ClusterQueue", "cel", "borrowingLimit must be nil when cohort is empty",
         "apis/kueue/v1beta2/clusterqueue_types.go:66; CRD clusterqueues.yaml:1356-1358 (v1beta1 :522)"),
    Rule("R-CQ-8", "ClusterQueue", "webhook", "lendingLimit >= 0, nil without cohortName, <= nominalQuota",
         "clusterqueue_webhook.go:348-353, :383-389"),
    Rule("R-CQ-9", "ClusterQueue", "webhook", "namespaceSelector is a valid LabelSelector",
         "clusterqueue_webhook.go:122-123"),
    Rule("R-CQ-10", "ClusterQueue", "cel", "reclaimWithinCohort=Never forbids borrowWithinCohort.policy!=Never",
         "clusterqueue_types.go:516; CRD :1183-1185; webhook :278-286"),
    Rule("R-CQ-11", "ClusterQueue", "cel",
         "flavorFungibility.preference only with whenCanBorrow=whenCanPreempt=TryNextFlavor",
         "clusterqueue_types.go:455; CRD :1050-1053; webhook :288-300"),
    Rule("R-CQ-12", "ClusterQueue", "webhook", "fairSharing.weight >= 0 and, when not 0, > 1n",
         "pkg/webhooks/common.go:43-60"),
    Rule("R-CQ-13", "ClusterQueue", "webhook", "at most 256 flavors across resourceGroups",
         "clusterqueue_webhook.go:187-198"),
    Rule("R-CQ-14", "ClusterQueue", "webhook", "at most 256 coveredResources across resourceGroups",
         "clusterqueue_webhook.go:200-211"),
    Rule("R-CQ-15", "ClusterQueue", "webhook", "at most 512 flavor x resource combinations per resourceGroup",
         "clusterqueue_webhook.go:213-229"),
    Rule("R-CQ-16", "ClusterQueue", "webhook", "admissionChecksStrategy onFlavors name flavors of the queue",
         "clusterqueue_webhook.go:138-140, :159-185"),
    Rule("R-CQ-17", "ClusterQueue", "webhook", "concurrentAdmissionPolicy constraints (alpha gate ConcurrentAdmission)",
         "clusterqueue_webhook.go:240-273"),
    Rule("R-CQ-18", "ClusterQueue", "webhook", "concurrentAdmissionPolicy is immutable (update)",
         "clusterqueue_webhook.go:105-109"),
    Rule("R-CQ-19", "ClusterQueue", "schema", "resourceGroups/coveredResources/flavors/resources sizes and required",
         "clusterqueue_types.go:74, :261-262, :275-279, :292-295; CRD :1223-1224, :1305-1335"),
    Rule("R-CQ-20", "ClusterQueue", "cel", "each flavor has as many resources as coveredResources",
         "clusterqueue_types.go:254; CRD :1332-1334"),
    Rule("R-CQ-21", "ClusterQueue", "schema", "flavor, onFlavors, cohort names are DNS-1123 subdomains (<= 253)",
         "clusterqueue_types.go:61-62, :346-347; CRD :921-922, :1244-1245, :872-873, :952-953"),
    Rule("R-CQ-22", "ClusterQueue", "schema", "enum fields (queueingStrategy, stopPolicy, preemption, ...)",
         "clusterqueue_types.go:105-106, :141, :464-583; CRD :1018-1200"),
    Rule("R-CQ-23", "ClusterQueue", "schema",
         "admissionChecksStrategy.admissionChecks 1..64, map by name, names 1..316",
         "clusterqueue_types.go:168-186; CRD :862-882"),
    Rule("R-LQ-1", "LocalQueue", "cel", "spec.clusterQueue is immutable (transition rule)",
         "apis/kueue/v1beta2/localqueue_types.go:35; CRD localqueues.yaml:474-475"),
    Rule("R-LQ-2", "LocalQueue", "schema", "spec.clusterQueue is a DNS-1123 subdomain (<= 253)",
         "clusterqueue_types.go:53-54; CRD localqueues.yaml:470-471"),
    Rule("R-LQ-3", "LocalQueue", "schema", "stopPolicy enum; fairSharing.weight is a quantity",
         "localqueue_types.go:49-50; CRD :499, :514"),
    Rule("R-LQ-4", "LocalQueue", "schema", "status list sizes (status is not part of a create)",
         "localqueue_types.go:86, :107, :115, :167"),
    Rule("R-RF-1", "ResourceFlavor", "webhook", "nodeLabels keys and values are valid labels",
         "pkg/webhooks/resourceflavor_webhook.go:88"),
    Rule("R-RF-2", "ResourceFlavor", "webhook", "nodeTaints: valid key and value, unique by (key, effect)",
         "resourceflavor_webhook.go:104-116"),
    Rule("R-RF-3", "ResourceFlavor", "webhook", "tolerations[].key is a valid label name",
         "pkg/webhooks/workload_webhook.go:263-273"),
    Rule("R-RF-4", "ResourceFlavor", "cel", "topologyName needs at least one nodeLabel",
         "resourceflavor_types.go:48; CRD resourceflavors.yaml:365-366"),
    Rule("R-RF-5", "ResourceFlavor", "cel", "topologyName is immutable once set (transition rule)",
         "resourceflavor_types.go:49; CRD :367-369"),
    Rule("R-RF-6", "ResourceFlavor", "schema", "nodeLabels <= 8, nodeTaints <= 8 (key, effect required), "
         "tolerations <= 8, topologyName DNS-1123 subdomain", "resourceflavor_types.go:43-96; CRD :237-361"),
    Rule("R-RF-7", "ResourceFlavor", "cel", "nodeTaints[].effect is NoSchedule, PreferNoSchedule or NoExecute",
         "resourceflavor_types.go:83; CRD :285-287"),
    Rule("R-RF-8", "ResourceFlavor", "cel", "tolerations: operator/key/value/effect/tolerationSeconds consistency",
         "resourceflavor_types.go:97-101; CRD :339-352"),
    Rule("R-CO-1", "Cohort", "webhook", "fairSharing.weight >= 0 and, when not 0, > 1n",
         "pkg/webhooks/common.go:43-60 via cohort_webhook.go:67-78"),
    Rule("R-CO-2", "Cohort", "webhook", "resourceGroups checks of R-CQ-1..5; limits need parentName",
         "cohort_webhook.go:67-78, clusterqueue_webhook.go:302-356"),
    Rule("R-CO-3", "Cohort", "schema", "resourceGroups schema and size CEL as ClusterQueue; parentName DNS subdomain",
         "cohort_types.go:63; CRD cohorts.yaml:357-358, :493-510"),
    Rule("R-AC-1", "AdmissionCheck", "schema", "spec.controllerName required, length 1..253",
         "apis/kueue/v1beta2/admissioncheck_types.go:51-55; CRD admissionchecks.yaml:192-193, :227"),
    Rule("R-AC-2", "AdmissionCheck", "cel", "controllerName is immutable (transition rule)",
         "admissioncheck_types.go:52; CRD :196-197"),
    Rule("R-AC-3", "AdmissionCheck", "schema", "parameters needs apiGroup (DNS subdomain), kind (pattern), "
         "name (DNS label)", "admissioncheck_types.go:66-80; CRD :205-222"),
    Rule("R-PRC-1", "ProvisioningRequestConfig", "schema", "provisioningClassName required DNS subdomain 1..253",
         "provisioningrequestconfig_types.go:40-44; CRD :283-285, :338"),
    Rule("R-PRC-2", "ProvisioningRequestConfig", "schema", "parameters <= 100 entries, values <= 255 chars",
         "provisioningrequestconfig_types.go:49, :160-162; CRD :227, :231"),
    Rule("R-PRC-3", "ProvisioningRequestConfig", "schema", "managedResources is a set of <= 100",
         "provisioningrequestconfig_types.go:63-64; CRD :221"),
    Rule("R-PRC-4", "ProvisioningRequestConfig", "schema", "podSetUpdates.nodeSelector <= 8, map by key, key and "
         "valueFromProvisioningClassDetail required", "provisioningrequestconfig_types.go:102-123; CRD :257-273"),
    Rule("R-PRC-5", "ProvisioningRequestConfig", "schema", "podSetMergePolicy enum; retryStrategy int32 fields",
         "provisioningrequestconfig_types.go:77, :94; CRD :242"),
    Rule("R-TOPO-1", "Topology", "schema", "spec.levels required, 1..16, nodeLabel label-key 1..316",
         "apis/kueue/v1beta2/topology_types.go:111-134; CRD topologies.yaml:124-148"),
    Rule("R-TOPO-2", "Topology", "cel", "levels are unique", "topology_types.go:116; CRD :140-142"),
    Rule("R-TOPO-3", "Topology", "cel", "kubernetes.io/hostname only as the last level",
         "topology_types.go:117; CRD :143-145"),
    Rule("R-TOPO-4", "Topology", "cel", "levels change only with hostname lowest (transition; v1beta1 immutable)",
         "topology_types.go:115; CRD :136-139 (v1beta1 :71-72)"),
    Rule("R-MKC-1", "MultiKueueCluster", "schema", "v1beta2 clusterSource required; kubeConfig.location 1..256, "
         "locationType Secret or Path (default Secret); clusterProfileRef.name 1..256 (v1beta1: kubeConfig required)",
         "apis/kueue/v1beta2/multikueue_types.go:58-100; CRD multikueueclusters.yaml:196-245 (v1beta1 :52-93)"),
    Rule("R-MKC-2", "MultiKueueCluster", "cel", "exactly one of clusterSource.kubeConfig, clusterProfileRef",
         "multikueue_types.go:82 (ExactlyOneOf); CRD multikueueclusters.yaml:238-241"),
    Rule("R-MKCFG-1", "MultiKueueConfig", "schema", "clusters required, 1..20 names (v1beta2: each <= 256; v1beta1: "
         "a set); quotaManagement Manual or Automated", "multikueue_types.go:149-169; CRD multikueueconfigs.yaml:81-114"
         " (v1beta1 :41-55)"),
    Rule("R-MKCFG-2", "MultiKueueConfig", "cel", "clusters are unique (v1beta2)",
         "multikueue_types.go:158; CRD multikueueconfigs.yaml:96-99"),
    Rule("R-WPC-1", "WorkloadPriorityClass", "schema", "value is a required int32",
         "workloadpriorityclass_types.go:40-48; CRD workloadpriorityclasses.yaml:90, :110"),
    Rule("R-WPC-2", "WorkloadPriorityClass", "schema", "description at most 2048 characters",
         "workloadpriorityclass_types.go:40-48; CRD :107"),
    Rule("R-API-1", "*", "apiserver", "apiVersion is a version the Kueue CRD serves (v1beta1, v1beta2)",
         "shared/kueue-crds/SOURCE.txt (served versions)"),
    Rule("R-META-1", "*", "apiserver", "metadata.name is set and a DNS-1123 subdomain (<= 253)",
         "k8s apiextensions-apiserver customresource validation: NameIsDNSSubdomain"),
    Rule("R-META-2", "*", "apiserver", "metadata.labels are valid label keys/values; annotation keys qualified",
         "k8s.io/apimachinery/pkg/api/validation/objectmeta.go (ValidateObjectMeta)"),
    Rule("R-META-3", "LocalQueue", "apiserver", "metadata.namespace is a DNS-1123 label",
         "k8s.io/apimachinery/pkg/api/validation/objectmeta.go (ValidateNamespaceName)"),
    Rule("R-FIELD-1", "*", "apiserver", "no unknown fields (kubectl's default strict field validation rejects them; "
         "otherwise the API server silently drops them)", "https://kubernetes.io/docs/reference/using-api/api-concepts/"
         "#field-validation"),
    Rule("R-QTY-1", "*", "schema", "quantities match the Kubernetes quantity format",
         "k8s.io/apimachinery/pkg/api/resource/quantity.go (ParseQuantity); CRD quantity pattern"),
    Rule("R-SCHEMA-1", "*", "schema", "types, required fields and bounds of the CRD schema not covered above",
         "shared/kueue-crds/*.yaml"),
)

RULES_BY_ID: dict[str, Rule] = {rule.id: rule for rule in RULES}

# Rules that compare an update with the stored object (CEL transition rules on oldSelf, update-only webhook
# checks): a create, which is all a policy check sees, cannot violate them.
TRANSITION_RULES: frozenset[str] = frozenset({"R-LQ-1", "R-RF-5", "R-AC-2", "R-TOPO-4", "R-CQ-18"})

# Rules not checked, with the reason (reported by the project, tested in tests/components/kueue_api).
NOT_CHECKED: dict[str, str] = {
    "R-CQ-17": "enforced only with the alpha feature gate ConcurrentAdmission, which is off by default",
    "R-LQ-4": "status fields: the API server drops status from a create (status subresource)",
}


def is_transition_rule(rule_id: str) -> bool:
    """True for rules that only an update can violate (not checkable on a single object)."""
    return rule_id in TRANSITION_RULES
