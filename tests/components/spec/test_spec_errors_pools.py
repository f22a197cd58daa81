"""Each invalid node-pool setting gets its own error naming the path, the bad value and what is allowed."""

from __future__ import annotations

import pytest

from gkecap.components.spec import SpecError, load_environment
from testkit.spec_data import NOW, dev, prod


def issues(env) -> dict[str, str]:
    with pytest.raises(SpecError) as err:
        load_environment(env, now=NOW)
    return {issue.path: issue.message for issue in err.value.issues}


def pool(env, index=0):
    return env["nodePools"][index]


def test_unknown_key_is_rejected_with_allowed_keys_and_a_suggestion():
    env = dev()
    pool(env)["maxNode"] = 3
    found = issues(env)
    assert found["nodePools[0].maxNode"].startswith("unknown key; did you mean maxNodes? allowed: name, machineType,")


def test_unknown_top_level_key_is_rejected():
    env = dev()
    env["nodepools"] = []
    assert "did you mean nodePools?" in issues(env)["nodepools"]


def test_missing_machine_type_is_reported():
    env = dev()
    del pool(env)["machineType"]
    assert issues(env)["nodePools[0].machineType"] == "required key is missing"


def test_unknown_capacity_model_lists_the_models():
    env = dev()
    pool(env)["capacity"] = "flexstart"
    assert (
        issues(env)["nodePools[0].capacity"]
        == "'flexstart' is not allowed; allowed: reservation, calendar, queued, flex-start, spot, on-demand"
    )


def test_unknown_machine_type_gives_the_catalog_message():
    env = dev()
    pool(env)["machineType"] = "a3-highgpu-16g"
    message = issues(env)["nodePools[0].machineType"]
    assert "'a3-highgpu-16g'" in message and "a3-highgpu-8g" in message


def test_capacity_model_must_be_supported_by_the_machine_type():
    env = dev()
    pool(env)["capacity"] = "calendar"  # g2 has no calendar mode
    pool(env)["reservation"] = "x"
    message = issues(env)["nodePools[0].capacity"]
    assert (
        message
        == "'calendar' is not available for g2-standard-24; supported: reservation, queued, flex-start, spot, on-demand"
    )


def test_tpu_pool_needs_a_topology():
    env = dev()
    del pool(env, 1)["tpuTopology"]
    message = issues(env)["nodePools[1].tpuTopology"]
    assert message.startswith("required for TPU machine type ct6e-standard-4t; valid: 2x2, 2x4, 4x4")


def test_invalid_tpu_topology_names_value_and_valid_ones():
    env = dev()
    pool(env, 1)["tpuTopology"] = "4x3"
    message = issues(env)["nodePools[1].tpuTopology"]
    assert message.startswith("'4x3' is not a valid v6e topology")
    assert "valid: 2x2, 2x4, 4x4, 4x8, 8x8, 8x16, 16x16" in message


def test_slices_only_on_tpu_pools():
    env = dev()
    pool(env)["slices"] = 2
    assert issues(env)["nodePools[0].slices"] == "applies to TPU pools only; size GPU pools with maxNodes"


def test_max_nodes_never_on_tpu_pools():
    env = dev()
    pool(env, 1)["maxNodes"] = 4
    assert "TPU pools are sized in slices" in issues(env)["nodePools[1].maxNodes"]


def test_gpu_pool_needs_max_nodes():
    env = dev()
    del pool(env)["maxNodes"]
    assert issues(env)["nodePools[0].maxNodes"].startswith("required for GPU pools")


def test_slices_must_be_at_least_one():
    env = dev()
    pool(env, 1)["slices"] = 0
    assert issues(env)["nodePools[1].slices"] == "0 is too small; must be at least 1"


def test_max_nodes_must_be_a_whole_number():
    env = dev()
    pool(env)["maxNodes"] = "two"
    assert issues(env)["nodePools[0].maxNodes"] == "'two' is not a whole number"


def test_min_nodes_not_on_flex_pools():
    env = dev()
    pool(env)["minNodes"] = 1
    assert issues(env)["nodePools[0].minNodes"] == "flex-start pools scale from zero (DWS creates nodes for pending work); remove minNodes"


def test_min_nodes_at_most_max_nodes():
    env = prod()
    pool(env, 3)["minNodes"] = 9
    assert issues(env)["nodePools[3].minNodes"] == "9 exceeds maxNodes 8; allowed: 0 to 8"


def test_max_run_duration_only_for_flex_pools():
    env = prod()
    pool(env, 3)["maxRunDuration"] = 3600
    assert issues(env)["nodePools[3].maxRunDuration"] == "applies to flex-start and queued pools only, not spot"


