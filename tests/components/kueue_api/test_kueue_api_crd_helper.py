"""The real-CRD checker other tests rely on (testkit.kueue_crds) behaves like the API server."""

from __future__ import annotations

from testkit.kueue_objects_data import V1, cq, fq, obj, rg, rq
from testkit.kueue_crds import requires_crds, validate_against_crds

pytestmark = requires_crds


def _messages(o: dict) -> list[str]:
    return [str(e) for e in validate_against_crds(o)]


def test_defaults_are_applied_before_cel() -> None:
    # reclaimWithinCohort defaults to Never, which the CEL rule then sees.
    assert _messages(cq({"preemption": {"borrowWithinCohort": {"policy": "LowerPriority"}}})) == [
        "spec.preemption: reclaimWithinCohort=Never and borrowWithinCohort.Policy!=Never"]


def test_transition_rules_are_skipped_on_create() -> None:
    assert validate_against_crds(obj("LocalQueue", {"clusterQueue": "cq"}, namespace="ns")) == []
    assert validate_against_crds(obj("Topology", {"levels": [{"nodeLabel": "a"}]}, version=V1)) == []


def test_cel_evaluation_errors_reject() -> None:
    (error,) = validate_against_crds(obj("ResourceFlavor", {"topologyName": "t"}))
    assert error.layer == "cel" and "evaluation error" in error.message


def test_list_map_and_set_uniqueness() -> None:
    dup_flavors = cq({"resourceGroups": [rg(fq("f", rq("cpu")), fq("f", rq("cpu")))]})
    assert any("Duplicate" in m for m in _messages(dup_flavors))
    dup_managed = obj("ProvisioningRequestConfig", {"provisioningClassName": "x", "managedResources": ["a", "a"]})
    assert any("Duplicate" in m for m in _messages(dup_managed))


def test_unknown_fields_only_in_strict_mode() -> None:
    typo = cq({"cohort": "x"})
    assert _messages(typo) == ["spec.cohort: unknown field"]
    assert validate_against_crds(typo, strict=False) == []


def test_go_regex_details() -> None:
    parameters = {"apiGroup": "kueue.x-k8s.io", "kind": "provisioningRequestConfig", "name": "c"}
    assert validate_against_crds(obj("AdmissionCheck", {"controllerName": "c", "parameters": parameters})) == []
    assert validate_against_crds(obj("LocalQueue", {"clusterQueue": "cq\n"}, namespace="ns"))


def test_int_or_string_and_doubles() -> None:
    assert validate_against_crds(cq({"resourceGroups": [rg(fq("f", rq("cpu", 8.0)))]})) == []
    assert validate_against_crds(cq({"resourceGroups": [rg(fq("f", rq("cpu", 0.5)))]}))
    assert validate_against_crds(cq({"resourceGroups": [rg(fq("f", rq("cpu", True)))]}))


def test_nulls_are_pruned_and_names_required() -> None:
    assert validate_against_crds(cq({"cohortName": None})) == []
    assert _messages({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Cohort"}) == [
        "metadata.name: name or generateName is required"]


def test_unserved_versions() -> None:
    assert _messages(obj("Cohort", {}, version="kueue.x-k8s.io/v1alpha1")) == [
        "apiVersion: no served CRD version for Cohort kueue.x-k8s.io/v1alpha1"]
