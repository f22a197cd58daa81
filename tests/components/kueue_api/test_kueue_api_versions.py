"""v1beta1 versus v1beta2, unknown versions and kinds, and Go's omitempty semantics."""

from __future__ import annotations

import pytest

from gkecap.components.kueue_api import validate_kueue_object
from testkit.kueue_objects_data import V1, V2, cq, fq, obj, rg, rq
from testkit.kueue_crds import requires_crds, validate_against_crds

GROUP_WITH_BORROWING = rg(fq("h100", rq("nvidia.com/gpu", 8, 4)))


def _rules(o: dict) -> set[str]:
    return {v.rule for v in validate_kueue_object(o)}


def test_v1beta1_cohort_field_enables_borrowing() -> None:
    assert validate_kueue_object(cq({"cohort": "research", "resourceGroups": [GROUP_WITH_BORROWING]},
                                    version=V1)) == []


def test_v1beta2_needs_cohort_name_for_borrowing() -> None:
    assert _rules(cq({"cohort": "research", "resourceGroups": [GROUP_WITH_BORROWING]})) == {"R-FIELD-1", "R-CQ-7"}


def test_unknown_field_message_points_at_the_new_name() -> None:
    (violation,) = [v for v in validate_kueue_object(cq({"cohort": "research"})) if v.rule == "R-FIELD-1"]
    assert violation.path == "spec.cohort" and "cohortName" in violation.message


def test_v1beta1_only_fields_are_unknown_in_v1beta2() -> None:
    assert _rules(cq({"admissionChecks": ["dws-prov"]})) == {"R-FIELD-1"}
    assert validate_kueue_object(cq({"admissionChecks": ["dws-prov"]}, version=V1)) == []


def test_v1beta1_fungibility_values() -> None:
    spec = {"flavorFungibility": {"whenCanBorrow": "Borrow", "whenCanPreempt": "Preempt"}}
    assert validate_kueue_object(cq(spec, version=V1)) == []
    assert _rules(cq(spec)) == {"R-CQ-22"}


def test_v1beta1_admission_checks_win_over_strategy_on_flavors() -> None:
    # Conversion to v1beta2 replaces the strategy with admissionChecks, so its onFlavors are never checked.
    spec = {"resourceGroups": [rg(fq("a", rq("cpu")))], "admissionChecks": ["x"],
            "admissionChecksStrategy": {"admissionChecks": [{"name": "y", "onFlavors": ["missing"]}]}}
    assert validate_kueue_object(cq(spec, version=V1)) == []
    spec.pop("admissionChecks")
    assert _rules(cq(spec, version=V1)) == {"R-CQ-16"}


def test_v1beta1_description_of_priority_class_is_unbounded() -> None:
    assert validate_kueue_object(obj("WorkloadPriorityClass", version=V1, value=1, description="d" * 3000)) == []
    assert _rules(obj("WorkloadPriorityClass", version=V2, value=1, description="d" * 3000)) == {"R-WPC-2"}


@pytest.mark.parametrize("version", ["kueue.x-k8s.io/v1alpha1", "kueue.x-k8s.io/v1", "kueue.x-k8s.io/v1beta3"])
def test_unserved_versions_are_violations(version: str) -> None:
    (violation,) = validate_kueue_object(obj("Cohort", {}, version=version))
    assert violation.rule == "R-API-1" and violation.path == "apiVersion" and "v1beta2" in violation.message


@pytest.mark.parametrize("kind", ["Workload", "WorkloadPriorityClassList", "ClusterProfile"])
def test_other_kueue_kinds_are_out_of_scope(kind: str) -> None:
    assert validate_kueue_object(obj(kind, {"anything": "@!"})) == []


@pytest.mark.parametrize("thing", [None, "text", [], {"apiVersion": "v1", "kind": "Namespace"},
                                   {"apiVersion": "batch/v1", "kind": "ClusterQueue", "spec": {"x": 1}},
                                   {"kind": "ClusterQueue"}])
def test_non_kueue_objects_are_ignored(thing: object) -> None:
    assert validate_kueue_object(thing) == []


def test_go_omits_empty_optional_strings() -> None:
    # Kueue's Go types mark these omitempty: a Go client never sends "", so "" means "unset" (then defaulted).
    spec = {"cohortName": "", "queueingStrategy": "", "flavorFungibility": {"whenCanBorrow": ""},
            "preemption": {"reclaimWithinCohort": "", "withinClusterQueue": ""}}
    assert validate_kueue_object(cq(spec)) == []
    assert _rules(cq({"cohortName": "", "resourceGroups": [GROUP_WITH_BORROWING]})) == {"R-CQ-7"}


def test_pointer_fields_keep_an_empty_string() -> None:
    # stopPolicy and topologyName are pointers in Go: "" is sent and rejected.
    assert _rules(cq({"stopPolicy": ""})) == {"R-CQ-22"}
    assert "R-RF-6" in _rules(obj("ResourceFlavor", {"topologyName": "", "nodeLabels": {"a": "b"}}))


def test_nulls_mean_unset() -> None:
    assert validate_kueue_object(cq({"cohortName": None, "resourceGroups": None, "fairSharing": None})) == []


def test_missing_name_can_be_left_to_pulumi_autonaming() -> None:
    nameless = {"apiVersion": V2, "kind": "Cohort", "metadata": {}, "spec": {}}
    assert _rules(nameless) == {"R-META-1"}
    assert validate_kueue_object(nameless, require_name=False) == []


@requires_crds
def test_the_real_crds_also_distinguish_cohort_fields() -> None:
    assert validate_against_crds(cq({"cohort": "research", "resourceGroups": [GROUP_WITH_BORROWING]},
                                    version=V1)) == []
    assert validate_against_crds(cq({"cohort": "research", "resourceGroups": [GROUP_WITH_BORROWING]}))
