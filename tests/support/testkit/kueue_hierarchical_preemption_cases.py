"""Kueue v0.19.2 TestHierarchicalPreemptions cases (pkg/scheduler/preemption/preemption_hierarchical_test.go),
transcribed for the simulator: cohort trees (a cohort's own quota, `parent`), ClusterQueues, admitted workloads,
the incoming workload with its flavor assignment (every case: cpu, and memory where requested, on flavor
`default` in mode Preempt) and the workloads Kueue preempts with the reason recorded in their Preempted condition:
https://github.com/kubernetes-sigs/kueue/blob/v0.19.2/pkg/scheduler/preemption/preemption_hierarchical_test.go

A ClusterQueue written in Go with `MakeFlavorQuotas("default")` and no resources has no quota of its own: it is
spelled here with a zero nominal quota, which is the same for every quota computation. Usage is the quota each
admitted workload's admission assigns (the Go tests' `Assignment(...)` amounts).
"""

from testkit.kueue_sim import PreemptionCase, cohort, cq, wl

TEST = "TestHierarchicalPreemptions"
CPU = [{"cpu": ("default", "Preempt")}]
CPU_MEMORY = [{"cpu": ("default", "Preempt"), "memory": ("default", "Preempt")}]
ZERO = [{"default": {"cpu": "0"}}]


def _q(name: str, parent: str, groups=None, reclaim: str = "Any", borrow: bool = False):
    """The tests' ClusterQueues: withinClusterQueue LowerPriority, reclaimWithinCohort `reclaim`, and with
    `borrow` borrowWithinCohort LowerPriority with maxPriorityThreshold 0."""
    return cq(name, cohort=parent, groups=ZERO if groups is None else groups, within="LowerPriority", reclaim=reclaim,
              borrow="LowerPriority" if borrow else "Never", threshold=0 if borrow else None)


def _c(name: str, parent: str | None = None, cpu: str | None = None, memory: str | None = None):
    resources = {k: v for k, v in (("cpu", cpu), ("memory", memory)) if v is not None}
    return cohort(name, parent, [{"default": resources}] if resources else [])


def _a(name: str, queue: str, cpu: str, priority: int, memory: str | None = None, evicted: bool = False):
    requests = {"cpu": cpu, **({"memory": memory} if memory else {})}
    return wl(name, queue, requests, priority=priority, flavors={r: "default" for r in requests}, evicted=evicted)


R_C2 = [_c("r"), _c("c", "r", cpu="2")]

