"""Kueue v0.19.2 TestSchedule cases (pkg/scheduler/scheduler_test.go), transcribed for the simulator: one
scheduling cycle over the test's ClusterQueues, with its admitted and pending workloads; the cases name what is
admitted (with the flavor of each pod set's resources) and what is left pending. Workloads are named
`namespace/name` as the Go test keys them; the LocalQueue `main` of namespace N points to ClusterQueue N, and
`lend-b-queue` to lend-b:
https://github.com/kubernetes-sigs/kueue/blob/v0.19.2/pkg/scheduler/scheduler_test.go
"""

from testkit.kueue_sim import ScheduleCase, cohort, cq, wl

SCHEDULE_QUEUES = [  # TestSchedule's clusterQueues (namespace selectors left out: every namespace matches)
    cq("sales", groups=[{"default": {"cpu": ("50", "0")}}], strategy="StrictFIFO"),
    cq("eng-alpha", cohort="eng", groups=[{"on-demand": {"cpu": ("50", "50")}, "spot": {"cpu": ("100", "0")}}],
       strategy="StrictFIFO"),
    cq("eng-beta", cohort="eng", groups=[{"on-demand": {"cpu": ("50", "10")}, "spot": {"cpu": ("0", "100")}},
                                         {"model-a": {"example.com/gpu": ("20", "0")}}],
       within="LowerPriority", reclaim="Any", strategy="StrictFIFO"),
    cq("lend-a", cohort="lend", groups=[{"default": {"cpu": ("3", None, "2")}}]),
    cq("lend-b", cohort="lend", groups=[{"default": {"cpu": ("2", None, "2")}}]),
]

