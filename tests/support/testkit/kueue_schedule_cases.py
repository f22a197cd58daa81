"""Kueue v0.19.2 TestSchedule cases (pkg/scheduler/scheduler_test.go), transcribed for the simulator: one
scheduling cycle over the test's ClusterQueues, with its admitted and pending workloads; the cases name what is
admitted (with the flavor of each pod set's resources) and what is left pending. Workloads are named
`namespace/name` as the Go test keys them; the LocalQueue `main` of namespace N points to ClusterQueue N, and
`lend-b-queue` to lend-b:
https://github.com/kubernetes-sigs/kueue/blob/v0.19.2/pkg/scheduler/scheduler_test.go
"""

from testkit.kueue_sim import ScheduleCase, cq, wl

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
]
