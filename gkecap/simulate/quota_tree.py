"""Kueue's quota tree: ClusterQueues and Cohorts as resource nodes with nominal quota, borrowing and lending
limits, and usage that flows up the tree. Pure; no Kubernetes, no Pulumi.

A transcription of Kueue v0.19's `pkg/cache/scheduler/resource_node.go` (localQuota, LocalAvailable,
available, potentialAvailable, addUsage/removeUsage, QuantitiesFitInQuota, IsWithinNominalInResources) and
`fair_sharing.go` (dominant resource share with weights):
https://github.com/kubernetes-sigs/kueue/tree/v0.19.2/pkg/cache/scheduler

Amounts are integers in Kueue's own units (`resources.ResourceValue`): milli-units for cpu, whole units for
everything else (GPUs, TPU chips, bytes of memory). A flavor-resource is the pair (flavor, resource).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterator

from gkecap.simulate.shortcuts import SHORTCUTS

FlavorResource = tuple[str, str]

DEFAULT_WEIGHT = 1.0


def resource_value(resource: str, value: Fraction | int | float) -> int:
    """Kueue's integer amount of a quantity: milli-units for cpu, whole units (rounded up) otherwise."""
    if resource == "cpu":
        return math.ceil(Fraction(value) * 1000)
    return math.ceil(Fraction(value))


@dataclass(frozen=True)
class ResourceQuota:
    nominal: int = 0
    borrowing_limit: int | None = None
    lending_limit: int | None = None


@dataclass(eq=False)
class QuotaNode:
    """A ClusterQueue or a Cohort: its own quotas, and what it holds with its subtree (`subtree_quota`) and
    uses (`usage`), both per flavor-resource."""

    name: str
    quotas: dict[FlavorResource, ResourceQuota] = field(default_factory=dict)
    weight: float = DEFAULT_WEIGHT
    parent: "Cohort | None" = None
    subtree_quota: dict[FlavorResource, int] = field(default_factory=dict)
    usage: dict[FlavorResource, int] = field(default_factory=dict)
    version: int = 0  # bumped whenever `usage` changes (caches the node's share)
    real_version: int = 0  # bumped when an admission or eviction changes `usage` (Cluster._lasting_change)
    # A cohort's children whose usage of a flavor-resource is above their subtree quota (not within_nominal):
    # kept up to date by add_usage and remove_usage, so that preemption's walks visit only those children.
    over_nominal: dict[FlavorResource, set["QuotaNode"]] = field(default_factory=dict)

    @property
    def has_parent(self) -> bool:
        return self.parent is not None

    def path_to_root(self) -> Iterator["Cohort"]:
        """Ancestors, parent first (Kueue's PathParentToRoot)."""
        node = self.parent
        while node is not None:
            yield node
            node = node.parent

    def root(self) -> "QuotaNode":
        node: QuotaNode = self
        while node.parent is not None:
            node = node.parent
        return node

    def quota(self, fr: FlavorResource) -> ResourceQuota:
        return self.quotas.get(fr, _NO_QUOTA)

    def local_quota(self, fr: FlavorResource) -> int:
        """What the node keeps for itself: its subtree quota above the lending limit (0 without a limit)."""
        lending = self.quota(fr).lending_limit
        if lending is None:
            return 0
        return max(0, self.subtree_quota.get(fr, 0) - lending)

    def borrowing_with(self, fr: FlavorResource, value: int) -> bool:
        """Whether using `value` more would take the node above what it holds (Kueue's BorrowingWith: a
        ClusterQueue compares with its nominal quota, a Cohort with its subtree quota)."""
        return self.nominal_for_borrowing(fr) < self.usage.get(fr, 0) + value

    def nominal_for_borrowing(self, fr: FlavorResource) -> int:
        return self.subtree_quota.get(fr, 0)

    def borrowing(self, fr: FlavorResource) -> bool:
        return self.borrowing_with(fr, 0)


_NO_QUOTA = ResourceQuota()


