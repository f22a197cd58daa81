"""ClusterQueue spec models (v1beta2, and the v1beta1 differences), plus the resource groups Cohorts share.

Schema facts: shared/kueue-crds/kueue.x-k8s.io_clusterqueues.yaml, KUEUE_VALIDATION.md R-CQ-19..23.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from gkecap.components.kueue_api.fields import (
    DnsSubdomain, Int32, KueueModel, ListSet, OmitEmpty, QuantityValue, StopPolicy, bounded_str, list_map,
)


# A ClusterQueue resource group holds at most 64 flavors (KUEUE_VALIDATION R-CQ-19, CRD clusterqueues.yaml).
MAX_FLAVORS_PER_GROUP = 64

class ResourceQuota(KueueModel):
    default_rule = "R-CQ-19"

    name: Annotated[str, Field(strict=True)]
    nominal_quota: QuantityValue
    borrowing_limit: QuantityValue | None = None
    lending_limit: QuantityValue | None = None


class FlavorQuotas(KueueModel):
    default_rule = "R-CQ-19"
    field_rules = {"name": "R-CQ-21", "resources": "R-CQ-19"}

    name: DnsSubdomain
    resources: Annotated[list[ResourceQuota], Field(min_length=1, max_length=64), list_map("name")]


class ResourceGroup(KueueModel):
    default_rule = "R-CQ-19"

    covered_resources: Annotated[list[Annotated[str, Field(strict=True)]], Field(min_length=1, max_length=64)]
    flavors: Annotated[list[FlavorQuotas], Field(min_length=1, max_length=MAX_FLAVORS_PER_GROUP), list_map("name")]


ResourceGroups = Annotated[list[ResourceGroup], Field(max_length=16)]


class FairSharing(KueueModel):
    weight: QuantityValue | None = None


class LabelSelectorRequirement(KueueModel):
    default_rule = "R-CQ-9"

    key: Annotated[str, Field(strict=True)]
    operator: Annotated[str, Field(strict=True)]
    values: list[Annotated[str, Field(strict=True)]] | None = None


class LabelSelector(KueueModel):
    """metav1.LabelSelector; its semantic checks are webhook rule R-CQ-9 (gkecap.components.k8s.names)."""

    default_rule = "R-CQ-9"

    match_labels: dict[str, Annotated[str, Field(strict=True)]] | None = None
    match_expressions: list[LabelSelectorRequirement] | None = None


# ClusterQueue preemption policies (CRD enums, KUEUE_VALIDATION R-CQ-22).
RECLAIM_WITHIN_COHORT_POLICIES = ("Never", "LowerPriority", "Any")
BORROW_WITHIN_COHORT_POLICIES = ("Never", "LowerPriority")
WITHIN_CLUSTER_QUEUE_POLICIES = ("Never", "LowerPriority", "LowerOrNewerEqualPriority")


class BorrowWithinCohort(KueueModel):
    field_rules = {"policy": "R-CQ-22", "maxPriorityThreshold": "R-SCHEMA-1"}

    policy: Annotated[Literal[BORROW_WITHIN_COHORT_POLICIES], OmitEmpty] = "Never"  # type: ignore[valid-type]
    max_priority_threshold: Int32 | None = None


class ClusterQueuePreemption(KueueModel):
    default_rule = "R-CQ-22"

    reclaim_within_cohort: Annotated[Literal[RECLAIM_WITHIN_COHORT_POLICIES], OmitEmpty] = "Never"  # type: ignore[valid-type]
    borrow_within_cohort: BorrowWithinCohort = Field(default_factory=BorrowWithinCohort)
    within_cluster_queue: Annotated[Literal[WITHIN_CLUSTER_QUEUE_POLICIES], OmitEmpty] = "Never"  # type: ignore[valid-type]


FungibilityPreference = Literal["BorrowingOverPreemption", "PreemptionOverBorrowing"]


class FlavorFungibility(KueueModel):
    default_rule = "R-CQ-22"

    when_can_borrow: Annotated[Literal["MayStopSearch", "TryNextFlavor"], OmitEmpty] = "MayStopSearch"
    when_can_preempt: Annotated[Literal["MayStopSearch", "TryNextFlavor"], OmitEmpty] = "TryNextFlavor"
    preference: FungibilityPreference | None = None


class FlavorFungibilityV1Beta1(FlavorFungibility):
    """v1beta1 also accepts Borrow and Preempt (converted to MayStopSearch for v1beta2)."""

    when_can_borrow: Annotated[Literal["MayStopSearch", "TryNextFlavor", "Borrow"], OmitEmpty] = "MayStopSearch"
    when_can_preempt: Annotated[Literal["MayStopSearch", "TryNextFlavor", "Preempt"], OmitEmpty] = "TryNextFlavor"


class AdmissionCheckStrategyRule(KueueModel):
    default_rule = "R-CQ-23"
    field_rules = {"onFlavors": ("R-CQ-23", "R-CQ-21")}

    name: bounded_str(1, 316)
    on_flavors: Annotated[list[DnsSubdomain], Field(max_length=64), ListSet] | None = None


class AdmissionChecksStrategy(KueueModel):
    default_rule = "R-CQ-23"

    admission_checks: Annotated[list[AdmissionCheckStrategyRule], Field(min_length=1, max_length=64),
                                list_map("name")]


class AdmissionCheckStrategyRuleV1Beta1(AdmissionCheckStrategyRule):
    name: bounded_str(0, 316)
    on_flavors: list[DnsSubdomain] | None = None


class AdmissionChecksStrategyV1Beta1(AdmissionChecksStrategy):
    admission_checks: list[AdmissionCheckStrategyRuleV1Beta1] | None = None


class AdmissionScope(KueueModel):
    default_rule = "R-CQ-22"

    admission_mode: Literal["UsageBasedAdmissionFairSharing", "NoAdmissionFairSharing"]


class AdmissionScopeV1Beta1(AdmissionScope):
    admission_mode: Annotated[str, Field(strict=True)]


class ConcurrentAdmissionConstraints(KueueModel):
    field_rules = {"lastAcceptableFlavorName": "R-CQ-21"}

    last_acceptable_flavor_name: DnsSubdomain | None = None


class ConcurrentAdmissionMigration(KueueModel):
    default_rule = "R-CQ-22"

    mode: Annotated[Literal["TryPreferredFlavors", "RetainFirstAdmission"], Field(max_length=253)]
    constraints: ConcurrentAdmissionConstraints | None = None


class ConcurrentAdmissionPolicy(KueueModel):
    migration: ConcurrentAdmissionMigration


class _ClusterQueueSpecCommon(KueueModel):
    field_rules = {"resourceGroups": "R-CQ-19", "queueingStrategy": "R-CQ-22", "stopPolicy": "R-CQ-22",
                   "namespaceSelector": "R-CQ-9"}

    resource_groups: ResourceGroups | None = None
    queueing_strategy: Annotated[Literal["StrictFIFO", "BestEffortFIFO"], OmitEmpty] = "BestEffortFIFO"
    namespace_selector: LabelSelector | None = None
    preemption: ClusterQueuePreemption = Field(default_factory=ClusterQueuePreemption)
    stop_policy: StopPolicy = "None"
    fair_sharing: FairSharing | None = None


class ClusterQueueSpec(_ClusterQueueSpecCommon):
    """kueue.x-k8s.io/v1beta2 ClusterQueue spec."""

    field_rules = {**_ClusterQueueSpecCommon.field_rules, "cohortName": "R-CQ-21"}
    field_hints = {"cohort": "v1beta2 calls it cohortName (cohort is v1beta1)",
                   "admissionChecks": "v1beta2 has only admissionChecksStrategy.admissionChecks[].name"}

    cohort_name: Annotated[DnsSubdomain | None, OmitEmpty] = None
    flavor_fungibility: FlavorFungibility = Field(default_factory=FlavorFungibility)
    admission_checks_strategy: AdmissionChecksStrategy | None = None
    admission_scope: AdmissionScope | None = None
    concurrent_admission_policy: ConcurrentAdmissionPolicy | None = None


class ClusterQueueSpecV1Beta1(_ClusterQueueSpecCommon):
    """kueue.x-k8s.io/v1beta1 ClusterQueue spec: `cohort` and top-level `admissionChecks`."""

    field_rules = {**_ClusterQueueSpecCommon.field_rules, "cohort": "R-CQ-21", "admissionChecks": "R-CQ-23"}
    field_hints = {"cohortName": "v1beta1 calls it cohort (cohortName is v1beta2)",
                   "concurrentAdmissionPolicy": "only v1beta2 has it"}

    cohort: Annotated[DnsSubdomain | None, OmitEmpty] = None
    flavor_fungibility: FlavorFungibilityV1Beta1 = Field(default_factory=FlavorFungibilityV1Beta1)
    admission_checks: list[bounded_str(0, 316)] | None = None
    admission_checks_strategy: AdmissionChecksStrategyV1Beta1 | None = None
    admission_scope: AdmissionScopeV1Beta1 | None = None
