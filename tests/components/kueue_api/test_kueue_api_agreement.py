"""Property: for random objects generated from the real CRD schemas (valid and invalid values mixed), our
schema + CEL layers reject exactly when the real CRDs (jsonschema + cel-python) do.

Two documented differences are kept out of the generator and tested elsewhere: "" in Go-omitempty fields
(test_kueue_api_versions) and fractional quantity exponents such as 1e2.5 (test_kueue_api_rule_table).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from gkecap.components.kueue_api import validate_kueue_object
from testkit.kueue_crds import GROUP, crd_schema, requires_crds, served_kinds, validate_against_crds

pytestmark = requires_crds

NAMES = ["a", "team-a", "x86", "a.b", "default", "Bad", "bad_name", "-a", "@x", "a" * 254, "x/y",
         "kubernetes.io/hostname", "cloud.google.com/gce-topology-block", "nvidia.com/gpu", "Ref-Kind", "1kind"]
TEXT = ["a", "value", "kubernetes.io/hostname", "NoSchedule", "NoExecute", "PreferNoSchedule", "Exists", "Equal",
        "In", "TryNextFlavor", "MayStopSearch", "Never", "LowerPriority", "Any", "not valid", "@abc",
        "2026-01-02T15:04:05Z"]
QUANTITIES = [0, 1, 8, -1, "0", "1", "-1", "500m", "1Gi", "2n", "1n", "0.5", "1x", "1e3", "+2"]
INTEGERS = [0, 1, -1, 30, 2**31 - 1, 2**31, -(2**31) - 1]


def _strategy(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    if schema.get("x-kubernetes-int-or-string"):
        return st.sampled_from(QUANTITIES)
    kind = schema.get("type")
    if kind == "object" and "properties" in schema:
        props = {k: v for k, v in schema["properties"].items() if k not in ("status", "metadata")}
        required = [k for k in schema.get("required", []) if k in props]
        base = st.fixed_dictionaries({k: _strategy(props[k]) for k in required},
                                     optional={k: _strategy(v) for k, v in props.items() if k not in required})
        return st.one_of(base, base.map(lambda d: {**d, "bogusField": "x"}), base.map(
            lambda d: {k: v for k, v in d.items() if k not in required[:1]})) if required else base
    if kind == "object" and isinstance(schema.get("additionalProperties"), dict):
        return st.dictionaries(st.sampled_from(NAMES), _strategy(schema["additionalProperties"]), max_size=3)
    if kind == "object":
        return st.just({})
    if kind == "array":
        return st.lists(_strategy(schema["items"]), max_size=3)
    if kind == "string":
        if "enum" in schema:
            return st.sampled_from(list(schema["enum"]) + ["Bogus"])
        return st.sampled_from(NAMES if "pattern" in schema else TEXT + NAMES[:4])
    if kind == "integer":
        return st.sampled_from(INTEGERS)
    return st.just(None)


@st.composite
def _objects(draw: st.DrawFn, kind: str, version: str) -> dict[str, Any]:
    schema = crd_schema(kind, version)
    body = draw(_strategy({**schema, "required": [r for r in schema.get("required", [])]}))
    return {**body, "apiVersion": f"{GROUP}/{version}", "kind": kind, "metadata": {"name": "obj"}}


_IGNORED = {"R-META-2", "R-META-3"}  # API-server metadata checks the CRD helper does not model


@pytest.mark.parametrize(("kind", "version"), served_kinds())
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_schema_and_cel_verdicts_match_the_real_crds(kind: str, version: str, data: st.DataObject) -> None:
    obj = data.draw(_objects(kind, version))
    ours = [v for v in validate_kueue_object(obj) if v.layer != "webhook" and v.rule not in _IGNORED]
    theirs = validate_against_crds(obj)
    assert bool(ours) == bool(theirs), (obj, [str(v) for v in ours], [str(e) for e in theirs])