@dataclass(eq=False)
class Cohort(QuotaNode):
    child_cohorts: list["Cohort"] = field(default_factory=list)
    child_queues: list[QuotaNode] = field(default_factory=list)

    def subtree_queues(self) -> tuple[QuotaNode, ...]:
        """The queues of the subtree, depth first. The tree's shape is fixed once the Cluster is built (as
        `_lendable` assumes), so the tuple is computed once; the cache is keyed on the number of direct children
        to stay right while a tree is being assembled."""
        key = (len(self.child_queues), len(self.child_cohorts))
        cached = self.__dict__.get("_subtree_queues") if SHORTCUTS.memoised_facts else None
        if cached is not None and cached[0] == key:
            return cached[1]
        result = tuple(self.child_queues) + tuple(q for child in self.child_cohorts for q in child.subtree_queues())
        self.__dict__["_subtree_queues"] = (key, result)
        return result

    def height(self) -> int:
        """Kueue's getNodeHeight: 1 for a cohort with only queues, one more per level of child cohorts (memoised
        like subtree_queues: the tree's shape is fixed once the Cluster is built)."""
        key = (len(self.child_queues), len(self.child_cohorts))
        cached = self.__dict__.get("_height") if SHORTCUTS.memoised_facts else None
        if cached is not None and cached[0] == key:
            return cached[1]
        result = min(len(self.child_cohorts) + len(self.child_queues), 1)
        for child in self.child_cohorts:
            result = max(result, child.height() + 1)
        self.__dict__["_height"] = (key, result)
        return result


def local_available(node: QuotaNode, fr: FlavorResource) -> int:
    return max(0, node.local_quota(fr) - node.usage.get(fr, 0))


def available(node: QuotaNode, fr: FlavorResource) -> int:
    """What the node can still use now, from its own quota and, within limits, from its ancestors (may be
    negative when the cohort is in debt)."""
    if node.parent is None:
        return node.subtree_quota.get(fr, 0) - node.usage.get(fr, 0)
    parent_available = available(node.parent, fr)
    borrowing_limit = node.quota(fr).borrowing_limit
    if borrowing_limit is not None:
        local = node.local_quota(fr)
        stored_in_parent = node.subtree_quota.get(fr, 0) - local
        used_in_parent = max(0, node.usage.get(fr, 0) - local)
        parent_available = min(stored_in_parent - used_in_parent + borrowing_limit, parent_available)
    return local_available(node, fr) + parent_available


def potential_available(node: QuotaNode, fr: FlavorResource) -> int:
    """The most the node could ever use, with every other node idle. It depends on quotas, limits and the tree's
    shape only, fixed once the Cluster is built (as `_lendable` assumes), so it is memoised per node."""
    cache = node.__dict__.setdefault("_potential", {}) if SHORTCUTS.memoised_facts else {}
    result = cache.get(fr)
    if result is None:
        result = cache[fr] = _potential_available(node, fr)
    return result


def _potential_available(node: QuotaNode, fr: FlavorResource) -> int:
    if node.parent is None:
        return node.subtree_quota.get(fr, 0)
    result = node.local_quota(fr) + potential_available(node.parent, fr)
    borrowing_limit = node.quota(fr).borrowing_limit
    if borrowing_limit is not None:
        result = min(node.subtree_quota.get(fr, 0) + borrowing_limit, result)
    return result


def add_usage(node: QuotaNode, fr: FlavorResource, value: int) -> None:
    local = local_available(node, fr)
    old = node.usage.get(fr, 0)
    node.usage[fr] = old + value
    node.version += 1
    if node.parent is not None:
        _track_over_nominal(node, fr, old)
        if value > local:
            add_usage(node.parent, fr, value - local)


def _track_over_nominal(node: QuotaNode, fr: FlavorResource, old: int) -> None:
    """Keep the parent's `over_nominal` right after the node's usage of `fr` changed from `old`."""
    quota = node.subtree_quota.get(fr, 0)
    over = node.usage[fr] > quota
    if (old > quota) != over:
        children = node.parent.over_nominal.setdefault(fr, set())  # type: ignore[union-attr]
        if over:
            children.add(node)
        else:
            children.discard(node)


def usage_path(node: QuotaNode, usage: dict[FlavorResource, int]) -> list[tuple[QuotaNode, dict[FlavorResource, int]]]:
    """What adding `usage` to `node` would add to it and to each ancestor (add_usage, without changing anything)."""
    path = []
    current: QuotaNode | None = node
    pending = dict(usage)
    while current is not None and pending:
        path.append((current, pending))
        if current.parent is None:
            break
        pending = {fr: v - local_available(current, fr) for fr, v in pending.items() if v > local_available(current, fr)}
        current = current.parent
    return path


