"""The pure node pool settings: slice math, per-capacity settings, what workloads and Kueue see."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gkecap.components.catalog import tpu_slice, tpu_topologies
from gkecap.components.gke.node_pools import (
    QUEUED_TAINT,
    PoolRequest,
    PoolSettingsError,
    ReservationTarget,
    Taint,
    check_pool_request,
    check_service_account,
    gke_version_key,
    minimum_gke_version,
    node_pool_names,
    node_pool_settings,
    node_selector,
    reservation_value,
    tolerations,
)

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


def test_inputs_view_matches_the_engine_names():
    (pool,) = node_pool_settings(PoolRequest("h100", "a3-highgpu-8g", "calendar", max_nodes=2,
                                             reservation=ReservationTarget("dec-run")))
    inputs = pool.inputs()
    assert inputs["nodeConfig"]["reservationAffinity"] == {
        "consumeReservationType": "SPECIFIC_RESERVATION",
        "key": "compute.googleapis.com/reservation-name",
        "values": ["dec-run"],
    }
    assert inputs["autoscaling"] == {"totalMinNodeCount": 0, "totalMaxNodeCount": 2, "locationPolicy": "ANY"}


def test_tpu7x_inputs_name_the_workload_policy():
    (pool,) = node_pool_settings(PoolRequest("iw", "tpu7x-standard-4t", "spot", tpu_topology="2x2x2"))
    assert pool.inputs(policy_name="iw-policy")["placementPolicy"] == {"type": "COMPACT", "policyName": "iw-policy"}


def test_node_selector_for_gpu_and_tpu():
    assert node_selector("h100", "a3-highgpu-8g") == {
        "gkecap.dev/pool": "h100", "cloud.google.com/gke-accelerator": "nvidia-h100-80gb"}
    assert node_selector("v6e", "ct6e-standard-4t", "4x4") == {
        "gkecap.dev/pool": "v6e",
        "cloud.google.com/gke-tpu-accelerator": "tpu-v6e-slice",
        "cloud.google.com/gke-tpu-topology": "4x4",
    }


def test_kueue_tolerations_cover_every_node_taint():
    assert tolerations("a3-highgpu-8g", "queued", [Taint("team", "vision", "NO_EXECUTE")]) == [
        {"key": "nvidia.com/gpu", "operator": "Equal", "value": "present", "effect": "NoSchedule"},
        {"key": "cloud.google.com/gke-queued", "operator": "Equal", "value": "true", "effect": "NoSchedule"},
        {"key": "team", "operator": "Equal", "value": "vision", "effect": "NoExecute"},
    ]
    assert QUEUED_TAINT.k8s() == {"key": "cloud.google.com/gke-queued", "value": "true", "effect": "NoSchedule"}


def test_labels_managed_by_gke_capacity_cannot_be_overridden():
    issues = check_pool_request(PoolRequest("h100", "a3-highgpu-8g", "spot", max_nodes=1,
                                            labels={"gkecap.dev/pool": "other"}))
    assert [str(i) for i in issues] == [
        "labels.gkecap.dev/pool: is set by gke-capacity to select this pool; remove it"]


def test_mig_partition_must_belong_to_the_gpu():
    issues = check_pool_request(PoolRequest("l4", "g2-standard-4", "spot", max_nodes=1, gpu_partition_size="1g.10gb"))
    assert [i.field for i in issues] == ["gpuPartitionSize"]
    assert "does not support MIG" in issues[0].message


def test_min_nodes_is_only_for_committed_or_spot_capacity():
    issues = check_pool_request(PoolRequest("h", "a3-highgpu-8g", "flex-start", max_nodes=4, min_nodes=1))
    assert [str(i) for i in issues] == [
        "minNodes: must be 0 for flex-start pools; minNodes > 0 is for reservation, spot, on-demand"]


def test_reservation_pools_need_a_reservation_and_others_refuse_one():
    missing = check_pool_request(PoolRequest("h", "a3-highgpu-8g", "reservation", max_nodes=1))
    extra = check_pool_request(PoolRequest("h", "a3-highgpu-8g", "spot", max_nodes=1,
                                           reservation=ReservationTarget("r")))
    assert [i.field for i in missing] == ["reservation"] and [i.field for i in extra] == ["reservation"]


def test_multi_host_tpu_slice_lives_in_one_zone():
    issues = check_pool_request(PoolRequest("v6e", "ct6e-standard-4t", "spot", tpu_topology="4x4",
                                            zones=("us-east5-a", "us-east5-b")))
    assert [i.field for i in issues] == ["zones"]


def test_unknown_machine_type_lists_what_is_known():
    with pytest.raises(PoolSettingsError, match=r"machineType: unknown .*a3-highgpu-8g"):
        node_pool_settings(PoolRequest("x", "a3-highgpu-9g", "spot", max_nodes=1))


def test_service_account_checks():
    assert check_service_account("gke-nodes@p.iam.gserviceaccount.com") == []
    assert [i.field for i in check_service_account("42-compute@developer.gserviceaccount.com")] == ["serviceAccount"]
    assert [i.field for i in check_service_account("")] == ["serviceAccount"]


def test_minimum_gke_versions():
    assert minimum_gke_version("a3-highgpu-8g", "queued") == "1.32.2-gke.1652000"
    assert minimum_gke_version("ct6e-standard-4t", "flex-start") == "1.33.0-gke.1712000"
    assert minimum_gke_version("tpu7x-standard-4t", "spot") == "1.34.0-gke.2201000"
    assert minimum_gke_version("a3-highgpu-8g", "spot") is None


def test_gke_version_order():
    assert gke_version_key("1.33.0-gke.1712000") > gke_version_key("1.32.2-gke.1652000")
    assert gke_version_key("1.34") > gke_version_key("1.33.5-gke.1308000")
    with pytest.raises(ValueError, match="not a GKE version"):
        gke_version_key("latest")


def test_boot_disk_follows_the_same_rules_as_the_environment_spec():
    issues = check_pool_request(PoolRequest("b200", "a4-highgpu-8g", "spot", max_nodes=1,
                                            disk_type="pd-balanced", disk_size_gb=5))
    assert [i.field for i in issues] == ["diskSizeGb", "diskType"]
    assert "allowed: 10 to 65536 GB" in issues[0].message and "allowed: hyperdisk-balanced" in issues[1].message


def test_flex_start_compact_placement_only_on_the_catalog_series():
    assert check_pool_request(PoolRequest("h200", "a3-ultragpu-8g", "flex-start", max_nodes=2,
                                          compact_placement=True)) == []
    [issue] = check_pool_request(PoolRequest("h100", "a3-highgpu-8g", "flex-start", max_nodes=2,
                                             compact_placement=True))
    assert str(issue) == ("compactPlacement: flex-start with compact placement is only for a3-ultragpu-*, a4-*, "
                          "h4d-*; not a3-highgpu-8g")