HIERARCHICAL_PREEMPTION_CASES = [
    PreemptionCase(
        TEST, "preempt with hierarchical advantage",
        queues=[_q("q", "c"), _q("q_borrowing", "r")], cohorts=R_C2,
        admitted=[_a("admitted2", "q_borrowing", "2", 0)],
        incoming=wl("in", requests={"cpu": "2"}), target="q", assignment=CPU,
        want={"admitted2": "InCohortReclamation"},
    ),
    PreemptionCase(
        TEST, "avoid queues within nominal quota",
        queues=[_q("q_nominal", "r", [{"default": {"cpu": "2"}}]), _q("q", "c"), _q("q_borrowing", "r")],
        cohorts=R_C2,
        admitted=[_a("admitted1", "q_nominal", "2", -10), _a("admitted2", "q_borrowing", "2", 0)],
        incoming=wl("in", requests={"cpu": "2"}), target="q", assignment=CPU,
        want={"admitted2": "InCohortReclamation"},
    ),
    PreemptionCase(
        TEST, "preempt multiple with hierarchical advantage",
        queues=[_q("q", "c"), _q("q_borrowing", "r")], cohorts=R_C2,
        admitted=[_a("admitted1", "q_borrowing", "1", 1), _a("admitted2", "q_borrowing", "1", 2)],
        incoming=wl("in", requests={"cpu": "2"}), target="q", assignment=CPU,
        want={"admitted1": "InCohortReclamation", "admitted2": "InCohortReclamation"},
    ),
    PreemptionCase(
        TEST, "preempt in cohort and own CQ",
        queues=[_q("q", "c", borrow=True), _q("q_same_cohort", "c")], cohorts=[_c("r"), _c("c", "r", cpu="3")],
        admitted=[_a("admitted_not_preemptible", "q_same_cohort", "1", 1),
                  _a("admitted_preemptible", "q_same_cohort", "2", 0),
                  _a("admitted_own_queue", "q", "1", -1)],
        incoming=wl("in", requests={"cpu": "2"}, priority=1), target="q", assignment=CPU,
        want={"admitted_own_queue": "InClusterQueue", "admitted_preemptible": "InCohortReclaimWhileBorrowing"},
    ),
    PreemptionCase(
        TEST, "prefer to preempt hierarchical candidate",
        queues=[_q("q", "c"), _q("q_borrowing", "r")], cohorts=R_C2,
        admitted=[_a("admitted_borrowing", "q_borrowing", "1", 1), _a("admitted_same_queue", "q", "1", -2)],
        incoming=wl("in", requests={"cpu": "1"}), target="q", assignment=CPU,
        want={"admitted_borrowing": "InCohortReclamation"},
    ),
    PreemptionCase(
        TEST, "forced to preempt priority candidate",
        queues=[_q("q", "c", borrow=True), _q("q_nominal", "r", [{"default": {"cpu": "2"}}]),
                _q("q_same_cohort", "c")],
        cohorts=R_C2,
        admitted=[_a("admitted_nominal", "q_nominal", "2", -10), _a("admitted_same_cohort", "q_same_cohort", "2", -1)],
        incoming=wl("in", requests={"cpu": "2"}), target="q", assignment=CPU,
        want={"admitted_same_cohort": "InCohortReclaimWhileBorrowing"},
    ),
    PreemptionCase(
        TEST, "incoming workload fits in CQ nominal quota",
        queues=[_q("q", "c", [{"default": {"cpu": "4"}}]), _q("q_borrowing", "r"), _q("q_same_cohort", "c")],
        cohorts=R_C2,
        admitted=[_a("admitted_borrowing", "q_borrowing", "3", 10), _a("admitted_same_cohort", "q_same_cohort", "3", 10)],
        incoming=wl("in", requests={"cpu": "4"}), target="q", assignment=CPU,
        want={"admitted_borrowing": "InCohortReclamation", "admitted_same_cohort": "InCohortReclamation"},
    ),
    PreemptionCase(
        TEST, "preempt hierarchical and priority candidates",
        queues=[_q("q", "c", reclaim="LowerPriority", borrow=True), _q("q_borrowing", "r"), _q("q_same_cohort", "c")],
        cohorts=[_c("r", cpu="1"), _c("c", "r", cpu="4")],
        admitted=[_a("admitted_borrowing", "q_borrowing", "2", -1),
                  _a("admitted_same_cohort_preemptible", "q_same_cohort", "1", -1),
                  _a("admitted_borrowing_not_preemptible", "q_borrowing", "2", 1)],
        incoming=wl("in", requests={"cpu": "3"}), target="q", assignment=CPU,
        want={"admitted_borrowing": "InCohortReclamation",
              "admitted_same_cohort_preemptible": "InCohortReclaimWhileBorrowing"},
    ),
    PreemptionCase(
        TEST, "preempt hierarchical candidates and inside CQ",
        queues=[_q("q", "c", reclaim="LowerPriority", borrow=True), _q("q_borrowing", "r"), _q("q_same_cohort", "c")],
        cohorts=[_c("r", cpu="1"), _c("c", "r", cpu="4")],
        admitted=[_a("admitted_borrowing", "q_borrowing", "2", -1),
                  _a("admitted_same_queue_preemptible", "q", "1", -1),
                  _a("admitted_borrowing_not_preemptible", "q_borrowing", "2", 1)],
        incoming=wl("in", requests={"cpu": "3"}), target="q", assignment=CPU,
        want={"admitted_borrowing": "InCohortReclamation", "admitted_same_queue_preemptible": "InClusterQueue"},
    ),
    PreemptionCase(
        TEST, "reclaim nominal quota from lowest priority workload, excluding non-borrowing",
        queues=[_q("q", "c"), _q("q_borrowing", "r"), _q("q_nominal", "r", [{"default": {"cpu": "2"}}])],
        cohorts=[_c("r"), _c("c", "r", cpu="3")],
        admitted=[_a("admitted_borrowing_prio_8", "q_borrowing", "1", 8),
                  _a("admitted_borrowing_prio_9", "q_borrowing", "1", 9),
                  _a("admitted_borrowing_prio_10", "q_borrowing", "1", 9),
                  _a("admitted_nominal", "q_nominal", "2", -2)],
        incoming=wl("in", requests={"cpu": "1"}), target="q", assignment=CPU,
        want={"admitted_borrowing_prio_8": "InCohortReclamation"},
    ),
    PreemptionCase(
        TEST, "infeasible preemption all available workloads in pruned subtrees",
        queues=[_q("q_other", "c_other"), _q("q", "c"), _q("q_same_cohort", "c")],
        cohorts=[_c("r"), _c("c", "r", cpu="2"), _c("c_other", "r", cpu="2")],
        admitted=[_a("admitted_other_1", "q_other", "1", -10), _a("admitted_other_2", "q_other", "1", -10),
                  _a("admitted_same_cohort", "q_same_cohort", "2", 0)],
        incoming=wl("in", requests={"cpu": "2"}), target="q", assignment=CPU,
        want={},
    ),
    PreemptionCase(
        TEST, "hiearchical preemption with multiple resources",
        queues=[_q("q", "c", [{"default": {"cpu": "0", "memory": "0"}}]),
                _q("q_borrowing", "r", [{"default": {"cpu": "0", "memory": "0"}}]),
                _q("q_same_cohort", "c", [{"default": {"cpu": "0", "memory": "0"}}])],
        cohorts=[_c("r", cpu="3"), _c("c", "r", cpu="4", memory="4Gi")],
        admitted=[_a("admitted_borrowing", "q_borrowing", "3", 0, memory="1Gi"),
                  _a("admitted_same_cohort", "q_same_cohort", "1", -2, memory="3Gi")],
        incoming=wl("in", requests={"cpu": "2", "memory": "1Gi"}, priority=-2), target="q", assignment=CPU_MEMORY,
        want={"admitted_borrowing": "InCohortReclamation"},
    ),
    PreemptionCase(
        TEST, "prefer to preempt evicted workloads",
        queues=[_q("q", "c", borrow=True), _q("q_borrowing", "r"), _q("q_same_cohort", "c")], cohorts=R_C2,
        admitted=[_a("admitted_borrowing", "q_borrowing", "1", -10),
                  _a("evicted_same_cohort", "q_same_cohort", "1", -1, evicted=True)],
        incoming=wl("in", requests={"cpu": "1"}), target="q", assignment=CPU,
        # Kueue counts the eviction already under way as this preemption and records no new reason.
        want={"evicted_same_cohort": None},
    ),
    PreemptionCase(
        TEST, "respect lending limits",
        queues=[_q("q", "c", [{"default": {"cpu": ("3", None, "2")}}]), _q("q_borrowing", "r")], cohorts=R_C2,
        admitted=[_a("admitted_borrowing", "q_borrowing", "4", 0)],
        incoming=wl("in", requests={"cpu": "5"}, priority=-2), target="q", assignment=CPU,
        want={"admitted_borrowing": "InCohortReclamation"},
    ),
    PreemptionCase(
        TEST, "reclaim in complex hierarchy",
        queues=[_q(name, parent, []) for name, parent in
                (("q1", "c12"), ("q2", "c23"), ("q3", "c22"), ("q4", "c32"), ("q5", "c31"))],
        cohorts=[_c("r"), _c("c11", "r", cpu="4"), _c("c12", "r", cpu="4"), _c("c21", "c11", cpu="4"),
                 _c("c22", "c11", cpu="4"), _c("c23", "c11", cpu="4"), _c("c31", "c21", cpu="4"),
                 _c("c32", "c21", cpu="4")],
        admitted=[_a("admitted_borrowing_1", "q1", "4", -6), _a("admitted_borrowing_2", "q1", "4", -5),
                  _a("admitted_borrowing_3", "q2", "4", -9), _a("admitted_borrowing_4", "q2", "4", -10),
                  _a("admitted_borrowing_5", "q3", "4", -4), _a("admitted_borrowing_6", "q3", "3", -3),
                  _a("admitted_borrowing_7", "q4", "2", 4), _a("admitted_borrowing_8", "q4", "3", 2)],
        incoming=wl("in", requests={"cpu": "7"}, priority=-2), target="q5", assignment=CPU,
        want={"admitted_borrowing_1": "InCohortReclamation", "admitted_borrowing_4": "InCohortReclamation"},
    ),
]