def remove_usage(node: QuotaNode, fr: FlavorResource, value: int) -> None:
    old = node.usage.get(fr, 0)
    stored_in_parent = old - node.local_quota(fr)
    node.usage[fr] = old - value
    node.version += 1
    if node.parent is None:
        return
    _track_over_nominal(node, fr, old)
    if stored_in_parent <= 0:
        return
    remove_usage(node.parent, fr, min(value, stored_in_parent))


def quantities_fit_in_quota(node: QuotaNode, requests: dict[FlavorResource, int]) -> tuple[bool, dict[FlavorResource, int]]:
    fits = True
    remaining = {}
    for fr, value in requests.items():
        if node.subtree_quota.get(fr, 0) < node.usage.get(fr, 0) + value:
            fits = False
        remaining[fr] = max(0, value - local_available(node, fr))
    return fits, remaining


def within_nominal(node: QuotaNode, frs: set[FlavorResource]) -> bool:
    quota, usage = node.subtree_quota, node.usage
    for fr in frs:  # a loop, not all(...): called for every queue of a tree in every preemption search
        if quota.get(fr, 0) < usage.get(fr, 0):
            return False
    return True


def compute_subtree(root: Cohort) -> None:
    """Subtree quotas of a cohort tree from the nominal quotas (Kueue's updateCohortResourceNode); usage is
    reset and must be added again."""
    root.subtree_quota = {fr: q.nominal for fr, q in root.quotas.items()}
    root.usage = {}
    root.version += 1
    for child in root.child_cohorts:
        compute_subtree(child)
        _accumulate(root, child)
    for queue in root.child_queues:
        queue.subtree_quota = {fr: q.nominal for fr, q in queue.quotas.items()}
        _accumulate(root, queue)
    root.over_nominal = {}
    children: tuple[QuotaNode, ...] = (*root.child_cohorts, *root.child_queues)
    for node in children:
        for fr, used in node.usage.items():
            if used > node.subtree_quota.get(fr, 0):
                root.over_nominal.setdefault(fr, set()).add(node)


def over_nominal_children(cohort: Cohort, frs: set[FlavorResource]) -> list[QuotaNode]:
    """The cohort's children not within_nominal on `frs`, in the cohort's order (child cohorts first), from its
    `over_nominal` index."""
    over = cohort.over_nominal
    if len(frs) == 1:
        above: set[QuotaNode] = over.get(next(iter(frs)), set())
    else:
        above = set().union(*(over.get(fr, ()) for fr in frs))
    if not above:
        return []
    key = (len(cohort.child_cohorts), len(cohort.child_queues))
    cached = cohort.__dict__.get("_child_rank")
    if cached is None or cached[0] != key:
        cached = cohort.__dict__["_child_rank"] = (
            key, {id(c): i for i, c in enumerate((*cohort.child_cohorts, *cohort.child_queues))})
    rank = cached[1]
    return sorted(above, key=lambda child: rank[id(child)])


def _accumulate(parent: Cohort, child: QuotaNode) -> None:
    parent.version += 1
    for fr, quota in child.subtree_quota.items():
        parent.subtree_quota[fr] = parent.subtree_quota.get(fr, 0) + quota - child.local_quota(fr)
    for fr, used in child.usage.items():
        parent.usage[fr] = parent.usage.get(fr, 0) + max(0, used - child.local_quota(fr))


# --- Fair sharing: dominant resource share (fair_sharing.go) ------------------------------------------------


@dataclass(frozen=True)
class Share:
    """Kueue's DRS: the dominant borrowed fraction (per mille of what the parent could lend) and the weight."""

    weight: float = DEFAULT_WEIGHT
    ratio: float = 0.0
    borrowing: bool = False
    borrowed: tuple[FlavorResource, ...] = ()
    dominant: str = field(default="", compare=False)  # the resource of the dominant share (Kueue's DRS name)

    def weighted(self) -> float:
        if self.ratio == 0:
            return 0.0
        if self.weight == 0:
            return math.inf
        return self.ratio / self.weight

    def zero_weight_borrows(self) -> bool:
        return self.weight == 0 and self.ratio != 0

    def borrowing_on(self, requested: dict[FlavorResource, int]) -> bool:
        return any(requested.get(fr, 0) > 0 for fr in self.borrowed)


