"""The Environment component on the mocked runtime: the resources an environment file turns into, Kueue
objects created after the Kueue install, flavors that match the registered node pools, and nothing
registered for an invalid environment."""

from __future__ import annotations

import pytest

from gkecap.components.environment import Environment, node_account_id
import pulumi
from testkit.kueue_specs import PROJECT, with_kueue
from testkit.spec_data import dev, prod

CHART = "kubernetes:helm.sh/v4:Chart"
KUEUE_PREFIX = "kubernetes:kueue.x-k8s.io/"


def _run(pulumi_run, env):
    holder = {}

    def program():
        holder["env"] = Environment("env", {"environment": env, "project": PROJECT})

    return pulumi_run(program), holder


def test_prod_registers_cluster_reservation_pools_kueue_and_its_objects(pulumi_run):
    registered, _ = _run(pulumi_run, prod())
    types = [r.type for r in registered.records]
    assert types.count("gkecap:index:Environment") == 1
    assert registered.one("gkecap:index:GkeCluster").name == "ml-prod"
    assert registered.one("gkecap:index:CalendarReservation").name == "dec-run"
    assert sorted(r.name for r in registered.of_type("gkecap:index:AcceleratorNodePool")) == [
        "h100-dec", "h100-dws", "l4-spot", "v6e-16"]
    assert registered.one("gkecap:index:KueueInstall").name == "kueue"
    assert registered.one(CHART, "kueue").inputs["version"] == "0.19.2"
    assert registered.one("gkecap:index:KueueObjects").name == "kueue-objects"
    kueue_kinds = {r.type.rsplit(":", 1)[1] for r in registered.records if r.type.startswith(KUEUE_PREFIX)}
    assert kueue_kinds == {"ResourceFlavor", "ProvisioningRequestConfig", "AdmissionCheck", "WorkloadPriorityClass",
                           "Cohort", "ClusterQueue", "LocalQueue"}
    assert not registered.of_type("gcp:serviceaccount/account:Account")  # nodeServiceAccount is given


def test_every_kueue_object_depends_on_the_kueue_install(pulumi_run):
    registered, _ = _run(pulumi_run, prod())
    chart = registered.one(CHART, "kueue")
    generated = [r for r in registered.records if r.type.startswith(KUEUE_PREFIX)
                 or (r.parent or "").endswith("::kueue-objects")]
    assert generated and all(chart.urn in r.dependencies for r in generated)


def test_kubernetes_resources_use_the_provider_made_from_the_cluster_kubeconfig(pulumi_run):
    registered, _ = _run(pulumi_run, prod())
    provider = registered.one("pulumi:providers:kubernetes")
    cluster = registered.one("gcp:container/cluster:Cluster")
    assert cluster.urn in provider.dependencies
    kubernetes = [r for r in registered.records if r.type.startswith("kubernetes:")]
    assert all((r.provider or "").startswith(provider.urn) for r in kubernetes)


def test_each_flavor_selects_labels_its_registered_node_pools_carry(pulumi_run):
    registered, holder = _run(pulumi_run, prod())
    for pool_name in ("h100-dws", "v6e-16", "h100-dec", "l4-spot"):
        flavor = registered.one(f"{KUEUE_PREFIX}v1beta2:ResourceFlavor", f"kueue-objects-{pool_name}")
        ours = {k: v for k, v in flavor.inputs["spec"]["nodeLabels"].items() if k.startswith("gkecap.dev/")}
        node_pools = [r for r in registered.of_type("gcp:container/nodePool:NodePool")
                      if (r.parent or "").endswith(f"::{pool_name}")]
        assert ours and node_pools
        assert all(ours.items() <= r.inputs["nodeConfig"]["labels"].items() for r in node_pools), pool_name


def test_pool_taints_and_boot_disk_reach_the_node_pools_and_the_flavor(pulumi_run):
    env = prod()
    env["nodePools"][1].update(  # v6e-16: two multi-host slices, so two GKE node pools
        taints=[{"key": "acme.example/dedicated", "value": "llm"}], diskSizeGb=500, diskType="hyperdisk-balanced"
    )
    registered, _ = _run(pulumi_run, env)
    node_pools = [r for r in registered.of_type("gcp:container/nodePool:NodePool")
                  if (r.parent or "").endswith("::v6e-16")]
    assert len(node_pools) == 2
    for node_pool in node_pools:
        config = node_pool.inputs["nodeConfig"]
        assert {"key": "acme.example/dedicated", "value": "llm", "effect": "NO_SCHEDULE"} in config["taints"]
        assert (config["diskSizeGb"], config["diskType"]) == (500, "hyperdisk-balanced")
    flavor = registered.one(f"{KUEUE_PREFIX}v1beta2:ResourceFlavor", "kueue-objects-v6e-16")
    assert {"key": "acme.example/dedicated", "operator": "Equal", "value": "llm",
            "effect": "NoSchedule"} in flavor.inputs["spec"]["tolerations"]


def test_calendar_pool_consumes_the_reservation_it_names(pulumi_run):
    registered, _ = _run(pulumi_run, prod())
    reservation = registered.one("gcp:compute/futureReservation:FutureReservation")
    pool = registered.one("gcp:container/nodePool:NodePool", "h100-dec")
    assert reservation.urn in pool.dependencies
    assert pool.inputs["nodeConfig"]["reservationAffinity"]["consumeReservationType"] == "SPECIFIC_RESERVATION"


