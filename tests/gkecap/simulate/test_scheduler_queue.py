"""A ClusterQueue's pending workloads (`scheduler._Queue`) against Kueue's queueing rules,
pkg/cache/queue/cluster_queue.go @ v0.19.2."""

from __future__ import annotations

from testkit.kueue_sim import wl

from gkecap.simulate.cluster import BEST_EFFORT_FIFO
from gkecap.simulate.scheduler import _Queue


def test_a_sticky_preemptor_found_inadmissible_leaves_the_head():
    # Sticky only orders the heap (baseCompareFunc: the sticky workload first); requeueIfNotPresent moves a
    # preemptor found NoFit or without candidates to inadmissibleWorkloads like any other workload, so the next
    # one becomes the head until quota is freed.
    queue = _Queue(BEST_EFFORT_FIFO)
    preemptor, other = wl("preemptor", "q", {"gpu": "2"}, creation=1.0), wl("other", "q", {"gpu": "1"}, creation=2.0)
    queue.push(preemptor)
    queue.push(other)
    queue.sticky = preemptor
    assert queue.set_aside(preemptor)
    assert queue.head() is other


def test_a_sticky_preemptor_requeued_is_the_head_again():
    queue = _Queue(BEST_EFFORT_FIFO)
    other, preemptor = wl("other", "q", {"gpu": "1"}, priority=10), wl("preemptor", "q", {"gpu": "2"})
    queue.push(other)
    queue.push(preemptor)
    queue.sticky = preemptor
    queue.set_aside(preemptor)
    queue.requeue_inadmissible()
    assert queue.head() is preemptor


def test_an_arrival_of_a_shape_set_aside_waits_with_it_until_the_requeue():
    # PushOrUpdate: a workload whose scheduling hash was bulk-moved to inadmissible joins it there
    # (hashToBulkMoveReason, cleared only by queueInadmissibleWorkloads).
    queue = _Queue(BEST_EFFORT_FIFO)
    first, later = wl("first", "q", {"gpu": "8"}, creation=1.0), wl("later", "q", {"gpu": "8"}, creation=2.0)
    queue.push(first)
    queue.set_aside(first)
    queue.push(later)
    assert queue.head() is None
    queue.requeue_inadmissible()
    assert queue.head() is first


def test_an_arrival_of_another_shape_is_the_head():
    queue = _Queue(BEST_EFFORT_FIFO)
    first, other = wl("first", "q", {"gpu": "8"}, creation=1.0), wl("other", "q", {"gpu": "1"}, creation=2.0)
    queue.push(first)
    queue.set_aside(first)
    queue.push(other)
    assert queue.head() is other
