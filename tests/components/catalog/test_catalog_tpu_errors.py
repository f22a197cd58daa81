"""CatalogError messages name the bad value and list what is valid."""

import pytest

from gkecap.components.catalog import CatalogError, tpu_machine, tpu_slice


def _message(machine_type, topology):
    with pytest.raises(CatalogError) as info:
        tpu_slice(machine_type, topology)
    return str(info.value)


def test_catalog_error_is_a_value_error():
    assert issubclass(CatalogError, ValueError)


def test_invalid_2d_topology_lists_the_family_topologies():
    assert _message("ct6e-standard-4t", "4x3") == (
        "'4x3' is not a valid v6e topology for ct6e-standard-4t; valid: 2x2, 2x4, 4x4, 4x8, 8x8, 8x16, 16x16"
    )


def test_topology_valid_on_another_type_says_which():
    assert "(1x1 is valid on ct6e-standard-1t)" in _message("ct6e-standard-4t", "1x1")


def test_invalid_cube_topology_states_the_rule_and_examples():
    message = _message("ct5p-hightpu-4t", "4x4x3")
    for part in ("2x2x1, 2x2x2, 2x2x4, 2x4x4", "multiples of 4", "140 cubes", "A<=B<=C", "e.g. 4x4x4"):
        assert part in message


def test_wrong_dimension_count_is_explained():
    message = _message("ct4p-hightpu-4t", "4x4")
    assert "2 dimensions, expected 3" in message and "v4 is 3D" in message


def test_malformed_topology_is_explained():
    assert "expected sizes joined by 'x'" in _message("ct6e-standard-4t", "four")


def test_zero_size_is_rejected():
    assert "at least 1" in _message("ct6e-standard-4t", "0x4")


def test_unknown_type_of_known_family_lists_that_family():
    with pytest.raises(CatalogError, match=r"known v6e machine types: ct6e-standard-1t, ct6e-standard-4t, ct6e-standard-8t$"):
        tpu_machine("ct6e-standard-2t")


def test_unknown_prefix_lists_all_tpu_families():
    with pytest.raises(CatalogError) as info:
        tpu_machine("n2-standard-8")
    assert all(f"{family}:" in str(info.value) for family in ("v4", "v5e", "v5p", "v6e", "tpu7x", "tpu7"))


def test_gpu_type_given_to_tpu_slice_says_it_is_a_gpu():
    assert "is a GPU machine type" in _message("a3-highgpu-8g", "2x2")


def test_non_string_topology_is_a_catalog_error():
    with pytest.raises(CatalogError):
        tpu_slice("ct6e-standard-4t", None)  # type: ignore[arg-type]
