"""Topology strings and the cube rule (FACTS A.2 [S1 generate_tpu_topologies])."""

import pytest

from gkecap.components.catalog import CatalogError, CubeRule, normalize_topology, parse_topology


def test_parse_3d():
    assert parse_topology("2x2x1", 3) == (2, 2, 1)


def test_normalize_is_lenient_on_case_and_spaces():
    assert normalize_topology(" 16 X 16 ") == "16x16"


@pytest.mark.parametrize("text", ["", "x4", "4x", "4*4", "4", "-4x4"])
def test_malformed_strings_raise(text):
    with pytest.raises(CatalogError):
        parse_topology(text)


def test_cube_rule_counts_cubes():
    rule = CubeRule(max_cubes=2)
    assert rule.allows((4, 4, 8)) and not rule.allows((4, 8, 8))


def test_cube_rule_requires_multiples_of_four():
    assert not CubeRule(max_cubes=64).allows((4, 4, 6))


def test_cube_rule_order_switch():
    assert CubeRule(8, enforce_nondecreasing=False).allows((8, 4, 4)) and not CubeRule(8).allows((8, 4, 4))


def test_cube_rule_caps_each_edge_at_256():
    assert not CubeRule(max_cubes=100, enforce_nondecreasing=False).allows((4, 4, 260))


def test_small_shapes_always_allowed():
    assert all(CubeRule(max_cubes=1).allows(tuple(int(d) for d in s.split("x"))) for s in ("2x2x1", "2x4x4"))


def test_describe_names_rule_and_examples():
    text = CubeRule(max_cubes=144).describe()
    assert "144 cubes" in text and "9216 chips" in text and "e.g. 4x4x4" in text
