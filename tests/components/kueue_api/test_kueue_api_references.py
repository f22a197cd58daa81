"""Cross-object references for the policy pack's advisory checks."""

from __future__ import annotations

from gkecap.components.kueue_api import Reference, references
from testkit.kueue_objects_data import V1, cq, fq, obj, rg, rq


def test_cluster_queue_references_flavors_cohort_and_checks() -> None:
    queue = cq({"cohortName": "research", "resourceGroups": [rg(fq("h100", rq("nvidia.com/gpu", 8))),
                                                             rg(fq("cpu-pool", rq("cpu", 8)))],
                "admissionChecksStrategy": {"admissionChecks": [{"name": "dws-prov", "onFlavors": ["h100"]}]}})
    assert references(queue) == [
        Reference("ResourceFlavor", "h100", "spec.resourceGroups[0].flavors[0].name"),
        Reference("ResourceFlavor", "cpu-pool", "spec.resourceGroups[1].flavors[0].name"),
        Reference("Cohort", "research", "spec.cohortName", must_exist=False),
        Reference("AdmissionCheck", "dws-prov", "spec.admissionChecksStrategy.admissionChecks[0].name"),
    ]


def test_v1beta1_cluster_queue_uses_cohort_and_admission_checks() -> None:
    queue = cq({"cohort": "research", "admissionChecks": ["dws-prov"]}, version=V1)
    assert references(queue) == [Reference("Cohort", "research", "spec.cohort", must_exist=False),
                                 Reference("AdmissionCheck", "dws-prov", "spec.admissionChecks[0]")]


def test_admission_check_references_its_provisioning_request_config() -> None:
    check = obj("AdmissionCheck", {"controllerName": "kueue.x-k8s.io/provisioning-request", "parameters": {
        "apiGroup": "kueue.x-k8s.io", "kind": "ProvisioningRequestConfig", "name": "dws-config"}})
    assert references(check) == [Reference("ProvisioningRequestConfig", "dws-config", "spec.parameters.name")]


def test_local_queue_flavor_and_cohort_references() -> None:
    assert references(obj("LocalQueue", {"clusterQueue": "team-a"}, namespace="a")) == [
        Reference("ClusterQueue", "team-a", "spec.clusterQueue")]
    assert references(obj("ResourceFlavor", {"topologyName": "gke", "nodeLabels": {"a": "b"}})) == [
        Reference("Topology", "gke", "spec.topologyName")]
    assert references(obj("Cohort", {"parentName": "org"})) == [
        Reference("Cohort", "org", "spec.parentName", must_exist=False)]


def test_malformed_objects_have_no_references() -> None:
    assert references(obj("ClusterQueue", {"resourceGroups": "oops", "cohortName": 3})) == []
    assert references({"apiVersion": "v1", "kind": "ConfigMap"}) == []
    assert references(obj("Topology", {"levels": [{"nodeLabel": "a"}]})) == []
