"""ClusterQueue spec models (v1beta2, and the v1beta1 differences), plus the resource groups Cohorts share.

Schema facts: shared/kueue-crds/kueue.x-k8s.io_clusterqueues.yaml, KUEUE_VALIDATION.md R-CQ-19..23.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StrictStr

from gkecap.components.kueue_api.fields import (
    DnsSubdomain, Int32, KueueModel, ListSet, OmitEmpty, QuantityValue, StopPolicy, list_map,
)


# A ClusterQueue resource group holds at most 64 flavors (KUEUE_VALIDATION R-CQ-19, CRD clusterqueues.yaml).
MAX_FLAVORS_PER_GROUP = 64

class ResourceQuota(KueueModel):
    default_rule = "R-CQ-19"

    name: Annotated[str, Field(strict=True)]
    """Resource name, e.g. nvidia.com/gpu or google.com/tpu."""
    nominal_quota: QuantityValue
    """Quantity of the resource the queue owns in this flavor."""
    borrowing_limit: QuantityValue | None = None
    """Most of the resource the queue may borrow from its cohort; unset: no limit."""
    lending_limit: QuantityValue | None = None
    """Most of the nominal quota the queue may lend to its cohort; unset: all of it."""


class FlavorQuotas(KueueModel):
    default_rule = "R-CQ-19"
    field_rules = {"name": "R-CQ-21", "resources": "R-CQ-19"}

    name: DnsSubdomain
    """The ResourceFlavor."""
    resources: Annotated[list[ResourceQuota], Field(min_length=1, max_length=64), list_map("name")]
    """Quota of each covered resource in this flavor."""


class ResourceGroup(KueueModel):
    default_rule = "R-CQ-19"

    covered_resources: Annotated[list[Annotated[str, Field(strict=True)]], Field(min_length=1, max_length=64)]
    """Resources the group's flavors give quota for."""
    flavors: Annotated[list[FlavorQuotas], Field(min_length=1, max_length=MAX_FLAVORS_PER_GROUP), list_map("name")]
    """Flavors in the order Kueue tries them."""


ResourceGroups = Annotated[list[ResourceGroup], Field(max_length=16)]


class FairSharing(KueueModel):
    weight: QuantityValue | None = None
    """Share of the cohort's unused capacity relative to the other members (a quantity; default 1)."""


class LabelSelectorRequirement(KueueModel):
    default_rule = "R-CQ-9"

    key: Annotated[str, Field(strict=True)]
    """Label key."""
    operator: Annotated[str, Field(strict=True)]
    """In, NotIn, Exists or DoesNotExist."""
    values: list[Annotated[str, Field(strict=True)]] | None = None
    """Values for In and NotIn."""


class LabelSelector(KueueModel):
    """metav1.LabelSelector; its semantic checks are webhook rule R-CQ-9 (gkecap.components.k8s.names)."""

    default_rule = "R-CQ-9"

    match_labels: dict[str, Annotated[str, Field(strict=True)]] | None = None
    """Labels an object must carry, with these values."""
    match_expressions: list[LabelSelectorRequirement] | None = None
    """Requirements on labels; all must hold."""


# ClusterQueue preemption policies (CRD enums, KUEUE_VALIDATION R-CQ-22).
RECLAIM_WITHIN_COHORT_POLICIES = ("Never", "LowerPriority", "Any")
BORROW_WITHIN_COHORT_POLICIES = ("Never", "LowerPriority")
WITHIN_CLUSTER_QUEUE_POLICIES = ("Never", "LowerPriority", "LowerOrNewerEqualPriority")


class BorrowWithinCohort(KueueModel):
    field_rules = {"policy": "R-CQ-22", "maxPriorityThreshold": "R-SCHEMA-1"}

    policy: Annotated[Literal[BORROW_WITHIN_COHORT_POLICIES], OmitEmpty] = "Never"  # type: ignore[valid-type]
    """Whether a workload that borrows may preempt lower-priority workloads of the cohort."""
    max_priority_threshold: Int32 | None = None
    """Only workloads at or below this priority may be preempted so."""


