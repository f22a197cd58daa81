"""Malformed objects (any JSON in any field) give violations, never exceptions: the policy pack checks
whatever a stack holds."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings, strategies as st

from gkecap.components.kueue_api import KINDS, references, validate_kueue_object

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=False, width=16),
                    st.sampled_from(["", "a", "@x", "cpu", "-1", "1Gi", "Never", "TryNextFlavor", "Exists"]))
FIELDS = st.sampled_from(["resourceGroups", "coveredResources", "flavors", "resources", "name", "nominalQuota",
                          "borrowingLimit", "lendingLimit", "cohortName", "cohort", "parentName", "preemption",
                          "flavorFungibility", "preference", "namespaceSelector", "matchExpressions", "matchLabels",
                          "values", "operator", "key", "nodeLabels", "nodeTaints", "tolerations", "effect", "value",
                          "topologyName", "levels", "nodeLabel", "fairSharing", "weight", "admissionChecksStrategy",
                          "admissionChecks", "onFlavors", "parameters", "clusterQueue", "controllerName"])
JSON = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                     st.dictionaries(FIELDS, inner, max_size=4)), max_leaves=25)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(KINDS), st.sampled_from(["v1beta1", "v1beta2"]), JSON, JSON)
def test_any_json_is_judged_without_crashing(kind: str, version: str, spec: Any, metadata: Any) -> None:
    obj = {"apiVersion": f"kueue.x-k8s.io/{version}", "kind": kind, "metadata": metadata, "spec": spec}
    violations = validate_kueue_object(obj)
    references(obj)
    assert all(v.rule and v.message for v in violations)
