"""The rule table: one or more invalid objects per create-time rule of KUEUE_VALIDATION.md, with what the real
CRDs must do with each (reject: schema/CEL rules; accept: webhook-only rules, or where Go is stricter)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from testkit.kueue_objects_data import V1, cq, fq, obj, rg, rq

REJECT, ACCEPT, UNCHECKED = "reject", "accept", "unchecked"  # what the real CRDs must do with the case


@dataclass(frozen=True)
class Case:
    id: str
    rule: str
    obj: dict[str, Any]
    crd: str  # REJECT for schema/CEL rules, ACCEPT for webhook-only (or stricter-by-design) ones
    v1beta1: bool = True  # also check the v1beta1 form


def _flavors(n: int, resource: str = "cpu", prefix: str = "f") -> list[dict[str, Any]]:
    return [fq(f"{prefix}{i}", rq(resource, 1)) for i in range(n)]


def _wide_group(resources: list[str], flavor: str) -> dict[str, Any]:
    return rg(fq(flavor, *[rq(r, 1) for r in resources]))


CQ_NS = {"namespaceSelector": {}}
OK_GROUP = rg(fq("default", rq("cpu", 9), rq("memory", "36Gi")))

CASES = [
    # --- ClusterQueue -------------------------------------------------------------------------------------
    Case("cq-invalid-resource-name", "R-CQ-1", cq({"resourceGroups": [rg(fq("x86", rq("@cpu", 5)))]}), ACCEPT),
    Case("cq-resource-in-two-groups", "R-CQ-2", cq({"resourceGroups": [
        rg(fq("alpha", rq("cpu"), rq("memory"))), rg(fq("beta", rq("memory")))]}), ACCEPT),
    Case("cq-flavor-in-two-groups", "R-CQ-3", cq({"resourceGroups": [
        rg(fq("alpha", rq("cpu")), fq("beta", rq("cpu"))), rg(fq("beta", rq("memory")))]}), ACCEPT),
    Case("cq-resources-out-of-order", "R-CQ-4", cq({"resourceGroups": [rg(
        fq("alpha", rq("cpu"), rq("memory")), fq("beta", rq("memory"), rq("cpu")), covered=["cpu", "memory"])]}),
        ACCEPT),
    Case("cq-negative-nominal", "R-CQ-5", cq({"resourceGroups": [rg(fq("x86", rq("cpu", "-1")))]}), ACCEPT),
    Case("cq-negative-borrowing", "R-CQ-6", cq({"cohortName": "c", "resourceGroups": [
        rg(fq("x86", rq("cpu", "2", "-1")))]}), ACCEPT),
    Case("cq-borrowing-without-cohort", "R-CQ-7", cq({"resourceGroups": [rg(fq("x86", rq("cpu", 1, 1)))]}),
         REJECT),
    Case("cq-lending-above-nominal", "R-CQ-8", cq({"cohortName": "c", "resourceGroups": [
        rg(fq("x86", rq("cpu", "1", lending="2")))]}), ACCEPT),
    Case("cq-lending-above-nominal-units", "R-CQ-8", cq({"cohortName": "c", "resourceGroups": [
        rg(fq("x86", rq("memory", "1Gi", lending="1.1G")))]}), ACCEPT),
    Case("cq-lending-without-cohort", "R-CQ-8", cq({"resourceGroups": [rg(fq("x86", rq("cpu", 1, lending=1)))]}),
         ACCEPT),
    Case("cq-negative-lending", "R-CQ-8", cq({"cohortName": "c", "resourceGroups": [
        rg(fq("x86", rq("cpu", 1, lending="-1")))]}), ACCEPT),
    Case("cq-selector-bad-label-key", "R-CQ-9", cq({"namespaceSelector": {"matchLabels": {
        "nospecialchars^=@": "bar"}}}), ACCEPT),
    Case("cq-selector-bad-label-value", "R-CQ-9", cq({"namespaceSelector": {"matchLabels": {"team": "a b"}}}),
         ACCEPT),
    Case("cq-selector-in-without-values", "R-CQ-9", cq({"namespaceSelector": {"matchExpressions": [
        {"key": "key", "operator": "In"}]}}), ACCEPT),
    Case("cq-selector-exists-with-values", "R-CQ-9", cq({"namespaceSelector": {"matchExpressions": [
        {"key": "key", "operator": "Exists", "values": ["a"]}]}}), ACCEPT),
    Case("cq-selector-bad-operator", "R-CQ-9", cq({"namespaceSelector": {"matchExpressions": [
        {"key": "key", "operator": "Equals", "values": ["a"]}]}}), ACCEPT),
    Case("cq-reclaim-never-borrow-within", "R-CQ-10", cq({"preemption": {
        "reclaimWithinCohort": "Never", "borrowWithinCohort": {"policy": "LowerPriority"}}}), REJECT),
    Case("cq-default-reclaim-borrow-within", "R-CQ-10", cq({"preemption": {
        "borrowWithinCohort": {"policy": "LowerPriority"}}}), REJECT),
    Case("cq-preference-without-try-next", "R-CQ-11", cq({"flavorFungibility": {
        "preference": "BorrowingOverPreemption"}}), REJECT),
    Case("cq-preference-with-may-stop", "R-CQ-11", cq({"flavorFungibility": {
        "whenCanBorrow": "TryNextFlavor", "whenCanPreempt": "MayStopSearch",
        "preference": "PreemptionOverBorrowing"}}), REJECT),
    Case("cq-negative-weight", "R-CQ-12", cq({"fairSharing": {"weight": "-1"}}), ACCEPT),
    Case("cq-threshold-weight", "R-CQ-12", cq({"fairSharing": {"weight": "1n"}}), ACCEPT),
    Case("cq-collapsed-weight", "R-CQ-12", cq({"fairSharing": {"weight": "0.0000000001"}}), ACCEPT),
    Case("cq-257-flavors", "R-CQ-13", cq({"resourceGroups": [
        rg(*_flavors(64, f"r{g}", f"g{g}f")) for g in range(4)] + [rg(*_flavors(1, "r4", "g4f"))]}), ACCEPT),
    Case("cq-257-resources", "R-CQ-14", cq({"resourceGroups": [
        _wide_group([f"r{g}-{i}" for i in range(52 if g < 4 else 49)], f"flavor{g}") for g in range(5)]}), ACCEPT),
    Case("cq-576-combinations", "R-CQ-15", cq({"resourceGroups": [rg(*[
        fq(f"f{i}", *[rq(f"r{j}") for j in range(9)]) for i in range(64)])]}), ACCEPT),
    Case("cq-on-flavors-unknown", "R-CQ-16", cq({"resourceGroups": [OK_GROUP], "admissionChecksStrategy": {
        "admissionChecks": [{"name": "dws", "onFlavors": ["default", "h100"]}]}}), ACCEPT),
    Case("cq-no-flavors", "R-CQ-19", cq({"resourceGroups": [{"coveredResources": [], "flavors": []}]}), REJECT),
    Case("cq-flavor-without-resources", "R-CQ-19", cq({"resourceGroups": [
        {"coveredResources": ["cpu"], "flavors": [{"name": "foo"}]}]}), REJECT),
    Case("cq-65-resources", "R-CQ-19", cq({"resourceGroups": [_wide_group([f"r{i}" for i in range(65)], "f")]}),
         REJECT),
    Case("cq-65-flavors", "R-CQ-19", cq({"resourceGroups": [rg(*_flavors(65))]}), REJECT),
    Case("cq-17-groups", "R-CQ-19", cq({"resourceGroups": [rg(fq(f"f{i}", rq(f"r{i}"))) for i in range(17)]}),
         REJECT),
    Case("cq-missing-nominal", "R-CQ-19", cq({"resourceGroups": [rg(fq("f", {"name": "cpu"}))]}), REJECT),
    Case("cq-duplicate-flavor-in-group", "R-CQ-19", cq({"resourceGroups": [rg(fq("f", rq("cpu")),
                                                                              fq("f", rq("cpu")))]}), REJECT),
    Case("cq-resource-count-mismatch", "R-CQ-20", cq({"resourceGroups": [
        rg(fq("alpha", rq("cpu")), covered=["cpu", "memory"])]}), REJECT),
    Case("cq-resource-count-mismatch-more", "R-CQ-20", cq({"resourceGroups": [
        rg(fq("alpha", rq("cpu"), rq("memory")), covered=["blah"])]}), REJECT),
    Case("cq-flavor-name-underscore", "R-CQ-21", cq({"resourceGroups": [rg(fq("invalid_name", rq("cpu", 5)))]}),
         REJECT),
    Case("cq-cohort-at", "R-CQ-21", cq({"cohortName": "@prod"}), REJECT),
    Case("cq-on-flavors-bad-name", "R-CQ-21", cq({"resourceGroups": [OK_GROUP], "admissionChecksStrategy": {
        "admissionChecks": [{"name": "dws", "onFlavors": ["Default"]}]}}), REJECT),
    Case("cq-unknown-queueing", "R-CQ-22", cq({"queueingStrategy": "unknown"}), REJECT),
    Case("cq-unknown-reclaim", "R-CQ-22", cq({"preemption": {"reclaimWithinCohort": "unknown"}}), REJECT),
    Case("cq-unknown-within", "R-CQ-22", cq({"preemption": {"withinClusterQueue": "unknown"}}), REJECT),
    Case("cq-unknown-stop-policy", "R-CQ-22", cq({"stopPolicy": "Pause"}), REJECT),
    Case("cq-borrow-v1beta1-value", "R-CQ-22", cq({"flavorFungibility": {"whenCanBorrow": "Borrow"}}), REJECT,
         v1beta1=False),
    Case("cq-unknown-admission-mode", "R-CQ-22", cq({"admissionScope": {"admissionMode": "Sometimes"}}), REJECT,
         v1beta1=False),
    Case("cq-unknown-migration-mode", "R-CQ-22", cq({"concurrentAdmissionPolicy": {"migration": {
        "mode": "Sometimes"}}}), REJECT, v1beta1=False),
    Case("cq-empty-admission-checks", "R-CQ-23", cq({"admissionChecksStrategy": {"admissionChecks": []}}), REJECT,
         v1beta1=False),
    Case("cq-duplicate-admission-checks", "R-CQ-23", cq({"admissionChecksStrategy": {"admissionChecks": [
        {"name": "a"}, {"name": "a"}]}}), REJECT, v1beta1=False),
    Case("cq-long-admission-check-name", "R-CQ-23", cq({"admissionChecksStrategy": {"admissionChecks": [
        {"name": "a" * 317}]}}), REJECT),
    # --- LocalQueue ---------------------------------------------------------------------------------------
    Case("lq-bad-cluster-queue", "R-LQ-2", obj("LocalQueue", {"clusterQueue": "invalid_name"}, namespace="ns"),
         REJECT),
    Case("lq-unknown-stop-policy", "R-LQ-3", obj("LocalQueue", {"clusterQueue": "cq", "stopPolicy": "Pause"},
                                                  namespace="ns"), REJECT),
    Case("lq-bad-weight", "R-LQ-3", obj("LocalQueue", {"clusterQueue": "cq", "fairSharing": {"weight": "heavy"}},
                                        namespace="ns"), REJECT),
    # --- ResourceFlavor -----------------------------------------------------------------------------------
    Case("rf-bad-label-key", "R-RF-1", obj("ResourceFlavor", {"nodeLabels": {"@abc": "foo"}}), ACCEPT),
    Case("rf-bad-label-value", "R-RF-1", obj("ResourceFlavor", {"nodeLabels": {"foo": "@abc"}}), ACCEPT),
    Case("rf-bad-taint-key", "R-RF-2", obj("ResourceFlavor", {"nodeTaints": [
        {"key": "@foo", "value": "bar", "effect": "NoSchedule"}]}), ACCEPT),
    Case("rf-empty-taint-key", "R-RF-2", obj("ResourceFlavor", {"nodeTaints": [
        {"key": "", "effect": "NoSchedule"}]}), ACCEPT),
    Case("rf-bad-taint-value", "R-RF-2", obj("ResourceFlavor", {"nodeTaints": [
        {"key": "spot", "value": "not ok", "effect": "NoSchedule"}]}), ACCEPT),
    Case("rf-duplicate-taint", "R-RF-2", obj("ResourceFlavor", {"nodeTaints": [
        {"key": "spot", "value": "a", "effect": "NoSchedule"}, {"key": "spot", "value": "b",
                                                               "effect": "NoSchedule"}]}), ACCEPT),
    Case("rf-bad-toleration-key", "R-RF-3", obj("ResourceFlavor", {"tolerations": [
        {"key": "@abc", "operator": "Equal", "value": "v", "effect": "NoSchedule"}]}), ACCEPT),
    Case("rf-topology-without-labels", "R-RF-4", obj("ResourceFlavor", {"topologyName": "default"}), REJECT),
    Case("rf-topology-empty-labels", "R-RF-4", obj("ResourceFlavor", {"topologyName": "default",
                                                                       "nodeLabels": {}}), REJECT),
    Case("rf-9-labels", "R-RF-6", obj("ResourceFlavor", {"nodeLabels": {f"l{i}": "" for i in range(9)}}), REJECT),
    Case("rf-9-taints", "R-RF-6", obj("ResourceFlavor", {"nodeTaints": [
        {"key": f"t{i}", "effect": "NoExecute"} for i in range(9)]}), REJECT),
    Case("rf-taint-without-effect", "R-RF-6", obj("ResourceFlavor", {"nodeTaints": [{"key": "skdajf"}]}), REJECT),
    Case("rf-9-tolerations", "R-RF-6", obj("ResourceFlavor", {"tolerations": [
        {"key": f"t{i}", "operator": "Exists"} for i in range(9)]}), REJECT),
    Case("rf-bad-topology-name", "R-RF-6", obj("ResourceFlavor", {"nodeLabels": {"node-group": "tas"},
                                                                   "topologyName": "invalid topology name"}), REJECT),
    Case("rf-taint-effect", "R-RF-7", obj("ResourceFlavor", {"nodeTaints": [
        {"key": "foo", "value": "bar", "effect": "Invalid"}]}), REJECT),
    Case("rf-toleration-no-key-equal", "R-RF-8", obj("ResourceFlavor", {"tolerations": [{"operator": "Equal"}]}),
         REJECT),
    Case("rf-toleration-seconds-no-execute", "R-RF-8", obj("ResourceFlavor", {"tolerations": [
        {"key": "a", "operator": "Exists", "effect": "NoSchedule", "tolerationSeconds": 30}]}), REJECT),
    Case("rf-toleration-operator", "R-RF-8", obj("ResourceFlavor", {"tolerations": [
        {"key": "a", "operator": "In", "value": "v"}]}), REJECT),
    Case("rf-toleration-exists-value", "R-RF-8", obj("ResourceFlavor", {"tolerations": [
        {"key": "abc", "operator": "Exists", "value": "v", "effect": "NoSchedule"}]}), REJECT),
    Case("rf-toleration-effect", "R-RF-8", obj("ResourceFlavor", {"tolerations": [
        {"key": "abc", "operator": "Equal", "value": "v", "effect": "not-valid"}]}), REJECT),
    # --- Cohort -------------------------------------------------------------------------------------------
    Case("co-negative-weight", "R-CO-1", obj("Cohort", {"fairSharing": {"weight": "-1"}}), ACCEPT),
    Case("co-collapsed-weight", "R-CO-1", obj("Cohort", {"fairSharing": {"weight": "0.5n"}}), ACCEPT),
    Case("co-negative-nominal", "R-CO-2", obj("Cohort", {"resourceGroups": [rg(fq("x86", rq("cpu", "-1")))]}),
         ACCEPT),
    Case("co-borrowing-without-parent", "R-CO-2", obj("Cohort", {"resourceGroups": [
        rg(fq("x86", rq("cpu", "1", "1")))]}), ACCEPT),
    Case("co-lending-without-parent", "R-CO-2", obj("Cohort", {"resourceGroups": [
        rg(fq("x86", rq("cpu", "1", lending="1")))]}), ACCEPT),
    Case("co-negative-lending", "R-CO-2", obj("Cohort", {"parentName": "p", "resourceGroups": [
        rg(fq("x86", rq("cpu", "1", lending="-1")))]}), ACCEPT),
    Case("co-bad-resource", "R-CO-2", obj("Cohort", {"resourceGroups": [rg(fq("x86", rq("@cpu", "5")))]}), ACCEPT),
    Case("co-resource-in-two-groups", "R-CO-2", obj("Cohort", {"resourceGroups": [
        rg(fq("alpha", rq("cpu"), rq("memory"))), rg(fq("beta", rq("memory")))]}), ACCEPT),
    Case("co-out-of-order", "R-CO-2", obj("Cohort", {"resourceGroups": [rg(
        fq("alpha", rq("cpu"), rq("memory")), fq("beta", rq("memory"), rq("cpu")), covered=["cpu", "memory"])]}),
        ACCEPT),
    Case("co-bad-parent", "R-CO-3", obj("Cohort", {"parentName": "@prod"}), REJECT),
    Case("co-no-flavors", "R-CO-3", obj("Cohort", {"resourceGroups": [{"coveredResources": [], "flavors": []}]}),
         REJECT),
    Case("co-bad-flavor-name", "R-CO-3", obj("Cohort", {"resourceGroups": [rg(fq("x_86", rq("cpu")))]}), REJECT),
    Case("co-count-mismatch", "R-CO-3", obj("Cohort", {"resourceGroups": [
        rg(fq("alpha", rq("cpu")), covered=["cpu", "memory"])]}), REJECT),
    # --- AdmissionCheck -----------------------------------------------------------------------------------
    Case("ac-no-controller", "R-AC-1", obj("AdmissionCheck", {"parameters": {
        "apiGroup": "ref.api.group", "kind": "RefKind", "name": "ref-name"}}), REJECT),
    Case("ac-empty-controller", "R-AC-1", obj("AdmissionCheck", {"controllerName": ""}), REJECT, v1beta1=False),
    Case("ac-long-controller", "R-AC-1", obj("AdmissionCheck", {"controllerName": "c" * 254}), REJECT,
         v1beta1=False),
    Case("ac-bad-api-group", "R-AC-3", obj("AdmissionCheck", {"controllerName": "c", "parameters": {
        "apiGroup": "ref.api.group/Bad", "kind": "RefKind", "name": "ref-name"}}), REJECT),
    Case("ac-no-api-group", "R-AC-3", obj("AdmissionCheck", {"controllerName": "c", "parameters": {
        "kind": "RefKind", "name": "ref-name"}}), REJECT),
    Case("ac-bad-kind", "R-AC-3", obj("AdmissionCheck", {"controllerName": "c", "parameters": {
        "apiGroup": "ref.api.group", "kind": "RefKind/Bad", "name": "ref-name"}}), REJECT),
    Case("ac-no-kind", "R-AC-3", obj("AdmissionCheck", {"controllerName": "c", "parameters": {
        "apiGroup": "ref.api.group", "name": "ref-name"}}), REJECT),
    Case("ac-bad-name", "R-AC-3", obj("AdmissionCheck", {"controllerName": "c", "parameters": {
        "apiGroup": "ref.api.group", "kind": "RefKind", "name": "ref-name/Bad"}}), REJECT),
    Case("ac-no-name", "R-AC-3", obj("AdmissionCheck", {"controllerName": "c", "parameters": {
        "apiGroup": "ref.api.group", "kind": "RefKind"}}), REJECT),
    # --- ProvisioningRequestConfig ------------------------------------------------------------------------
    Case("prc-no-class", "R-PRC-1", obj("ProvisioningRequestConfig", {"managedResources": ["nvidia.com/gpu"]}),
         REJECT),
    Case("prc-bad-class", "R-PRC-1", obj("ProvisioningRequestConfig", {"provisioningClassName": "Queued_GKE"}),
         REJECT),
    Case("prc-101-parameters", "R-PRC-2", obj("ProvisioningRequestConfig", {
        "provisioningClassName": "queued-provisioning.gke.io", "parameters": {f"p{i}": "v" for i in range(101)}}),
        REJECT),
    Case("prc-long-parameter", "R-PRC-2", obj("ProvisioningRequestConfig", {
        "provisioningClassName": "queued-provisioning.gke.io", "parameters": {"p": "v" * 256}}), REJECT),
    Case("prc-duplicate-managed", "R-PRC-3", obj("ProvisioningRequestConfig", {
        "provisioningClassName": "queued-provisioning.gke.io", "managedResources": ["nvidia.com/gpu"] * 2}),
        REJECT),
    Case("prc-101-managed", "R-PRC-3", obj("ProvisioningRequestConfig", {
        "provisioningClassName": "queued-provisioning.gke.io", "managedResources": [f"r{i}" for i in range(101)]}),
        REJECT),
    Case("prc-9-node-selectors", "R-PRC-4", obj("ProvisioningRequestConfig", {
        "provisioningClassName": "queued-provisioning.gke.io", "podSetUpdates": {"nodeSelector": [
            {"key": f"k{i}", "valueFromProvisioningClassDetail": "d"} for i in range(9)]}}), REJECT),
    Case("prc-selector-without-value", "R-PRC-4", obj("ProvisioningRequestConfig", {
        "provisioningClassName": "queued-provisioning.gke.io", "podSetUpdates": {"nodeSelector": [
            {"key": "autoscaling.gke.io/provisioning-request"}]}}), REJECT),
    Case("prc-selector-bad-key", "R-PRC-4", obj("ProvisioningRequestConfig", {
        "provisioningClassName": "queued-provisioning.gke.io", "podSetUpdates": {"nodeSelector": [
            {"key": "bad key", "valueFromProvisioningClassDetail": "d"}]}}), REJECT),
    Case("prc-selector-duplicate-key", "R-PRC-4", obj("ProvisioningRequestConfig", {
        "provisioningClassName": "queued-provisioning.gke.io", "podSetUpdates": {"nodeSelector": [
            {"key": "k", "valueFromProvisioningClassDetail": "a"},
            {"key": "k", "valueFromProvisioningClassDetail": "b"}]}}), REJECT, v1beta1=False),
    Case("prc-merge-policy", "R-PRC-5", obj("ProvisioningRequestConfig", {
        "provisioningClassName": "queued-provisioning.gke.io", "podSetMergePolicy": "Anything"}), REJECT),
    Case("prc-retry-as-string", "R-PRC-5", obj("ProvisioningRequestConfig", {
        "provisioningClassName": "queued-provisioning.gke.io", "retryStrategy": {"backoffLimitCount": "3"}}),
        REJECT),
    # --- Topology -----------------------------------------------------------------------------------------
    Case("topo-no-levels", "R-TOPO-1", obj("Topology", {}), REJECT),
    Case("topo-empty-levels", "R-TOPO-1", obj("Topology", {"levels": []}), REJECT),
    Case("topo-17-levels", "R-TOPO-1", obj("Topology", {"levels": [{"nodeLabel": f"l{i}"} for i in range(17)]}),
         REJECT),
    Case("topo-bad-label", "R-TOPO-1", obj("Topology", {"levels": [{"nodeLabel": "bad label"}]}), REJECT),
    Case("topo-duplicate", "R-TOPO-2", obj("Topology", {"levels": [{"nodeLabel": "a"}, {"nodeLabel": "a"}]}),
         REJECT),
    Case("topo-hostname-not-last", "R-TOPO-3", obj("Topology", {"levels": [
        {"nodeLabel": "kubernetes.io/hostname"}, {"nodeLabel": "cloud.google.com/gce-topology-block"}]}), REJECT),
    # --- MultiKueueCluster / MultiKueueConfig -------------------------------------------------------------
    Case("mkc-no-source", "R-MKC-1", obj("MultiKueueCluster", {}), REJECT),
    Case("mkc-no-location", "R-MKC-1", obj("MultiKueueCluster", {"clusterSource": {"kubeConfig": {
        "locationType": "Secret"}}}), REJECT),
    Case("mkc-bad-location-type", "R-MKC-1", obj("MultiKueueCluster", {"clusterSource": {"kubeConfig": {
        "location": "w1", "locationType": "ConfigMap"}}}), REJECT),
    Case("mkc-long-profile-name", "R-MKC-1", obj("MultiKueueCluster", {"clusterSource": {
        "clusterProfileRef": {"name": "p" * 257}}}), REJECT, v1beta1=False),
    Case("mkc-neither-source", "R-MKC-2", obj("MultiKueueCluster", {"clusterSource": {}}), REJECT,
         v1beta1=False),
    Case("mkc-both-sources", "R-MKC-2", obj("MultiKueueCluster", {"clusterSource": {
        "kubeConfig": {"location": "w1"}, "clusterProfileRef": {"name": "w1"}}}), REJECT, v1beta1=False),
    Case("mkcfg-no-clusters", "R-MKCFG-1", obj("MultiKueueConfig", {"clusters": []}), REJECT),
    Case("mkcfg-21-clusters", "R-MKCFG-1", obj("MultiKueueConfig", {"clusters": [f"w{i}" for i in range(21)]}),
         REJECT),
    Case("mkcfg-bad-quota-management", "R-MKCFG-1", obj("MultiKueueConfig", {"clusters": ["w1"],
                                                                             "quotaManagement": "Auto"}),
         REJECT, v1beta1=False),
    Case("mkcfg-duplicate-set", "R-MKCFG-1", obj("MultiKueueConfig", {"clusters": ["w1", "w1"]},
                                                 version=V1), REJECT, v1beta1=False),
    Case("mkcfg-duplicate", "R-MKCFG-2", obj("MultiKueueConfig", {"clusters": ["w1", "w2", "w1"]}), REJECT,
         v1beta1=False),
    # --- WorkloadPriorityClass ----------------------------------------------------------------------------
    Case("wpc-no-value", "R-WPC-1", obj("WorkloadPriorityClass", description="x"), REJECT),
    Case("wpc-string-value", "R-WPC-1", obj("WorkloadPriorityClass", value="high"), REJECT),
    Case("wpc-long-description", "R-WPC-2", obj("WorkloadPriorityClass", value=1, description="d" * 2049),
         REJECT, v1beta1=False),  # v1beta1 does not bound it
    # --- API server and generic schema --------------------------------------------------------------------
    Case("api-v1alpha1-topology", "R-API-1", obj("Topology", {"levels": [{"nodeLabel": "a"}]},
                                                 version="kueue.x-k8s.io/v1alpha1"), REJECT, v1beta1=False),
    Case("meta-no-name", "R-META-1", {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Cohort", "metadata": {}},
         REJECT),
    Case("meta-bad-name", "R-META-1", obj("ResourceFlavor", {}, name="Default_Flavor"), REJECT),
    Case("meta-bad-label", "R-META-2", {**obj("Cohort", {}), "metadata": {"name": "c", "labels": {"a b": "c"}}},
         UNCHECKED),
    Case("meta-bad-namespace", "R-META-3", obj("LocalQueue", {"clusterQueue": "cq"}, namespace="Team_A"),
         UNCHECKED),
    Case("unknown-field-cohort-in-v1beta2", "R-FIELD-1", cq({"cohort": "research"}), REJECT, v1beta1=False),
    Case("unknown-field-cohortname-in-v1beta1", "R-FIELD-1", {**cq({"cohortName": "research"}), "apiVersion": V1},
         REJECT, v1beta1=False),
    Case("quantity-bad-suffix", "R-QTY-1", cq({"resourceGroups": [rg(fq("f", rq("memory", "1GB")))]}), REJECT),
    Case("quantity-float", "R-QTY-1", cq({"resourceGroups": [rg(fq("f", rq("cpu", 0.5)))]}), REJECT),
    # Go's ParseQuantity (Kueue's webhook decoding) rejects a fractional exponent the CRD pattern admits.
    Case("quantity-fractional-exponent", "R-QTY-1", cq({"resourceGroups": [rg(fq("f", rq("cpu", "1e2.5")))]}),
         ACCEPT),
    Case("schema-threshold-as-string", "R-SCHEMA-1", cq({"preemption": {
        "reclaimWithinCohort": "Any", "borrowWithinCohort": {"policy": "LowerPriority",
                                                             "maxPriorityThreshold": "10"}}}), REJECT),
]
