"""Kubernetes quantity parsing and exact comparison (k8s.io/apimachinery resource.ParseQuantity semantics)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from gkecap.components.k8s.quantity import QuantityError, parse_quantity

SUFFIX_FACTORS = {"n": Fraction(1, 10**9), "u": Fraction(1, 10**6), "m": Fraction(1, 1000), "": Fraction(1),
                  "k": Fraction(10**3), "M": Fraction(10**6), "G": Fraction(10**9), "T": Fraction(10**12),
                  "P": Fraction(10**15), "E": Fraction(10**18), "Ki": Fraction(2**10), "Mi": Fraction(2**20),
                  "Gi": Fraction(2**30), "Ti": Fraction(2**40), "Pi": Fraction(2**50), "Ei": Fraction(2**60)}


@pytest.mark.parametrize(("text", "value"), [
    ("0", 0), ("8", 8), ("-1", -1), ("+3", 3), ("500m", Fraction(1, 2)), ("0.5", Fraction(1, 2)),
    (".5", Fraction(1, 2)),
    ("1.", 1), ("64Gi", 64 * 2**30), ("1Ki", 1024), ("1e3", 1000), ("1E3", 1000), ("1e-3", Fraction(1, 1000)),
    ("1E", 10**18), ("2n", Fraction(2, 10**9)), ("1.5G", 1_500_000_000),
])
def test_parses_kubernetes_quantities(text: str, value: Fraction) -> None:
    assert parse_quantity(text).value == value


@pytest.mark.parametrize("text", ["", "1e", "1K", "1GB", "1e2.5", "abc", " 1", "1 ", "-", ".", "1.2.3", "1mi", "0x10"])
def test_rejects_malformed_quantities(text: str) -> None:
    with pytest.raises(QuantityError, match="Kubernetes quantity|exponent"):
        parse_quantity(text)


def test_rounds_up_below_one_nano_like_parse_quantity() -> None:
    assert parse_quantity("0.0000000001").value == Fraction(1, 10**9)
    assert parse_quantity("0.5n").value == Fraction(1, 10**9)
    assert parse_quantity("-0.5n").value == Fraction(-1, 10**9)
    assert parse_quantity("1.0000000001").value == Fraction(1_000_000_001, 10**9)


def test_binary_quantities_are_capped_at_int64_max() -> None:
    assert parse_quantity("10000Ei").value == 2**63 - 1
    assert parse_quantity("10000E").value == 10**22  # decimal SI is not capped


def test_numbers_from_pulumi_are_doubles() -> None:
    assert parse_quantity(8.0).raw == 8
    with pytest.raises(QuantityError, match="non-integral"):
        parse_quantity(0.5)
    with pytest.raises(QuantityError, match="boolean"):
        parse_quantity(True)


def test_compares_across_units_exactly() -> None:
    assert parse_quantity("1Gi") > parse_quantity("1G")
    assert parse_quantity("1000m") >= parse_quantity(1)
    assert parse_quantity("1.1G") > parse_quantity("1Gi")
    assert not parse_quantity("1G") > parse_quantity("1Gi")


@settings(max_examples=60, deadline=None)
@given(st.integers(-10**6, 10**6), st.integers(0, 10**6), st.integers(0, 6), st.sampled_from(sorted(SUFFIX_FACTORS)))
def test_value_is_number_times_suffix(whole: int, frac: int, frac_digits: int, suffix: str) -> None:
    digits = str(frac).zfill(frac_digits)[:frac_digits] if frac_digits else ""
    text = f"{whole}.{digits}{suffix}" if digits else f"{whole}{suffix}"
    sign = -1 if text.startswith("-") else 1
    exact = (abs(whole) + (Fraction(int(digits), 10 ** len(digits)) if digits else 0)) * SUFFIX_FACTORS[suffix]
    nanos = -(-exact * 10**9 // 1)  # magnitude rounded up to 1n
    expected = sign * Fraction(int(nanos), 10**9)
    if suffix.endswith("i"):
        expected = sign * min(abs(expected), Fraction(2**63 - 1))
    assert parse_quantity(text).value == expected


@settings(max_examples=60, deadline=None)
@given(st.integers(-(2**70), 2**70))
def test_integers_parse_to_themselves(n: int) -> None:
    assert parse_quantity(n).value == n
    assert parse_quantity(str(n)).value == n


def test_repeated_parses_agree_and_keep_their_type() -> None:
    assert parse_quantity("64Gi") == parse_quantity("64Gi")
    assert parse_quantity(8).raw == 8 and parse_quantity("8").raw == "8"
    assert parse_quantity(1).raw == 1
    with pytest.raises(QuantityError):
        parse_quantity(True)  # a bool is never taken for the int 1 parsed before


def test_a_bad_quantity_fails_every_time() -> None:
    for _ in range(2):
        with pytest.raises(QuantityError):
            parse_quantity("12x")
