"""Documented TPU slice examples and per-family math (FACTS A.2, A.3)."""

import pytest

from gkecap.components.catalog import COMPACT_PLACEMENT, HIGH_THROUGHPUT, tpu_slice


def test_v6e_4x4_on_4t_is_four_nodes():
    # SEED_NOTES (GKE flex-start TPU guide): ct6e-standard-4t 4x4 -> --max-nodes=4
    s = tpu_slice("ct6e-standard-4t", "4x4")
    assert (s.chips, s.chips_per_vm, s.vms, s.multi_host) == (16, 4, 4, True)


def test_v5p_2x2x1_is_one_host():
    s = tpu_slice("ct5p-hightpu-4t", "2x2x1")
    assert (s.chips, s.vms, s.multi_host) == (4, 1, False)


def test_v5e_2x4_is_one_node_on_8t():
    s = tpu_slice("ct5lp-hightpu-8t", "2x4")
    assert (s.chips, s.chips_per_vm, s.vms, s.multi_host) == (8, 8, 1, False)


def test_v5e_2x4_is_two_nodes_on_4t():
    s = tpu_slice("ct5lp-hightpu-4t", "2x4")
    assert (s.chips, s.chips_per_vm, s.vms, s.multi_host) == (8, 4, 2, True)


@pytest.mark.parametrize(
    ("machine_type", "topology", "vms"),
    [
        # FACTS A.3 [S30]: v6e shapes and VM counts
        ("ct6e-standard-1t", "1x1", 1),
        ("ct6e-standard-4t", "2x2", 1),
        ("ct6e-standard-8t", "2x4", 1),
        ("ct6e-standard-4t", "2x4", 2),
        ("ct6e-standard-4t", "4x8", 8),
        ("ct6e-standard-4t", "8x8", 16),
        ("ct6e-standard-4t", "8x16", 32),
        ("ct6e-standard-4t", "16x16", 64),
    ],
)
def test_v6e_documented_vm_counts(machine_type, topology, vms):
    assert tpu_slice(machine_type, topology).vms == vms


@pytest.mark.parametrize(
    ("topology", "chips", "hosts"),
    # FACTS A.3 [S32]: v5p 2x2x1 = 4/1, 2x2x2 = 8/2, 2x4x4 = 32/8, 4x4x4 = 64/16; max 16x16x24
    [("2x2x1", 4, 1), ("2x2x2", 8, 2), ("2x4x4", 32, 8), ("4x4x4", 64, 16), ("16x16x24", 6144, 1536)],
)
def test_v5p_documented_shapes(topology, chips, hosts):
    s = tpu_slice("ct5p-hightpu-4t", topology)
    assert (s.chips, s.vms) == (chips, hosts)


def test_v5e_single_chip_type():
    s = tpu_slice("ct5lp-hightpu-1t", "1x1")
    assert (s.chips, s.chips_per_vm, s.vms) == (1, 1, 1)


def test_v5e_2x2_single_host_on_4t():
    # FACTS A.3 [S33]: ct5lp-hightpu-4t 2x2 is a single-host slice node pool
    assert tpu_slice("ct5lp-hightpu-4t", "2x2").vms == 1


def test_v4_3d_cube_in_any_order():
    # enforce_nondecreasing=False for v4 (FACTS A.2 [S1])
    s = tpu_slice("ct4p-hightpu-4t", "8x4x4")
    assert (s.chips, s.vms, s.tensorcores, s.accelerator_label) == (128, 32, 256, "tpu-v4-podslice")


def test_v4_2x2x1_single_host():
    assert tpu_slice("ct4p-hightpu-4t", "2x2x1").multi_host is False


def test_tpu7x_multi_host_uses_workload_policy_not_tpu_topology():
    # FACTS A.3 [S34]: the workload policy replaces --tpu-topology for TPU7x
    s = tpu_slice("tpu7x-standard-4t", "4x4x4")
    assert (s.vms, s.workload_policy, s.tpu_topology, s.placement_type) == (16, HIGH_THROUGHPUT, None, COMPACT_PLACEMENT)


def test_tpu7x_single_host_has_no_workload_policy():
    # FACTS A.2 [S1 commit aa4255bf]: no workload policy for single-host pools
    s = tpu_slice("tpu7x-standard-4t", "2x2x1")
    assert (s.vms, s.workload_policy, s.uses_workload_policy) == (1, None, False)


def test_tpu7x_one_chip_type():
    s = tpu_slice("tpu7x-standard-1t", "1x1x1")
    assert (s.chips_per_vm, s.vms, s.accelerator_label) == (1, 1, "tpu7x")


def test_tpu7_largest_slice():
    s = tpu_slice("tpu7-standard-4t", "4x8x8")
    assert (s.chips, s.vms, s.accelerator_label) == (256, 64, "tpu7")


def test_multi_host_slice_sets_compact_placement_and_tpu_topology():
    s = tpu_slice("ct6e-standard-4t", "8x8")
    assert (s.placement_type, s.tpu_topology, s.max_nodes) == (COMPACT_PLACEMENT, "8x8", 16)


def test_single_host_slice_needs_no_placement():
    s = tpu_slice("ct6e-standard-4t", "2x2")
    assert (s.placement_type, s.tpu_topology, s.max_nodes) == (None, None, 1)


def test_node_selector_has_accelerator_and_topology_labels():
    assert tpu_slice("ct5p-hightpu-4t", "2x2x2").node_selector == {
        "cloud.google.com/gke-tpu-accelerator": "tpu-v5p-slice",
        "cloud.google.com/gke-tpu-topology": "2x2x2",
    }


@pytest.mark.parametrize(
    ("machine_type", "topology", "device_type"),
    # xpk device type = prefix-<tensorcores> (FACTS A.2 [S1])
    [("ct5p-hightpu-4t", "2x2x1", "v5p-8"), ("ct5lp-hightpu-4t", "4x4", "v5litepod-16"),
     ("ct6e-standard-4t", "4x4", "v6e-16"), ("tpu7x-standard-4t", "2x2x2", "tpu7x-16")],
)
def test_device_type_follows_xpk_naming(machine_type, topology, device_type):
    assert tpu_slice(machine_type, topology).device_type == device_type


@pytest.mark.parametrize("text", ["4X4", " 4 x 4 ", "4x4\n"])
def test_topology_is_normalized_leniently(text):
    assert tpu_slice("ct6e-standard-4t", text).topology == "4x4"


def test_to_dict_carries_node_pool_settings():
    d = tpu_slice("tpu7x-standard-4t", "4x4x8").to_dict()
    assert d["nodePool"] == {
        "maxNodes": 32,
        "placementType": "COMPACT",
        "tpuTopology": None,
        "workloadPolicy": {"type": "HIGH_THROUGHPUT", "acceleratorTopology": "4x4x8"},
    }
