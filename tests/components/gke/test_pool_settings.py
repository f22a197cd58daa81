"""The GKE node pools of an accelerator pool: slice math, per-capacity settings, what workloads and Kueue see."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gkecap.components.catalog import tpu_slice, tpu_topologies
from gkecap.components.gke import (
    QUEUED_TAINT,
    PoolRequest,
    ReservationTarget,
    NodeTaint,
    node_pool_names,
    node_pool_settings,
    node_selector,
    reservation_value,
    tolerations,
)
from gkecap.components.issues import InvalidInput

MULTI_HOST_V6E = [t for t in tpu_topologies("ct6e-standard-4t") if tpu_slice("ct6e-standard-4t", t).multi_host]


@settings(max_examples=40, deadline=None)
@given(topology=st.sampled_from(MULTI_HOST_V6E), slices=st.integers(1, 8),
       capacity=st.sampled_from(["flex-start", "spot", "on-demand"]))
def test_multi_host_pools_have_one_node_pool_per_slice_of_exactly_the_slice_vms(topology, slices, capacity):
    pools = node_pool_settings(PoolRequest("v6e", "ct6e-standard-4t", capacity, tpu_topology=topology, slices=slices))
    chips = 1
    for size in topology.split("x"):
        chips *= int(size)
    assert len(pools) == slices
    assert all(p.autoscaling.total_max_node_count == chips // 4 for p in pools)  # 4 chips per ct6e-standard-4t VM
    assert all(p.autoscaling.total_min_node_count == 0 and p.initial_node_count == 0 for p in pools)
    assert all(p.placement.tpu_topology == topology for p in pools)


@settings(max_examples=30, deadline=None)
@given(slices=st.integers(1, 64))
def test_single_host_pool_scales_zero_to_slices(slices):
    (pool,) = node_pool_settings(PoolRequest("v6e", "ct6e-standard-8t", "spot", tpu_topology="2x4", slices=slices))
    assert (pool.autoscaling.total_min_node_count, pool.autoscaling.total_max_node_count) == (0, slices)
    assert pool.placement is None


@settings(max_examples=30, deadline=None)
@given(min_nodes=st.integers(0, 16), extra=st.integers(0, 16), zones=st.integers(1, 4))
def test_initial_node_count_per_zone_covers_the_total_minimum(min_nodes, extra, zones):
    zone_names = tuple(f"us-east5-{c}" for c in "abcd"[:zones])
    (pool,) = node_pool_settings(PoolRequest("g", "g2-standard-4", "on-demand", zones=zone_names,
                                             max_nodes=min_nodes + extra + 1, min_nodes=min_nodes))
    assert pool.initial_node_count * zones >= min_nodes
    assert (pool.initial_node_count - 1) * zones < min_nodes or pool.initial_node_count == 0


def test_node_pool_names_are_stable():
    assert node_pool_names("v6e-16", 1) == ("v6e-16",)
    assert node_pool_names("v6e-16", 3) == ("v6e-16-s0", "v6e-16-s1", "v6e-16-s2")


@pytest.mark.parametrize(
    ("name", "project", "block", "value"),
    [
        ("dec-run", None, None, "dec-run"),
        ("dec-run", None, "b-1", "dec-run/reservationBlocks/b-1"),
        ("dec-run", "acme-cap", None, "projects/acme-cap/reservations/dec-run"),
        ("dec-run", "acme-cap", "b-1", "projects/acme-cap/reservations/dec-run/reservationBlocks/b-1"),
    ],
)
def test_reservation_value(name, project, block, value):
    assert reservation_value(name, project, block) == value


def test_calendar_pool_targets_its_reservation_by_name():
    (pool,) = node_pool_settings(PoolRequest("h100", "a3-highgpu-8g", "calendar", max_nodes=2,
                                             reservation=ReservationTarget("dec-run")))
    affinity = pool.reservation_affinity
    assert (affinity.consume_reservation_type, affinity.key, affinity.values()) == (
        "SPECIFIC_RESERVATION", "compute.googleapis.com/reservation-name", ["dec-run"])
    assert (pool.autoscaling.total_min_node_count, pool.autoscaling.total_max_node_count,
            pool.autoscaling.location_policy) == (0, 2, "ANY")


def test_tpu7x_multi_host_slices_carry_a_workload_policy_not_a_topology():
    (pool,) = node_pool_settings(PoolRequest("iw", "tpu7x-standard-4t", "spot", tpu_topology="2x2x2"))
    assert pool.placement.workload_policy == "HIGH_THROUGHPUT" and pool.placement.tpu_topology is None
    assert pool.placement.accelerator_topology == "2x2x2"


def test_accelerators_per_node_follow_the_machine_type():
    (gpu,) = node_pool_settings(PoolRequest("h100", "a3-highgpu-8g", "spot", max_nodes=3))
    (tpu,) = node_pool_settings(PoolRequest("v6e", "ct6e-standard-4t", "spot", tpu_topology="4x4"))
    assert (gpu.accelerators_per_node, gpu.max_accelerators) == (8, 24)
    assert (tpu.accelerators_per_node, tpu.max_accelerators) == (4, 16)


def test_node_selector_for_gpu_and_tpu():
    assert node_selector("h100", "a3-highgpu-8g") == {
        "gkecap.dev/pool": "h100", "cloud.google.com/gke-accelerator": "nvidia-h100-80gb"}
    assert node_selector("v6e", "ct6e-standard-4t", "4x4") == {
        "gkecap.dev/pool": "v6e",
        "cloud.google.com/gke-tpu-accelerator": "tpu-v6e-slice",
        "cloud.google.com/gke-tpu-topology": "4x4",
    }


def test_kueue_tolerations_cover_every_node_taint():
    assert tolerations("a3-highgpu-8g", "queued", [NodeTaint("team", "vision", "NO_EXECUTE")]) == [
        {"key": "nvidia.com/gpu", "operator": "Equal", "value": "present", "effect": "NoSchedule"},
        {"key": "cloud.google.com/gke-queued", "operator": "Equal", "value": "true", "effect": "NoSchedule"},
        {"key": "team", "operator": "Equal", "value": "vision", "effect": "NoExecute"},
    ]
    assert QUEUED_TAINT.k8s() == {"key": "cloud.google.com/gke-queued", "value": "true", "effect": "NoSchedule"}


def test_unknown_machine_type_lists_what_is_known():
    with pytest.raises(InvalidInput, match=r"machineType: unknown .*a3-highgpu-8g"):
        node_pool_settings(PoolRequest("x", "a3-highgpu-9g", "spot", max_nodes=1))