def test_max_run_duration_at_most_seven_days():
    env = dev()
    pool(env)["maxRunDuration"] = 604801
    assert (
        issues(env)["nodePools[0].maxRunDuration"]
        == "604801 seconds is outside the flex-start limit; allowed: 1 to 604800 (7 days)"
    )


def test_mig_partition_must_exist_for_the_gpu():
    env = prod()
    pool(env)["gpuPartitionSize"] = "1g.5gb"  # an A100 40GB size, not H100
    message = issues(env)["nodePools[0].gpuPartitionSize"]
    assert message.startswith("'1g.5gb' is not a MIG partition size of nvidia-h100-80gb; valid: 1g.10gb")


def test_mig_needs_a_gpu_with_partitions():
    env = dev()
    pool(env)["gpuPartitionSize"] = "1g.10gb"
    assert "nvidia-l4; valid: none" in issues(env)["nodePools[0].gpuPartitionSize"]


def test_mps_cannot_share_mig_partitions():
    env = prod()
    pool(env)["gpuPartitionSize"] = "1g.10gb"
    pool(env)["gpuSharing"] = {"strategy": "MPS", "maxSharedClientsPerGpu": 2}
    assert issues(env)["nodePools[0].gpuSharing.strategy"].startswith("'MPS' cannot be combined with gpuPartitionSize")


def test_gpu_sharing_needs_clients():
    env = dev()
    pool(env)["gpuSharing"] = {"strategy": "TIME_SHARING", "maxSharedClientsPerGpu": 0}
    assert issues(env)["nodePools[0].gpuSharing.maxSharedClientsPerGpu"] == "0 is too small; must be at least 1"


def test_gpu_sharing_strategy_is_an_enum():
    env = dev()
    pool(env)["gpuSharing"] = {"strategy": "time-sharing", "maxSharedClientsPerGpu": 2}
    assert (
        issues(env)["nodePools[0].gpuSharing.strategy"] == "'time-sharing' is not allowed; allowed: TIME_SHARING, MPS"
    )


def test_gpu_settings_are_rejected_on_tpu_pools():
    env = dev()
    pool(env, 1)["gpuDriverVersion"] = "LATEST"
    assert (
        issues(env)["nodePools[1].gpuDriverVersion"]
        == "applies to GPU pools only; ct6e-standard-4t is a TPU machine type"
    )


def test_tpu_topology_rejected_on_gpu_pools():
    env = dev()
    pool(env)["tpuTopology"] = "2x2"
    assert issues(env)["nodePools[0].tpuTopology"] == "applies to TPU pools only; g2-standard-24 is a GPU machine type"


def test_flex_pools_must_not_name_a_reservation():
    env = dev()
    pool(env)["reservation"] = "dec-run"
    assert (
        issues(env)["nodePools[0].reservation"]
        == "applies to calendar and reservation pools only; flex-start pools consume no reservation"
    )


def test_reservation_pool_needs_the_reservation_name():
    env = prod()
    pool(env, 3)["capacity"] = "reservation"
    assert issues(env)["nodePools[3].reservation"].startswith("required for reservation pools")


def test_zone_must_be_in_the_region():
    env = dev()
    pool(env)["zones"] = ["us-central1-a"]
    assert (
        issues(env)["nodePools[0].zones[0]"]
        == "'us-central1-a' is not in the region us-east5; allowed: zones of us-east5: us-east5-a, us-east5-b, us-east5-c"
    )


def test_zone_must_look_like_a_zone():
    env = dev()
    pool(env)["zones"] = ["us-east5"]
    assert issues(env)["nodePools[0].zones[0]"] == "'us-east5' is not a zone; zones look like us-east5-a"


def test_zone_listed_twice():
    env = dev()
    pool(env)["zones"] = ["us-east5-a", "us-east5-a"]
    assert issues(env)["nodePools[0].zones[1]"] == "'us-east5-a' is listed twice"


def test_multi_host_slice_lives_in_one_zone():
    env = prod()
    pool(env, 1)["zones"] = ["us-east5-a", "us-east5-b"]
    assert issues(env)["nodePools[1].zones"].startswith("a multi-host 4x4 slice (4 VMs) lives in one zone")


def test_pool_names_are_unique():
    env = dev()
    pool(env, 1)["name"] = "l4-flex"
    assert issues(env)["nodePools[1].name"] == "'l4-flex' is already used by nodePools[0]; pool names must be unique"


def test_pool_name_must_be_a_gke_node_pool_name():
    env = dev()
    pool(env)["name"] = "L4_flex"
    assert issues(env)["nodePools[0].name"].startswith("'L4_flex' is not a valid pool name; allowed: lowercase letters")


def test_pool_name_leaves_room_for_the_slice_suffix():
    env = prod()
    name = "v6e-" + "x" * 34  # 38 characters: v6e-...-s1 would be 41
    pool(env, 1)["name"] = name
    for team in env["teams"]:
        if "v6e-16" in team["quota"]:
            team["quota"][name] = team["quota"].pop("v6e-16")
    assert (
        issues(env)["nodePools[1].name"]
        == f"'{name}' has 38 characters; at most 37 so that the GKE node pool names ({name}-s1) fit in 40"
    )


