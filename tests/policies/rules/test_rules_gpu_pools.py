"""gpu-accelerator on raw node pools."""

from __future__ import annotations

from testkit.rule_resources import CLUSTER, node_pool, on_demand_gpu_pool, queued_gpu_pool, resource, system_pool, with_config

from gkecap.policies.resource_view import UNKNOWN
from gkecap.policies.rules.gpu_pools import check_gpu_accelerator


def check(view) -> list[str]:
    return check_gpu_accelerator(view, {})


def accelerator(**fields) -> list[dict]:
    return [{"type": "nvidia-h100-80gb", "count": 8, **fields}]


def h100(**fields):
    return with_config(queued_gpu_pool(), guestAccelerators=accelerator(**fields))


def test_correct_pools_pass():
    assert check(queued_gpu_pool()) == []
    assert check(on_demand_gpu_pool()) == []
    assert check(system_pool()) == []


def test_pool_without_guest_accelerators_is_not_judged():
    assert check(with_config(queued_gpu_pool(), guestAccelerators=None)) == []


def test_wrong_gpu_type_for_the_machine_is_caught():
    [message] = check(h100(type="nvidia-a100-80gb"))
    assert "'h100-dws'" in message and "nvidia-a100-80gb" in message and "set type to 'nvidia-h100-80gb'" in message


def test_wrong_gpu_count_for_the_machine_is_caught():
    [message] = check(h100(count=4))
    assert "count is 4" in message and "exactly 8" in message


def test_n1_with_attached_gpus_is_not_judged_on_count():
    pool = node_pool(nodeConfig={"machineType": "n1-standard-8", "guestAccelerators": [{"type": "nvidia-tesla-t4", "count": 2}]})
    assert check(pool) == []


def test_valid_mig_partition_passes():
    assert check(h100(gpuPartitionSize="1g.20gb")) == []


def test_mig_partition_of_another_gpu_lists_the_valid_sizes():
    [message] = check(h100(gpuPartitionSize="1g.5gb"))
    assert "'1g.5gb'" in message and "1g.10gb" in message and "gpuPartitionSize" in message


def test_mig_partition_on_a_gpu_without_mig_is_caught():
    pool = with_config(on_demand_gpu_pool(), guestAccelerators=[{"type": "nvidia-l4", "count": 2, "gpuPartitionSize": "1g.10gb"}])
    [message] = check(pool)
    assert "no MIG partitions" in message


def test_time_sharing_with_clients_passes():
    assert check(h100(gpuSharingConfig={"gpuSharingStrategy": "TIME_SHARING", "maxSharedClientsPerGpu": 4})) == []


def test_time_sharing_on_mig_partitions_passes():
    config = {"gpuSharingStrategy": "TIME_SHARING", "maxSharedClientsPerGpu": 2}
    assert check(h100(gpuPartitionSize="1g.10gb", gpuSharingConfig=config)) == []


def test_zero_shared_clients_is_caught():
    [message] = check(h100(gpuSharingConfig={"gpuSharingStrategy": "MPS", "maxSharedClientsPerGpu": 0}))
    assert "maxSharedClientsPerGpu is 0" in message and "from 1 to 48" in message


def test_more_than_48_shared_clients_is_caught():
    # The spec's bound (gke.MAX_SHARED_CLIENTS_PER_GPU), issue 11 item 8.
    [message] = check(h100(gpuSharingConfig={"gpuSharingStrategy": "TIME_SHARING", "maxSharedClientsPerGpu": 49}))
    assert "maxSharedClientsPerGpu is 49" in message and "from 1 to 48" in message


def test_clients_without_strategy_is_caught():
    [message] = check(h100(gpuSharingConfig={"maxSharedClientsPerGpu": 3}))
    assert "no gpuSharingStrategy" in message and "TIME_SHARING" in message


def test_strategy_without_clients_is_caught():
    [message] = check(h100(gpuSharingConfig={"gpuSharingStrategy": "TIME_SHARING"}))
    assert "without maxSharedClientsPerGpu" in message


def test_unknown_strategy_name_is_caught():
    [message] = check(h100(gpuSharingConfig={"gpuSharingStrategy": "TIMESHARING", "maxSharedClientsPerGpu": 2}))
    assert "'TIMESHARING'" in message and "MPS" in message


def test_bad_driver_version_is_caught():
    [message] = check(h100(gpuDriverInstallationConfig={"gpuDriverVersion": "NEWEST"}))
    assert "'NEWEST'" in message and "LATEST" in message


def test_unknown_values_are_not_judged():
    assert check(h100(type=UNKNOWN, count=UNKNOWN, gpuPartitionSize=UNKNOWN)) == []
    assert check(with_config(queued_gpu_pool(), guestAccelerators=UNKNOWN)) == []


def test_inline_cluster_pool_is_checked():
    cluster = resource(CLUSTER, "ml", location="us-east5", nodePools=[
        {"name": "a100", "nodeConfig": {"machineType": "a2-highgpu-2g", "guestAccelerators": [{"type": "nvidia-tesla-a100", "count": 1}]}},
    ])
    [message] = check(cluster)
    assert "nodePools[0].nodeConfig.guestAccelerators[0].count is 1" in message and "exactly 2" in message


def test_n1_pool_with_an_offered_gpu_count_passes_and_another_is_caught():
    # N1 takes T4/V100/P100/P4 in Compute Engine's counts (issue 11 item 9; the spec's rule, catalog.n1_gpus).
    def n1(count):
        return node_pool("v100", name="v100", location="us-east5", nodeLocations=["us-east5-b"],
                         autoscaling={"totalMinNodeCount": 0, "totalMaxNodeCount": 2},
                         nodeConfig={"machineType": "n1-standard-96",
                                     "guestAccelerators": [{"type": "nvidia-tesla-v100", "count": count}]})
    assert check_gpu_accelerator(n1(8), {}) == []
    [message] = check_gpu_accelerator(n1(3), {})
    assert "count: 3 nvidia-tesla-v100 GPUs cannot be attached; allowed: 1, 2, 4, 8" in message
