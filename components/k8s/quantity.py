"""Kubernetes resource quantities: parse exactly, compare exactly.

Grammar and value semantics follow k8s.io/apimachinery/pkg/api/resource/quantity.go (ParseQuantity):
  <quantity> ::= <sign>? <number> <suffix>?;  <number> ::= digits | digits.digits | digits. | .digits
  <suffix>   ::= Ki|Mi|Gi|Ti|Pi|Ei (powers of 1024) | n|u|m|k|M|G|T|P|E (powers of 1000) | e<int>|E<int>
A non-zero value is rounded away from zero to a multiple of 1n, and binary-suffixed values are capped at 2^63-1,
as ParseQuantity does. The exponent after e/E must be an integer: the CRD pattern also admits `1e2.5`, which
Go's parser (and so Kueue's webhook) rejects, so we reject it too.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

_QUANTITY_RE = re.compile(
    r"(?P<sign>[+-])?(?P<number>[0-9]+(?:\.[0-9]*)?|\.[0-9]+)"
    r"(?P<suffix>Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?[0-9]+)?"
)
_BINARY = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
_DECIMAL = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
_NANO = Fraction(1, 10**9)
_BINARY_CAP = Fraction(2**63 - 1)
_MAX_EXPONENT = 1000  # far beyond any real quantity; keeps 10**exp cheap

QUANTITY_HINT = (
    "a Kubernetes quantity: an integer, or a string like '8', '0.5', '500m', '64Gi', '1e3' "
    "(suffixes n u m k M G T P E, Ki Mi Gi Ti Pi Ei, or e<integer>)"
)


class QuantityError(ValueError):
    """Raised for a value that is not a Kubernetes quantity; the message names it and what is allowed."""


@dataclass(frozen=True, order=False)
class Quantity:
    """A parsed quantity: `raw` as written (int or str) and its exact `value`."""

    raw: int | str
    value: Fraction

    def __lt__(self, other: Quantity) -> bool:
        return self.value < other.value

    def __le__(self, other: Quantity) -> bool:
        return self.value <= other.value

    def __gt__(self, other: Quantity) -> bool:
        return self.value > other.value

    def __ge__(self, other: Quantity) -> bool:
        return self.value >= other.value

    def __str__(self) -> str:
        return str(self.raw)


def parse_quantity(raw: object) -> Quantity:
    """Parse an int, an integral float (Pulumi sends every number as a double) or a quantity string."""
    if type(raw) is str or type(raw) is int:
        # The same few quantities recur in every queue of an organisation (and are read by both the schema and
        # the webhook layer): parse each once. A Quantity is immutable; errors are raised, never cached.
        return _parse_cached(raw)
    return _parse(raw)


@lru_cache(maxsize=4096)
def _parse_cached(raw: int | str) -> Quantity:
    return _parse(raw)


def _parse(raw: object) -> Quantity:
    if isinstance(raw, bool):
        raise QuantityError(f"{raw!r} is a boolean, not {QUANTITY_HINT}")
    if isinstance(raw, int):
        return Quantity(raw, Fraction(raw))
    if isinstance(raw, float):
        if raw.is_integer():
            return Quantity(int(raw), Fraction(int(raw)))
        raise QuantityError(f"{raw!r} is a non-integral number; write it as a string (e.g. '{raw}'), {QUANTITY_HINT}")
    if not isinstance(raw, str):
        raise QuantityError(f"{raw!r} ({type(raw).__name__}) is not {QUANTITY_HINT}")
    match = _QUANTITY_RE.fullmatch(raw)
    if match is None:
        raise QuantityError(f"{raw!r} is not {QUANTITY_HINT}")
    number = Fraction(match["number"] if not match["number"].endswith(".") else match["number"][:-1])
    suffix = match["suffix"] or ""
    binary = suffix in _BINARY
    if binary:
        magnitude = number * 2 ** _BINARY[suffix]
    else:
        exponent = _DECIMAL[suffix] if suffix in _DECIMAL else int(suffix[1:])
        if abs(exponent) > _MAX_EXPONENT:
            raise QuantityError(f"{raw!r}: exponent {exponent} is out of range (|exponent| <= {_MAX_EXPONENT})")
        magnitude = number * Fraction(10) ** exponent
    if magnitude:
        magnitude = Fraction(math.ceil(magnitude / _NANO)) * _NANO  # ParseQuantity rounds up to 1n
    if binary and magnitude > _BINARY_CAP:
        magnitude = _BINARY_CAP
    return Quantity(raw, -magnitude if match["sign"] == "-" else magnitude)
