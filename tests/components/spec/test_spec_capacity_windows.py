"""Quotas that hold on the capacity a pool really has (issue 11): whole VMs on flex-start and queued pools,
calendar pools on draft reservations. Warnings at the YAML path."""

from __future__ import annotations

from gkecap.components.spec import load_environment
from testkit.spec_data import NOW, prod


def whole_vm_warnings(env) -> list[str]:
    return [str(w) for w in load_environment(env, now=NOW).warnings if "whole" in str(w)]


def test_quotas_not_in_whole_vms_on_a_queued_pool_warn_per_team():
    # 4/2/2/8 GPUs on 8-GPU a3-highgpu-8g VMs: three quotas are fractions of a VM.
    warnings = whole_vm_warnings(prod())
    assert warnings[0] == (
        "teams[0].quota.h100-dws: team 'team-a' quota 4 nvidia.com/gpu on pool 'h100-dws' is not a whole number of "
        "VMs (8 each): capacity there is provisioned as whole VMs per workload, so each admitted workload may hold a "
        "whole VM; use a multiple of 8"
    )
    assert [w.split(":")[0] for w in warnings[:3]] == [f"teams[{i}].quota.h100-dws" for i in (0, 1, 2)]


def test_quotas_rounded_to_whole_vms_beyond_the_pool_warn_on_the_pool():
    # Rounded up: 1 + 1 + 1 + 1 = 4 VMs, but maxNodes is 2.
    assert whole_vm_warnings(prod())[-1] == (
        "nodePools[0]: quotas on pool 'h100-dws' rounded up to whole VMs need 4 VMs (team 'team-a' 1, team 'team-b' 1,"
        " team 'team-c' 1, team 'team-d' 1) but the pool builds at most 2 (16 nvidia.com/gpu): workloads admitted "
        "beyond that wait, exhaust their provisioning retries and are deactivated; give quotas in whole VMs within "
        "the pool"
    )


def test_whole_vm_quotas_within_the_pool_do_not_warn():
    env = prod()
    for team, quota in zip(env["teams"], (8, 0, 0, 8)):
        team["quota"]["h100-dws"] = quota
    assert whole_vm_warnings(env) == []


def test_fixed_capacity_is_not_judged_in_whole_vms():
    env = prod()
    env["teams"][0]["quota"]["l4-spot"] = 1  # spot pools scale per pending pod, not per workload
    assert not [w for w in whole_vm_warnings(env) if "l4-spot" in w]



def test_a_pool_consuming_a_draft_reservation_warns_at_its_reservation():
    # Calendar capacity exists only once submitted (issue 11 item 3); prod()'s dec-run is a draft.
    warnings = [str(w) for w in load_environment(prod(), now=NOW).warnings if "draft" in str(w)]
    assert warnings == [
        "nodePools[2].reservation: pool 'h100-dec' consumes reservation 'dec-run', which is a draft (submit: false): "
        "Compute Engine provides no capacity until it is submitted; set submit: true once reviewed"
    ]
    env = prod()
    env["reservations"][0]["submit"] = True
    assert not [w for w in load_environment(env, now=NOW).warnings if "draft" in str(w)]


def test_quotas_above_the_pool_as_written_are_left_to_the_overcommit_warning():
    env = prod()
    for team, quota in zip(env["teams"], (16, 8, 8, 8)):  # whole VMs, 40 GPUs on a 16-GPU pool
        team["quota"]["h100-dws"] = quota
    warnings = [str(w) for w in load_environment(env, now=NOW).warnings if "h100-dws" in str(w)]
    assert len(warnings) == 1 and "total 40 nvidia.com/gpu" in warnings[0]
