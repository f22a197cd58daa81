"""Builders: random valid inputs give objects that we and the real CRDs (schema + CEL) accept; bad inputs raise
one error listing every violation."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import gkecap.components.kueue_api as k
from gkecap.components.kueue_api import KueueValidationError, Quota, validate_kueue_object
from testkit.kueue_crds import crds_available, validate_against_crds

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

names = st.from_regex(r"[a-z]([a-z0-9-]{0,8}[a-z0-9])?", fullmatch=True)
versions = st.sampled_from([k.V1BETA1, k.V1BETA2])
resource_names = st.sampled_from(["cpu", "memory", "nvidia.com/gpu", "google.com/tpu", "ephemeral-storage",
                                  "example.com/credits"])
suffixes = st.sampled_from(["", "m", "k", "Ki", "Mi", "Gi", "Ti"])
weights = st.sampled_from([0, 1, 3, "0.5", "2", "1m", "2n", "1.5"])


def _accepted_everywhere(obj: dict[str, Any]) -> None:
    assert validate_kueue_object(obj) == []
    if crds_available():
        assert validate_against_crds(obj) == [], obj


@st.composite
def quotas(draw: st.DrawFn, in_cohort: bool) -> Quota:
    nominal = draw(st.integers(0, 10**6))
    suffix = draw(suffixes)
    borrowing = lending = None
    if in_cohort and draw(st.booleans()):
        borrowing = f"{draw(st.integers(0, 10**6))}{suffix}"
    if in_cohort and draw(st.booleans()):
        lending = f"{draw(st.integers(0, nominal))}{suffix}"
    return Quota(nominal if suffix == "" and draw(st.booleans()) else f"{nominal}{suffix}", borrowing, lending)


@st.composite
def resource_groups(draw: st.DrawFn, in_cohort: bool) -> list[dict[str, Any]]:
    resources = draw(st.lists(resource_names, min_size=1, max_size=5, unique=True))
    flavors = draw(st.lists(names, min_size=1, max_size=4, unique=True))
    cut_r = draw(st.integers(1, len(resources)))
    cut_f = draw(st.integers(1, len(flavors)))
    groups = []
    for group_resources, group_flavors in ((resources[:cut_r], flavors[:cut_f]), (resources[cut_r:], flavors[cut_f:])):
        if not group_resources or not group_flavors:
            continue
        groups.append(k.resource_group([k.flavor_quotas(f, {r: draw(quotas(in_cohort)) for r in group_resources})
                                        for f in group_flavors]))
    return groups


@st.composite
def preemptions(draw: st.DrawFn) -> dict[str, Any]:
    reclaim = draw(st.sampled_from(["Never", "LowerPriority", "Any"]))
    policy = "Never" if reclaim == "Never" else draw(st.sampled_from(["Never", "LowerPriority"]))
    preemption: dict[str, Any] = {"reclaimWithinCohort": reclaim,
                                  "withinClusterQueue": draw(st.sampled_from(["Never", "LowerPriority",
                                                                              "LowerOrNewerEqualPriority"])),
                                  "borrowWithinCohort": {"policy": policy}}
    if draw(st.booleans()):
        preemption["borrowWithinCohort"]["maxPriorityThreshold"] = draw(st.integers(-(2**31), 2**31 - 1))
    return preemption


@st.composite
def fungibilities(draw: st.DrawFn) -> dict[str, Any]:
    borrow = draw(st.sampled_from(["MayStopSearch", "TryNextFlavor"]))
    preempt = draw(st.sampled_from(["MayStopSearch", "TryNextFlavor"]))
    fungibility = {"whenCanBorrow": borrow, "whenCanPreempt": preempt}
    if borrow == preempt == "TryNextFlavor" and draw(st.booleans()):
        fungibility["preference"] = draw(st.sampled_from(["BorrowingOverPreemption", "PreemptionOverBorrowing"]))
    return fungibility


@st.composite
def cluster_queues(draw: st.DrawFn) -> dict[str, Any]:
    cohort = draw(st.one_of(st.none(), names))
    groups = draw(resource_groups(cohort is not None))
    flavors = [f["name"] for g in groups for f in g["flavors"]]
    checks = draw(st.dictionaries(names, st.one_of(st.none(), st.lists(st.sampled_from(flavors), unique=True,
                                                                       max_size=3)), max_size=2))
    return k.cluster_queue(
        draw(names), resource_groups=groups, cohort=cohort, api_version=draw(versions),
        namespace_selector=draw(st.sampled_from([{}, {"matchLabels": {"kubernetes.io/metadata.name": "team"}},
                                                 {"matchExpressions": [{"key": "team", "operator": "In",
                                                                        "values": ["a", "b"]}]}])),
        queueing_strategy=draw(st.sampled_from([None, "StrictFIFO", "BestEffortFIFO"])),
        preemption=draw(st.one_of(st.none(), preemptions())), flavor_fungibility=draw(st.one_of(st.none(),
                                                                                                fungibilities())),
        fair_sharing_weight=draw(st.one_of(st.none(), weights)), admission_checks=checks or None,
        stop_policy=draw(st.sampled_from([None, "None", "Hold", "HoldAndDrain"])))


@SETTINGS
@given(cluster_queues())
def test_random_cluster_queues_are_accepted(queue: dict[str, Any]) -> None:
    _accepted_everywhere(queue)


@SETTINGS
@given(names, st.one_of(st.none(), names), versions, st.data())
def test_random_cohorts_are_accepted(name: str, parent: str | None, version: str, data: st.DataObject) -> None:
    groups = data.draw(resource_groups(parent is not None))
    _accepted_everywhere(k.cohort(name, parent=parent, resource_groups=groups, api_version=version,
                                  fair_sharing_weight=data.draw(st.one_of(st.none(), weights))))


label_keys = st.sampled_from(["cloud.google.com/gke-nodepool", "cloud.google.com/gke-accelerator", "pool",
                              "example.com/tier", "node.kubernetes.io/instance-type"])
label_values = st.from_regex(r"([a-z0-9]([-a-z0-9_.]{0,10}[a-z0-9])?)?", fullmatch=True)
effects = st.sampled_from(["NoSchedule", "PreferNoSchedule", "NoExecute"])


@st.composite
def tolerations(draw: st.DrawFn) -> dict[str, Any]:
    toleration: dict[str, Any] = {"key": draw(label_keys)}
    if draw(st.booleans()):
        toleration["operator"] = "Exists"
    else:
        toleration.update(operator="Equal", value=draw(label_values))
    effect = draw(st.one_of(st.none(), effects))
    if effect:
        toleration["effect"] = effect
    if effect == "NoExecute" and draw(st.booleans()):
        toleration["tolerationSeconds"] = draw(st.integers(0, 3600))
    return toleration


@SETTINGS
@given(names, versions, st.dictionaries(label_keys, label_values, min_size=1, max_size=5),
       st.lists(st.tuples(label_keys, label_values, effects), max_size=4, unique_by=lambda t: (t[0], t[2])),
       st.lists(tolerations(), max_size=3), st.one_of(st.none(), names))
def test_random_resource_flavors_are_accepted(name: str, version: str, labels: dict[str, str],
                                              taints: list[tuple[str, str, str]], tols: list[dict[str, Any]],
                                              topology: str | None) -> None:
    _accepted_everywhere(k.resource_flavor(
        name, node_labels=labels, node_taints=[{"key": key, "value": value, "effect": effect}
                                               for key, value, effect in taints],
        tolerations=tols, topology_name=topology, api_version=version))


@SETTINGS
@given(names, names, names, versions, st.one_of(st.none(), weights))
def test_random_local_queues_are_accepted(name: str, namespace: str, queue: str, version: str, weight: Any) -> None:
    _accepted_everywhere(k.local_queue(name, namespace, queue, api_version=version, fair_sharing_weight=weight))


@SETTINGS
@given(names, names, versions, st.lists(resource_names, unique=True, max_size=3),
       st.dictionaries(names, st.text(max_size=20), max_size=3),
       st.lists(label_keys, unique=True, max_size=3), st.sampled_from([None, "IdenticalPodTemplates",
                                                                       "IdenticalWorkloadSchedulingRequirements"]))
def test_random_dws_configs_are_accepted(name: str, check: str, version: str, managed: list[str],
                                         params: dict[str, str], selector_keys: list[str], merge: str | None) -> None:
    _accepted_everywhere(k.provisioning_request_config(
        name, managed_resources=managed, parameters=params, api_version=version, pod_set_merge_policy=merge,
        retry_strategy={"backoffLimitCount": 0, "backoffBaseSeconds": 30, "backoffMaxSeconds": 600},
        pod_set_updates_node_selector=[(key, "ResizeRequestName") for key in selector_keys]))
    _accepted_everywhere(k.provisioning_admission_check(check, name, api_version=version))


@SETTINGS
@given(names, versions, st.lists(label_keys.filter(lambda key: key != "kubernetes.io/hostname"), min_size=1,
                                 max_size=4, unique=True), st.booleans(),
       st.integers(-(2**31), 2**31 - 1), st.text(max_size=100))
def test_random_topologies_and_priority_classes_are_accepted(name: str, version: str, levels: list[str],
                                                             hostname: bool, value: int, description: str) -> None:
    _accepted_everywhere(k.topology(name, levels + (["kubernetes.io/hostname"] if hostname else []),
                                    api_version=version))
    _accepted_everywhere(k.workload_priority_class(name, value, description or None, api_version=version))


def test_builder_output_is_plain_camel_case() -> None:
    queue = k.cluster_queue("team-a", cohort="research", resource_groups=[k.resource_group(
        [k.flavor_quotas("h100", {"nvidia.com/gpu": Quota(8, borrowing_limit=8, lending_limit="4"), "cpu": "200"})])],
        fair_sharing_weight=2)
    assert queue == {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue", "metadata": {"name": "team-a"},
                     "spec": {"cohortName": "research", "fairSharing": {"weight": 2}, "resourceGroups": [{
                         "coveredResources": ["nvidia.com/gpu", "cpu"], "flavors": [{"name": "h100", "resources": [
                             {"name": "nvidia.com/gpu", "nominalQuota": 8, "borrowingLimit": 8, "lendingLimit": "4"},
                             {"name": "cpu", "nominalQuota": "200"}]}]}]}}


def test_v1beta1_builder_uses_cohort() -> None:
    assert k.cluster_queue("q", cohort="research", api_version=k.V1BETA1)["spec"] == {"cohort": "research"}


def test_builder_raises_with_every_violation() -> None:
    with pytest.raises(KueueValidationError) as caught:
        k.cluster_queue("Team_A", resource_groups=[k.resource_group(
            [k.flavor_quotas("h100", {"nvidia.com/gpu": Quota(1, lending_limit=2)})])], fair_sharing_weight="-1")
    rules = {v.rule for v in caught.value.violations}
    assert rules == {"R-META-1", "R-CQ-8", "R-CQ-12"}
    assert "ClusterQueue 'Team_A'" in str(caught.value) and "lendingLimit 2" in str(caught.value)


def test_typed_spec_models_build_manifests() -> None:
    spec = k.ClusterQueueSpec(cohort_name="research", resource_groups=[k.ResourceGroup(
        covered_resources=["cpu"], flavors=[k.FlavorQuotas(name="f", resources=[
            k.ResourceQuota(name="cpu", nominal_quota="500m", lending_limit=0)])])])
    manifest = k.manifest("ClusterQueue", "q", spec)
    assert manifest["spec"] == {"cohortName": "research", "resourceGroups": [{"coveredResources": ["cpu"], "flavors": [
        {"name": "f", "resources": [{"name": "cpu", "nominalQuota": "500m", "lendingLimit": 0}]}]}]}
    assert validate_kueue_object(manifest) == []


def test_cluster_queue_cohort_field_follows_short_and_full_api_versions():
    from gkecap.components.kueue_api import cluster_queue

    for version in ("v1beta2", "kueue.x-k8s.io/v1beta2"):
        assert cluster_queue("a", cohort="research", api_version=version)["spec"]["cohortName"] == "research"
    for version in ("v1beta1", "kueue.x-k8s.io/v1beta1"):
        spec = cluster_queue("a", cohort="research", api_version=version)["spec"]
        assert spec["cohort"] == "research" and "cohortName" not in spec
