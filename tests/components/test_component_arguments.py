"""Every component takes its arguments in snake_case or camelCase, at every level, and refuses a key it does not
know with `pulumi.InputPropertiesError` naming the key and the closest known one, before registering anything."""

from __future__ import annotations

import pulumi
import pytest

from gkecap.components.cluster import GkeCluster
from gkecap.components.environment import Environment
from gkecap.components.kueue import KueueInstall, KueueObjects
from gkecap.components.node_pool import AcceleratorNodePool
from gkecap.components.reservation import CalendarReservation
from gkecap.components.vertex import VertexTrainingQuota
from testkit.input_errors import lines
from testkit.spec_data import dev

SA = "gke-nodes@acme-ml.iam.gserviceaccount.com"
POOL = {"cluster": "ml", "location": "us-east5", "service_account": SA, "machine_type": "a3-highgpu-8g",
        "capacity": "on-demand", "max_nodes": 2, "zones": ["us-east5-a"]}
NAMESPACE = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team-a"}}

# (component, valid arguments, a misspelled key, the suggestion)
CASES = {
    "AcceleratorNodePool": (AcceleratorNodePool, POOL, "compact_placment", "compact_placement"),
    "CalendarReservation": (CalendarReservation, {"machine_type": "a3-highgpu-8g", "count": 2, "zone": "us-east5-a",
                                                  "start": "2099-01-01T00:00:00Z", "days": 7}, "dayz", "days"),
    "GkeCluster": (GkeCluster, {"location": "us-east5"}, "releaseChanel", "releaseChannel"),
    "KueueInstall": (KueueInstall, {}, "fair_shairng", "fair_sharing"),
    "KueueObjects": (KueueObjects, {"objects": [NAMESPACE]}, "object", "objects"),
    "Environment": (Environment, {"environment": dev()}, "enviroment", "environment"),
    "VertexTrainingQuota": (VertexTrainingQuota, {"vertex": {"profiles": []}, "region": "us-east5"}, "regoin",
                            "region"),
}


def refused(pulumi_run, component, args) -> list[str]:
    found: list[str] = []

    def program():
        with pytest.raises(pulumi.InputPropertiesError) as raised:
            component("x", args)
        found.extend(lines(raised.value))

    run = pulumi_run(program)
    assert [r.type for r in run.records] == ["pulumi:pulumi:Stack"]  # nothing half-made
    return found


@pytest.mark.parametrize("name", CASES)
def test_a_misspelled_argument_is_refused_with_the_closest_known_key(pulumi_run, name):
    component, args, typo, suggestion = CASES[name]
    [line] = [line for line in refused(pulumi_run, component, {**args, typo: True}) if line.startswith(typo)]
    assert line.startswith(f"{typo}: unknown argument; did you mean {suggestion}? allowed: ")


def test_the_issue_reproduction_names_both_misspelled_keys(pulumi_run):
    found = refused(pulumi_run, AcceleratorNodePool, {**POOL, "disk_size": 500, "compact_placment": True})
    assert [line.split(";")[0] for line in found] == ["disk_size: unknown argument", "compact_placment: unknown argument"]
    assert "did you mean disk_size_gb?" in found[0]


def test_camel_case_arguments_register_the_same_node_pool_as_snake_case(pulumi_run):
    nested = {"gpu_sharing": {"strategy": "TIME_SHARING", "max_shared_clients_per_gpu": 2},
              "taints": [{"key": "a", "value": "b"}]}
    camel = {"cluster": "ml", "location": "us-east5", "serviceAccount": SA, "machineType": "a3-highgpu-8g",
             "capacity": "on-demand", "maxNodes": 2, "zones": ["us-east5-a"],
             "gpuSharing": {"strategy": "TIME_SHARING", "maxSharedClientsPerGpu": 2},
             "taints": [{"key": "a", "value": "b"}]}

    def inputs(args):
        run = pulumi_run(lambda: AcceleratorNodePool("h100", args))
        return run.one("gcp:container/nodePool:NodePool").inputs

    assert inputs(camel) == inputs({**POOL, **nested})
    assert inputs(camel)["nodeConfig"]["guestAccelerators"][0]["gpuSharingConfig"]["maxSharedClientsPerGpu"] == 2


def test_a_misspelled_nested_key_is_refused_at_its_path(pulumi_run):
    args = {**POOL, "gpu_sharing": {"strategy": "TIME_SHARING", "maxSharedClients": 2}}
    found = refused(pulumi_run, AcceleratorNodePool, args)
    assert any(line.startswith("gpu_sharing.maxSharedClients: unknown argument; did you mean maxSharedClientsPerGpu?")
               for line in found)


def test_a_key_given_in_both_spellings_is_refused(pulumi_run):
    found = refused(pulumi_run, AcceleratorNodePool, {**POOL, "maxNodes": 3})
    assert found == ["maxNodes: given twice, as max_nodes and maxNodes; give it once"]


def test_unknown_keys_and_bad_values_are_reported_together(pulumi_run):
    found = refused(pulumi_run, AcceleratorNodePool, {**POOL, "max_nodes": 0, "diskSize": 500})
    assert [line.split(":")[0] for line in found] == ["diskSize", "maxNodes"]
