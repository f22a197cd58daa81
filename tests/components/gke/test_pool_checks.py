"""The one rule set of an accelerator pool (`check_pool_request`): what it rejects, at which field."""

from __future__ import annotations

from gkecap.components.gke import PoolRequest, ReservationTarget, check_pool_request


def test_labels_managed_by_gke_capacity_cannot_be_overridden():
    issues = check_pool_request(PoolRequest("h100", "a3-highgpu-8g", "spot", max_nodes=1,
                                            labels={"gkecap.dev/pool": "other"}))
    assert [str(i) for i in issues] == [
        "labels['gkecap.dev/pool']: 'gkecap.dev/pool' is set by gke-capacity to select this pool; remove it"]


def test_mig_partition_must_belong_to_the_gpu():
    issues = check_pool_request(PoolRequest("l4", "g2-standard-4", "spot", max_nodes=1, gpu_partition_size="1g.10gb"))
    assert [i.path for i in issues] == ["gpuPartitionSize"]
    assert "has no MIG partitions" in issues[0].message


def test_min_nodes_is_only_for_committed_or_spot_capacity():
    issues = check_pool_request(PoolRequest("h", "a3-highgpu-8g", "flex-start", max_nodes=4, min_nodes=1))
    assert [str(i) for i in issues] == [
        "minNodes: flex-start pools scale from zero (DWS creates nodes for pending work); remove minNodes"]


def test_calendar_pools_keep_no_nodes_before_the_window():
    issues = check_pool_request(PoolRequest("h", "a3-highgpu-8g", "calendar", max_nodes=4, min_nodes=1,
                                            reservation=ReservationTarget("dec-run")))
    assert [i.path for i in issues] == ["minNodes"]
    assert issues[0].message.startswith("must be 0 for calendar pools")


def test_reservation_pools_need_a_reservation_and_others_refuse_one():
    missing = check_pool_request(PoolRequest("h", "a3-highgpu-8g", "reservation", max_nodes=1))
    extra = check_pool_request(PoolRequest("h", "a3-highgpu-8g", "spot", max_nodes=1,
                                           reservation=ReservationTarget("r")))
    assert [i.path for i in missing] == ["reservation"] and [i.path for i in extra] == ["reservation"]


def test_multi_host_tpu_slice_lives_in_one_zone():
    issues = check_pool_request(PoolRequest("v6e", "ct6e-standard-4t", "spot", tpu_topology="4x4",
                                            zones=("us-east5-a", "us-east5-b")))
    assert [i.path for i in issues] == ["zones"]


def test_boot_disk_follows_the_same_rules_as_the_environment_spec():
    issues = check_pool_request(PoolRequest("b200", "a4-highgpu-8g", "spot", max_nodes=1,
                                            disk_type="pd-balanced", disk_size_gb=5))
    assert [i.path for i in issues] == ["diskSizeGb", "diskType"]
    assert "allowed: 10 to 65536 GB" in issues[0].message and "allowed: hyperdisk-balanced" in issues[1].message


def test_flex_start_compact_placement_only_on_the_catalog_series():
    assert check_pool_request(PoolRequest("h200", "a3-ultragpu-8g", "flex-start", max_nodes=2,
                                          compact_placement=True)) == []
    [issue] = check_pool_request(PoolRequest("h100", "a3-highgpu-8g", "flex-start", max_nodes=2,
                                             compact_placement=True))
    assert str(issue) == ("compactPlacement: flex-start with compact placement is only for a3-ultragpu-*, a4-*, "
                          "h4d-*; not a3-highgpu-8g")


def test_a_pool_larger_than_a_cluster_is_refused_at_once():
    # One GKE node pool per multi-host slice: a mistyped slice count must be refused, not built.
    huge = PoolRequest("v6e", "ct6e-standard-4t", "flex-start", tpu_topology="4x4", slices=2**31 - 1)
    assert [i.path for i in check_pool_request(huge)] == ["slices"]
    gpus = PoolRequest("h100", "a3-highgpu-8g", "spot", max_nodes=65_001)
    assert [i.path for i in check_pool_request(gpus)] == ["maxNodes"]


def test_compact_placement_keeps_the_pool_in_one_zone():
    # A compact placement policy places VMs within one zone (docs/sources.md "Compact placement is single-zone").
    [issue] = check_pool_request(PoolRequest("h100", "a3-highgpu-8g", "on-demand", max_nodes=2, compact_placement=True,
                                             zones=("us-east5-a", "us-east5-b")))
    assert issue.path == "compactPlacement" and "exactly one zone" in issue.message


def test_compact_placement_in_one_zone_passes():
    assert check_pool_request(PoolRequest("h100", "a3-highgpu-8g", "on-demand", max_nodes=2, compact_placement=True,
                                          zones=("us-east5-a",))) == []
