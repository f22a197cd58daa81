"""ClusterQueues, Cohorts and quotas: the over-quota scenario as exact objects, quota math (cpu and memory that
come with the accelerators), which flavors a queue lists, limits, weights and preemption."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from gkecap.components.kueue_api import parse_quantity
from gkecap.components.kubernetes_objects.queues import covered_resources, flavor_quota
from testkit.kueue_specs import find, flavor_resources, model_of, objects_of, of_kind, over_quota, with_kueue
from testkit.spec_data import dev, prod


def expected_queue(team: str, gpus: int) -> dict:
    """A team's ClusterQueue in the 16-GPU scenario: a3-highgpu-8g nodes have 208 vCPUs and 1872 GB."""
    return {
        "apiVersion": "kueue.x-k8s.io/v1beta2",
        "kind": "ClusterQueue",
        "metadata": {"name": team, "labels": {"app.kubernetes.io/managed-by": "gke-capacity",
                                              "gkecap.dev/team": team}},
        "spec": {
            "resourceGroups": [{
                "coveredResources": ["cpu", "memory", "nvidia.com/gpu"],
                "flavors": [{"name": "h100", "resources": [
                    {"name": "cpu", "nominalQuota": 26 * gpus},
                    {"name": "memory", "nominalQuota": f"{234 * gpus}Gi"},
                    {"name": "nvidia.com/gpu", "nominalQuota": gpus},
                ]}],
            }],
            "cohortName": "gpu-share",
            "namespaceSelector": {
                "matchLabels": {"gkecap.dev/team": team},
                "matchExpressions": [{"key": "kubernetes.io/metadata.name", "operator": "In", "values": [team]}],
            },
            "preemption": {"reclaimWithinCohort": "Any", "withinClusterQueue": "LowerPriority"},
            "flavorFungibility": {"whenCanBorrow": "MayStopSearch", "whenCanPreempt": "TryNextFlavor"},
            "fairSharing": {"weight": 1},
        },
    }


@pytest.mark.parametrize(("team", "gpus"), [("team-a", 4), ("team-b", 2), ("team-c", 2), ("team-d", 8)])
def test_over_quota_scenario_gives_each_team_its_exact_queue(team, gpus):
    assert find(objects_of(over_quota()), "ClusterQueue", team) == expected_queue(team, gpus)


def test_over_quota_scenario_nominal_quotas_add_up_to_the_16_gpus():
    queues = of_kind(objects_of(over_quota()), "ClusterQueue")
    assert sum(flavor_resources(q, "h100")["nvidia.com/gpu"]["nominalQuota"] for q in queues) == 16


def test_over_quota_scenario_lets_a_team_borrow_every_idle_gpu_and_take_its_own_back():
    objects = objects_of(over_quota())
    queues = of_kind(objects, "ClusterQueue")
    # One cohort; no borrowingLimit (a team may borrow all idle GPUs) and no lendingLimit (all idle GPUs lend).
    assert {q["spec"]["cohortName"] for q in queues} == {"gpu-share"}
    assert all(set(flavor_resources(q, "h100")["nvidia.com/gpu"]) == {"nominalQuota"} for q in queues)
    # The owner reclaims its nominal quota from borrowers, whatever their priority.
    assert {q["spec"]["preemption"]["reclaimWithinCohort"] for q in queues} == {"Any"}
    assert find(objects, "Cohort", "gpu-share")["spec"] == {}


def test_without_fair_sharing_borrowers_may_preempt_lower_priority_borrowers():
    queue = find(objects_of(with_kueue(over_quota(), fairSharing=False)), "ClusterQueue", "team-a")["spec"]
    assert queue["preemption"]["borrowWithinCohort"] == {"policy": "LowerPriority"}
    assert "fairSharing" not in queue


