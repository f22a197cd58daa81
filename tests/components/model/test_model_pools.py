"""derive(): pools, GKE node pools, reservations and the flavor order."""

from __future__ import annotations

import json
from datetime import datetime, timezone

from gkecap.components.model import POOL_LABEL, derive
from gkecap.components.gke import CAPACITY_LABEL
from gkecap.components.spec import load_environment
from testkit.spec_data import NOW, dev, prod


def model_of(env):
    return derive(load_environment(env, now=NOW))


def sizes(node_pool):
    """(name, total min nodes, total max nodes) of one GKE node pool."""
    return node_pool.name, node_pool.autoscaling.total_min_node_count, node_pool.autoscaling.total_max_node_count


def test_gpu_pool_is_one_node_pool_up_to_max_nodes():
    pool = model_of(prod()).pool("h100-dws")
    assert pool.kind == "gpu"
    assert pool.accelerator_label == "nvidia-h100-80gb"
    assert pool.accelerator_label_key == "cloud.google.com/gke-accelerator"
    assert pool.resource_name == "nvidia.com/gpu"
    assert pool.accelerators_per_node == 8
    assert [(*sizes(n), n.max_accelerators) for n in pool.node_pools] == [("h100-dws", 0, 2, 16)]
    assert pool.capacity_accelerators == 16
    assert pool.max_run_duration == 604800
    assert pool.gpu_driver_version == "LATEST"


def test_gpu_driver_version_defaults_to_default():
    assert model_of(prod()).pool("l4-spot").gpu_driver_version == "DEFAULT"


def test_min_nodes_carry_into_the_node_pool():
    env = prod()
    env["nodePools"][3]["minNodes"] = 2
    assert model_of(env).pool("l4-spot").node_pools[0].autoscaling.total_min_node_count == 2


def test_multi_host_tpu_pool_is_one_node_pool_per_slice():
    pool = model_of(prod()).pool("v6e-16")
    assert pool.multi_host and pool.vms_per_slice == 4 and pool.chips_per_slice == 16
    assert [(*sizes(n), n.slice_index) for n in pool.node_pools] == [
        ("v6e-16-s0", 0, 4, 0),
        ("v6e-16-s1", 0, 4, 1),
    ]
    assert {(n.placement.type, n.placement.tpu_topology) for n in pool.node_pools} == {("COMPACT", "4x4")}
    assert pool.capacity_accelerators == 32
    assert pool.max_nodes == 8


def test_single_multi_host_slice_is_named_like_the_pool():
    env = prod()
    env["nodePools"][1]["slices"] = 1
    for team in env["teams"]:
        team["quota"].pop("v6e-16", None)
    env["teams"][1]["quota"]["v6e-16"] = 16
    assert [n.name for n in model_of(env).pool("v6e-16").node_pools] == ["v6e-16"]  # as gke.node_pool_names names it


def test_single_host_tpu_pool_scales_to_slices_nodes():
    pool = model_of(dev()).pool("v6e-4")
    assert not pool.multi_host
    assert [(*sizes(n), n.placement) for n in pool.node_pools] == [("v6e-4", 0, 2, None)]
    assert pool.capacity_accelerators == 8
    assert pool.node_selector == {
        "cloud.google.com/gke-tpu-accelerator": "tpu-v6e-slice",
        "cloud.google.com/gke-tpu-topology": "2x2",
        POOL_LABEL: "v6e-4",
    }


def test_tpu7x_multi_host_uses_a_workload_policy():
    env = prod()
    env["nodePools"].append(
        {
            "name": "ironwood",
            "machineType": "tpu7x-standard-4t",
            "tpuTopology": "2x2x2",
            "capacity": "on-demand",
            "zones": ["us-east5-a"],
        }
    )
    pool = model_of(env).pool("ironwood")
    (node_pool,) = pool.node_pools
    placement = node_pool.placement
    assert (placement.workload_policy, placement.tpu_topology, sizes(node_pool)[2]) == ("HIGH_THROUGHPUT", None, 2)


def test_calendar_pool_defaults_to_the_whole_reservation_and_its_zone():
    pool = model_of(prod()).pool("h100-dec")
    assert pool.zones == ("us-east5-a",)
    assert pool.max_nodes == 8 and pool.capacity_accelerators == 64
    assert pool.reservation_name == "dec-run"
    assert pool.reservation is not None and pool.reservation.count == 8


def test_reservation_plan_has_its_window_and_draft_status():
    reservation = model_of(prod()).reservation("dec-run")
    assert reservation.start == datetime(2026, 12, 7, tzinfo=timezone.utc)
    assert reservation.end == datetime(2026, 12, 21, tzinfo=timezone.utc)
    assert reservation.planning_status == "DRAFT"
    assert reservation.unit == "VMs" and reservation.accelerators == 64
    assert reservation.consumers == ("h100-dec",)
    assert reservation.workload_type is None


