"""The rows the report shows: pool sizes, team limits, violation problem and fix."""

from __future__ import annotations

from gkecap.report import facts


def test_multi_host_pool_is_sized_in_slices(model):
    assert facts.pool_size(model.pool("v6e-16")) == "2 slices of 4x4 (4 VMs each)"


def test_single_host_tpu_pool_is_sized_in_nodes():
    from gkecap.components.model import derive
    from testkit.report_fixtures import SMALL_ENVIRONMENT, small_spec

    pools = [{"name": "v6e-4", "machineType": "ct6e-standard-4t", "tpuTopology": "2x2", "capacity": "flex-start",
              "zones": ["us-east5-a"], "slices": 3}]
    spec = small_spec(nodePools=pools, reservations=[], teams=[{"name": "a", "quota": {"v6e-4": 12}}], cohorts=[])
    assert SMALL_ENVIRONMENT["nodePools"][0]["name"] == "h100-dws"  # the shared dict is untouched
    assert facts.pool_size(derive(spec).pool("v6e-4")) == "0..3 single-host 2x2 nodes"


def test_gpu_pool_is_sized_in_nodes(model):
    assert facts.pool_size(model.pool("h100-dws")) == "0..2 nodes"


def test_calendar_pool_shows_its_reservation_window(model):
    assert facts.reservation_window(model.pool("h100-cal")) == "dec-run: 2026-12-07 to 2026-12-21 (14 d, DRAFT)"


def test_totals_are_per_unit(model):
    # Calendar capacity exists only in its window: never added to the standing capacity (issue 11 item 3).
    windows = "GPUs in reservation windows"
    assert facts.accelerator_totals(model) == {"GPUs": 16, windows: 16, "chips": 32}
    assert facts.quota_totals(model) == {"GPUs": 16, windows: 16, "chips": 32}


def test_missing_limits_in_a_cohort_mean_no_limit(model):
    rows = {(r.team, r.pool): r for r in facts.team_rows(model)}
    assert rows[("vision", "h100-dws")].borrowing_limit == "8"
    assert rows[("vision", "h100-dws")].lending_limit == "no limit"
    assert rows[("llm", "h100-dws")].lending_limit == "4"


def test_cohort_share_keeps_a_half_percent():
    assert facts.percent(2 / 16) == "12.5%"
    assert facts.percent(0.25) == "25%"


def test_fix_is_the_clause_after_the_last_semicolon():
    problem, fix = facts.split_fix("pool x: maxNodes is 5; a 4x4 slice has 4 VMs: set it to 4.")
    assert problem == "pool x: maxNodes is 5"
    assert fix == "A 4x4 slice has 4 VMs: set it to 4."


def test_message_without_a_fix_clause_uses_the_remediation_steps():
    assert facts.split_fix("no admission check", "add one") == ("no admission check", "add one")


def test_violation_rows_put_mandatory_first_and_name_the_resource(result):
    rows = facts.violation_rows(list(reversed(result.violations)))
    assert [r.level for r in rows] == ["mandatory", "advisory"]
    assert (rows[0].resource, rows[0].resource_type) == ("h100-dws", "gcp:container/nodePool:NodePool")
    assert rows[1].resource == "(stack)"


def test_calendar_pool_is_sized_within_its_window_only(model):
    # Reservation capacity is time-bound, not standing capacity (issue 11 item 3).
    assert facts.pool_size(model.pool("h100-cal")) == "0..2 nodes, 2026-12-07 to 2026-12-21 only"


def test_mig_pool_capacity_is_in_gpu_units():
    from gkecap.components.model import derive
    from testkit.report_fixtures import small_spec

    pools = [{"name": "a100", "machineType": "a2-ultragpu-1g", "capacity": "on-demand", "zones": ["us-east5-a"],
              "maxNodes": 2, "gpuPartitionSize": "1g.10gb"}]
    spec = small_spec(nodePools=pools, reservations=[], teams=[{"name": "a", "quota": {"a100": 14}}], cohorts=[])
    (row,) = facts.pool_rows(derive(spec))
    assert (row.accelerators, row.unit) == (14, "GPU units")  # 2 nodes x 7 MIG partitions
