"""allow-lists: machine types and regions from the pack's config."""

from __future__ import annotations

from testkit.rule_resources import CLUSTER, FUTURE_RESERVATION, flex_tpu_pool, on_demand_gpu_pool, resource

from gkecap.policies.rules.allow_lists import check_allow_lists

CONFIG = {"allowedMachineTypes": ["a3-*", "ct6e-standard-4t", "e2-*"], "allowedRegions": ["us-east5", "europe-*"]}


def test_silent_until_configured():
    assert check_allow_lists(on_demand_gpu_pool(), {"allowedMachineTypes": [], "allowedRegions": []}) == []


def test_allowed_pool_passes():
    assert check_allow_lists(flex_tpu_pool(), CONFIG) == []


def test_machine_type_not_allowed_is_named():
    [message] = check_allow_lists(on_demand_gpu_pool(), CONFIG)
    assert "'g2-standard-24'" in message and "a3-*" in message and "allowedMachineTypes" in message


def test_region_not_allowed_is_named_from_zones():
    pool = flex_tpu_pool(location="us-central1", nodeLocations=["us-central1-c"])
    [message] = check_allow_lists(pool, CONFIG)
    assert "'us-central1'" in message and "us-central1-c" in message and "allowedRegions" in message


def test_cluster_and_reservation_are_checked():
    cluster = resource(CLUSTER, "ml", location="asia-northeast1", nodeConfig={"machineType": "e2-standard-4"})
    [message] = check_allow_lists(cluster, CONFIG)
    assert "cluster 'ml'" in message and "asia-northeast1" in message
    reservation = resource(FUTURE_RESERVATION, "dec", zone="us-east5-a",
                           specificSkuProperties={"totalCount": "8", "instanceProperties": {"machineType": "a4-highgpu-8g"}})
    [message] = check_allow_lists(reservation, CONFIG)
    assert "future reservation 'dec'" in message and "a4-highgpu-8g" in message
