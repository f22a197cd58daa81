"""Kubernetes name and label checks (apimachinery validation), and that our validators are the CRD patterns."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st

from gkecap.components.k8s import names
from gkecap.components.kueue_api.fields import DNS1123_LABEL_PATTERN, DNS1123_SUBDOMAIN_PATTERN, LABEL_KEY_PATTERN

# Qualified names as Kubernetes' own validation tests judge them (util/validation/validation_test.go).
GOOD_QUALIFIED = ["simple", "now-with-dashes", "1-starts-with-num", "1234", "simple/simple", "now-with-dashes/simple",
                  "now-with-dashes/now-with-dashes", "now.with.dots/simple", "now-with.dashes-and.dots/simple",
                  "1-num.2-num/3-num", "1234/5678", "1.2.3.4/5678", "Uppercase_Is_OK_123",
                  "example.com/Uppercase_Is_OK_123",
                  "requests.storage-foo", "a" * 63, "a" * 253 + "/" + "b" * 63, "nvidia.com/gpu", "google.com/tpu"]
BAD_QUALIFIED = ["", "nospecialchars%^=@", "cantendwithadash-", "-cantstartwithadash-", "only/one/slash",
                 "Example.com/abc", "example_com/abc", "example.com/", "/simple", "a" * 64, "a" * 254 + "/abc", "@cpu"]


@pytest.mark.parametrize("name", GOOD_QUALIFIED)
def test_accepts_qualified_names(name: str) -> None:
    assert names.qualified_name_errors(name) == []


@pytest.mark.parametrize("name", BAD_QUALIFIED)
def test_rejects_unqualified_names(name: str) -> None:
    assert names.qualified_name_errors(name)


@pytest.mark.parametrize(("value", "ok"), [("", True), ("a", True), ("a-b_c.d", True), ("A" * 63, True),
                                           ("A" * 64, False), ("-a", False), ("a b", False), ("@abc", False)])
def test_label_values(value: str, ok: bool) -> None:
    assert (names.label_value_errors(value) == []) is ok


_ALPHABET = st.text(alphabet="ab0-._/A", max_size=12)


@settings(max_examples=150, deadline=None)
@given(_ALPHABET)
def test_subdomain_check_is_the_crd_pattern(value: str) -> None:
    assert (names.dns1123_subdomain_errors(value) == []) == bool(re.fullmatch(DNS1123_SUBDOMAIN_PATTERN[1:-1], value))


@settings(max_examples=150, deadline=None)
@given(_ALPHABET)
def test_label_check_is_the_crd_pattern(value: str) -> None:
    assert (names.dns1123_label_errors(value) == []) == bool(re.fullmatch(DNS1123_LABEL_PATTERN[1:-1], value))


def test_length_limits_go_with_the_patterns() -> None:
    assert names.dns1123_subdomain_errors("a" * 253) == []
    assert names.dns1123_subdomain_errors("a" * 254)
    assert names.dns1123_label_errors("a" * 64)


def test_label_key_pattern_has_no_part_limits_unlike_qualified_names() -> None:
    long_name = "a" * 100
    assert LABEL_KEY_PATTERN.fullmatch(long_name)
    assert names.qualified_name_errors(long_name)


def test_go_end_of_text_anchor_rejects_a_trailing_newline() -> None:
    assert names.dns1123_subdomain_errors("abc\n")
    assert names.qualified_name_errors("cpu\n")


def test_selector_operators() -> None:
    problems = names.label_selector_errors({"matchExpressions": [
        {"key": "a", "operator": "In", "values": []}, {"key": "b", "operator": "DoesNotExist", "values": ["x"]},
        {"key": "c", "operator": "Gt", "values": ["1"]}, {"key": "d", "operator": "NotIn", "values": ["ok"]}]},
        "sel")
    assert [path for path, _ in problems] == ["sel.matchExpressions[0].values", "sel.matchExpressions[1].values",
                                              "sel.matchExpressions[2].operator"]
