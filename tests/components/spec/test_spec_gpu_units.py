"""Quotas on MIG and shared GPU pools count the units the nodes advertise (issue 11 item 1)."""

from __future__ import annotations

import pytest

from gkecap.components.model import derive
from gkecap.components.spec import SpecError, load_environment
from testkit.kueue_specs import find, flavor_resources, objects_of
from testkit.spec_data import NOW, dev


def shared_a100(quota: int) -> dict:
    env = dev()
    env["nodePools"].append({
        "name": "a100-mig", "machineType": "a2-ultragpu-1g", "capacity": "on-demand", "maxNodes": 2,
        "zones": ["us-east5-b"], "gpuPartitionSize": "1g.10gb",
        "gpuSharing": {"strategy": "TIME_SHARING", "maxSharedClientsPerGpu": 2},
    })
    env["teams"][0]["quota"]["a100-mig"] = quota
    return env


def test_a_quota_within_the_advertised_units_is_accepted():
    # 2 nodes x 1 A100 x 7 partitions x 2 clients = 28 units; counting physical GPUs would hold 2.
    spec = load_environment(shared_a100(7), now=NOW)
    assert derive(spec).totals["a100-mig"].capacity == 28


def test_a_quota_above_the_advertised_units_names_them():
    with pytest.raises(SpecError) as err:
        load_environment(shared_a100(29), now=NOW)
    assert [str(i) for i in err.value.issues] == [
        "teams: quotas for pool 'a100-mig' total 29 nvidia.com/gpu (vision 29) but the pool holds 28 "
        "(2 nodes x 14 GPU units); reduce quotas or raise maxNodes"
    ]


def test_the_cluster_queue_quota_is_in_units_with_the_cpu_of_its_share_of_the_node():
    objects = objects_of(shared_a100(7))
    resources = flavor_resources(find(objects, "ClusterQueue", "vision"), "a100-mig")
    # 7 of 14 units: half the node's 12 vCPUs.
    assert resources["nvidia.com/gpu"]["nominalQuota"] == 7 and resources["cpu"]["nominalQuota"] == 6


def v100_nvlink(count: int = 8) -> dict:
    env = dev()
    env["nodePools"].append({"name": "v100", "machineType": "n1-standard-96", "capacity": "on-demand",
                             "maxNodes": 2, "zones": ["us-east5-b"], "gpu": {"type": "nvidia-tesla-v100", "count": count}})
    env["teams"][0]["quota"]["v100"] = 16
    return env


def test_n1_with_eight_v100s_is_a_gpu_pool_selected_by_its_gpu_type():
    # The GPU scheduling notes' V100 NVLink example: 8 V100 on an N1 VM (issue 11 item 9).
    model = derive(load_environment(v100_nvlink(), now=NOW))
    pool = model.pool("v100")
    assert (pool.accelerator_label, pool.accelerators_per_node, model.totals["v100"].capacity) == (
        "nvidia-tesla-v100", 8, 16)
    assert pool.node_selector["cloud.google.com/gke-accelerator"] == "nvidia-tesla-v100"
    assert pool.node_pools[0].guest_accelerator.count == 8


def test_n1_gpu_counts_are_those_compute_engine_offers():
    with pytest.raises(SpecError) as err:
        load_environment(v100_nvlink(3), now=NOW)
    assert [str(i) for i in err.value.issues] == [
        "nodePools[2].gpu.count: 3 nvidia-tesla-v100 GPUs cannot be attached; allowed: 1, 2, 4, 8"]


def test_attached_gpus_apply_to_n1_only():
    env = dev()
    env["nodePools"][0]["gpu"] = {"type": "nvidia-tesla-t4", "count": 1}
    with pytest.raises(SpecError) as err:
        load_environment(env, now=NOW)
    assert "nodePools[0].gpu: applies to N1 machine types only" in str(err.value.issues[0])
