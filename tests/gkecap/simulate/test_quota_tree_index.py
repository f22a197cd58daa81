"""`QuotaNode.over_nominal`, the index of a cohort's children above their nominal quota that preemption walks
(`quota_tree.over_nominal_children`), stays what `within_nominal` says of every child, whatever usage comes and goes
(lending limits included: usage within a node's own quota does not reach its parent)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gkecap.simulate.cluster import Cluster, ClusterQueue, Flavor
from gkecap.simulate.quota_tree import Cohort, ResourceQuota, over_nominal_children, within_nominal

FRS = [("a", "gpu"), ("b", "gpu")]


def _cluster(quotas: list[tuple[int, int | None]]) -> Cluster:
    """Queues q0.. (nominal, lending limit) on both flavor-resources, under two departments of one root."""
    queues = [ClusterQueue(f"q{i}", quotas={fr: ResourceQuota(nominal, None, lending) for fr in FRS})
              for i, (nominal, lending) in enumerate(quotas)]
    cohorts = [Cohort("root"), Cohort("d0", quotas={FRS[0]: ResourceQuota(2)}), Cohort("d1")]
    return Cluster([Flavor("a"), Flavor("b")], queues, cohorts, cohort_parents={"d0": "root", "d1": "root"},
                   queue_cohorts={q.name: f"d{i % 2}" for i, q in enumerate(queues)})


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.one_of(st.none(), st.integers(0, 4))), min_size=2, max_size=5),
       st.lists(st.tuples(st.integers(0, 4), st.sampled_from(FRS), st.integers(1, 6)), max_size=25),
       st.data())
def test_the_index_is_the_set_of_children_above_nominal(quotas, additions, data):
    cluster = _cluster(quotas)
    added = []
    for index, fr, value in additions:
        queue = cluster.queues[f"q{index % len(quotas)}"]
        if added and data.draw(st.booleans()):  # take back something added earlier, as an eviction does
            queue, fr, value = added.pop(data.draw(st.integers(0, len(added) - 1)))
            cluster.remove_usage(queue, {fr: value})
        else:
            cluster.add_usage(queue, {fr: value})
            added.append((queue, fr, value))
        for cohort in cluster.cohorts.values():
            for frs in ({FRS[0]}, {FRS[1]}, set(FRS)):
                children = [*cohort.child_cohorts, *cohort.child_queues]
                assert over_nominal_children(cohort, frs) == [c for c in children if not within_nominal(c, frs)]
