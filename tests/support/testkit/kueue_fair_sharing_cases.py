"""Kueue v0.19.2's fair-sharing share tests of the scheduler cache (pkg/cache/scheduler/fair_sharing_test.go),
transcribed for the simulator's quota tree:
https://github.com/kubernetes-sigs/kueue/blob/v0.19.2/pkg/cache/scheduler/fair_sharing_test.go

- `TestDominantResourceShare`: ClusterQueue `cq` (with the test's usage admitted to it), an optional `lending-cq`
  and cohorts; for every ClusterQueue and Cohort, the dominant resource share as `roundedWeightedShare` reports it
  (per mille of what the parent can lend, divided by the weight and rounded up; the largest integer when a zero
  weight borrows), its resource and whether it borrows, with the test's extra request (`flvResQ`) on every node.
- `TestIsBorrowingOn`: `cq` (cpu 2, gpu 5) and `lending-cq` (cpu 8, gpu 5) in one cohort; whether `cq` borrows,
  and whether it borrows on the requested flavor-resources.

Amounts are quantities as the Go tests' `NewAmount` values mean them (1_000 milli-cpu is "1").
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

from testkit.kueue_sim import CohortSpec, QueueSpec, cohort, cq

MAX_INT = sys.maxsize  # Go's math.MaxInt on 64-bit
GPU = "example.com/gpu"


@dataclass
class ShareCase:
    name: str
    queues: list[QueueSpec]
    usage: dict[tuple[str, str], str]  # (flavor, resource) -> quantity admitted to `cq`
    want: dict[str, tuple[int, str, bool]]  # node -> (rounded weighted share, dominant resource, borrowing)
    cohorts: list[CohortSpec] = field(default_factory=list)
    request: dict[tuple[str, str], str] = field(default_factory=dict)  # flvResQ
    test: str = "TestDominantResourceShare"

    @property
    def id(self) -> str:
        return f"{self.test}/{self.name}"


def _cq(name: str, quotas: dict, cohort_name: str | None = "test-cohort", weight: str = "1", flavor: str = "default"):
    return cq(name, cohort=cohort_name, groups=[{flavor: quotas}], weight=weight)


def _pair(cq_quotas: dict, lending_quotas: dict, cq_weight: str = "1", lending_weight: str = "1"):
    return [_cq("cq", cq_quotas, weight=cq_weight), _cq("lending-cq", lending_quotas, weight=lending_weight)]


NONE = (0, "", False)
QUIET = {"lending-cq": NONE, "test-cohort": NONE}
CPU_GPU = {"cpu": "2", GPU: "5"}
LENDING = {"cpu": "8", GPU: "5"}

SHARE_CASES = [
    ShareCase("no cohort", [cq("cq", groups=[{"default": {"cpu": "2000", GPU: "5"}}])],
              {("default", "cpu"): "1", ("default", GPU): "2"}, {"cq": NONE}),
    ShareCase("usage below nominal", _pair(CPU_GPU, LENDING),
              {("default", "cpu"): "1", ("default", GPU): "2"}, {"cq": NONE, **QUIET}),
    ShareCase("usage above nominal", _pair(CPU_GPU, LENDING),
              {("default", "cpu"): "3", ("default", GPU): "7"}, {"cq": (200, GPU, True), **QUIET}),
    ShareCase("usage slightly above nominal in a cohort with large quotas",
              _pair({GPU: "500"}, {GPU: "1000"}, lending_weight="300"),
              {("default", GPU): "501"}, {"cq": (1, GPU, True), **QUIET}),
    ShareCase("usage way above nominal in a cohort with large quotas and weights",
              _pair({GPU: "500"}, {GPU: "1000"}, cq_weight="300", lending_weight="300"),
              {("default", GPU): "800"}, {"cq": (1, GPU, True), **QUIET}),
    ShareCase("one resource above nominal", _pair(CPU_GPU, LENDING),
              {("default", "cpu"): "3", ("default", GPU): "3"}, {"cq": (100, "cpu", True), **QUIET}),
    ShareCase("usage with workload above nominal", _pair(CPU_GPU, LENDING),
              {("default", "cpu"): "1", ("default", GPU): "2"}, {"cq": (300, "cpu", True), **QUIET},
              request={("default", "cpu"): "4", ("default", GPU): "4"}),
    ShareCase("A resource with zero lendable",
              _pair({"cpu": "2", GPU: ("2", None, "0")}, {"cpu": "8", GPU: ("64", None, "0")}),
              {("default", "cpu"): "1", ("default", GPU): "1"}, {"cq": (300, "cpu", True), **QUIET},
              request={("default", "cpu"): "4", ("default", GPU): "4"}),
    ShareCase("multiple flavors",
              [cq("cq", cohort="test-cohort", groups=[{"on-demand": {"cpu": "20"}, "spot": {"cpu": "80"}}]),
               _cq("lending-cq", {"cpu": "100"})],
              {("on-demand", "cpu"): "15", ("spot", "cpu"): "5"}, {"cq": (25, "cpu", True), **QUIET},
              request={("on-demand", "cpu"): "10"}),
    ShareCase("above nominal with integer weight", _pair({GPU: "5"}, {GPU: "5"}, cq_weight="2"),
              {("default", GPU): "7"}, {"cq": (100, GPU, True), **QUIET}),
    ShareCase("above nominal with decimal weight", _pair({GPU: "5"}, {GPU: "5"}, cq_weight="0.5"),
              {("default", GPU): "7"}, {"cq": (400, GPU, True), **QUIET}),
    ShareCase("above nominal with zero weight", _pair({GPU: "5"}, {GPU: "10"}, cq_weight="0"),
              {("default", GPU): "7"}, {"cq": (MAX_INT, GPU, True), **QUIET}),
    ShareCase("cohort has resource share", [_cq("cq", {GPU: "5"}, cohort_name="child-cohort")],
              {("default", GPU): "10"},
              {"cq": (100, GPU, True), "child-cohort": (50, GPU, True), "root": NONE},
              cohorts=[cohort("child-cohort", "root", weight="2"), cohort("root", groups=[{"default": {GPU: "45"}}])]),
    ShareCase("resource share defined for resources only available at the root cohort",
              [_cq("cq", {GPU: "0"}, cohort_name="child-cohort")], {("default", GPU): "10"},
              {"cq": (200, GPU, True), "child-cohort": (100, GPU, True), "root": NONE},
              cohorts=[cohort("child-cohort", "root", weight="2"), cohort("root", groups=[{"default": {GPU: "50"}}])]),
    ShareCase("resource share affected by borrowing limit", [_cq("cq", {GPU: "0"}, cohort_name="child-cohort")],
              {("default", GPU): "10"},
              {"cq": (1000, GPU, True), "child-cohort": (200, GPU, True), "root": NONE},
              cohorts=[cohort("child-cohort", "root", groups=[{"default": {GPU: ("0", "10")}}]),
                       cohort("root", groups=[{"default": {GPU: "50"}}])]),
    ShareCase("borrowing against unlimited lendable capacity (exabyte-scale quota)",
              _pair({"cpu": "0"}, {"cpu": "1E"}), {("default", "cpu"): "1"}, {"cq": (1, "cpu", True), **QUIET}),
]

BORROWING_QUEUES = [_cq("cq", CPU_GPU, cohort_name="cohort"), _cq("lending-cq", LENDING, cohort_name="cohort")]
CPU = ("default", "cpu")
GPU_FR = ("default", GPU)

# name, usage of cq, requested flavor-resources (None: nil), want IsBorrowingOn(requested), want IsBorrowing
BORROWING_ON_CASES = [
    ("borrows on requested flavor", {CPU: "3"}, {CPU: "1"}, True, True),
    ("borrows on unrequested flavor only", {CPU: "1", GPU_FR: "7"}, {CPU: "1"}, False, True),
    ("borrows on both, requests one", {CPU: "3", GPU_FR: "7"}, {GPU_FR: "1"}, True, True),
    ("no borrowing", {CPU: "1", GPU_FR: "2"}, {CPU: "1"}, False, False),
    ("nil requestedFRs", {CPU: "3"}, None, False, True),
]
