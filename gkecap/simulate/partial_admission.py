"""Partial admission: the largest pod counts, down to each pod set's minCount, that Kueue can admit. Pure.

Transcribed from Kueue v0.19.2 `pkg/scheduler/flavorassigner/podset_reducer.go` (PodSetReducer) and
`pkg/scheduler/scheduler.go` getInitialAssignments: when the whole workload neither fits nor finds preemption
targets, Kueue binary-searches (Go's sort.Search) an index i in [0, totalDelta] where every pod set gives up
delta x i / totalDelta pods (delta: count - minCount), and takes the last attempt that fit or found targets, if the
search ended on it. The PartialAdmission gate is beta and on since v0.5 (pkg/features/kube_features.go).
"""

from __future__ import annotations

from typing import Callable, Sequence, TypeVar

from gkecap.simulate.cluster import PodSet

R = TypeVar("R")


def counts_at(pod_sets: Sequence[PodSet], index: int, total_delta: int) -> list[int]:
    """fillPodSetSizesForSearchIndex: each pod set's count at search index `index` (0: all pods)."""
    return [ps.count - (ps.count - (ps.min_count if ps.min_count is not None else ps.count)) * index // total_delta
            for ps in pod_sets]


def search(pod_sets: Sequence[PodSet], fits: Callable[[list[int]], R | None]) -> R | None:
    """PodSetReducer.Search: the result of the largest counts `fits` accepts (it returns None to refuse), or None."""
    total_delta = sum(ps.count - (ps.min_count if ps.min_count is not None else ps.count) for ps in pod_sets)
    if total_delta == 0:
        return None
    last_good, last = 0, None
    low, high = 0, total_delta + 1  # sort.Search(totalDelta+1, ...)
    while low < high:
        middle = (low + high) // 2
        result = fits(counts_at(pod_sets, middle, total_delta))
        if result is not None:
            last_good, last = middle, result
            high = middle
        else:
            low = middle + 1
    return last if low == last_good else None