def test_a_node_service_account_is_created_when_none_is_given(pulumi_run):
    registered, _ = _run(pulumi_run, dev())
    account = registered.one("gcp:serviceaccount/account:Account")
    assert account.inputs["accountId"] == "ml-dev-nodes"
    member = registered.one("gcp:projects/iAMMember:IAMMember")
    assert member.inputs["role"] == "roles/container.defaultNodeServiceAccount"
    assert member.inputs["member"] == f"serviceAccount:{account.outputs['email']}"
    for pool in registered.of_type("gcp:container/nodePool:NodePool"):
        assert pool.inputs["nodeConfig"]["serviceAccount"] == account.outputs["email"]


def test_without_kueue_install_the_objects_are_still_created(pulumi_run):
    registered, _ = _run(pulumi_run, with_kueue(dev(), install=False))
    assert not registered.of_type("gkecap:index:KueueInstall") and not registered.of_type(CHART)
    assert registered.of_type(f"{KUEUE_PREFIX}v1beta2:ClusterQueue")


def test_exports_name_queues_and_flavors(pulumi_run):
    registered, _ = _run(pulumi_run, prod())
    outputs = registered.one("gkecap:index:Environment").outputs
    assert outputs["flavors"] == ["h100-dec", "h100-dws", "v6e-16", "l4-spot"]
    assert outputs["queues"]["team-d"] == {"clusterQueue": "team-d", "localQueue": "team-d",
                                           "namespaces": ["team-d", "team-d-serving"], "cohort": "research"}
    assert outputs["pools"]["v6e-16"]["nodePools"] == ["v6e-16-s0", "v6e-16-s1"]


def test_an_invalid_environment_registers_nothing(pulumi_run):
    env = prod()
    env["teams"][0]["quota"]["no-such-pool"] = 4
    errors = []

    def program():
        try:
            Environment("env", {"environment": env, "project": PROJECT})
        except pulumi.InputPropertiesError as err:
            errors.append(err)

    registered = pulumi_run(program)
    assert errors and "environment.teams[0].quota.no-such-pool" in [d["property_path"] for d in errors[0].errors]
    assert [r.type for r in registered.records] == ["pulumi:pulumi:Stack"]


@pytest.mark.parametrize(("cluster", "expected"), [
    ("ml-dev", "ml-dev-nodes"),
    ("a-very-long-cluster-name-for-research", "a-very-long-cluster-name-fo-np"),
])
def test_node_account_id_fits_iam_limits(cluster, expected):
    account_id = node_account_id(cluster)
    assert account_id == expected and 6 <= len(account_id) <= 30


def test_jobset_is_installed_for_kueues_jobset_integration(pulumi_run):
    # Kueue's default configuration integrates JobSet, which Kueue does not ship; xpk and Cluster Toolkit install it
    # (issue 11 item 9).
    registered, _ = _run(pulumi_run, prod())
    jobset = registered.one(CHART, "kueue-jobset")
    assert (jobset.inputs["chart"], jobset.inputs["version"]) == ("oci://registry.k8s.io/jobset/charts/jobset", "0.12.0")
    assert jobset.inputs["namespace"] == "jobset-system"


def test_jobset_is_left_out_when_the_cluster_has_it(pulumi_run):
    env = prod()
    env["kueue"]["jobSet"] = False
    registered, _ = _run(pulumi_run, env)
    assert [r.name for r in registered.of_type(CHART)] == ["kueue"]


def _manager_config(registered) -> dict:
    import yaml

    values = registered.one(CHART, "kueue").inputs["values"]
    return yaml.safe_load(values["managerConfig"]["controllerManagerConfigYaml"])


def test_wait_for_pods_ready_is_off_unless_the_environment_sets_it(pulumi_run):
    # It is cluster-wide (issue 22 item 4): a calendar pool no longer turns it on for every workload.
    registered, _ = _run(pulumi_run, prod())
    assert "waitForPodsReady" not in _manager_config(registered)


def test_wait_for_pods_ready_is_installed_as_the_environment_sets_it(pulumi_run):
    env = prod()
    env["kueue"] = {**env.get("kueue", {}), "waitForPodsReady": {"timeout": "2h", "requeuingStrategy": {
        "timestamp": "Eviction", "backoffLimitCount": 3}}}
    registered, _ = _run(pulumi_run, env)
    assert _manager_config(registered)["waitForPodsReady"] == env["kueue"]["waitForPodsReady"]


def test_kueue_manages_every_job_of_the_team_namespaces_only(pulumi_run):
    registered, _ = _run(pulumi_run, prod())
    config = _manager_config(registered)
    assert config["manageJobsWithoutQueueName"] is True
    [expression] = config["managedJobsNamespaceSelector"]["matchExpressions"]
    assert expression == {"key": "kubernetes.io/metadata.name", "operator": "In",
                          "values": ["team-a", "team-b", "team-c", "team-d", "team-d-serving"]}


def test_vertex_profiles_get_their_preemptible_quota_as_a_child(pulumi_run):
    env = dev()
    env["vertex"] = {"region": "us-central1", "profiles": [
        {"name": "l4", "team": "vision", "machineType": "g2-standard-24", "acceleratorType": "NVIDIA_L4",
         "acceleratorCount": 2, "maxConcurrentJobs": 3}]}
    registered, _ = _run(pulumi_run, env)
    quota = registered.one("gkecap:index:VertexTrainingQuota")
    preference = registered.one("gcp:cloudquota/sQuotaPreference:SQuotaPreference")
    assert preference.parent == quota.urn and quota.parent == registered.one("gkecap:index:Environment").urn
    assert preference.inputs["quotaConfig"]["preferredValue"] == "6"  # 2 GPUs x 3 concurrent jobs


def test_an_environment_without_vertex_profiles_asks_for_no_quota(pulumi_run):
    registered, _ = _run(pulumi_run, dev())
    assert registered.of_type("gkecap:index:VertexTrainingQuota") == []