class ClusterQueuePreemption(KueueModel):
    default_rule = "R-CQ-22"

    reclaim_within_cohort: Annotated[Literal[RECLAIM_WITHIN_COHORT_POLICIES], OmitEmpty] = "Never"  # type: ignore[valid-type]
    """Which workloads of the cohort's other queues that use more than their quota a workload may preempt to reclaim
    the queue's own."""
    borrow_within_cohort: BorrowWithinCohort = Field(default_factory=BorrowWithinCohort)
    """Preemption while borrowing."""
    within_cluster_queue: Annotated[Literal[WITHIN_CLUSTER_QUEUE_POLICIES], OmitEmpty] = "Never"  # type: ignore[valid-type]
    """Which of the queue's own admitted workloads a pending one may preempt."""


FungibilityPreference = Literal["BorrowingOverPreemption", "PreemptionOverBorrowing"]


class FlavorFungibility(KueueModel):
    default_rule = "R-CQ-22"

    when_can_borrow: Annotated[Literal["MayStopSearch", "TryNextFlavor"], OmitEmpty] = "MayStopSearch"
    """When a flavor fits only by borrowing: stop there, or try the next flavor first."""
    when_can_preempt: Annotated[Literal["MayStopSearch", "TryNextFlavor"], OmitEmpty] = "TryNextFlavor"
    """When a flavor fits only by preempting: stop there, or try the next flavor first."""
    preference: FungibilityPreference | None = None
    """Which of borrowing and preemption is preferred when both are possible."""


# The v1beta1 variants below are models of their own, not subclasses: their fields accept more (or other) values
# than v1beta2's, which a subclass may not do.
class FlavorFungibilityV1Beta1(KueueModel):
    """v1beta1 also accepts Borrow and Preempt (converted to MayStopSearch for v1beta2)."""

    default_rule = FlavorFungibility.default_rule

    when_can_borrow: Annotated[Literal["MayStopSearch", "TryNextFlavor", "Borrow"], OmitEmpty] = "MayStopSearch"
    """When a flavor fits only by borrowing: stop there (MayStopSearch, Borrow), or try the next flavor first."""
    when_can_preempt: Annotated[Literal["MayStopSearch", "TryNextFlavor", "Preempt"], OmitEmpty] = "TryNextFlavor"
    """When a flavor fits only by preempting: stop there (MayStopSearch, Preempt), or try the next flavor first."""
    preference: FungibilityPreference | None = None
    """Which of borrowing and preemption is preferred when both are possible."""


class AdmissionCheckStrategyRule(KueueModel):
    default_rule = "R-CQ-23"
    field_rules = {"onFlavors": ("R-CQ-23", "R-CQ-21")}

    name: Annotated[StrictStr, Field(min_length=1, max_length=316)]
    """The AdmissionCheck."""
    on_flavors: Annotated[list[DnsSubdomain], Field(max_length=64), ListSet] | None = None
    """Flavors the check applies to; unset: every flavor."""


class AdmissionChecksStrategy(KueueModel):
    default_rule = "R-CQ-23"

    admission_checks: Annotated[list[AdmissionCheckStrategyRule], Field(min_length=1, max_length=64),
                                list_map("name")]
    """The checks and the flavors each applies to."""


class AdmissionCheckStrategyRuleV1Beta1(AdmissionCheckStrategyRule):
    name: Annotated[StrictStr, Field(min_length=0, max_length=316)]
    """The AdmissionCheck."""
    on_flavors: list[DnsSubdomain] | None = None
    """Flavors the check applies to; unset: every flavor."""


class AdmissionChecksStrategyV1Beta1(KueueModel):
    default_rule = AdmissionChecksStrategy.default_rule

    admission_checks: list[AdmissionCheckStrategyRuleV1Beta1] | None = None
    """The checks and the flavors each applies to."""


class AdmissionScope(KueueModel):
    default_rule = "R-CQ-22"

    admission_mode: Literal["UsageBasedAdmissionFairSharing", "NoAdmissionFairSharing"]
    """Whether admission fair sharing orders the queue's workloads by their LocalQueues' usage."""


class AdmissionScopeV1Beta1(KueueModel):
    default_rule = AdmissionScope.default_rule

    admission_mode: Annotated[str, Field(strict=True)]
    """UsageBasedAdmissionFairSharing or NoAdmissionFairSharing."""


class ConcurrentAdmissionConstraints(KueueModel):
    field_rules = {"lastAcceptableFlavorName": "R-CQ-21"}

    last_acceptable_flavor_name: DnsSubdomain | None = None
    """The last flavor, in the group's order, a workload is migrated to."""


