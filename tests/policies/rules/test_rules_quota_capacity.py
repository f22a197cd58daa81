"""quota-capacity, quota-capacity-dws and team-accelerator-limit."""

from __future__ import annotations

from testkit.rule_resources import flex_tpu_pool, kueue, node_pool, on_demand_gpu_pool, queued_gpu_pool, system_pool

from gkecap.policies.resource_view import UNKNOWN
from gkecap.policies.rules.quota_capacity import (
    check_quota_capacity,
    check_quota_capacity_dws,
    check_team_accelerator_limit,
    check_whole_vm_quotas,
    flavor_selects,
)
from gkecap.policies.rules.node_pool_props import node_pools


def flavor(name, labels):
    return kueue("ResourceFlavor", name, {"nodeLabels": labels})


def queue(name, flavor_name, quota, resource="nvidia.com/gpu", cohort=None):
    spec = {
        "namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": name}},
        "resourceGroups": [{"coveredResources": [resource],
                            "flavors": [{"name": flavor_name, "resources": [{"name": resource, "nominalQuota": quota}]}]}],
    }
    if cohort:
        spec["cohortName"] = cohort
    return kueue("ClusterQueue", name, spec)


def h100_on_demand(max_nodes=2):
    return node_pool(
        "h100", name="h100", location="us-east5", nodeLocations=["us-east5-a"],
        autoscaling={"totalMinNodeCount": 0, "totalMaxNodeCount": max_nodes},
        nodeConfig={"machineType": "a3-highgpu-8g", "guestAccelerators": [{"type": "nvidia-h100-80gb", "count": 8}]},
    )


H100 = {"cloud.google.com/gke-accelerator": "nvidia-h100-80gb"}


def test_quotas_within_capacity_pass():
    stack = [system_pool(), h100_on_demand(2), flavor("h100", H100), queue("a", "h100", 8), queue("b", "h100", 8)]
    assert check_quota_capacity(stack, {}) == [] and check_quota_capacity_dws(stack, {}) == []


def test_over_committed_fixed_capacity_is_mandatory_and_names_numbers():
    stack = [system_pool(), h100_on_demand(2), flavor("h100", H100), queue("a", "h100", 16), queue("b", "h100", "8")]
    [(urn, message)] = check_quota_capacity(stack, {})
    assert urn.endswith("::h100") and "total 24 nvidia.com/gpu" in message
    assert "ClusterQueue a 16" in message and "hold 16" in message and "2 nodes x 8" in message
    assert check_quota_capacity_dws(stack, {}) == []


def test_cohort_quota_counts_too():
    cohort = kueue("Cohort", "research", {"resourceGroups": [{"coveredResources": ["nvidia.com/gpu"], "flavors": [
        {"name": "h100", "resources": [{"name": "nvidia.com/gpu", "nominalQuota": 8}]}]}]})
    stack = [h100_on_demand(2), flavor("h100", H100), queue("a", "h100", 16, cohort="research"), cohort]
    [(_, message)] = check_quota_capacity(stack, {})
    assert "Cohort research 8" in message


def test_over_committed_dws_capacity_is_advisory():
    stack = [queued_gpu_pool(), flavor("dws", {**H100, "cloud.google.com/gke-nodepool": "h100-dws"}), queue("a", "dws", 64)]
    assert check_quota_capacity(stack, {}) == []  # the pool is auto-named, so the nodepool label is unsure ...
    named = queued_gpu_pool(name="h100-dws")
    stack = [named, flavor("dws", {**H100, "cloud.google.com/gke-nodepool": "h100-dws"}), queue("a", "dws", 64)]
    [(_, message)] = check_quota_capacity_dws(stack, {})
    assert "total 64" in message and "hold 32" in message and "flex-start capacity" in message
    assert check_quota_capacity(stack, {}) == []


def test_tpu_flavor_counts_chips_of_its_topology():
    pool = flex_tpu_pool(name="v6e-16")
    labels = {"cloud.google.com/gke-tpu-accelerator": "tpu-v6e-slice", "cloud.google.com/gke-tpu-topology": "4x4"}
    stack = [pool, flavor("v6e", labels), queue("a", "v6e", 32, resource="google.com/tpu")]
    [(_, message)] = check_quota_capacity_dws(stack, {})
    assert "total 32 google.com/tpu" in message and "hold 16" in message


def test_time_shared_gpus_count_each_share():
    pool = on_demand_gpu_pool()  # 2 zones x max 3 nodes x 2 L4
    shared = node_pool("l4-shared", **{**pool.props, "nodeConfig": {
        "machineType": "g2-standard-24",
        "guestAccelerators": [{"type": "nvidia-l4", "count": 2,
                               "gpuSharingConfig": {"gpuSharingStrategy": "TIME_SHARING", "maxSharedClientsPerGpu": 4}}]}})
    labels = {"cloud.google.com/gke-accelerator": "nvidia-l4"}
    assert check_quota_capacity([shared, flavor("l4", labels), queue("a", "l4", 48)], {}) == []
    assert check_quota_capacity([pool, flavor("l4", labels), queue("a", "l4", 48)], {})


