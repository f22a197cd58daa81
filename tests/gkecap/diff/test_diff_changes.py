"""gkecap.diff.changes: one Change per differing fact, each number in its pool's unit; findings new and resolved."""

from __future__ import annotations

import copy

from gkecap.components.model import derive
from gkecap.diff import capacity_snapshot, compare
from gkecap.diff.changes import Finding, Side
from testkit.report_fixtures import small_spec


def _sides(edit=None, **changes):
    base = capacity_snapshot(derive(small_spec()))
    head = capacity_snapshot(derive(small_spec(**changes))) if changes else copy.deepcopy(base)
    if edit:
        edit(head)
    return Side("base", base), Side("head", head)


def test_identical_plans_have_no_change():
    assert compare(*_sides()).empty


def test_a_quota_change_is_one_change_in_the_pools_unit():
    def raise_quota(head):
        head["teams"]["vision"]["quota"]["v6e-16"] = 24

    [change] = compare(*_sides(raise_quota)).changes
    assert (change.kind, change.name, change.field, change.before, change.after, change.unit) == (
        "team", "vision", "quota.v6e-16", 16, 24, "chips")


def test_a_new_quota_entry_changes_from_none():
    def add_quota(head):
        head["teams"]["speech"]["quota"]["v6e-16"] = 8

    [change] = compare(*_sides(add_quota)).changes
    assert (change.field, change.before, change.after) == ("quota.v6e-16", None, 8)


def test_a_borrowing_limit_change_is_reported_per_pool():
    def lend_less(head):
        head["teams"]["llm"]["lendingLimit"]["h100-dws"] = 2

    [change] = compare(*_sides(lend_less)).changes
    assert (change.field, change.before, change.after, change.unit) == ("lendingLimit.h100-dws", 4, 2, "GPUs")


def test_a_removed_team_is_one_removal():
    def remove(head):
        del head["teams"]["recsys"]

    [change] = compare(*_sides(remove)).changes
    assert (change.kind, change.name, change.change, change.before["quota"]) == ("team", "recsys", "removed", {"h100-dws": 2})


def test_a_moved_reservation_changes_its_window_and_not_its_pool():
    base, head = _sides(reservations=[{"name": "dec-run", "machineType": "a3-highgpu-8g", "count": 2,
                                       "zone": "us-east5-a", "start": "2026-12-14T00:00:00Z", "days": 14}])
    assert [(c.kind, c.field) for c in compare(base, head).changes] == [("reservation", "start"), ("reservation", "end")]


def test_a_cohort_limit_change_is_a_cohort_change():
    def limit(head):
        head["cohorts"]["research"]["borrowingLimit"] = {"h100-dws": 4}

    [change] = compare(*_sides(limit)).changes
    assert (change.kind, change.field, change.after) == ("cohort", "borrowingLimit.h100-dws", 4)


def test_findings_new_in_the_head_and_resolved_in_it():
    base, head = _sides()
    kept, gone, new = (Finding("advisory", "p", "NodePool a", m) for m in ("kept", "gone", "new"))
    base.findings, head.findings = [kept, gone], [new, kept]
    diff = compare(base, head)
    assert (diff.new_findings, diff.resolved_findings) == ([new], [gone])


def test_a_new_mandatory_finding_is_flagged():
    base, head = _sides()
    head.findings = [Finding("mandatory", "p", "", "m"), Finding("advisory", "q", "", "m")]
    assert [f.policy for f in compare(base, head).new_mandatory] == ["p"]