def test_label_keys_are_validated():
    env = dev()
    pool(env)["labels"] = {"bad key": "x"}
    assert issues(env)["nodePools[0].labels['bad key']"].startswith("'bad key' is not a label key")


def test_label_values_are_validated():
    env = dev()
    pool(env)["labels"] = {"tier": "-bad-"}
    assert issues(env)["nodePools[0].labels.tier"].startswith("'-bad-' is not a label value")


def test_capacity_model_unsupported_for_tpu_family():
    env = dev()
    env["nodePools"][1] = {
        "name": "v4-8",
        "machineType": "ct4p-hightpu-4t",
        "tpuTopology": "2x2x1",
        "capacity": "flex-start",
    }
    for team in env["teams"]:
        team["quota"]["v4-8"] = team["quota"].pop("v6e-4")
    assert (
        issues(env)["nodePools[1].capacity"]
        == "'flex-start' is not available for ct4p-hightpu-4t; supported: reservation, spot, on-demand"
    )


def test_labels_gke_capacity_sets_are_refused():
    env = dev()
    pool(env)["labels"] = {"gkecap.dev/pool": "other"}
    assert issues(env)["nodePools[0].labels['gkecap.dev/pool']"] == (
        "'gkecap.dev/pool' is set by gke-capacity to select this pool; remove it"
    )


# --- taints --------------------------------------------------------------------------------------------------


def test_pool_taints_are_accepted_with_no_schedule_by_default():
    env = dev()
    pool(env)["taints"] = [{"key": "acme.example/dedicated", "value": "vision"},
                           {"key": "acme.example/batch", "value": "true", "effect": "NO_EXECUTE"}]
    taints = load_environment(env, now=NOW).node_pools[0].taints
    assert [(t.key, t.value, t.effect) for t in taints] == [
        ("acme.example/dedicated", "vision", "NO_SCHEDULE"),
        ("acme.example/batch", "true", "NO_EXECUTE"),
    ]


def test_taint_effect_must_be_a_gke_effect():
    env = dev()
    pool(env)["taints"] = [{"key": "dedicated", "value": "vision", "effect": "NoSchedule"}]
    assert (
        issues(env)["nodePools[0].taints[0].effect"]
        == "'NoSchedule' is not allowed; allowed: NO_SCHEDULE, PREFER_NO_SCHEDULE, NO_EXECUTE"
    )


def test_taint_needs_a_value():
    env = dev()
    pool(env)["taints"] = [{"key": "dedicated"}]
    assert issues(env)["nodePools[0].taints[0].value"] == "required key is missing"


@pytest.mark.parametrize("key", ["nvidia.com/gpu", "google.com/tpu", "cloud.google.com/gke-queued"])
def test_taint_keys_gke_sets_are_reserved(key):
    env = dev()
    pool(env)["taints"] = [{"key": key, "value": "present"}]
    assert issues(env)["nodePools[0].taints[0].key"] == (
        f"'{key}' is set by GKE on these nodes (gke-capacity declares it, and the pool's Kueue flavor tolerates it); "
        "use a key of your own, e.g. example.com/dedicated"
    )


@pytest.mark.parametrize("key", ["node.kubernetes.io/unschedulable", "kubernetes.io/role", "k8s.io/x"])
def test_kubernetes_taint_prefixes_are_reserved(key):
    env = dev()
    pool(env)["taints"] = [{"key": key, "value": "x"}]
    assert "is reserved for Kubernetes' own components" in issues(env)["nodePools[0].taints[0].key"]


def test_spot_taint_key_is_the_users_to_set():
    # GKE documents tainting spot nodes cloud.google.com/gke-spot=true:NoSchedule as a user choice.
    env = prod()
    env["nodePools"][3]["taints"] = [{"key": "cloud.google.com/gke-spot", "value": "true"}]
    load_environment(env, now=NOW)


def test_taint_key_and_value_syntax():
    env = dev()
    pool(env)["taints"] = [{"key": "bad key", "value": "not ok!"}]
    found = issues(env)
    assert found["nodePools[0].taints[0].key"].startswith("'bad key' is not a taint key: name part must consist of")
    assert found["nodePools[0].taints[0].value"].startswith("'not ok!' is not a taint value: a valid label value must")


def test_one_taint_per_key_and_effect():
    env = dev()
    pool(env)["taints"] = [
        {"key": "dedicated", "value": "a"},
        {"key": "dedicated", "value": "b", "effect": "NO_EXECUTE"},
        {"key": "dedicated", "value": "c"},
    ]
    found = issues(env)
    assert list(found) == ["nodePools[0].taints[2]"]
    assert found["nodePools[0].taints[2]"] == (
        "taint 'dedicated' with effect NO_SCHEDULE repeats taint 0; a node has one taint per key and effect"
    )