def test_flavor_selecting_no_pool_of_the_stack_is_not_judged():
    stack = [h100_on_demand(1), flavor("b200", {"cloud.google.com/gke-accelerator": "nvidia-b200"}), queue("a", "b200", 64)]
    assert check_quota_capacity(stack, {}) == []


def test_unknown_pool_size_is_not_judged():
    pool = h100_on_demand()
    pool = node_pool("h100", **{**pool.props, "autoscaling": {"totalMaxNodeCount": UNKNOWN}})
    assert check_quota_capacity([pool, flavor("h100", H100), queue("a", "h100", 64)], {}) == []


def test_user_label_selects_only_pools_that_set_it():
    [pool] = node_pools(node_pool(nodeConfig={"machineType": "a3-highgpu-8g", "labels": {"team": "vision"}}))
    assert flavor_selects(pool, {"team": "vision"}) is True
    assert flavor_selects(pool, {"team": "nlp"}) is False
    assert flavor_selects(pool, {"other": "x"}) is False
    assert flavor_selects(pool, {"cloud.google.com/gke-accelerator": "nvidia-h100-80gb"}) is True
    assert flavor_selects(pool, {"cloud.google.com/gke-spot": "true"}) is False
    assert flavor_selects(pool, {"cloud.google.com/some-gke-label": "x"}) is None


def test_team_limit_from_config():
    config = {"maxAcceleratorsPerTeam": 32, "teamAcceleratorLimits": {"big": 128}}
    assert check_team_accelerator_limit(queue("a", "h100", 32), config) == []
    [message] = check_team_accelerator_limit(queue("a", "h100", 40), config)
    assert "ClusterQueue 'a' holds 40" in message and "limit of 32" in message
    assert check_team_accelerator_limit(queue("big", "h100", 100), config) == []
    assert check_team_accelerator_limit(queue("a", "h100", 400), {}) == []  # no limit configured


def h100_queued(machine_type="a3-highgpu-8g", gpus=8, max_nodes=2):
    return node_pool(
        "h100-dws", name="h100-dws", location="us-east5", nodeLocations=["us-east5-a"],
        autoscaling={"totalMinNodeCount": 0, "totalMaxNodeCount": max_nodes},
        queuedProvisioning={"enabled": True},
        nodeConfig={"machineType": machine_type, "flexStart": True,
                    "guestAccelerators": [{"type": "nvidia-h100-80gb", "count": gpus}]},
    )


def test_quotas_not_in_whole_vms_on_queued_pools_are_reported():
    # The prod stack's old 4/2/2/8 split on two 8-GPU VMs: four workloads would each need a whole VM.
    stack = [system_pool(), h100_queued(), flavor("h100", H100)] + [
        queue(name, "h100", quota) for name, quota in (("a", 4), ("b", 2), ("c", 2), ("d", 8))]
    messages = [m for _, m in check_whole_vm_quotas(stack, {})]
    assert len(messages) == 4  # a, b, c not whole VMs; 4 VMs needed for 2
    assert messages[0].startswith("ResourceFlavor 'h100': ClusterQueue a quota 4 nvidia.com/gpu on pool 'h100' is "
                                  "not a whole number of VMs (8 each)")
    assert "need 4 VMs" in messages[-1] and "builds at most 2" in messages[-1]


def test_whole_vm_quotas_on_smaller_vms_pass():
    stack = [system_pool(), h100_queued("a3-highgpu-2g", 2, 8), flavor("h100", H100)] + [
        queue(name, "h100", quota) for name, quota in (("a", 4), ("b", 2), ("c", 2), ("d", 8))]
    assert check_whole_vm_quotas(stack, {}) == []


def test_fixed_capacity_is_not_judged_in_whole_vms():
    stack = [system_pool(), h100_on_demand(2), flavor("h100", H100), queue("a", "h100", 4)]
    assert check_whole_vm_quotas(stack, {}) == []


def test_the_quota_rules_read_a_stacks_pools_and_quotas_once(monkeypatch):
    # quota-capacity, quota-capacity-dws and quota-whole-vms get the same views from the pack's stack runner.
    from gkecap.policies.rules import quota_capacity

    calls = []
    original = quota_capacity._nominal_quotas
    monkeypatch.setattr(quota_capacity, "_nominal_quotas", lambda resources: (calls.append(1), original(resources))[1])
    stack = [system_pool(), h100_queued(), flavor("h100", H100), queue("a", "h100", 4), queue("b", "h100", 24)]
    dws = check_quota_capacity_dws(list(stack), {})
    whole = check_whole_vm_quotas(list(stack), {})
    assert dws and whole and check_quota_capacity(list(stack), {}) == []
    assert len(calls) == 1