def test_cpu_and_memory_come_pro_rata_with_the_accelerators():
    # 4 of a3-highgpu-8g's 8 GPUs: half a node, 104 of 208 vCPUs and 936 of 1872 GiB.
    assert flavor_resources(find(objects_of(over_quota()), "ClusterQueue", "team-a"), "h100") == {
        "cpu": {"nominalQuota": 104}, "memory": {"nominalQuota": "936Gi"}, "nvidia.com/gpu": {"nominalQuota": 4}}


def test_tpu_quota_in_chips_brings_the_cpu_and_memory_of_its_vms():
    # ct6e-standard-4t: 4 chips, 180 vCPUs, 720 GB per VM; 16 chips = 4 VMs.
    resources = flavor_resources(find(objects_of(prod()), "ClusterQueue", "team-b"), "v6e-16")
    assert resources == {"cpu": {"nominalQuota": 720}, "memory": {"nominalQuota": "2880Gi"},
                         "nvidia.com/gpu": {"nominalQuota": 0}, "google.com/tpu": {"nominalQuota": 16}}


def test_borrowing_and_lending_limits_carry_their_cpu_and_memory():
    resources = flavor_resources(find(objects_of(prod()), "ClusterQueue", "team-a"), "h100-dws")
    assert resources["nvidia.com/gpu"] == {"nominalQuota": 4, "borrowingLimit": 12, "lendingLimit": 4}
    assert resources["cpu"] == {"nominalQuota": 104, "borrowingLimit": 312, "lendingLimit": 104}
    assert resources["memory"] == {"nominalQuota": "936Gi", "borrowingLimit": "2808Gi", "lendingLimit": "936Gi"}


def test_gpu_and_tpu_flavors_share_one_resource_group():
    # Kueue rejects a resource covered by two groups (R-CQ-2); cpu and memory belong to both kinds.
    groups = find(objects_of(prod()), "ClusterQueue", "team-d")["spec"]["resourceGroups"]
    assert len(groups) == 1
    assert groups[0]["coveredResources"] == ["cpu", "memory", "nvidia.com/gpu", "google.com/tpu"]


def test_a_pool_without_known_vcpus_leaves_cpu_and_memory_uncovered():
    env = over_quota()
    env["nodePools"][0]["machineType"] = "a4-highgpu-8g-lowmem"  # catalog: vCPUs and memory not documented
    queue = find(objects_of(env), "ClusterQueue", "team-a")
    assert queue["spec"]["resourceGroups"][0]["coveredResources"] == ["nvidia.com/gpu"]


def test_a_team_in_a_cohort_can_borrow_every_pool_of_its_cohort_tree():
    # team-a has no TPU quota, but the cohort does: the flavor is listed with nominal 0 so it can borrow it.
    queue = find(objects_of(prod()), "ClusterQueue", "team-a")
    assert [f["name"] for f in queue["spec"]["resourceGroups"][0]["flavors"]] == [
        "h100-dec", "h100-dws", "v6e-16", "l4-spot"]
    assert flavor_resources(queue, "v6e-16")["google.com/tpu"] == {"nominalQuota": 0}


def test_a_team_without_cohort_lists_only_its_pools_and_has_no_limits():
    env = dev()
    env["teams"][0]["quota"] = {"l4-flex": 2}
    queue = find(objects_of(env), "ClusterQueue", "vision")["spec"]
    assert "cohortName" not in queue
    assert [f["name"] for f in queue["resourceGroups"][0]["flavors"]] == ["l4-flex"]
    assert all(set(r) == {"name", "nominalQuota"} for f in queue["resourceGroups"][0]["flavors"]
               for r in f["resources"])