def test_tpu_reservation_counts_chips_and_defaults_to_batch():
    env = dev()
    env["reservations"] = [
        {
            "name": "tpu-run",
            "machineType": "ct6e-standard-4t",
            "count": 16,
            "zone": "us-east5-a",
            "start": "2026-12-07T00:00:00Z",
            "days": 7,
            "submit": True,
        }
    ]
    env["nodePools"].append(
        {
            "name": "v6e-cal",
            "machineType": "ct6e-standard-4t",
            "tpuTopology": "4x4",
            "capacity": "calendar",
            "reservation": "tpu-run",
        }
    )
    env["teams"][0]["quota"]["v6e-cal"] = 16
    reservation = model_of(env).reservation("tpu-run")
    assert (reservation.unit, reservation.accelerators, reservation.workload_type) == ("chips", 16, "BATCH")
    assert (reservation.tpu_family, reservation.accelerator_label) == ("v6e", "tpu-v6e-slice")
    assert reservation.planning_status == "SUBMITTED"


def test_flavor_order_puts_committed_capacity_first():
    assert model_of(prod()).flavor_order == ("h100-dec", "h100-dws", "v6e-16", "l4-spot")


def test_node_labels_and_selector_identify_the_pool():
    env = prod()
    env["nodePools"][3]["labels"] = {"tier": "inference"}
    pool = model_of(env).pool("l4-spot")
    assert pool.node_labels == {"tier": "inference", POOL_LABEL: "l4-spot", CAPACITY_LABEL: "spot"}
    assert pool.node_selector == {"cloud.google.com/gke-accelerator": "nvidia-l4", POOL_LABEL: "l4-spot"}


def test_node_resources_come_from_the_catalog():
    pool = model_of(prod()).pool("h100-dws")
    assert pool.node_resources == {"nvidia.com/gpu": 8, "cpu": 208, "memory": "1872Gi"}


def test_resources_for_accelerators_are_pro_rata():
    pool = model_of(prod()).pool("h100-dws")
    assert pool.resources_for(16) == {"nvidia.com/gpu": 16, "cpu": 416, "memory": "3744Gi"}
    assert pool.resources_for(3) == {"nvidia.com/gpu": 3, "cpu": 78, "memory": "702Gi"}
    assert pool.resources_for(1) == {"nvidia.com/gpu": 1, "cpu": 26, "memory": "234Gi"}


def test_gpu_sharing_is_carried():
    env = dev()
    env["nodePools"][0]["gpuSharing"] = {"strategy": "TIME_SHARING", "maxSharedClientsPerGpu": 4}
    sharing = model_of(env).pool("l4-flex").gpu_sharing
    assert (sharing.strategy, sharing.max_shared_clients_per_gpu) == ("TIME_SHARING", 4)


def test_to_dict_is_json_ready():
    data = model_of(prod()).to_dict()
    text = json.dumps(data)
    assert '"start": "2026-12-07T00:00:00Z"' in text
    assert [p["name"] for p in data["pools"]] == ["h100-dws", "v6e-16", "h100-dec", "l4-spot"]
    assert data["pools"][0]["capacityAccelerators"] == 16  # fields in camelCase...
    assert data["teams"][0]["quotas"] == {"h100-dws": 4, "h100-dec": 16, "l4-spot": 2}  # ...names kept as keys


def test_pool_taints_and_boot_disk_are_carried():
    env = prod()
    env["nodePools"][0].update(
        taints=[{"key": "acme.example/dedicated", "value": "training", "effect": "PREFER_NO_SCHEDULE"}],
        diskSizeGb=300,
        diskType="pd-ssd",
    )
    pool = model_of(env).pool("h100-dws")
    assert [(t.key, t.value, t.effect) for t in pool.taints] == [
        ("acme.example/dedicated", "training", "PREFER_NO_SCHEDULE")
    ]
    # The nodes also carry the GPU taint and, for a queued pool, GKE's queued-provisioning taint.
    assert [t.key for t in pool.node_taints] == [
        "nvidia.com/gpu", "cloud.google.com/gke-queued", "acme.example/dedicated"
    ]
    assert (pool.disk_size_gb, pool.disk_type) == (300, "pd-ssd")
    assert model_of(env).to_dict()["pools"][0]["taints"] == [
        {"key": "acme.example/dedicated", "value": "training", "effect": "PREFER_NO_SCHEDULE"}
    ]


def test_pools_without_taints_or_disk_settings_leave_them_to_gke():
    pool = model_of(prod()).pool("v6e-16")
    assert (pool.taints, pool.disk_size_gb, pool.disk_type) == ((), None, None)
    assert [t.key for t in pool.node_taints] == ["google.com/tpu"]


def test_compact_placement_from_the_environment_file():
    # GPU compact placement is written in the environment file (issue 11 item 9); A4X gets its NVL72 policy.
    env = prod()
    env["nodePools"].append({"name": "a3u", "machineType": "a3-ultragpu-8g", "capacity": "flex-start",
                             "maxNodes": 2, "zones": ["us-east5-a"], "compactPlacement": True})
    env["nodePools"].append({"name": "gb200", "machineType": "a4x-highgpu-4g", "capacity": "on-demand",
                             "maxNodes": 18, "zones": ["us-east5-a"], "compactPlacement": True})
    model = model_of(env)
    assert model.pool("a3u").node_pools[0].placement.type == "COMPACT"
    placement = model.pool("gb200").node_pools[0].placement
    assert (placement.workload_policy, placement.accelerator_topology) == ("HIGH_THROUGHPUT", "1x72")
