"""The simulator's dominant resource shares are Kueue's: every case of TestDominantResourceShare and
TestIsBorrowingOn (v0.19.2, pkg/cache/scheduler/fair_sharing_test.go), the shares that order fair-sharing
admission and preemption."""

from __future__ import annotations

import math

import pytest
from testkit.kueue_fair_sharing_cases import (
    BORROWING_ON_CASES,
    BORROWING_QUEUES,
    MAX_INT,
    SHARE_CASES,
    ShareCase,
)
from testkit.kueue_sim import amount, build_cluster, wl

from gkecap.simulate.quota_tree import dominant_resource_share


def _admit(cluster, usage: dict) -> None:
    """The usage as one admitted workload per flavor-resource in `cq` (as the Go test admits it)."""
    for i, ((flavor, resource), quantity) in enumerate(usage.items()):
        cluster.add_workload(wl(f"workload-{i}", "cq", {resource: quantity}, flavors={resource: flavor}))


def _rounded(share) -> tuple[int, str, bool]:
    """Kueue's roundedWeightedShare and IsBorrowing."""
    value = MAX_INT if share.zero_weight_borrows() else int(math.ceil(share.weighted()))
    return value, share.dominant, share.borrowing


@pytest.mark.parametrize("case", SHARE_CASES, ids=lambda c: c.id)
def test_same_dominant_resource_share_as_kueue(case: ShareCase):
    cluster = build_cluster(case.queues, case.cohorts)
    _admit(cluster, case.usage)
    request = {fr: amount(fr[1], q) for fr, q in case.request.items()} or None
    nodes = {**cluster.queues, **cluster.cohorts}
    assert {name: _rounded(dominant_resource_share(node, request)) for name, node in nodes.items()} == case.want


@pytest.mark.parametrize(("name", "usage", "requested", "on_requested", "borrowing"), BORROWING_ON_CASES,
                         ids=[f"TestIsBorrowingOn/{c[0]}" for c in BORROWING_ON_CASES])
def test_same_borrowing_as_kueue(name, usage, requested, on_requested, borrowing):
    cluster = build_cluster(BORROWING_QUEUES)
    _admit(cluster, usage)
    share = dominant_resource_share(cluster.queues["cq"])
    requested = {fr: amount(fr[1], q) for fr, q in (requested or {}).items()}
    assert (share.borrowing_on(requested), share.borrowing) == (on_requested, borrowing)
