"""Numbers in an environment: whole-valued doubles are the integers they spell (Pulumi's other languages send every
number as a double), anything else that is not a whole number is an error at its path, and every number is
bounded by what the API field holds (GKE's and Kubernetes' are 32-bit)."""

from __future__ import annotations

import pytest

from gkecap.components.spec import SpecError, load_environment
from testkit.spec_data import NOW, as_doubles, prod


def issues(env):
    with pytest.raises(SpecError) as raised:
        load_environment(env, now=NOW)
    return {issue.path: issue.message for issue in raised.value.issues}


def test_every_number_as_a_whole_double_loads_as_the_same_environment():
    assert load_environment(as_doubles(prod()), now=NOW) == load_environment(prod(), now=NOW)


@pytest.mark.parametrize("value", [2.5, True, "2"])
def test_a_value_that_is_not_a_whole_number_is_an_error_at_its_path(value):
    env = prod()
    env["nodePools"][0]["maxNodes"] = value
    assert list(issues(env)) == ["nodePools[0].maxNodes"]


@pytest.mark.parametrize(("where", "key"), [("nodePools", "maxNodes"), ("reservations", "days"), ("reservations", "count")])
def test_numbers_beyond_32_bits_are_errors(where, key):
    env = prod()
    env[where][0][key] = 2**31
    assert issues(env)[f"{where}[0].{key}"].endswith("must be at most 2147483647")
