"""Cases of Kueue's own validation tests (test/integration/singlecluster/webhook/core/*_test.go and
pkg/webhooks/*_webhook_test.go at v1beta2), transcribed as the JSON a Go client sends (omitempty fields
left out). Each keeps Kueue's verdict: OK, INVALID (HTTP 422: schema or CEL) or FORBIDDEN (403: webhook).
We must agree on the verdict, and the real CRDs on the layer.
"""

from __future__ import annotations

from typing import Any

import pytest

from gkecap.components.kueue_api import validate_kueue_object
from testkit.kueue_objects_data import fq, obj, rg, rq, to_v1beta1
from testkit.kueue_crds import requires_crds, validate_against_crds

OK, INVALID, FORBIDDEN = "ok", "invalid", "forbidden"


def cq(**spec: Any) -> dict[str, Any]:
    return obj("ClusterQueue", spec, name="cluster-queue")


def cohort(name: str = "cohort", **spec: Any) -> dict[str, Any]:
    return obj("Cohort", spec, name=name)


def rf(**spec: Any) -> dict[str, Any]:
    return obj("ResourceFlavor", spec, name="resource-flavor")


def ac(spec: dict[str, Any], name: str | None = None) -> dict[str, Any]:
    out = obj("AdmissionCheck", spec)
    out["metadata"] = {"name": name} if name else {}
    return out


def many_resources(n: int) -> dict[str, Any]:
    return rg(fq("flavor", *[rq(f"r{i}") for i in range(n)]))


ALPHA_BETA = [fq("alpha", rq("cpu", "0"), rq("memory", "0")), fq("beta", rq("cpu", "0"), rq("memory", "0"))]
GAMMA_OMEGA = [fq("gamma", rq("example.com/gpu", "0")), fq("omega", rq("example.com/gpu", "0"))]
DEFAULT_FUNGIBILITY = {"whenCanBorrow": "MayStopSearch", "whenCanPreempt": "TryNextFlavor"}