class ConcurrentAdmissionMigration(KueueModel):
    default_rule = "R-CQ-22"

    mode: Annotated[Literal["TryPreferredFlavors", "RetainFirstAdmission"], Field(max_length=253)]
    """Whether an admitted workload moves to a preferred flavor when one frees up."""
    constraints: ConcurrentAdmissionConstraints | None = None
    """Limits on the flavors a workload is migrated to."""


class ConcurrentAdmissionPolicy(KueueModel):
    migration: ConcurrentAdmissionMigration
    """Moving admitted workloads between flavors."""


class _ClusterQueueSpecCommon(KueueModel):
    field_rules = {"resourceGroups": "R-CQ-19", "queueingStrategy": "R-CQ-22", "stopPolicy": "R-CQ-22",
                   "namespaceSelector": "R-CQ-9"}

    resource_groups: ResourceGroups | None = None
    """Quota per flavor and resource, in groups of resources that share flavors."""
    queueing_strategy: Annotated[Literal["StrictFIFO", "BestEffortFIFO"], OmitEmpty] = "BestEffortFIFO"
    """StrictFIFO: the head of the queue blocks the rest; BestEffortFIFO: a workload that does not fit lets the next
    one try."""
    namespace_selector: LabelSelector | None = None
    """Namespaces whose LocalQueues may point to the queue."""
    preemption: ClusterQueuePreemption = Field(default_factory=ClusterQueuePreemption)
    """Preemption policies."""
    stop_policy: StopPolicy = "None"
    """None: admit; Hold: admit nothing new; HoldAndDrain: also evict the admitted workloads."""
    fair_sharing: FairSharing | None = None
    """The queue's fair-sharing weight in its cohort."""


class ClusterQueueSpec(_ClusterQueueSpecCommon):
    """kueue.x-k8s.io/v1beta2 ClusterQueue spec."""

    field_rules = {**_ClusterQueueSpecCommon.field_rules, "cohortName": "R-CQ-21"}
    field_hints = {"cohort": "v1beta2 calls it cohortName (cohort is v1beta1)",
                   "admissionChecks": "v1beta2 has only admissionChecksStrategy.admissionChecks[].name"}

    cohort_name: Annotated[DnsSubdomain | None, OmitEmpty] = None
    """Cohort the queue borrows and lends in."""
    flavor_fungibility: FlavorFungibility = Field(default_factory=FlavorFungibility)
    """How Kueue picks a flavor when one fits only by borrowing or preempting."""
    admission_checks_strategy: AdmissionChecksStrategy | None = None
    """Admission checks a workload must pass, per flavor."""
    admission_scope: AdmissionScope | None = None
    """Admission fair sharing among the queue's LocalQueues."""
    concurrent_admission_policy: ConcurrentAdmissionPolicy | None = None
    """Moving admitted workloads to preferred flavors."""


class ClusterQueueSpecV1Beta1(_ClusterQueueSpecCommon):
    """kueue.x-k8s.io/v1beta1 ClusterQueue spec: `cohort` and top-level `admissionChecks`."""

    field_rules = {**_ClusterQueueSpecCommon.field_rules, "cohort": "R-CQ-21", "admissionChecks": "R-CQ-23"}
    field_hints = {"cohortName": "v1beta1 calls it cohort (cohortName is v1beta2)",
                   "concurrentAdmissionPolicy": "only v1beta2 has it"}

    cohort: Annotated[DnsSubdomain | None, OmitEmpty] = None
    """Cohort the queue borrows and lends in."""
    flavor_fungibility: FlavorFungibilityV1Beta1 = Field(default_factory=FlavorFungibilityV1Beta1)
    """How Kueue picks a flavor when one fits only by borrowing or preempting."""
    admission_checks: list[Annotated[StrictStr, Field(min_length=0, max_length=316)]] | None = None
    """Admission checks every workload must pass (or admissionChecksStrategy)."""
    admission_checks_strategy: AdmissionChecksStrategyV1Beta1 | None = None
    """Admission checks a workload must pass, per flavor."""
    admission_scope: AdmissionScopeV1Beta1 | None = None
    """Admission fair sharing among the queue's LocalQueues."""
