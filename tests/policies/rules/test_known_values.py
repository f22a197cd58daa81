"""gkecap.policies.rules.known_values.has_unknown: an unknown anywhere inside a value, and nowhere else."""

from gkecap.policies.resource_view import UNKNOWN
from gkecap.policies.rules.known_values import has_unknown


def test_an_unknown_deep_in_mappings_and_lists_is_found():
    assert has_unknown({"spec": {"resourceGroups": [{"flavors": [{"name": "a"}, {"name": UNKNOWN}]}]}})


def test_known_values_of_every_scalar_type_have_none():
    assert not has_unknown({"a": ["x", 1, 2.5, True, None, {"b": []}], "c": {}})
