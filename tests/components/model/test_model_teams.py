"""derive(): teams, cohorts, preemption defaults, shares and totals."""

from __future__ import annotations

import pytest

from gkecap.components.model import derive
from gkecap.components.spec import load_environment
from testkit.spec_data import NOW, dev, prod


def model_of(env):
    return derive(load_environment(env, now=NOW))


def test_team_quotas_and_limits_are_carried():
    team = model_of(prod()).team("team-a")
    assert team.quotas == {"h100-dws": 4, "h100-dec": 16, "l4-spot": 2}
    assert team.borrowing_limits == {"h100-dws": 12}
    assert team.lending_limits == {"h100-dws": 4}
    assert team.weight == 2.0
    assert team.cohort == "research"


def test_team_pools_follow_the_flavor_order():
    assert model_of(prod()).team("team-d").pools == ("h100-dec", "h100-dws", "v6e-16", "l4-spot")


def test_default_weight_and_namespace():
    team = model_of(prod()).team("team-b")
    assert team.weight == 1.0
    assert team.namespaces == ("team-b",)


def test_over_quota_split_shares_of_the_cohort():
    # SEED_NOTES: 16 GPUs split 4/2/2/8 between four teams of one cohort.
    model = model_of(prod())
    shares = {t.name: t.cohort_share["h100-dws"] for t in model.teams}
    assert shares == {"team-a": 0.25, "team-b": 0.125, "team-c": 0.125, "team-d": 0.5}


def test_preemption_defaults_with_fair_sharing():
    team = model_of(prod()).team("team-a")
    assert (
        team.preemption.reclaim_within_cohort,
        team.preemption.within_cluster_queue,
        team.preemption.borrow_within_cohort,
    ) == ("Any", "LowerPriority", "Never")


def test_preemption_defaults_with_classical_preemption():
    env = prod()
    env["kueue"]["fairSharing"] = False
    del env["teams"][0]["weight"]
    assert model_of(env).team("team-a").preemption.borrow_within_cohort == "LowerPriority"


def test_reclaim_never_defaults_borrow_to_never():
    # KUEUE_VALIDATION R-CQ-10: reclaimWithinCohort Never with borrowWithinCohort other than Never is rejected.
    env = prod()
    env["kueue"]["fairSharing"] = False
    del env["teams"][0]["weight"]
    env["teams"][0]["preemption"] = {"reclaimWithinCohort": "Never"}
    preemption = model_of(env).team("team-a").preemption
    assert (preemption.reclaim_within_cohort, preemption.borrow_within_cohort) == ("Never", "Never")


def test_explicit_preemption_wins():
    env = prod()
    env["teams"][0]["preemption"] = {"withinClusterQueue": "Never"}
    assert model_of(env).team("team-a").preemption.within_cluster_queue == "Never"


def test_cohort_tree_depths_children_and_rolled_up_quota():
    env = prod()
    env["cohorts"] = [
        {"name": "org", "quota": {"l4-spot": 0}},
        {"name": "research", "parent": "org"},
        {"name": "vision", "parent": "research"},
    ]
    env["teams"][0]["cohort"] = "vision"
    model = model_of(env)
    org, research, vision = model.cohort("org"), model.cohort("research"), model.cohort("vision")
    assert (org.depth, research.depth, vision.depth) == (0, 1, 2)
    assert org.children == ("research",) and research.children == ("vision",)
    assert vision.teams == ("team-a",)
    assert research.teams == ("team-b", "team-c", "team-d")
    assert vision.subtree_quota == {"h100-dws": 4, "h100-dec": 16, "l4-spot": 2}
    assert org.subtree_quota["h100-dws"] == 16
    assert org.subtree_quota["l4-spot"] == 8
    assert [c.name for c in model.root_cohorts] == ["org"]


def test_totals_per_pool():
    totals = model_of(prod()).totals["h100-dws"]
    assert (totals.capacity, totals.quota_total, totals.overcommitted, totals.unassigned) == (16, 16, False, 0)
    assert totals.team_quotas == {"team-a": 4, "team-b": 2, "team-c": 2, "team-d": 8}
    assert totals.utilization == 1.0


def test_flex_overcommit_shows_in_totals():
    env = prod()
    env["teams"][3]["quota"]["h100-dws"] = 16
    model = model_of(env)
    assert model.totals["h100-dws"].overcommitted
    assert model.totals["h100-dws"].unassigned == -8
    assert any(w.startswith("teams: quotas for pool 'h100-dws'") for w in model.warnings)


def test_teams_without_cohort_have_no_share():
    assert model_of(dev()).team("vision").cohort_share == {}


def test_priority_classes_are_carried():
    model = model_of(prod())
    assert [(pc.name, pc.value) for pc in model.priority_classes] == [("low", 100), ("high", 1000)]


def test_unknown_names_raise_key_error():
    model = model_of(dev())
    with pytest.raises(KeyError):
        model.pool("nope")
    with pytest.raises(KeyError):
        model.team("nope")


def test_a_thousand_teams_derive_linearly():
    # Shape check only (no timing asserts; benchmarks time it): 1,000 teams, 200 pools, 50 cohorts.
    env = dev()
    env["nodePools"] = [
        {"name": f"pool-{p}", "machineType": "g2-standard-12", "capacity": "on-demand", "maxNodes": 50}
        for p in range(200)
    ]
    env["cohorts"] = [{"name": f"cohort-{c}"} for c in range(50)]
    env["teams"] = [
        {"name": f"team-{t}", "cohort": f"cohort-{t % 50}", "quota": {f"pool-{(t * 7 + k) % 200}": 1 for k in range(5)}}
        for t in range(1000)
    ]
    model = model_of(env)
    assert len(model.teams) == 1000
    assert sum(t.quota_total for t in model.totals.values()) == 5000


def test_cohort_limits_are_carried_with_the_pools_they_name_in_flavor_order():
    env = prod()
    env["cohorts"] = [
        {"name": "org"},
        {
            "name": "research",
            "parent": "org",
            "quota": {"l4-spot": 0},
            "borrowingLimit": {"h100-dws": 8},
            "lendingLimit": {"h100-dec": 16},
        },
    ]
    model = model_of(env)
    research = model.cohort("research")
    assert (research.borrowing_limits, research.lending_limits) == ({"h100-dws": 8}, {"h100-dec": 16})
    assert research.pools == ("h100-dec", "h100-dws", "l4-spot")  # calendar, queued, spot
    assert model.to_dict()["cohorts"][1]["lendingLimits"] == {"h100-dec": 16}


def test_cohort_without_limits_has_empty_limits_and_its_quota_pools():
    org = model_of(prod()).cohort("research")
    assert (org.borrowing_limits, org.lending_limits, org.pools) == ({}, {}, ())


def test_a_team_may_use_every_priority_class_below_the_highest_by_default():
    model = model_of(dev())  # the default classes: low 100, normal 500, high 1000
    assert model.team("vision").priorities == ("low", "normal")


def test_a_team_given_priorities_may_use_exactly_those_in_the_environment_order():
    env = prod()
    env["teams"][0]["priorities"] = ["high", "low"]
    assert model_of(env).team("team-a").priorities == ("low", "high")


def test_with_a_single_priority_value_every_class_is_allowed():
    env = prod()
    env["priorityClasses"] = [{"name": "only", "value": 5}]
    assert model_of(env).team("team-b").priorities == ("only",)
