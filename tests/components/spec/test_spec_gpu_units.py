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