def test_flavors_are_ordered_reservation_calendar_queued_flex_spot_on_demand():
    env = {
        "region": "us-east5",
        "cluster": {"name": "order"},
        "nodePools": [
            {"name": "od", "machineType": "g2-standard-12", "capacity": "on-demand", "maxNodes": 1},
            {"name": "spot", "machineType": "g2-standard-12", "capacity": "spot", "maxNodes": 1},
            {"name": "flex", "machineType": "g2-standard-12", "capacity": "flex-start", "maxNodes": 1},
            {"name": "queued", "machineType": "g2-standard-12", "capacity": "queued", "maxNodes": 1},
            {"name": "res", "machineType": "g2-standard-12", "capacity": "reservation", "maxNodes": 1,
             "reservation": "existing"},
        ],
        "teams": [{"name": "all", "quota": {"od": 1, "spot": 1, "flex": 1, "queued": 1, "res": 1}}],
    }
    queue = find(objects_of(env), "ClusterQueue", "all")
    assert [f["name"] for f in queue["spec"]["resourceGroups"][0]["flavors"]] == [
        "res", "queued", "flex", "spot", "od"]


def test_fair_sharing_weights_on_queues_and_cohorts():
    env = prod()
    env["cohorts"] = [{"name": "research", "weight": 3}]
    objects = objects_of(env)
    assert find(objects, "ClusterQueue", "team-a")["spec"]["fairSharing"] == {"weight": 2}
    assert find(objects, "ClusterQueue", "team-b")["spec"]["fairSharing"] == {"weight": 1}
    assert find(objects, "Cohort", "research")["spec"]["fairSharing"] == {"weight": 3}
    env["teams"][1]["weight"] = 0.5
    assert find(objects_of(env), "ClusterQueue", "team-b")["spec"]["fairSharing"] == {"weight": "0.5"}


def test_without_fair_sharing_no_weight_is_written():
    objects = objects_of(with_kueue(prod(), fairSharing=False))
    assert all("fairSharing" not in o["spec"] for o in objects if o["kind"] in ("ClusterQueue", "Cohort"))


def test_explicit_preemption_is_kept():
    env = over_quota()
    env["teams"][0]["preemption"] = {"reclaimWithinCohort": "Never", "withinClusterQueue": "Never"}
    preemption = find(objects_of(env), "ClusterQueue", "team-a")["spec"]["preemption"]
    assert preemption == {"reclaimWithinCohort": "Never", "withinClusterQueue": "Never"}


def test_a_cohort_shares_its_own_quota():
    env = over_quota()
    env["teams"][3]["quota"] = {"h100": 4}
    env["cohorts"][0]["quota"] = {"h100": 4}
    cohort = find(objects_of(env), "Cohort", "gpu-share")["spec"]
    assert cohort["resourceGroups"] == [{"coveredResources": ["cpu", "memory", "nvidia.com/gpu"], "flavors": [
        {"name": "h100", "resources": [{"name": "cpu", "nominalQuota": 104}, {"name": "memory", "nominalQuota": "936Gi"},
                                       {"name": "nvidia.com/gpu", "nominalQuota": 4}]}]}]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nominal=st.integers(0, 64), data=st.data())
def test_limits_stay_consistent_with_the_nominal_quota_for_every_resource(nominal, data):
    lending = data.draw(st.integers(0, nominal))
    borrowing = data.draw(st.integers(0, 128))
    pool = model_of(prod()).pool(data.draw(st.sampled_from(["h100-dws", "v6e-16", "l4-spot"])))
    covered = covered_resources([pool])
    flavor = flavor_quota(pool, covered, nominal, borrowing, lending)
    for resource in flavor["resources"]:
        nominal_q = parse_quantity(resource["nominalQuota"])
        assert parse_quantity(resource["lendingLimit"]) <= nominal_q  # R-CQ-8
        assert parse_quantity(resource["borrowingLimit"]).value >= 0
    per_accelerator = {r["name"]: parse_quantity(r["nominalQuota"]).value for r in flavor["resources"]}
    if nominal:
        vcpus = int(pool.node_resources["cpu"])
        # never less than the accelerators' share of the node, and at most a millicore more
        exact = vcpus * nominal / pool.accelerators_per_node
        assert exact <= per_accelerator["cpu"] < exact + 0.001


