"""flex-start-settings, flex-start-location-policy and queued-provisioning-admission-check."""

from __future__ import annotations

from testkit.rule_resources import flex_tpu_pool, kueue, on_demand_gpu_pool, queued_gpu_pool, system_pool, with_config, without

from gkecap.policies.resource_view import UNKNOWN
from gkecap.policies.rules.dws import (
    check_flex_start_recommended,
    check_flex_start_settings,
    check_queued_admission_check,
)


def check(view) -> list[str]:
    return check_flex_start_settings(view, {})


def test_correct_dws_pools_pass():
    assert check(queued_gpu_pool()) == []
    assert check(flex_tpu_pool()) == []


def test_pools_that_are_not_dws_are_ignored():
    assert check(on_demand_gpu_pool()) == []
    assert check(system_pool()) == []


def test_queued_pool_without_flex_start_flag_is_still_checked():
    pool = with_config(queued_gpu_pool(), flexStart=None, reservationAffinity=None)
    [message] = check(pool)
    assert "queued provisioning" in message and "NO_RESERVATION" in message


def test_missing_autoscaling_is_caught():
    [message] = check(without(queued_gpu_pool(), "autoscaling"))
    assert "no autoscaling" in message and "totalMaxNodeCount" in message


def test_minimum_above_zero_is_caught():
    [message] = check(queued_gpu_pool(autoscaling={"totalMinNodeCount": 1, "totalMaxNodeCount": 4, "locationPolicy": "ANY"}))
    assert "totalMinNodeCount is 1" in message and "set it to 0" in message
    [message] = check(flex_tpu_pool(autoscaling={"minNodeCount": 2, "maxNodeCount": 4}))
    assert "minNodeCount is 2" in message


def test_initial_nodes_are_caught():
    [message] = check(queued_gpu_pool(initialNodeCount=2))
    assert "initialNodeCount is 2" in message


def test_reservation_affinity_other_than_none_is_caught():
    pool = with_config(queued_gpu_pool(), reservationAffinity={"consumeReservationType": "ANY_RESERVATION"})
    [message] = check(pool)
    assert "'ANY_RESERVATION'" in message and "set it to NO_RESERVATION" in message


def test_missing_reservation_affinity_is_caught():
    [message] = check(with_config(flex_tpu_pool(), reservationAffinity=None))
    assert "is not set" in message and "NO_RESERVATION" in message


def test_auto_repair_on_is_advised_not_mandatory():
    # GKE accepts auto-repair on a flex-start pool (its single-host TPU flex-start guide leaves it on).
    pool = queued_gpu_pool(management={"autoRepair": True})
    assert check(pool) == []
    [message] = check_flex_start_recommended(pool, {})
    assert "autoRepair is true" in message and "autoRepair: false" in message
    assert "Advisory: GKE accepts auto-repair" in message


def test_auto_repair_left_to_the_default_is_only_advised():
    pool = without(flex_tpu_pool(), "management")
    assert check(pool) == []
    [message] = check_flex_start_recommended(pool, {})
    assert "GKE enables auto-repair" in message and "autoRepair: false" in message


def test_spot_flex_start_is_caught():
    [message] = check(with_config(queued_gpu_pool(), spot=True))
    assert "nodeConfig.spot is true" in message


def test_run_duration_over_seven_days_is_caught():
    [message] = check(with_config(flex_tpu_pool(), maxRunDuration="864000s"))
    assert "'864000s' (10 days)" in message and "'604800s'" in message


def test_run_duration_of_exactly_seven_days_passes():
    assert check(with_config(flex_tpu_pool(), maxRunDuration="604800s")) == []


def test_malformed_run_duration_is_caught():
    [message] = check(with_config(flex_tpu_pool(), maxRunDuration="7d"))
    assert "'7d' is not a duration" in message


def test_compact_placement_on_a3_high_flex_is_caught_and_allowed_on_a4():
    pool = with_config(queued_gpu_pool(queuedProvisioning=None, placementPolicy={"type": "COMPACT"}))
    [message] = check(pool)
    assert "a3-ultragpu-*, a4-*, h4d-*" in message
    a4 = with_config(pool, machineType="a4-highgpu-8g", guestAccelerators=[{"type": "nvidia-b200", "count": 8}])
    assert check(a4) == []


def test_compact_placement_on_queued_gpu_pool_is_caught():
    [message] = check(queued_gpu_pool(placementPolicy={"type": "COMPACT"}))
    assert "only for TPUs" in message


def test_unknown_values_are_not_judged():
    pool = queued_gpu_pool(autoscaling=UNKNOWN, management={"autoRepair": UNKNOWN}, initialNodeCount=UNKNOWN)
    pool = with_config(pool, reservationAffinity={"consumeReservationType": UNKNOWN}, maxRunDuration=UNKNOWN)
    assert check(pool) == []


def test_unknown_queued_flag_is_not_judged():
    pool = with_config(queued_gpu_pool(queuedProvisioning={"enabled": UNKNOWN}, initialNodeCount=3), flexStart=None)
    assert check(pool) == []


def test_location_policy_any_passes_and_balanced_is_advised():
    assert check_flex_start_recommended(queued_gpu_pool(), {}) == []
    pool = queued_gpu_pool(autoscaling={"totalMinNodeCount": 0, "totalMaxNodeCount": 4, "locationPolicy": "BALANCED"})
    [message] = check_flex_start_recommended(pool, {})
    assert "'BALANCED'" in message and "locationPolicy ANY" in message


def test_location_policy_is_irrelevant_in_one_zone():
    pool = flex_tpu_pool(autoscaling={"totalMaxNodeCount": 4})
    assert check_flex_start_recommended(pool, {}) == []


def _admission_check(controller: str):
    return kueue("AdmissionCheck", "dws-prov", {
        "controllerName": controller,
        "parameters": {"apiGroup": "kueue.x-k8s.io", "kind": "ProvisioningRequestConfig", "name": "dws-config"},
    })


def test_queued_pool_without_provisioning_admission_check_is_advised():
    [(urn, message)] = check_queued_admission_check([queued_gpu_pool(), system_pool()], {})
    assert urn.endswith("::h100-dws") and "kueue.x-k8s.io/provisioning-request" in message
    assert "queued-provisioning.gke.io" in message


def test_queued_pool_with_provisioning_admission_check_passes():
    stack = [queued_gpu_pool(), _admission_check("kueue.x-k8s.io/provisioning-request")]
    assert check_queued_admission_check(stack, {}) == []


def test_admission_check_of_another_controller_does_not_count():
    stack = [queued_gpu_pool(), _admission_check("example.com/other")]
    assert len(check_queued_admission_check(stack, {})) == 1


def test_stack_without_queued_pools_needs_no_admission_check():
    assert check_queued_admission_check([flex_tpu_pool(), on_demand_gpu_pool()], {}) == []


def test_machine_family_without_flex_start_is_caught():
    pool = with_config(flex_tpu_pool(placementPolicy={"type": "COMPACT", "tpuTopology": "2x2x2"}),
                       machineType="ct4p-hightpu-4t")
    [message] = check(pool)
    assert "ct4p-hightpu-4t is not offered with flex-start" in message
    a4x = with_config(queued_gpu_pool(), machineType="a4x-highgpu-4g", guestAccelerators=[{"type": "nvidia-gb200", "count": 4}])
    [message] = check(a4x)
    assert "a4x-highgpu-4g is not offered with queued" in message
