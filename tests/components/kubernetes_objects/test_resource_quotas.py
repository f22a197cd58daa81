"""Per-namespace ResourceQuotas on accelerator requests (`teams[i].resourceQuota`), sized to what Kueue can ever
admit for the team: nominal quota plus what it may borrow (figures worked out by hand from testkit's prod file)."""

from __future__ import annotations

from gkecap.components.kubernetes_objects.resource_quotas import admissible_units
from testkit.kueue_specs import model_of, objects_of, of_kind
from testkit.spec_data import dev, prod


def _quotas(env: dict) -> dict[tuple[str, str], dict]:
    for team in env["teams"]:
        team["resourceQuota"] = True
    return {(q["metadata"]["namespace"], q["metadata"]["name"]): q["spec"]["hard"]
            for q in of_kind(objects_of(env), "ResourceQuota")}


def test_no_resource_quota_unless_asked():
    assert of_kind(objects_of(prod()), "ResourceQuota") == []


def test_a_team_without_cohort_gets_its_nominal_quota_and_no_other_accelerator():
    # dev: vision holds 2 L4 (GPU) and 4 v6e chips, no cohort: nothing to borrow.
    assert _quotas(dev())[("vision", "gkecap-vision-accelerators")] == {
        "requests.nvidia.com/gpu": "2", "requests.google.com/tpu": "4"}


def test_borrowing_is_bounded_by_the_borrowing_limit_and_by_what_others_lend():
    # team-a: h100-dws 4 + min(12, 16 - 4) = 16; h100-dec 16 + (64 - 16) = 64; l4-spot 2 + 6 = 8; v6e 0 + 32.
    # team-b: h100-dws 2 + (16 - 2) = 16 (team-a's lendingLimit 4 is its whole quota: it keeps nothing back).
    model = model_of(prod())
    assert admissible_units(model, model.team("team-a")) == {"nvidia.com/gpu": 88, "google.com/tpu": 32}
    assert admissible_units(model, model.team("team-b"))["nvidia.com/gpu"] == 16 + 64 + 8


def test_quota_kept_back_by_a_lending_limit_cannot_be_borrowed():
    env = prod()
    env["teams"][0]["lendingLimit"] = {"h100-dws": 1}  # team-a keeps 3 of its 4 H100s
    model = model_of(env)
    assert admissible_units(model, model.team("team-b"))["nvidia.com/gpu"] == (16 - 3) + 64 + 8


def test_every_team_namespace_gets_the_quota():
    quotas = _quotas(prod())
    assert quotas[("team-d", "gkecap-team-d-accelerators")] == quotas[("team-d-serving", "gkecap-team-d-accelerators")]
