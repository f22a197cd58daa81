"""TPU tables: families, machine types, generator counts, agreement with xpk's table (FACTS A.2)."""

import math

import pytest

from gkecap.components.catalog import (
    TPU_FAMILIES,
    CatalogError,
    is_tpu_machine_type,
    machine_types_for_topology,
    tpu_family,
    tpu_family_of,
    tpu_machine,
    tpu_slice,
    tpu_topologies,
)


def _xpk_generate(max_cubes: int, enforce_nondecreasing: bool) -> set[str]:
    """Independent brute-force rendering of xpk's generate_tpu_topologies (FACTS A.2 [S1 L207-227])."""
    shapes = {"2x2x1", "2x2x2", "2x2x4", "2x4x4"}
    edges = range(4, 257, 4)
    for a in edges:
        for b in edges:
            for c in edges:
                if (a // 4) * (b // 4) * (c // 4) > max_cubes:
                    continue
                if enforce_nondecreasing and not a <= b <= c:
                    continue
                shapes.add(f"{a}x{b}x{c}")
    return shapes


# xpk's table (FACTS A.2): machine type -> (label, topologies)
XPK_TABLE = {
    "ct4p-hightpu-4t": ("tpu-v4-podslice", _xpk_generate(64, False)),
    "ct5lp-hightpu-4t": ("tpu-v5-lite-podslice", {"2x4", "4x4", "4x8", "8x8", "8x16", "16x16"}),
    "ct5p-hightpu-4t": ("tpu-v5p-slice", _xpk_generate(140, True)),
    "ct6e-standard-1t": ("tpu-v6e-slice", {"1x1"}),
    "ct6e-standard-4t": ("tpu-v6e-slice", {"2x2", "2x4", "4x4", "4x8", "8x8", "8x16", "16x16"}),
    "tpu7x-standard-1t": ("tpu7x", {"1x1x1"}),
    "tpu7x-standard-4t": ("tpu7x", _xpk_generate(144, True)),
    "tpu7-standard-1t": ("tpu7", {"1x1x1"}),
    "tpu7-standard-4t": ("tpu7", _xpk_generate(4, True)),
}


@pytest.mark.parametrize(
    ("machine_type", "count"),
    [("ct4p-hightpu-4t", 800), ("ct5p-hightpu-4t", 414), ("tpu7x-standard-4t", 432), ("tpu7-standard-4t", 9)],
)
def test_generator_counts_match_xpk(machine_type, count):
    assert len(tpu_topologies(machine_type)) == count


def test_tpu7_topologies_are_the_documented_nine():
    assert set(tpu_topologies("tpu7-standard-4t")) == {
        "2x2x1", "2x2x2", "2x2x4", "2x4x4", "4x4x4", "4x4x8", "4x4x12", "4x4x16", "4x8x8"
    }


@pytest.mark.parametrize("machine_type", sorted(XPK_TABLE))
def test_every_xpk_pair_agrees_on_label_chips_per_vm_and_vms(machine_type):
    label, topologies = XPK_TABLE[machine_type]
    mismatches = []
    for topology in topologies:
        product = math.prod(int(d) for d in topology.split("x"))
        xpk_chips_per_vm = 1 if product == 1 else 4  # FACTS A.2 [S1 L285-296]
        s = tpu_slice(machine_type, topology)
        if (s.accelerator_label, s.chips_per_vm, s.vms) != (label, xpk_chips_per_vm, product // xpk_chips_per_vm):
            mismatches.append(topology)
    assert mismatches == []


@pytest.mark.parametrize("machine_type", sorted(XPK_TABLE))
def test_catalog_lists_no_topology_beyond_xpk_except_google_documented_ones(machine_type):
    extra = set(tpu_topologies(machine_type)) - XPK_TABLE[machine_type][1]
    # Google's v5e docs add single-host 2x2 on ct5lp-hightpu-4t (FACTS A.3 [S31, S33]).
    allowed = {"2x2"} if machine_type == "ct5lp-hightpu-4t" else set()
    assert extra == allowed


@pytest.mark.parametrize("family", TPU_FAMILIES, ids=lambda f: f.name)
def test_no_topology_exceeds_the_family_maximum(family):
    biggest = max(tpu_slice(mt.name, t).chips for mt in family.machine_types for t in mt.valid_topologies())
    assert biggest == family.max_chips


@pytest.mark.parametrize(
    ("machine_type", "chips_per_vm"),
    # Cluster Toolkit's static chip map (FACTS A.3 [S9a]) for the types the catalog lists
    [("ct4p-hightpu-4t", 4), ("ct5lp-hightpu-1t", 1), ("ct5lp-hightpu-4t", 4), ("ct5lp-hightpu-8t", 8),
     ("ct5p-hightpu-4t", 4), ("ct6e-standard-1t", 1), ("ct6e-standard-4t", 4), ("ct6e-standard-8t", 8),
     ("tpu7x-standard-4t", 4)],
)
def test_chips_per_vm_match_cluster_toolkit(machine_type, chips_per_vm):
    assert tpu_machine(machine_type).chips_per_vm == chips_per_vm


@pytest.mark.parametrize(
    ("prefix", "label"),
    # Cluster Toolkit prefix -> label map (FACTS A.1 [S9])
    [("ct4p", "tpu-v4-podslice"), ("ct5lp", "tpu-v5-lite-podslice"), ("ct5p", "tpu-v5p-slice"),
     ("ct6e", "tpu-v6e-slice"), ("tpu7x", "tpu7x")],
)
def test_machine_type_prefix_maps_to_label(prefix, label):
    types = [mt.name for f in TPU_FAMILIES for mt in f.machine_types if mt.name.split("-")[0] == prefix]
    assert types and {tpu_family_of(t).accelerator_label for t in types} == {label}


def test_v5p_rejects_decreasing_order():
    with pytest.raises(CatalogError):
        tpu_slice("ct5p-hightpu-4t", "8x4x4")


def test_v6e_2x4_fits_both_4t_and_8t():
    assert machine_types_for_topology("v6e", "2x4") == ("ct6e-standard-4t", "ct6e-standard-8t")


@pytest.mark.parametrize("name", ["v5e", "V5E", "v5litepod", "tpu-v5-lite-podslice"])
def test_family_lookup_accepts_aliases(name):
    assert tpu_family(name).name == "v5e"


def test_tpu7x_family_marks_workload_policy():
    assert tpu_family("tpu7x").multi_host_workload_policy == "HIGH_THROUGHPUT"


def test_gpu_type_is_not_a_tpu_type():
    assert not is_tpu_machine_type("a3-highgpu-8g")
