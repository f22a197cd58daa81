"""stacks/Pulumi.dev.yaml and Pulumi.prod.yaml load, derive, and hold what the issue asks of them.

Loaded with a fixed `now` (the calendar window rules depend on it): these tests check the files' content;
tests/stacks/test_stack_plans.py plans them end to end. The prod reservation is submitted, so the committed
file stays valid once its start has passed (gkecap.components.gke.calendar_window: a submitted request is not judged
on its start again; after its end the plan warns).
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from gkecap.components.gke.calendar_window import GPU_ADVANCE_DAYS
from gkecap.components.model import derive
from gkecap.components.spec import load_stack_file

STACKS = Path(__file__).resolve().parents[2] / "stacks"
# The day the environments were written; the prod reservation is valid from then until its start.
WRITTEN = datetime(2026, 11, 22, tzinfo=timezone.utc)


@pytest.fixture(scope="module")
def dev():
    spec = load_stack_file(STACKS / "Pulumi.dev.yaml", now=WRITTEN)
    return spec, derive(spec)


@pytest.fixture(scope="module")
def prod():
    spec = load_stack_file(STACKS / "Pulumi.prod.yaml", now=WRITTEN)
    return spec, derive(spec)


def test_dev_loads_without_warnings(dev):
    spec, _ = dev
    assert spec.warnings == []


def test_dev_has_one_flex_start_gpu_pool(dev):
    _, model = dev
    gpu = [p for p in model.pools if p.kind == "gpu"]
    assert [(p.capacity, p.machine_type) for p in gpu] == [("flex-start", "a3-highgpu-8g")]


def test_dev_has_one_single_host_v6e_flex_pool_where_v6e_flex_is_offered(dev):
    _, model = dev
    (tpu,) = [p for p in model.pools if p.kind == "tpu"]
    assert (tpu.family, tpu.capacity, tpu.multi_host) == ("v6e", "flex-start", False)
    # FACTS B.3: v6e flex-start in asia-northeast1-b, us-east5-a, us-east5-b.
    assert set(tpu.zones) <= {"us-east5-a", "us-east5-b"}


def test_dev_has_two_teams(dev):
    _, model = dev
    assert len(model.teams) == 2


def test_prod_loads_without_warnings(prod):
    spec, _ = prod
    assert spec.warnings == []


def test_prod_h100_pools_are_queued_provisioning(prod):
    _, model = prod
    queued = [p for p in model.pools if p.capacity == "queued"]
    assert len(queued) >= 1
    assert {p.accelerator_label for p in queued} == {"nvidia-h100-80gb"}


def test_prod_has_multi_host_v6e_slices(prod):
    _, model = prod
    (tpu,) = [p for p in model.pools if p.kind == "tpu"]
    assert tpu.multi_host and tpu.family == "v6e" and tpu.slices >= 2
    assert [n.autoscaling.total_max_node_count for n in tpu.node_pools] == [tpu.vms_per_slice] * tpu.slices


def test_prod_calendar_reservation_is_a_two_week_a3_run_consumed_by_a_pool(prod):
    _, model = prod
    (reservation,) = model.reservations
    assert reservation.machine_type.startswith("a3-") and reservation.days == 14
    (consumer,) = reservation.consumers
    assert model.pool(consumer).capacity == "calendar"


def test_prod_reservation_is_submitted(prod):
    _, model = prod
    assert [r.planning_status for r in model.reservations] == ["SUBMITTED"]


@pytest.mark.parametrize("when", ["2027-01-25", "2030-01-01"])
def test_prod_stays_valid_while_the_window_runs_and_after_it_ended(when):
    now = datetime.fromisoformat(when).replace(tzinfo=timezone.utc)
    spec = load_stack_file(STACKS / "Pulumi.prod.yaml", now=now)  # raises SpecError if not
    (reservation,) = derive(spec).reservations
    ended = now >= reservation.end
    assert [w for w in spec.warnings if "window ended" in w] == (spec.warnings if ended else [])
    assert bool(spec.warnings) == ended


def test_prod_reservation_start_was_inside_the_gpu_window_when_written(prod):
    _, model = prod
    (reservation,) = model.reservations
    assert WRITTEN < reservation.start <= WRITTEN + timedelta(days=GPU_ADVANCE_DAYS)


def test_prod_has_spot_l4_for_inference(prod):
    _, model = prod
    spot = [p for p in model.pools if p.capacity == "spot"]
    assert [(p.family, p.accelerator_label) for p in spot] == [("g2", "nvidia-l4")]


def test_prod_four_teams_split_16_h100_as_4_2_2_8_in_one_cohort(prod):
    _, model = prod
    totals = model.totals["h100-dws"]
    assert totals.capacity == 16
    assert sorted(totals.team_quotas.values()) == [2, 2, 4, 8]
    assert len(model.teams) == 4 and {t.cohort for t in model.teams} == {"research"}


def test_prod_teams_can_borrow_idle_gpus_and_reclaim_their_own(prod):
    _, model = prod
    for team in model.teams:
        assert team.borrowing_limits.get("h100-dws", 16) > 0
        assert team.preemption.reclaim_within_cohort == "Any"


def test_prod_uses_fair_sharing_and_priority_classes(prod):
    spec, model = prod
    assert spec.kueue.fair_sharing
    assert len({t.weight for t in model.teams}) > 1
    assert len(model.priority_classes) >= 3
