"""tpu-slice-topology and tpu-workload-policy on raw node pools."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from testkit.rule_resources import CLUSTER, RESOURCE_POLICY, flex_tpu_pool, node_pool, on_demand_gpu_pool, resource

from gkecap.components.catalog import tpu_slice, tpu_topologies
from gkecap.policies.resource_view import UNKNOWN, ResourceView
from gkecap.policies.rules.tpu_slices import check_tpu_slice_topology, check_tpu_workload_policies


def check(view: ResourceView) -> list[str]:
    return check_tpu_slice_topology(view, {})


def test_correct_multi_host_flex_pool_passes():
    assert check(flex_tpu_pool()) == []


def test_non_tpu_pool_is_ignored():
    assert check(on_demand_gpu_pool()) == []


def test_invalid_topology_names_the_valid_ones():
    [message] = check(flex_tpu_pool(placementPolicy={"type": "COMPACT", "tpuTopology": "4x3"}))
    assert "'v6e-16'" in message and "'4x3'" in message and "4x4" in message and "tpuTopology" in message


def test_topology_of_another_machine_type_is_rejected():
    pool = flex_tpu_pool(placementPolicy={"type": "COMPACT", "tpuTopology": "1x1"})
    [message] = check(pool)
    assert "ct6e-standard-1t" in message  # where 1x1 is valid


def test_total_max_above_slice_vms_is_named_with_numbers():
    pool = flex_tpu_pool(autoscaling={"totalMinNodeCount": 0, "totalMaxNodeCount": 8})
    [message] = check(pool)
    assert "totalMaxNodeCount is 8" in message and "4 VMs" in message and "set it to 4" in message


def test_per_zone_max_times_one_zone_must_equal_vms():
    pool = flex_tpu_pool(autoscaling={"minNodeCount": 0, "maxNodeCount": 2})
    [message] = check(pool)
    assert "maxNodeCount is 2 x 1 zone = 2 nodes" in message


def test_per_zone_max_equal_to_vms_in_one_zone_passes():
    assert check(flex_tpu_pool(autoscaling={"minNodeCount": 0, "maxNodeCount": 4})) == []


def test_per_zone_max_with_unknown_zones_passes_when_some_zone_count_fits():
    pool = flex_tpu_pool(autoscaling={"maxNodeCount": 2})
    pool = ResourceView(pool.type, pool.name, props={k: v for k, v in pool.props.items() if k != "nodeLocations"})
    assert check(pool) == []  # regional pool: 2 per zone x 2 zones could be 4


def test_per_zone_max_with_unknown_zones_that_never_fits_is_caught():
    pool = flex_tpu_pool(autoscaling={"maxNodeCount": 3})
    pool = ResourceView(pool.type, pool.name, props={k: v for k, v in pool.props.items() if k != "nodeLocations"})
    [message] = check(pool)
    assert "maxNodeCount is 3 per zone" in message


def test_node_count_must_be_zero_or_the_slice():
    assert check(flex_tpu_pool(nodeCount=4)) == []
    assert check(flex_tpu_pool(nodeCount=0)) == []
    [message] = check(flex_tpu_pool(nodeCount=2))
    assert "nodeCount is 2" in message and "set it to 0 or 4" in message


def test_initial_node_count_wrong_is_caught():
    [message] = check(flex_tpu_pool(initialNodeCount=3))
    assert "initialNodeCount is 3" in message


def test_slice_across_zones_is_caught():
    [message] = check(flex_tpu_pool(nodeLocations=["us-east5-a", "us-east5-b"]))
    assert "cannot span zones" in message and "2 zones" in message


def test_multi_host_without_compact_type_is_caught():
    [message] = check(flex_tpu_pool(placementPolicy={"tpuTopology": "4x4"}))
    assert "COMPACT" in message and "found None" in message


def test_single_host_topology_has_no_count_constraint():
    pool = flex_tpu_pool(
        placementPolicy={"type": "COMPACT", "tpuTopology": "2x2"},
        autoscaling={"totalMinNodeCount": 0, "totalMaxNodeCount": 7},
    )
    assert check(pool) == []


def test_single_host_pool_without_topology_passes():
    pool = node_pool(
        "v6e-1",
        location="us-east5-a",
        autoscaling={"totalMinNodeCount": 0, "totalMaxNodeCount": 5},
        nodeConfig={"machineType": "ct6e-standard-1t"},
    )
    assert check(pool) == []


def test_tpu7x_multi_host_needs_a_workload_policy():
    pool = flex_tpu_pool(
        placementPolicy={"type": "COMPACT", "tpuTopology": "4x4x4"},
        autoscaling={"totalMaxNodeCount": 16},
        nodeConfig={"machineType": "tpu7x-standard-4t"},
    )
    [message] = check(pool)
    assert "policyName" in message and "HIGH_THROUGHPUT" in message and "16 VMs" in message


def test_tpu7x_with_workload_policy_passes():
    pool = flex_tpu_pool(
        placementPolicy={"type": "COMPACT", "policyName": "ironwood-4x4x4"},
        autoscaling={"totalMaxNodeCount": 16},
        nodeConfig={"machineType": "tpu7x-standard-4t"},
    )
    assert check(pool) == []


def test_unknown_topology_is_not_judged():
    assert check(flex_tpu_pool(placementPolicy={"type": "COMPACT", "tpuTopology": UNKNOWN})) == []


def test_unknown_max_is_not_judged():
    assert check(flex_tpu_pool(autoscaling={"totalMaxNodeCount": UNKNOWN})) == []


def test_inline_cluster_pool_is_checked_with_its_path():
    cluster = resource(
        CLUSTER,
        "ml",
        location="us-east5-a",
        nodePools=[
            {"name": "system", "nodeCount": 1, "nodeConfig": {"machineType": "e2-standard-4"}},
            {
                "name": "v5p",
                "autoscaling": {"totalMaxNodeCount": 8},
                "placementPolicy": {"type": "COMPACT", "tpuTopology": "2x2x4"},
                "nodeConfig": {"machineType": "ct5p-hightpu-4t"},
            },
        ],
    )
    [message] = check(cluster)
    assert "node pool 'v5p' of cluster 'ml'" in message and "nodePools[1].autoscaling.totalMaxNodeCount" in message
    assert "16 chips / 4 per VM" in message and "set it to 4" in message


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(tpu_topologies("ct6e-standard-4t") + tpu_topologies("ct5lp-hightpu-4t")), st.booleans())
def test_pool_sized_to_its_slice_always_passes(topology, v6e):
    machine_type = "ct6e-standard-4t" if v6e else "ct5lp-hightpu-4t"
    vms = tpu_slice(machine_type, topology).vms
    pool = flex_tpu_pool(
        placementPolicy={"type": "COMPACT", "tpuTopology": topology},
        autoscaling={"totalMinNodeCount": 0, "totalMaxNodeCount": vms},
        nodeConfig={"machineType": machine_type},
    )
    assert check(pool) == []


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(tpu_topologies("ct5p-hightpu-4t")[:60]), st.integers(min_value=1, max_value=300))
def test_any_other_maximum_on_a_multi_host_slice_fails(topology, max_nodes):
    slice_ = tpu_slice("ct5p-hightpu-4t", topology)
    pool = flex_tpu_pool(
        placementPolicy={"type": "COMPACT", "tpuTopology": topology},
        autoscaling={"totalMaxNodeCount": max_nodes},
        nodeConfig={"machineType": "ct5p-hightpu-4t"},
    )
    assert bool(check(pool)) == (slice_.multi_host and max_nodes != slice_.vms)


def _ironwood_stack(max_nodes: int) -> list[ResourceView]:
    policy = resource(
        RESOURCE_POLICY, "ironwood", name="ironwood-4x4x4", region="us-central1",
        workloadPolicy={"type": "HIGH_THROUGHPUT", "acceleratorTopology": "4x4x4"},
    )
    pool = node_pool(
        "tpu7x",
        location="us-central1",
        nodeLocations=["us-central1-c"],
        autoscaling={"totalMaxNodeCount": max_nodes},
        placementPolicy={"type": "COMPACT", "policyName": "ironwood-4x4x4"},
        nodeConfig={"machineType": "tpu7x-standard-4t"},
    )
    return [policy, pool]


def test_workload_policy_topology_sizes_the_tpu7x_pool():
    [(urn, message)] = check_tpu_workload_policies(_ironwood_stack(8), {})
    assert urn.endswith("::tpu7x") and "totalMaxNodeCount is 8" in message and "16 VMs" in message
    assert "resource policy 'ironwood'" in message


def test_workload_policy_matching_pool_passes():
    assert check_tpu_workload_policies(_ironwood_stack(16), {}) == []
