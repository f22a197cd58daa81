"""One invalid object per create-time rule of KUEUE_VALIDATION.md: validate_kueue_object names the rule, and
the real CRDs agree on the layer (schema/CEL rules are rejected by the CRDs too; webhook-only rules pass them).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from gkecap.components.kueue_api import NOT_CHECKED, RULES, TRANSITION_RULES, validate_kueue_object
from testkit.kueue_objects_data import to_v1beta1
from testkit.kueue_rule_cases import CASES, REJECT, UNCHECKED, Case
from testkit.kueue_crds import CRD_DIR, requires_crds, shared_skip_reason, validate_against_crds

_VERSIONED = [pytest.param(case, case.obj, id=case.id) for case in CASES] + [
    pytest.param(case, to_v1beta1(case.obj), id=f"{case.id}-v1beta1") for case in CASES if case.v1beta1]


@pytest.mark.parametrize(("case", "obj"), _VERSIONED)
def test_invalid_object_is_rejected_with_its_rule(case: Case, obj: dict[str, Any]) -> None:
    violations = validate_kueue_object(obj)
    assert case.rule in {v.rule for v in violations}, [str(v) for v in violations]


@requires_crds
@pytest.mark.parametrize(("case", "obj"), [p for p in _VERSIONED if p.values[0].crd != UNCHECKED])
def test_real_crds_agree_on_the_layer(case: Case, obj: dict[str, Any]) -> None:
    errors = validate_against_crds(obj)
    if case.crd == REJECT:
        assert errors, f"{case.rule}: the real CRDs accept {case.id}"
    else:
        assert errors == [], f"{case.rule} is a webhook rule, yet the CRDs reject: {[str(e) for e in errors]}"


def test_every_violation_names_a_path_and_the_bad_value() -> None:
    violation = next(v for v in validate_kueue_object(CASES[0].obj) if v.rule == "R-CQ-1")
    assert violation.path == "spec.resourceGroups[0].coveredResources[0]"
    assert "'@cpu'" in violation.message and "label keys" in violation.message


def test_each_create_time_rule_has_a_case() -> None:
    checkable = {r.id for r in RULES} - TRANSITION_RULES - set(NOT_CHECKED)
    assert checkable - {case.rule for case in CASES} == set()


@pytest.mark.skipif(not (CRD_DIR.parent / "reference" / "KUEUE_VALIDATION.md").is_file(),
                    reason=shared_skip_reason("reference/KUEUE_VALIDATION.md"))
def test_every_rule_of_the_reference_is_catalogued() -> None:
    text = (CRD_DIR.parent / "reference" / "KUEUE_VALIDATION.md").read_text()
    listed = set(re.findall(r"^- (R-[A-Z]+-\d+) ", text, flags=re.MULTILINE))
    assert listed and listed <= {r.id for r in RULES}