CASES: list[tuple[str, dict[str, Any], str]] = [
    # ClusterQueue webhook integration tests
    ("all defaults", cq(), OK),
    ("preemption overridden", cq(flavorFungibility=DEFAULT_FUNGIBILITY, preemption={
        "withinClusterQueue": "LowerPriority", "reclaimWithinCohort": "Any",
        "borrowWithinCohort": {"policy": "LowerPriority", "maxPriorityThreshold": 100}}), OK),
    ("default fair sharing", cq(fairSharing={}), OK),
    ("non-negative borrowing limit", cq(cohortName="cohort", resourceGroups=[rg(fq("x86", rq("cpu", "2", "-1")))]),
     FORBIDDEN),
    ("non-negative quota value", cq(resourceGroups=[rg(fq("x86", rq("cpu", "-1")))]), FORBIDDEN),
    ("at least one flavor", cq(resourceGroups=[{}]), INVALID),
    ("at least one resource", cq(resourceGroups=[{"flavors": [{"name": "foo"}]}]), INVALID),
    ("qualified flavor name", cq(resourceGroups=[rg(fq("invalid_name", rq("cpu", "5")))]), INVALID),
    ("qualified resource name", cq(resourceGroups=[rg(fq("x86", rq("@cpu", "5")))]), FORBIDDEN),
    ("65 resources", cq(resourceGroups=[many_resources(65)]), INVALID),
    ("64 resources", cq(resourceGroups=[many_resources(64)]), OK),
    ("65 flavors", cq(resourceGroups=[rg(*[fq(f"f{i}", rq("cpu")) for i in range(65)])]), INVALID),
    ("unqualified labelSelector", cq(namespaceSelector={"matchLabels": {"nospecialchars^=@": "bar"}}), FORBIDDEN),
    ("unknown queueingStrategy", cq(queueingStrategy="unknown"), INVALID),
    ("empty queueingStrategy (omitted by Go)", cq(), OK),
    ("empty preemption", cq(preemption={}), OK),
    ("preemption policies", cq(preemption={"reclaimWithinCohort": "Any", "withinClusterQueue": "LowerPriority"},
                               flavorFungibility=DEFAULT_FUNGIBILITY), OK),
    ("unknown reclaimWithinCohort", cq(preemption={"reclaimWithinCohort": "unknown"}), INVALID),
    ("unknown withinClusterQueue", cq(preemption={"withinClusterQueue": "unknown"}), INVALID),
    ("built-in resource", cq(resourceGroups=[rg(fq("default", rq("cpu")))]), OK),
    ("invalid resource name", cq(resourceGroups=[rg(fq("default", rq("@cpu")))]), FORBIDDEN),
    ("valid cohort", cq(cohortName="prod"), OK),
    ("invalid cohort", cq(cohortName="@prod"), INVALID),
    ("extended resource", cq(resourceGroups=[rg(fq("default", rq("example.com/gpu")))]), OK),
    ("flavor with qualified name", cq(resourceGroups=[rg(fq("x86", rq("cpu")))]), OK),
    ("flavor with unqualified name and no resources", cq(resourceGroups=[{"flavors": [{"name": "invalid_name"}]}]),
     INVALID),
    ("negative flavor quota", cq(resourceGroups=[rg(fq("x86", rq("cpu", "-1")))]), FORBIDDEN),
    ("zero flavor quota", cq(resourceGroups=[rg(fq("x86", rq("cpu", "0")))]), OK),
    ("borrowingLimit 0", cq(cohortName="cohort", resourceGroups=[rg(fq("x86", rq("cpu", "1", "0")))]), OK),
    ("negative borrowingLimit", cq(cohortName="cohort", resourceGroups=[rg(fq("x86", rq("cpu", "1", "-1")))]),
     FORBIDDEN),
    ("borrowingLimit and empty cohort", cq(resourceGroups=[rg(fq("x86", rq("cpu", "1", "1")))]), INVALID),
    ("namespaceSelector invalid expression", cq(namespaceSelector={"matchExpressions": [
        {"key": "key", "operator": "In"}]}), FORBIDDEN),
    ("multiple resource groups", cq(resourceGroups=[rg(*ALPHA_BETA), rg(*GAMMA_OMEGA)]), OK),
    ("resources in different order", cq(resourceGroups=[rg(
        ALPHA_BETA[0], fq("beta", rq("memory", "0"), rq("cpu", "0")), covered=["cpu", "memory"])]), FORBIDDEN),
    ("missing resources in a flavor", cq(resourceGroups=[rg(fq("alpha", rq("cpu", "0")),
                                                            covered=["cpu", "memory"])]), INVALID),
    ("extra resources in a flavor", cq(resourceGroups=[rg(ALPHA_BETA[0], covered=["cpu"])]), INVALID),
    ("missing resources and mismatch", cq(resourceGroups=[rg(ALPHA_BETA[0], covered=["blah"])]), INVALID),
    ("resource in two groups", cq(resourceGroups=[rg(ALPHA_BETA[0]), rg(fq("beta", rq("memory", "0")))]),
     FORBIDDEN),
    ("flavor in two groups", cq(resourceGroups=[rg(fq("alpha", rq("cpu")), fq("beta", rq("cpu"))),
                                                rg(fq("beta", rq("memory")))]), FORBIDDEN),
    ("reclaim Never with borrowWithinCohort", cq(preemption={"reclaimWithinCohort": "Never",
                                                             "borrowWithinCohort": {"policy": "LowerPriority"}}),
     INVALID),
    ("valid borrowWithinCohort", cq(preemption={"reclaimWithinCohort": "LowerPriority", "borrowWithinCohort": {
        "policy": "LowerPriority", "maxPriorityThreshold": 10}}), OK),
    ("nil borrowWithinCohort", cq(preemption={"reclaimWithinCohort": "Never"}), OK),
    ("zero weight", cq(fairSharing={"weight": "0"}), OK),
    ("fractional weight", cq(fairSharing={"weight": "0.1"}), OK),
    ("small weight", cq(fairSharing={"weight": "1m"}), OK),
    ("smaller weight", cq(fairSharing={"weight": "1u"}), OK),
    ("smallest weight", cq(fairSharing={"weight": "2n"}), OK),
    ("threshold weight", cq(fairSharing={"weight": "1n"}), FORBIDDEN),
    ("collapsed weight", cq(fairSharing={"weight": "0.0000000001"}), FORBIDDEN),
    ("negative weight", cq(fairSharing={"weight": "-1"}), FORBIDDEN),
    # ClusterQueue webhook unit tests
    ("lendingLimit 0", cq(cohortName="cohort", resourceGroups=[rg(fq("x86", rq("cpu", "1", lending="0")))]), OK),
    ("negative lendingLimit", cq(cohortName="cohort", resourceGroups=[rg(fq("x86", rq("cpu", "1", lending="-1")))]),
     FORBIDDEN),
    ("lendingLimit and empty cohort", cq(resourceGroups=[rg(fq("x86", rq("cpu", "1", lending="1")))]), FORBIDDEN),
    ("lendingLimit above nominalQuota", cq(cohortName="cohort", resourceGroups=[
        rg(fq("x86", rq("cpu", "1", lending="2")))]), FORBIDDEN),
    ("admissionChecksStrategy on a known flavor", cq(resourceGroups=[rg(fq("flavor1", rq("cpu")))],
                                                     admissionChecksStrategy={"admissionChecks": [
                                                         {"name": "ac1", "onFlavors": ["flavor1"]}]}), OK),
    ("admissionChecksStrategy on an unknown flavor", cq(admissionChecksStrategy={"admissionChecks": [
        {"name": "ac1", "onFlavors": ["flavor1"]}]}), FORBIDDEN),
    ("preference with TryNextFlavor", cq(flavorFungibility={"whenCanBorrow": "TryNextFlavor", "whenCanPreempt":
                                                            "TryNextFlavor", "preference": "PreemptionOverBorrowing"}),
     OK),
    ("preference without TryNextFlavor", cq(flavorFungibility={"preference": "BorrowingOverPreemption"}), INVALID),
    # Cohort webhook integration tests
    ("cohort empty name", cohort(name=""), INVALID),
    ("default cohort", cohort(), OK),
    ("valid parent", cohort(parentName="prod"), OK),
    ("invalid parent", cohort(parentName="@prod"), INVALID),
    ("cohort group without flavor", cohort(resourceGroups=[{}]), INVALID),
    ("cohort flavor without resource", cohort(resourceGroups=[{"flavors": [{"name": "foo"}]}]), INVALID),
    ("cohort invalid flavor name", cohort(resourceGroups=[rg(fq("@x86", rq("cpu", "5")))]), INVALID),
    ("cohort invalid resource name", cohort(resourceGroups=[rg(fq("x86", rq("@cpu", "5")))]), FORBIDDEN),
    ("cohort 65 flavors", cohort(resourceGroups=[rg(*[fq(f"f{i}", rq("cpu")) for i in range(65)])]), INVALID),
    ("cohort 65 resources", cohort(resourceGroups=[many_resources(65)]), INVALID),
    ("cohort resource with valid name", cohort(resourceGroups=[rg(fq("default", rq("cpu")))]), OK),
    ("cohort extended resource", cohort(resourceGroups=[rg(fq("default", rq("example.com/gpu")))]), OK),
    ("cohort flavor x_86", cohort(resourceGroups=[rg(fq("x_86", rq("cpu")))]), INVALID),
    ("cohort negative nominal", cohort(resourceGroups=[rg(fq("x86", rq("cpu", "-1")))]), FORBIDDEN),
    ("cohort negative borrowing", cohort(resourceGroups=[rg(fq("x86", rq("cpu", "1", "-1")))]), FORBIDDEN),
    ("cohort negative lending", cohort(resourceGroups=[rg(fq("x86", rq("cpu", "1", lending="-1")))]), FORBIDDEN),
    ("cohort borrowing without parent", cohort(resourceGroups=[rg(fq("x86", rq("cpu", "1", "1")))]), FORBIDDEN),
    ("cohort borrowing 0 with parent", cohort(parentName="parent", resourceGroups=[
        rg(fq("x86", rq("cpu", "1", "0")))]), OK),
    ("cohort borrowing with parent", cohort(parentName="parent", resourceGroups=[
        rg(fq("x86", rq("cpu", "1", "1")))]), OK),
    ("cohort lending without parent", cohort(resourceGroups=[rg(fq("x86", rq("cpu", "1", lending="1")))]),
     FORBIDDEN),
    ("cohort lending with parent", cohort(parentName="parent", resourceGroups=[
        rg(fq("x86", rq("cpu", "1", lending="1")))]), OK),
    ("cohort lending 0 with parent", cohort(parentName="parent", resourceGroups=[
        rg(fq("x86", rq("cpu", "0", lending="0")))]), OK),
    ("cohort lending above nominal", cohort(parentName="parent", resourceGroups=[
        rg(fq("x86", rq("cpu", "3", lending="5")))]), OK),
    ("cohort multiple groups", cohort(resourceGroups=[rg(*ALPHA_BETA), rg(*GAMMA_OMEGA)]), OK),
    ("cohort resources in different order", cohort(resourceGroups=[rg(
        ALPHA_BETA[0], fq("beta", rq("memory", "0"), rq("cpu", "0")), covered=["cpu", "memory"])]), FORBIDDEN),
    ("cohort missing resources", cohort(resourceGroups=[rg(fq("alpha", rq("cpu", "0")), covered=["cpu", "memory"])]),
     INVALID),
    ("cohort resource not in group", cohort(resourceGroups=[rg(ALPHA_BETA[0], covered=["cpu"])]), INVALID),
    ("cohort resource in two groups", cohort(resourceGroups=[rg(ALPHA_BETA[0]), rg(fq("beta", rq("memory", "0")))]),
     FORBIDDEN),
    ("cohort flavor in two groups", cohort(resourceGroups=[rg(fq("alpha", rq("cpu")), fq("beta", rq("cpu"))),
                                                           rg(fq("beta", rq("memory")))]), FORBIDDEN),
    ("cohort weight", cohort(fairSharing={"weight": "1"}), OK),
    ("cohort zero weight", cohort(fairSharing={"weight": "0"}), OK),
    ("cohort negative weight", cohort(fairSharing={"weight": "-1"}), FORBIDDEN),
    ("cohort fractional weight", cohort(fairSharing={"weight": "0.5"}), OK),
    # ResourceFlavor webhook tests
    ("rf valid", rf(nodeLabels={"foo": "bar"}, nodeTaints=[{"key": "spot", "value": "true",
                                                            "effect": "NoSchedule"}]), OK),
    ("rf empty", rf(), OK),
    ("rf 9 taints", rf(nodeTaints=[{"key": f"t{i}", "effect": "NoExecute"} for i in range(9)]), INVALID),
    ("rf 9 node labels", rf(nodeLabels={f"l{i}": "" for i in range(9)}), INVALID),
    ("rf 8 taints and 8 labels", rf(nodeTaints=[{"key": f"t{i}", "effect": "NoExecute"} for i in range(8)],
                                    nodeLabels={f"l{i}": "" for i in range(8)}), OK),
    ("rf invalid taints", rf(nodeTaints=[{"key": "skdajf", "effect": ""},
                                         {"key": "@foo", "value": "bar", "effect": "NoSchedule"}]), INVALID),
    ("rf invalid taint effect", rf(nodeTaints=[{"key": "foo", "value": "bar", "effect": "Invalid"}]), INVALID),
    ("rf invalid label name", rf(nodeLabels={"@abc": "foo"}), FORBIDDEN),
    ("rf invalid label value", rf(nodeLabels={"foo": "@abc"}), FORBIDDEN),
    ("rf invalid tolerations", rf(tolerations=[
        {"key": "@abc", "operator": "Equal", "value": "v", "effect": "NoSchedule"},
        {"key": "abc", "operator": "Exists", "value": "v", "effect": "NoSchedule"},
        {"key": "abc", "operator": "Equal", "value": "v", "effect": "not-valid"},
        {"key": "abc", "operator": "Equal", "value": "v", "effect": "NoSchedule"}]), INVALID),
    ("rf bad toleration key only", rf(tolerations=[{"key": "@abc", "operator": "Equal", "value": "v",
                                                    "effect": "NoSchedule"}]), FORBIDDEN),
    ("rf tolerations example", rf(nodeLabels={"instance-type": "spot"}, tolerations=[
        {"key": "spot-taint", "operator": "Exists", "effect": "NoSchedule"}]), OK),
    ("rf topology with labels", rf(nodeLabels={"node-group": "tas"}, topologyName="default"), OK),
    ("rf invalid topology name", rf(nodeLabels={"node-group": "tas"}, topologyName="invalid topology name"),
     INVALID),
    ("rf topology without labels", rf(topologyName="default"), INVALID),
    # AdmissionCheck integration tests (the invalid ones also have no name)
    ("ac all defaults", ac({"controllerName": "ac-controller"}, "foo"), OK),
    ("ac no controller name", ac({"parameters": {"apiGroup": "ref.api.group", "kind": "RefKind",
                                                 "name": "ref-name"}}), INVALID),
    ("ac bad api group", ac({"controllerName": "controller-name", "parameters": {
        "apiGroup": "ref.api.group/Bad", "kind": "RefKind", "name": "ref-name"}}), INVALID),
    ("ac no api group", ac({"controllerName": "controller-name", "parameters": {"kind": "RefKind",
                                                                                "name": "ref-name"}}), INVALID),
    ("ac bad kind", ac({"controllerName": "controller-name", "parameters": {
        "apiGroup": "ref.api.group", "kind": "RefKind/Bad", "name": "ref-name"}}), INVALID),
    ("ac no kind", ac({"controllerName": "controller-name", "parameters": {"apiGroup": "ref.api.group",
                                                                           "name": "ref-name"}}), INVALID),
    ("ac bad name", ac({"controllerName": "controller-name", "parameters": {
        "apiGroup": "ref.api.group", "kind": "RefKind", "name": "ref-name/Bad"}}), INVALID),
    ("ac no name", ac({"controllerName": "controller-name", "parameters": {"apiGroup": "ref.api.group",
                                                                           "kind": "RefKind"}}), INVALID),
    ("ac no parameters", ac({"controllerName": "controller-name"}, "foo"), OK),
    ("ac valid spec", ac({"controllerName": "controller-name", "parameters": {
        "apiGroup": "ref.api.group", "kind": "RefKind", "name": "ref-name"}}, "foo"), OK),
    # LocalQueue integration test
    ("lq bad cluster queue", obj("LocalQueue", {"clusterQueue": "invalid_name"}, name="queue-test", namespace="ns"),
     INVALID),
    ("lq valid", obj("LocalQueue", {"clusterQueue": "foo"}, name="queue-test", namespace="ns"), OK),
]

_PARAMS = [pytest.param(o, verdict, id=name) for name, o, verdict in CASES] + [
    pytest.param(to_v1beta1(o), verdict, id=f"{name}-v1beta1") for name, o, verdict in CASES]


@pytest.mark.parametrize(("obj", "verdict"), _PARAMS)
def test_we_agree_with_kueues_verdict(obj: dict[str, Any], verdict: str) -> None:
    violations = validate_kueue_object(obj)
    if verdict == OK:
        assert violations == []
    else:
        assert violations
        layers = {v.layer for v in violations}
        if verdict == FORBIDDEN:
            assert layers == {"webhook"}, [str(v) for v in violations]
        else:
            assert layers & {"schema", "cel", "apiserver"}, [str(v) for v in violations]


@requires_crds
@pytest.mark.parametrize(("obj", "verdict"), _PARAMS)
def test_the_real_crds_reject_exactly_the_invalid_ones(obj: dict[str, Any], verdict: str) -> None:
    errors = validate_against_crds(obj)
    assert bool(errors) == (verdict == INVALID), [str(e) for e in errors]