# --- boot disk ----------------------------------------------------------------------------------------------


def test_boot_disk_settings_are_accepted():
    env = dev()
    pool(env).update(diskSizeGb=200, diskType="pd-ssd")
    spec_pool = load_environment(env, now=NOW).node_pools[0]
    assert (spec_pool.disk_size_gb, spec_pool.disk_type) == (200, "pd-ssd")


def test_boot_disk_below_the_gke_minimum():
    env = dev()
    pool(env)["diskSizeGb"] = 9
    assert issues(env)["nodePools[0].diskSizeGb"] == (
        "9 GB is outside the boot disk sizes GKE allows; allowed: 10 to 65536 GB"
    )


def test_boot_disk_size_is_a_whole_number():
    env = dev()
    pool(env)["diskSizeGb"] = 100.5
    assert issues(env)["nodePools[0].diskSizeGb"] == "100.5 is not a whole number"


def test_boot_disk_type_must_be_a_gke_boot_disk_type():
    env = dev()
    pool(env)["diskType"] = "pd-extreme"
    assert issues(env)["nodePools[0].diskType"] == (
        "'pd-extreme' is not a GKE node boot disk type; allowed: pd-standard, pd-balanced, pd-ssd, hyperdisk-balanced"
    )


def test_tpu_v6e_boots_from_hyperdisk_balanced_only():
    env = dev()
    pool(env, 1)["diskType"] = "pd-balanced"
    assert issues(env)["nodePools[1].diskType"] == (
        "'pd-balanced' is not supported by v6e nodes (ct6e-standard-4t); allowed: hyperdisk-balanced"
    )


def test_tpu_v6e_accepts_hyperdisk_balanced():
    env = dev()
    pool(env, 1)["diskType"] = "hyperdisk-balanced"
    assert load_environment(env, now=NOW).node_pools[1].disk_type == "hyperdisk-balanced"


def test_a3_ultra_boots_from_hyperdisk_balanced_only():
    env = dev()
    pool(env).update(machineType="a3-ultragpu-8g", diskType="pd-ssd")
    assert issues(env)["nodePools[0].diskType"] == (
        "'pd-ssd' is not supported by A3 Ultra nodes (a3-ultragpu-8g); allowed: hyperdisk-balanced"
    )


def test_boot_disk_of_an_unknown_machine_type_is_not_judged_twice():
    env = dev()
    pool(env).update(machineType="a9-supergpu-8g", diskType="pd-ssd")
    assert "nodePools[0].diskType" not in issues(env)


@pytest.mark.parametrize("capacity", ["flex-start", "queued"])
def test_tpu7x_takes_flex_start_and_queued_provisioning(capacity):
    # Cluster Toolkit ships gke-tpu-7x dws-flex-start(-queued-provisioning) examples (issue 11 item 7).
    env = prod()
    env["region"] = "us-central1"
    env["cluster"]["minMasterVersion"] = "1.34.1-gke.2300000"
    env["nodePools"] = [{"name": "ironwood", "machineType": "tpu7x-standard-4t", "tpuTopology": "2x2x2",
                         "capacity": capacity, "zones": ["us-central1-c"], "slices": 1}]
    env["reservations"] = []
    env["teams"] = [{"name": "llm", "quota": {"ironwood": 8}}]
    env["cohorts"] = []
    assert load_environment(env, now=NOW).node_pools[0].capacity == capacity


@pytest.mark.parametrize("strategy", ["TIME_SHARING", "MPS"])
def test_more_than_48_clients_per_gpu_is_refused(strategy):
    # NVIDIA MPS serves at most 48 clients per GPU, and GKE documents 48 for both strategies (issue 11 item 8).
    env = dev()
    env["nodePools"][0]["gpuSharing"] = {"strategy": strategy, "maxSharedClientsPerGpu": 49}
    assert issues(env)["nodePools[0].gpuSharing.maxSharedClientsPerGpu"] == (
        "49 is outside the containers one GPU can serve; allowed: 1 to 48")
    env["nodePools"][0]["gpuSharing"]["maxSharedClientsPerGpu"] = 48
    assert load_environment(env, now=NOW).node_pools[0].gpu_sharing.max_shared_clients_per_gpu == 48


def test_compact_placement_over_two_zones_is_an_error_at_the_pool():
    env = dev()
    pool(env).update({"capacity": "on-demand", "compactPlacement": True, "zones": ["us-east5-a", "us-east5-b"]})
    del pool(env)["maxRunDuration"]
    found = issues(env)
    assert "exactly one zone" in found["nodePools[0].compactPlacement"]
