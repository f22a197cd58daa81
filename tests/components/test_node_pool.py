"""AcceleratorNodePool registers exactly the GKE node pool settings each capacity model needs (FACTS.md B).

Inputs are read as the engine sees them (camelCase, plain values) from the offline engine's recording
monitor. Expected values are written out here from the facts, not computed by the code under test.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pulumi
import pytest

from gkecap.components.node_pool import AcceleratorNodePool
from testkit.input_errors import lines
from gkecap.components.reservation import CalendarReservation

NODE_POOL = "gcp:container/nodePool:NodePool"
SA = "gke-nodes@acme-ml.iam.gserviceaccount.com"
SECURE_NODE_CONFIG = {
    "serviceAccount": SA,
    "oauthScopes": ["https://www.googleapis.com/auth/cloud-platform"],
    "workloadMetadataConfig": {"mode": "GKE_METADATA"},
    "shieldedInstanceConfig": {"enableSecureBoot": True, "enableIntegrityMonitoring": True},
}
GPU_TAINT = {"key": "nvidia.com/gpu", "value": "present", "effect": "NO_SCHEDULE"}
TPU_TAINT = {"key": "google.com/tpu", "value": "present", "effect": "NO_SCHEDULE"}
QUEUED_TAINT = {"key": "cloud.google.com/gke-queued", "value": "true", "effect": "NO_SCHEDULE"}
H100 = {"type": "nvidia-h100-80gb", "count": 8, "gpuDriverInstallationConfig": {"gpuDriverVersion": "DEFAULT"}}


def pool_args(**overrides):
    args = {"cluster": "ml-prod", "location": "us-east5", "service_account": SA}
    args.update(overrides)
    return args


def gpu(**overrides):
    return pool_args(machine_type="a3-highgpu-8g", zones=["us-east5-a"], max_nodes=4, **overrides)


def register(pulumi_run, name, args):
    return pulumi_run(lambda: AcceleratorNodePool(name, args))


def only_pool(run):
    pools = run.of_type(NODE_POOL)
    assert len(pools) == 1, [p.name for p in pools]
    return pools[0].inputs


def node_config_without_defaults(inputs):
    """nodeConfig minus the secure defaults every pool shares (asserted once, separately)."""
    config = dict(inputs["nodeConfig"])
    for key, value in SECURE_NODE_CONFIG.items():
        assert config.pop(key) == value, key
    return config


# --- The documented example ---------------------------------------------------------------------------


def test_documented_v6e_4x4_flex_start_example(pulumi_run):
    run = register(pulumi_run, "v6e-16", pool_args(machine_type="ct6e-standard-4t", tpu_topology="4x4",
                                                   capacity="flex-start", zones=["us-east5-a"]))
    inputs = only_pool(run)
    assert {k: v for k, v in inputs.items() if k != "nodeConfig"} == {
        "name": "v6e-16",
        "cluster": "ml-prod",
        "location": "us-east5",
        "nodeLocations": ["us-east5-a"],
        "initialNodeCount": 0,
        "autoscaling": {"totalMinNodeCount": 0, "totalMaxNodeCount": 4, "locationPolicy": "ANY"},
        "management": {"autoRepair": False, "autoUpgrade": True},
        "placementPolicy": {"type": "COMPACT", "tpuTopology": "4x4"},
    }
    assert node_config_without_defaults(inputs) == {
        "machineType": "ct6e-standard-4t",
        "flexStart": True,
        "reservationAffinity": {"consumeReservationType": "NO_RESERVATION"},
        "labels": {"gkecap.dev/pool": "v6e-16", "gkecap.dev/capacity": "flex-start"},
        "taints": [TPU_TAINT],
    }


# --- GPU, one test per capacity model -----------------------------------------------------------------


def test_gpu_flex_start(pulumi_run):
    inputs = only_pool(register(pulumi_run, "h100-flex", gpu(capacity="flex-start", max_run_duration_seconds=86400)))
    assert inputs["initialNodeCount"] == 0
    assert inputs["autoscaling"] == {"totalMinNodeCount": 0, "totalMaxNodeCount": 4, "locationPolicy": "ANY"}
    assert inputs["management"] == {"autoRepair": False, "autoUpgrade": True}
    assert "queuedProvisioning" not in inputs and "placementPolicy" not in inputs
    assert node_config_without_defaults(inputs) == {
        "machineType": "a3-highgpu-8g",
        "flexStart": True,
        "maxRunDuration": "86400s",
        "reservationAffinity": {"consumeReservationType": "NO_RESERVATION"},
        "guestAccelerators": [H100],
        "labels": {"gkecap.dev/pool": "h100-flex", "gkecap.dev/capacity": "flex-start"},
        "taints": [GPU_TAINT],
    }


def test_gpu_queued_provisioning(pulumi_run):
    inputs = only_pool(register(pulumi_run, "h100-dws", gpu(capacity="queued", gpu_driver_version="LATEST")))
    assert inputs["queuedProvisioning"] == {"enabled": True}
    assert inputs["initialNodeCount"] == 0
    assert inputs["autoscaling"] == {"totalMinNodeCount": 0, "totalMaxNodeCount": 4, "locationPolicy": "ANY"}
    assert inputs["management"] == {"autoRepair": False, "autoUpgrade": True}
    assert node_config_without_defaults(inputs) == {
        "machineType": "a3-highgpu-8g",
        "flexStart": True,
        "reservationAffinity": {"consumeReservationType": "NO_RESERVATION"},
        "guestAccelerators": [{**H100, "gpuDriverInstallationConfig": {"gpuDriverVersion": "LATEST"}}],
        "labels": {"gkecap.dev/pool": "h100-dws", "gkecap.dev/capacity": "queued",
                   "cloud.google.com/gke-queued": "true"},
        "taints": [GPU_TAINT, QUEUED_TAINT],
    }


def test_gpu_calendar_targets_the_reservation_by_name(pulumi_run):
    inputs = only_pool(register(pulumi_run, "h100-dec", gpu(capacity="calendar", reservation={"name": "dec-run"})))
    assert inputs["nodeConfig"]["reservationAffinity"] == {
        "consumeReservationType": "SPECIFIC_RESERVATION",
        "key": "compute.googleapis.com/reservation-name",
        "values": ["dec-run"],
    }
    assert inputs["autoscaling"] == {"totalMinNodeCount": 0, "totalMaxNodeCount": 4, "locationPolicy": "ANY"}
    assert inputs["initialNodeCount"] == 0
    assert inputs["management"] == {"autoRepair": True, "autoUpgrade": True}
    assert "flexStart" not in inputs["nodeConfig"] and "spot" not in inputs["nodeConfig"]


def test_gpu_reservation_shared_from_another_project_with_a_block(pulumi_run):
    args = gpu(capacity="reservation", min_nodes=2,
               reservation={"name": "h100-res", "project": "acme-capacity", "block": "h100-res-block-0001"})
    inputs = only_pool(register(pulumi_run, "h100-res", args))
    assert inputs["nodeConfig"]["reservationAffinity"] == {
        "consumeReservationType": "SPECIFIC_RESERVATION",
        "key": "compute.googleapis.com/reservation-name",
        "values": ["projects/acme-capacity/reservations/h100-res/reservationBlocks/h100-res-block-0001"],
    }
    assert inputs["autoscaling"] == {"totalMinNodeCount": 2, "totalMaxNodeCount": 4, "locationPolicy": "ANY"}
    assert inputs["initialNodeCount"] == 2


def test_gpu_spot(pulumi_run):
    args = pool_args(machine_type="g2-standard-48", capacity="spot", zones=["us-east5-a", "us-east5-b"],
                     max_nodes=6, min_nodes=1)
    inputs = only_pool(register(pulumi_run, "l4-spot", args))
    assert inputs["autoscaling"] == {"totalMinNodeCount": 1, "totalMaxNodeCount": 6, "locationPolicy": "ANY"}
    assert inputs["initialNodeCount"] == 1  # per zone: ceil(1 / 2)
    assert inputs["management"] == {"autoRepair": True, "autoUpgrade": True}
    assert node_config_without_defaults(inputs) == {
        "machineType": "g2-standard-48",
        "spot": True,
        "reservationAffinity": {"consumeReservationType": "NO_RESERVATION"},
        "guestAccelerators": [{"type": "nvidia-l4", "count": 4,
                               "gpuDriverInstallationConfig": {"gpuDriverVersion": "DEFAULT"}}],
        "labels": {"gkecap.dev/pool": "l4-spot", "gkecap.dev/capacity": "spot"},
        "taints": [GPU_TAINT],
    }


def test_gpu_on_demand(pulumi_run):
    inputs = only_pool(register(pulumi_run, "a100", pool_args(machine_type="a2-highgpu-8g", capacity="on-demand",
                                                             max_nodes=2, zones=["us-east5-b"])))
    assert inputs["autoscaling"] == {"totalMinNodeCount": 0, "totalMaxNodeCount": 2, "locationPolicy": "BALANCED"}
    assert inputs["management"] == {"autoRepair": True, "autoUpgrade": True}
    assert inputs["nodeConfig"]["reservationAffinity"] == {"consumeReservationType": "ANY_RESERVATION"}
    assert inputs["nodeConfig"]["guestAccelerators"] == [
        {"type": "nvidia-tesla-a100", "count": 8, "gpuDriverInstallationConfig": {"gpuDriverVersion": "DEFAULT"}}
    ]
    assert not {"flexStart", "spot", "maxRunDuration"} & set(inputs["nodeConfig"])
    assert "queuedProvisioning" not in inputs and "placementPolicy" not in inputs


def test_gpu_mig_and_time_sharing(pulumi_run):
    args = gpu(capacity="on-demand", gpu_partition_size="1g.10gb",
               gpu_sharing={"strategy": "TIME_SHARING", "max_shared_clients_per_gpu": 2})
    inputs = only_pool(register(pulumi_run, "h100-mig", args))
    assert inputs["nodeConfig"]["guestAccelerators"] == [
        {**H100, "gpuPartitionSize": "1g.10gb",
         "gpuSharingConfig": {"gpuSharingStrategy": "TIME_SHARING", "maxSharedClientsPerGpu": 2}}
    ]


def test_gpu_compact_placement_on_demand(pulumi_run):
    inputs = only_pool(register(pulumi_run, "h100-compact", gpu(capacity="on-demand", compact_placement=True)))
    assert inputs["placementPolicy"] == {"type": "COMPACT"}


def test_gpu_compact_placement_with_queued_is_rejected(pulumi_run):
    with pytest.raises(pulumi.InputPropertiesError, match="compactPlacement: is not allowed with queued provisioning"):
        register(pulumi_run, "h100-dws", gpu(capacity="queued", compact_placement=True))


# --- TPU, one test per capacity model -----------------------------------------------------------------


def test_tpu_multi_host_slices_get_one_node_pool_each(pulumi_run):
    run = register(pulumi_run, "v6e-16", pool_args(machine_type="ct6e-standard-4t", tpu_topology="4x4",
                                                   capacity="flex-start", slices=3, zones=["us-east5-a"]))
    pools = {p.name: p.inputs for p in run.of_type(NODE_POOL)}
    assert sorted(pools) == ["v6e-16-s0", "v6e-16-s1", "v6e-16-s2"]
    for name, inputs in pools.items():
        assert inputs["name"] == name
        assert inputs["autoscaling"] == {"totalMinNodeCount": 0, "totalMaxNodeCount": 4, "locationPolicy": "ANY"}
        assert inputs["placementPolicy"] == {"type": "COMPACT", "tpuTopology": "4x4"}
        assert inputs["nodeConfig"]["labels"]["gkecap.dev/pool"] == "v6e-16"


def test_tpu_queued_single_host_scales_zero_to_slices(pulumi_run):
    inputs = only_pool(register(pulumi_run, "v6e-4", pool_args(machine_type="ct6e-standard-4t", tpu_topology="2x2",
                                                              capacity="queued", slices=3, zones=["us-east5-b"])))
    assert inputs["queuedProvisioning"] == {"enabled": True}
    assert inputs["autoscaling"] == {"totalMinNodeCount": 0, "totalMaxNodeCount": 3, "locationPolicy": "ANY"}
    assert inputs["initialNodeCount"] == 0
    assert "placementPolicy" not in inputs  # single-host: no tpu_topology (xpk, FACTS A.3)
    assert node_config_without_defaults(inputs) == {
        "machineType": "ct6e-standard-4t",
        "flexStart": True,
        "reservationAffinity": {"consumeReservationType": "NO_RESERVATION"},
        "labels": {"gkecap.dev/pool": "v6e-4", "gkecap.dev/capacity": "queued",
                   "cloud.google.com/gke-queued": "true"},
        "taints": [TPU_TAINT, QUEUED_TAINT],
    }


def test_tpu_reservation_multi_host(pulumi_run):
    run = register(pulumi_run, "v5p-16", pool_args(machine_type="ct5p-hightpu-4t", tpu_topology="2x2x4",
                                                   capacity="reservation", slices=2, zones=["us-east5-a"],
                                                   reservation={"name": "v5p-res"}))
    pools = {p.name: p.inputs for p in run.of_type(NODE_POOL)}
    assert sorted(pools) == ["v5p-16-s0", "v5p-16-s1"]
    for inputs in pools.values():
        assert inputs["autoscaling"] == {"totalMinNodeCount": 0, "totalMaxNodeCount": 4, "locationPolicy": "ANY"}
        assert inputs["placementPolicy"] == {"type": "COMPACT", "tpuTopology": "2x2x4"}
        assert inputs["management"] == {"autoRepair": True, "autoUpgrade": True}
        assert inputs["nodeConfig"]["reservationAffinity"] == {
            "consumeReservationType": "SPECIFIC_RESERVATION",
            "key": "compute.googleapis.com/reservation-name",
            "values": ["v5p-res"],
        }


def test_tpu_calendar(pulumi_run):
    inputs = only_pool(register(pulumi_run, "v6e-cal", pool_args(machine_type="ct6e-standard-4t", tpu_topology="4x8",
                                                                capacity="calendar", zones=["us-east5-a"],
                                                                reservation={"name": "tpu-dec"})))
    assert inputs["autoscaling"] == {"totalMinNodeCount": 0, "totalMaxNodeCount": 8, "locationPolicy": "ANY"}
    assert inputs["placementPolicy"] == {"type": "COMPACT", "tpuTopology": "4x8"}
    assert inputs["nodeConfig"]["reservationAffinity"]["values"] == ["tpu-dec"]


def test_tpu_spot(pulumi_run):
    inputs = only_pool(register(pulumi_run, "v5e-16", pool_args(machine_type="ct5lp-hightpu-4t", tpu_topology="4x4",
                                                               capacity="spot", zones=["us-west4-a"])))
    assert inputs["autoscaling"] == {"totalMinNodeCount": 0, "totalMaxNodeCount": 4, "locationPolicy": "ANY"}
    assert inputs["nodeConfig"]["spot"] is True
    assert inputs["nodeConfig"]["reservationAffinity"] == {"consumeReservationType": "NO_RESERVATION"}
    assert inputs["placementPolicy"] == {"type": "COMPACT", "tpuTopology": "4x4"}
    assert "guestAccelerators" not in inputs["nodeConfig"]


def test_tpu_on_demand(pulumi_run):
    inputs = only_pool(register(pulumi_run, "v4-32", pool_args(machine_type="ct4p-hightpu-4t", tpu_topology="2x2x4",
                                                              capacity="on-demand", location="us-central2",
                                                              zones=["us-central2-b"])))
    assert inputs["autoscaling"] == {"totalMinNodeCount": 0, "totalMaxNodeCount": 4, "locationPolicy": "BALANCED"}
    assert inputs["management"] == {"autoRepair": True, "autoUpgrade": True}
    assert inputs["placementPolicy"] == {"type": "COMPACT", "tpuTopology": "2x2x4"}
    assert not {"flexStart", "spot"} & set(inputs["nodeConfig"])


def test_tpu7x_multi_host_uses_a_workload_policy(pulumi_run):
    run = register(pulumi_run, "ironwood", pool_args(machine_type="tpu7x-standard-4t", tpu_topology="2x2x2",
                                                     capacity="reservation", location="us-central1",
                                                     zones=["us-central1-c"], reservation={"name": "tpu7x-res"}))
    policy = run.one("gcp:compute/resourcePolicy:ResourcePolicy", "ironwood-workload-policy")
    assert policy.inputs["region"] == "us-central1"
    assert policy.inputs["workloadPolicy"] == {"type": "HIGH_THROUGHPUT", "acceleratorTopology": "2x2x2"}
    inputs = only_pool(run)
    # The workload policy replaces tpu_topology. FACTS A.3 [S34]
    assert inputs["placementPolicy"] == {"type": "COMPACT", "policyName": policy.outputs["name"]}
    assert inputs["autoscaling"]["totalMaxNodeCount"] == 2


# --- Shared behaviour ---------------------------------------------------------------------------------


def test_autoscaler_owned_node_counts_are_ignored(pulumi_run):
    run = register(pulumi_run, "h100", gpu(capacity="spot"))
    assert run.one(NODE_POOL).options["ignoreChanges"] == ["initialNodeCount", "nodeCount"]


def test_node_pools_are_children_of_the_component(pulumi_run):
    run = register(pulumi_run, "h100", gpu(capacity="spot"))
    component = run.one("gkecap:index:AcceleratorNodePool", "h100")
    assert run.one(NODE_POOL).parent == component.urn


def test_component_outputs(pulumi_run):
    run = register(pulumi_run, "v6e-16", pool_args(machine_type="ct6e-standard-4t", tpu_topology="4x4",
                                                   capacity="flex-start", slices=2, zones=["us-east5-a"]))
    assert run.one("gkecap:index:AcceleratorNodePool").outputs == {
        "nodePoolNames": ["v6e-16-s0", "v6e-16-s1"],
        "nodeSelector": {"gkecap.dev/pool": "v6e-16", "cloud.google.com/gke-tpu-accelerator": "tpu-v6e-slice",
                         "cloud.google.com/gke-tpu-topology": "4x4"},
        "maxNodes": 8,
        "maxAccelerators": 32,
    }


def test_extra_labels_and_taints(pulumi_run):
    args = gpu(capacity="spot", labels={"team": "vision"},
               taints=[{"key": "dedicated", "value": "vision", "effect": "NO_EXECUTE"}])
    config = only_pool(register(pulumi_run, "h100", args))["nodeConfig"]
    assert config["labels"] == {"gkecap.dev/pool": "h100", "gkecap.dev/capacity": "spot", "team": "vision"}
    assert config["taints"] == [GPU_TAINT, {"key": "dedicated", "value": "vision", "effect": "NO_EXECUTE"}]


def test_pool_consumes_a_calendar_reservation_output(pulumi_run):
    start = (datetime.now(timezone.utc) + timedelta(days=20)).strftime("%Y-%m-%dT00:00:00Z")

    def program():
        reservation = CalendarReservation("dec-run", {"machine_type": "a3-highgpu-8g", "count": 4,
                                                      "zone": "us-east5-a", "start": start, "days": 14})
        AcceleratorNodePool("h100-dec", gpu(capacity="calendar", reservation={"name": reservation.reservation_name}))

    run = pulumi_run(program)
    pool = run.one(NODE_POOL, "h100-dec")
    assert pool.inputs["nodeConfig"]["reservationAffinity"]["values"] == ["dec-run"]
    future = run.one("gcp:compute/futureReservation:FutureReservation", "dec-run")
    assert future.urn in pool.dependencies  # created after the reservation it consumes


# --- Rejected input -----------------------------------------------------------------------------------


@pytest.mark.parametrize("account", ["123456789012-compute@developer.gserviceaccount.com", "default"])
def test_default_compute_service_account_is_rejected(pulumi_run, account):
    with pytest.raises(pulumi.InputPropertiesError, match="serviceAccount: .*Compute Engine default service account"):
        register(pulumi_run, "h100", gpu(capacity="spot", service_account=account))


def test_default_compute_service_account_is_rejected_when_it_is_an_output(pulumi_run):
    def program():
        account = pulumi.Output.from_input("123456789012-compute@developer.gserviceaccount.com")
        AcceleratorNodePool("h100", gpu(capacity="spot", service_account=account))

    with pytest.raises(Exception, match="Compute Engine default service account"):
        pulumi_run(program)


def test_bad_arguments_are_all_reported(pulumi_run):
    args = pool_args(machine_type="a3-highgpu-8g", capacity="flex-start", tpu_topology="4x4",
                     max_run_duration_seconds=8 * 24 * 3600)
    with pytest.raises(pulumi.InputPropertiesError) as raised:
        register(pulumi_run, "h100", args)
    assert lines(raised.value) == [
        "tpuTopology: applies to TPU pools only; a3-highgpu-8g is a GPU machine type",
        "maxNodes: required for GPU pools: the most nodes the pool may scale to (>= 1)",
        "maxRunDurationSeconds: 691200 seconds is outside the flex-start limit; allowed: 1 to 604800 (7 days)",
    ]


def test_invalid_arguments_leave_nothing_registered(pulumi_run):
    def program():
        try:
            AcceleratorNodePool("v6e", pool_args(machine_type="ct6e-standard-4t", tpu_topology="4x3",
                                                 capacity="flex-start"))
        except pulumi.InputPropertiesError:
            pass

    run = pulumi_run(program)
    assert [r.type for r in run.records] == ["pulumi:pulumi:Stack"]


def test_tpu_capacity_model_not_offered_is_rejected(pulumi_run):
    with pytest.raises(pulumi.InputPropertiesError, match="capacity: 'flex-start' is not available for ct4p-hightpu-4t"):
        register(pulumi_run, "v4", pool_args(machine_type="ct4p-hightpu-4t", tpu_topology="2x2x4",
                                             capacity="flex-start"))


def test_multi_host_slice_name_too_long_counts_the_suffix(pulumi_run):
    name = "a" * 38  # 38 + "-s1" = 41 characters > 40
    with pytest.raises(pulumi.InputPropertiesError, match="so that the GKE node pool names"):
        register(pulumi_run, name, pool_args(machine_type="ct6e-standard-4t", tpu_topology="4x4",
                                             capacity="flex-start", slices=2))


def test_a4x_compact_placement_is_the_nvl72_workload_policy(pulumi_run):
    # A4X (GB200 NVL72): HIGH_THROUGHPUT workload policy with accelerator topology 1x72 (issue 11 item 9).
    run = register(pulumi_run, "gb200", pool_args(machine_type="a4x-highgpu-4g", capacity="reservation",
                                                  location="us-central1", zones=["us-central1-a"], max_nodes=18,
                                                  reservation={"name": "a4x-res"}, compact_placement=True))
    policy = run.one("gcp:compute/resourcePolicy:ResourcePolicy", "gb200-workload-policy")
    assert policy.inputs["workloadPolicy"] == {"type": "HIGH_THROUGHPUT", "acceleratorTopology": "1x72"}
    assert only_pool(run)["placementPolicy"] == {"type": "COMPACT", "policyName": policy.outputs["name"]}
