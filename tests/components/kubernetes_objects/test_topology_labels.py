"""Topology-aware scheduling only where GKE nodes carry the `cloud.google.com/gce-topology-*` labels Kueue's
Topology levels read: Compute Engine knows the block/sub-block/host of A4X (Max), A4, A3 Ultra, A3 Mega, A3 High with
8 GPUs and A3 Edge VMs, and of VMs under a compact placement policy ("View Compute Engine instance topology",
Limitations: https://cloud.google.com/compute/docs/instances/view-instance-topology). Kueue ignores nodes without
the labels, so a TAS flavor elsewhere never places a workload."""

from __future__ import annotations

import pytest

from gkecap.components.catalog import GPU_MACHINES
from gkecap.components.spec import SpecError, load_environment
from testkit.kueue_specs import find, objects_of, with_kueue
from testkit.spec_data import NOW, prod

# Transcribed from the page above (series names as Compute Engine's GPU machine types page names them).
LABELLED_SERIES = {"A4X Max", "A4X", "A4", "A3 Ultra", "A3 Mega", "A3 Edge"}


def test_the_catalog_marks_exactly_the_documented_machine_types():
    marked = {m.machine_type for m in GPU_MACHINES if m.topology_labels}
    documented = {m.machine_type for m in GPU_MACHINES if m.series in LABELLED_SERIES} | {"a3-highgpu-8g"}
    assert marked == documented
    assert "a3-highgpu-2g" not in marked and not any(t.startswith(("g2-", "a2-")) for t in marked)


def _tas_prod(**pool):
    env = with_kueue(prod(), topologyAwareScheduling=True)
    env["nodePools"][0].update(pool)  # h100-dws, queued
    return env


def test_a_pool_without_topology_labels_gets_no_topology():
    objects = objects_of(_tas_prod(machineType="a3-highgpu-2g"))
    assert "topologyName" not in find(objects, "ResourceFlavor", "h100-dws")["spec"]
    assert find(objects, "ResourceFlavor", "h100-dec")["spec"]["topologyName"] == "gke-default"  # a3-highgpu-8g


def _one_pool(**pool):
    return {"region": "us-east5", "cluster": {"name": "ml"}, "kueue": {"topologyAwareScheduling": True},
            "nodePools": [{"name": "gpu", "maxNodes": 2, "zones": ["us-east5-a"], **pool}],
            "teams": [{"name": "a", "quota": {"gpu": 8}}]}


def test_compact_placement_gives_the_labels_to_any_machine_type():
    env = _one_pool(machineType="a2-highgpu-8g", capacity="reservation", reservation="a2-res", compactPlacement=True)
    assert find(objects_of(env), "ResourceFlavor", "gpu")["spec"]["topologyName"] == "gke-default"


def test_asking_for_tas_where_no_pool_can_have_it_is_an_error():
    env = _one_pool(machineType="a3-highgpu-4g", capacity="queued")
    env["nodePools"].append({"name": "l4", "machineType": "g2-standard-12", "capacity": "spot", "maxNodes": 1})
    with pytest.raises(SpecError) as raised:
        load_environment(env, now=NOW)
    [issue] = raised.value.issues
    assert issue.path == "kueue.topologyAwareScheduling"
    assert "no pool can use topology-aware scheduling" in issue.message
    assert "gpu: a3-highgpu-4g nodes carry no cloud.google.com/gce-topology-* labels" in issue.message
    assert "l4: spot nodes are created only for pending pods" in issue.message


def test_without_tas_the_same_environment_is_valid():
    env = _one_pool(machineType="a3-highgpu-4g", capacity="queued")
    env["kueue"] = {}
    load_environment(env, now=NOW)


def test_a_reserved_pool_left_out_for_want_of_labels_is_a_warning():
    env = _one_pool(machineType="a3-highgpu-8g", capacity="queued")
    env["nodePools"].append({"name": "h100-2g", "machineType": "a3-highgpu-2g", "capacity": "queued", "maxNodes": 2,
                             "zones": ["us-east5-a"]})
    env["nodePools"].append({"name": "l4", "machineType": "g2-standard-12", "capacity": "spot", "maxNodes": 1})
    warnings = load_environment(env, now=NOW).warnings
    [warning] = [w for w in warnings if "topology-aware" in w]
    assert warning.startswith("nodePools[1].machineType: gets no topology-aware scheduling: a3-highgpu-2g nodes")