NEGATIVE_SHARE = Share(ratio=-1.0)


def compare_shares(a: Share, b: Share) -> int:
    if a.zero_weight_borrows() and b.zero_weight_borrows():
        return (a.ratio > b.ratio) - (a.ratio < b.ratio)
    if a.zero_weight_borrows():
        return 1
    if b.zero_weight_borrows():
        return -1
    x, y = a.weighted(), b.weighted()
    return (x > y) - (x < y)


def share_order(share: Share) -> tuple:
    """A sort key that orders shares as compare_shares does: a zero-weight queue that borrows after every other,
    among them by ratio; the rest by weighted share (compare_shares(a, b) is the sign of comparing their keys)."""
    if share.zero_weight_borrows():
        return (1, share.ratio)
    return (0, share.weighted())


def dominant_resource_share(node: QuotaNode, request: dict[FlavorResource, int] | None = None) -> Share:
    if not SHORTCUTS.memoised_facts:
        return _dominant_resource_share(node, request or None)
    if not request:
        # The share is a function of the node's usage (quotas, weight and the parent's lendable amounts are fixed):
        # memoised on its version, and by the usage itself, which a what-if change (remove, then add back) restores
        # under a new version. The usage dict only gains keys, in a fixed order, so its values identify it.
        cached = node.__dict__.get("_share")
        if cached is not None and cached[0] == node.version:
            return cached[1]
        by_usage = node.__dict__.setdefault("_shares_by_usage", {})
        content = tuple(node.usage.values())
        share = by_usage.get(content)
        if share is None:
            if len(by_usage) >= 64:
                by_usage.clear()
            share = by_usage[content] = _dominant_resource_share(node, None)
        node.__dict__["_share"] = (node.version, share)
        return share
    # With a request (the tournament's "as if admitted" shares): memoised by the node's usage, as above, and the
    # request.
    by_request = node.__dict__.setdefault("_request_shares", {})
    key = (tuple(node.usage.values()), tuple(request.items()))
    share = by_request.get(key)
    if share is None:
        if len(by_request) >= 256:
            by_request.clear()
        share = by_request[key] = _dominant_resource_share(node, request)
    return share


def _dominant_resource_share(node: QuotaNode, request: dict[FlavorResource, int] | None) -> Share:
    if node.parent is None:
        return Share(weight=node.weight)
    borrowing: dict[str, int] = {}
    borrowed = []
    quotas = node.subtree_quota
    # Only flavor-resources in use (or requested) can be borrowed: Kueue walks every quota, the result is the same.
    keys = node.usage.keys() if not request else set(node.usage) | set(request)
    for fr in keys:
        if fr not in quotas:
            continue
        amount = (request.get(fr, 0) if request else 0) + node.usage.get(fr, 0) - quotas[fr]
        if amount > 0:
            borrowing[fr[1]] = borrowing.get(fr[1], 0) + amount
            borrowed.append(fr)
    if not borrowing:
        return Share(weight=node.weight)
    lendable = _lendable(node.parent)
    ratio, dominant = 0.0, ""
    for resource, amount in borrowing.items():
        lend = lendable.get(resource, 0)
        if lend > 0:
            value = amount * 1000.0 / lend
            if value > ratio or (value == ratio and resource < dominant):
                ratio, dominant = value, resource
    return Share(weight=node.weight, ratio=ratio, borrowing=True, borrowed=tuple(borrowed), dominant=dominant)


def _lendable(node: QuotaNode) -> dict[str, int]:
    """What the node could lend per resource (calculateLendable). It depends on quotas and limits only, which do
    not change during a simulation, so it is computed once per node."""
    cached = node.__dict__.get("_lendable") if SHORTCUTS.memoised_facts else None
    if cached is not None:
        return cached
    result: dict[str, int] = {}
    for fr in node.root().subtree_quota:
        result[fr[1]] = result.get(fr[1], 0) + potential_available(node, fr)
    node.__dict__["_lendable"] = result
    return result