def test_a_child_cohort_carries_its_borrowing_and_lending_limits():
    from gkecap.components.kueue_api import validate_kueue_object

    env = over_quota()
    env["cohorts"] = [
        {"name": "org"},
        {"name": "gpu-share", "parent": "org", "quota": {"h100": 4},
         "borrowingLimit": {"h100": 8}, "lendingLimit": {"h100": 6}},
    ]
    env["teams"][3]["quota"] = {"h100": 4}
    cohort = find(objects_of(env), "Cohort", "gpu-share")
    [flavor] = cohort["spec"]["resourceGroups"][0]["flavors"]
    gpu = next(r for r in flavor["resources"] if r["name"] == "nvidia.com/gpu")
    # a Cohort's lendingLimit may exceed its nominalQuota (KUEUE_VALIDATION R-CO-2)
    assert gpu == {"name": "nvidia.com/gpu", "nominalQuota": 4, "borrowingLimit": 8, "lendingLimit": 6}
    assert cohort["spec"]["parentName"] == "org"
    assert validate_kueue_object(cohort) == []


def test_more_pools_than_kueue_allows_in_a_queue_is_a_spec_error_naming_the_team():
    # The limit is the environment's (spec.checks.teams.check_flavor_limits): the objects are never built.
    from gkecap.components.spec import SpecError, load_environment

    env = over_quota()
    env["nodePools"] = [
        {"name": f"l4-{i}", "machineType": "g2-standard-12", "capacity": "on-demand", "maxNodes": 1,
         "zones": ["us-east5-a"]}
        for i in range(65)
    ]
    env["teams"] = [
        {"name": "team-a", "cohort": "gpu-share", "quota": {f"l4-{i}": 1 for i in range(33)}},
        {"name": "team-b", "cohort": "gpu-share", "quota": {f"l4-{i}": 1 for i in range(33, 65)}},
    ]
    with pytest.raises(SpecError) as raised:
        load_environment(env)
    assert [issue.path for issue in raised.value.issues] == ["teams[0]", "teams[1]"]
    assert "would use 65 pools" in str(raised.value) and "at most 64 flavors" in str(raised.value)


def test_a_zero_weight_is_written_and_the_real_crd_accepts_it():
    from testkit.kueue_crds import validate_against_crds

    env = prod()
    env["teams"][1]["weight"] = 0
    queue = find(objects_of(env), "ClusterQueue", "team-b")
    assert queue["spec"]["fairSharing"] == {"weight": 0} and validate_against_crds(queue) == []


@pytest.mark.parametrize(("api", "version", "want"), [
    ("v1beta2", "v0.19.2", {"whenCanBorrow": "TryNextFlavor", "whenCanPreempt": "MayStopSearch"}),
    ("v1beta1", "v0.14.8", {"whenCanBorrow": "TryNextFlavor", "whenCanPreempt": "Preempt"}),
])
def test_a_teams_flavor_fungibility_is_written_in_the_apis_spelling(api: str, version: str, want: dict):
    from testkit.kueue_crds import validate_against_crds

    env = with_kueue(prod(), apiVersion=api, version=version)
    env["teams"][0]["flavorFungibility"] = {"whenCanBorrow": "TryNextFlavor", "whenCanPreempt": "MayStopSearch"}
    queue = find(objects_of(env), "ClusterQueue", "team-a")
    assert queue["spec"]["flavorFungibility"] == want and validate_against_crds(queue) == []


def test_unset_fungibility_fields_keep_kueues_defaults():
    env = prod()
    env["teams"][0]["flavorFungibility"] = {"whenCanPreempt": "MayStopSearch"}
    queue = find(objects_of(env), "ClusterQueue", "team-a")
    assert queue["spec"]["flavorFungibility"] == {"whenCanBorrow": "MayStopSearch", "whenCanPreempt": "MayStopSearch"}