SCHEDULE_CASES = [
    ScheduleCase(
        "TestSchedule", "admit in different cohorts", SCHEDULE_QUEUES,
        admitted=[],
        pending=[wl("sales/new", "sales", pod_sets=[("one", 1, {"cpu": "1"})]),
                 wl("eng-alpha/new", "eng-alpha", pod_sets=[("one", 51, {"cpu": "1"})])],
        want_admitted={"sales/new": {"cpu": "default"}, "eng-alpha/new": {"cpu": "on-demand"}},
    ),
    ScheduleCase(
        "TestSchedule", "admit in same cohort with no borrowing", SCHEDULE_QUEUES,
        admitted=[],
        pending=[wl("eng-alpha/new", "eng-alpha", pod_sets=[("one", 40, {"cpu": "1"})]),
                 wl("eng-beta/new", "eng-beta", pod_sets=[("one", 40, {"cpu": "1"})])],
        want_admitted={"eng-alpha/new": {"cpu": "on-demand"}, "eng-beta/new": {"cpu": "on-demand"}},
    ),
    ScheduleCase(
        "TestSchedule", "single clusterQueue full", SCHEDULE_QUEUES,
        admitted=[wl("sales/assigned", "sales", pod_sets=[("one", 40, {"cpu": "1"})], flavors={"cpu": "default"})],
        pending=[wl("sales/new", "sales", pod_sets=[("one", 11, {"cpu": "1"})])],
        want_admitted={"sales/assigned": {"cpu": "default"}},
    ),
    ScheduleCase(
        "TestSchedule", "assign multiple resources and flavors", SCHEDULE_QUEUES,
        admitted=[],
        pending=[wl("eng-beta/new", "eng-beta", pod_sets=[("one", 10, {"cpu": "6", "example.com/gpu": "1"}),
                                                          ("two", 40, {"cpu": "1"})])],
        want_admitted={"eng-beta/new": [{"cpu": "on-demand", "example.com/gpu": "model-a"}, {"cpu": "spot"}]},
    ),
    ScheduleCase(
        "TestSchedule", "cannot borrow if cohort was assigned and would result in overadmission", SCHEDULE_QUEUES,
        admitted=[],
        pending=[wl("eng-alpha/new", "eng-alpha", pod_sets=[("one", 45, {"cpu": "1"})]),
                 wl("eng-beta/new", "eng-beta", pod_sets=[("one", 56, {"cpu": "1"})])],
        want_admitted={"eng-alpha/new": {"cpu": "on-demand"}},
    ),
    ScheduleCase(
        "TestSchedule", "can borrow if cohort was assigned and will not result in overadmission", SCHEDULE_QUEUES,
        admitted=[],
        pending=[wl("eng-alpha/new", "eng-alpha", pod_sets=[("one", 45, {"cpu": "1"})]),
                 wl("eng-beta/new", "eng-beta", pod_sets=[("one", 55, {"cpu": "1"})])],
        want_admitted={"eng-alpha/new": {"cpu": "on-demand"}, "eng-beta/new": {"cpu": "on-demand"}},
    ),
    ScheduleCase(
        "TestSchedule", "workload exceeds lending limit when borrow in cohort", SCHEDULE_QUEUES,
        admitted=[wl("lend/a", "lend-b", {"cpu": "2"}, flavors={"cpu": "default"})],
        pending=[wl("lend/b", "lend-b", {"cpu": "3"})],
        want_admitted={"lend/a": {"cpu": "default"}},
    ),
    ScheduleCase(
        "TestSchedule", "not enough resources to borrow, fallback to next flavor; WhenCanPreempt: TryNextFlavor",
        SCHEDULE_QUEUES,
        admitted=[wl("eng-beta/existing", "eng-beta", pod_sets=[("one", 45, {"cpu": "1"})],
                     flavors={"cpu": "on-demand"})],
        pending=[wl("eng-alpha/new", "eng-alpha", pod_sets=[("one", 60, {"cpu": "1"})])],
        want_admitted={"eng-alpha/new": {"cpu": "spot"}, "eng-beta/existing": {"cpu": "on-demand"}},
    ),
    # Flavor fungibility (whenCanBorrow, whenCanPreempt, preference) and preemption across flavors.
    ScheduleCase(
        "TestSchedule", "use second flavor when the first has no preemption candidates; WhenCanPreempt: MayStopSearch",
        SCHEDULE_QUEUES + [cq("other-alpha", groups=[{"on-demand": {"cpu": ("50", "50")}, "spot": {"cpu": ("100", "0")}}],
                              within="LowerPriority", when_can_preempt="MayStopSearch")],
        admitted=[wl("eng-alpha/admitted", "other-alpha", {"cpu": "50"}, flavors={"cpu": "on-demand"})],
        pending=[wl("eng-alpha/new", "other-alpha", {"cpu": "20"})],
        want_admitted={"eng-alpha/admitted": {"cpu": "on-demand"}, "eng-alpha/new": {"cpu": "spot"}},
    ),
    ScheduleCase(
        "TestSchedule", "can borrow if needs reclaim from cohort in different flavor", SCHEDULE_QUEUES,
        admitted=[wl("eng-beta/user-on-demand", "eng-beta", {"cpu": "50"}, flavors={"cpu": "on-demand"}),
                  wl("eng-beta/user-spot", "eng-beta", {"cpu": "1"}, flavors={"cpu": "spot"})],
        pending=[wl("eng-alpha/can-reclaim", "eng-alpha", {"cpu": "100"}),
                 wl("eng-beta/needs-to-borrow", "eng-beta", {"cpu": "1"})],
        want_admitted={"eng-beta/user-on-demand": {"cpu": "on-demand"}, "eng-beta/user-spot": {"cpu": "spot"},
                       "eng-beta/needs-to-borrow": {"cpu": "on-demand"}},
    ),
    ScheduleCase(
        "TestSchedule", "prefer first preemption flavor when second flavor requires both reclaim and cq priority "
        "preemption",
        SCHEDULE_QUEUES + [
            cq("other-alpha", cohort="other", groups=[{"on-demand": {"gpu": "10"}, "spot": {"gpu": "10"}}],
               within="LowerPriority", reclaim="LowerPriority"),
            cq("other-beta", cohort="other", groups=[{"on-demand": {"gpu": "0"}, "spot": {"gpu": "0"}}])],
        admitted=[wl("eng-alpha/a1", "other-alpha", {"gpu": "5"}, priority=50, flavors={"gpu": "on-demand"}),
                  wl("eng-alpha/a2", "other-alpha", {"gpu": "5"}, priority=50, flavors={"gpu": "spot"}),
                  wl("eng-beta/b1", "other-beta", {"gpu": "5"}, priority=50, flavors={"gpu": "spot"})],
        pending=[wl("eng-alpha/preemptor", "other-alpha", {"gpu": "6"}, priority=100)],
        want_admitted={"eng-alpha/a1": {"gpu": "on-demand"}, "eng-alpha/a2": {"gpu": "spot"},
                       "eng-beta/b1": {"gpu": "spot"}},
        want_preempted={"eng-alpha/a1"},
    ),
    ScheduleCase(
        "TestSchedule", "prefer first preemption flavor when second flavor also requires cq preemption",
        SCHEDULE_QUEUES + [
            cq("other-alpha", cohort="other", groups=[{"on-demand": {"gpu": "10"}, "spot": {"gpu": "10"}}],
               within="LowerPriority", reclaim="LowerPriority"),
            cq("other-beta", cohort="other", groups=[{"on-demand": {"gpu": "0"}, "spot": {"gpu": "0"}}])],
        admitted=[wl("eng-alpha/a1", "other-alpha", {"gpu": "6"}, priority=50, flavors={"gpu": "on-demand"}),
                  wl("eng-alpha/a2", "other-alpha", {"gpu": "5"}, priority=50, flavors={"gpu": "spot"}),
                  wl("eng-beta/b1", "other-beta", {"gpu": "5"}, priority=9001, flavors={"gpu": "spot"})],
        pending=[wl("eng-alpha/preemptor", "other-alpha", {"gpu": "5"}, priority=100)],
        want_admitted={"eng-alpha/a1": {"gpu": "on-demand"}, "eng-alpha/a2": {"gpu": "spot"},
                       "eng-beta/b1": {"gpu": "spot"}},
        want_preempted={"eng-alpha/a1"},
    ),
    ScheduleCase(
        "TestSchedule", "don't assign flavor if there are no candidates for preemption",
        SCHEDULE_QUEUES + [
            cq("cq1", cohort="cohort", groups=[{"on-demand": {"cpu": ("0", "1")}, "spot": {"cpu": ("0", "1")}}],
               within="LowerPriority", reclaim="Any", borrow="LowerPriority", when_can_preempt="MayStopSearch",
               when_can_borrow="MayStopSearch"),
            cq("cq2", cohort="cohort", groups=[{"on-demand": {"cpu": "1"}, "spot": {"cpu": "1"}}])],
        admitted=[wl("eng-alpha/admitted", "cq2", {"cpu": "1"}, flavors={"cpu": "on-demand"}, reserved=-1.0)],
        pending=[wl("eng-alpha/new", "cq1", {"cpu": "1"}, priority=100)],
        want_admitted={"eng-alpha/admitted": {"cpu": "on-demand"}, "eng-alpha/new": {"cpu": "spot"}},
    ),
    ScheduleCase(
        "TestSchedule", "admit to second flavor when first needs preemption; WhenCanPreempt: TryNextFlavor",
        SCHEDULE_QUEUES + [cq("preempt-attempts-cq", groups=[{"on-demand": {"cpu": "1"}, "spot": {"cpu": "1"}}],
                              within="LowerPriority", when_can_preempt="TryNextFlavor")],
        admitted=[wl("eng-alpha/blocker", "preempt-attempts-cq", {"cpu": "1"}, priority=50,
                     flavors={"cpu": "on-demand"})],
        pending=[wl("eng-alpha/test-wl", "preempt-attempts-cq", {"cpu": "1"}, priority=100)],
        want_admitted={"eng-alpha/blocker": {"cpu": "on-demand"}, "eng-alpha/test-wl": {"cpu": "spot"}},
    ),
    ScheduleCase(
        "TestSchedule", "PreemptionOverBorrowing preference: preempt in first flavor instead of borrowing in second",
        SCHEDULE_QUEUES + [
            cq("pob-cq", cohort="pob-cohort", groups=[{"on-demand": {"cpu": ("5", "0")}, "spot": {"cpu": ("0", "5")}}],
               within="LowerPriority", when_can_borrow="TryNextFlavor", when_can_preempt="TryNextFlavor",
               preference="PreemptionOverBorrowing"),
            cq("pob-lender", cohort="pob-cohort", groups=[{"on-demand": {"cpu": "0"}, "spot": {"cpu": "5"}}])],
        admitted=[wl("default/low-pob", "pob-cq", {"cpu": "5"}, priority=-1, flavors={"cpu": "on-demand"})],
        pending=[wl("default/high-pob", "pob-cq", {"cpu": "5"}, priority=0)],
        want_admitted={"default/low-pob": {"cpu": "on-demand"}},
        want_preempted={"default/low-pob"},
    ),
    ScheduleCase(
        "TestSchedule", "PreemptionOverBorrowing preference: select fitting second flavor over first flavor with no "
        "preemption candidates",
        SCHEDULE_QUEUES + [
            cq("nopc-cq", cohort="nopc-mid", groups=[{"on-demand": {"cpu": ("5", "0")}, "spot": {"cpu": "0"}}],
               within="LowerPriority", when_can_borrow="TryNextFlavor", when_can_preempt="TryNextFlavor",
               preference="PreemptionOverBorrowing"),
            cq("nopc-sibling", cohort="nopc-mid", groups=[{"on-demand": {"cpu": "5"}, "spot": {"cpu": "0"}}])],
        cohorts=[cohort("nopc-root", groups=[{"on-demand": {"cpu": "0"}, "spot": {"cpu": "5"}}]),
                 cohort("nopc-mid", "nopc-root")],
        admitted=[wl("default/admitted-nopc", "nopc-cq", {"cpu": "5"}, flavors={"cpu": "on-demand"})],
        pending=[wl("default/pending-nopc", "nopc-cq", {"cpu": "5"})],
        want_admitted={"default/admitted-nopc": {"cpu": "on-demand"}, "default/pending-nopc": {"cpu": "spot"}},
    ),
    ScheduleCase(
        "TestSchedule", "BorrowingOverPreemption preference: borrow in second flavor instead of preempting in first",
        SCHEDULE_QUEUES + [
            cq("bop-cq", cohort="bop-cohort", groups=[{"on-demand": {"cpu": ("5", "0")}, "spot": {"cpu": ("0", "5")}}],
               within="LowerPriority", when_can_borrow="TryNextFlavor", when_can_preempt="TryNextFlavor",
               preference="BorrowingOverPreemption"),
            cq("bop-lender", cohort="bop-cohort", groups=[{"on-demand": {"cpu": "0"}, "spot": {"cpu": "5"}}])],
        admitted=[wl("default/low-bop", "bop-cq", {"cpu": "5"}, priority=-1, flavors={"cpu": "on-demand"})],
        pending=[wl("default/high-bop", "bop-cq", {"cpu": "5"}, priority=0)],
        want_admitted={"default/low-bop": {"cpu": "on-demand"}, "default/high-bop": {"cpu": "spot"}},
    ),
]
