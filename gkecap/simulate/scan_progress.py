"""A pending workload's flavor-scan progress between scheduling cycles (Kueue's LastAssignment). Pure.

Kueue records, with each flavor assignment, where the scan of every pod set's resource group stopped
(`LastTriedFlavorIdx`: the flavor it stopped at, -1 when it went through the last one); the next nomination of the
same workload starts after that flavor (`NextFlavorToTryForPodSetResource`), unless the record is outdated. With
the FlavorFungibilityPreserveScanProgress gate (beta, on by default since v0.19) a record from the current or the
preceding cycle is never outdated for the same scheduling shape, and a workload skipped because an earlier entry of
the cycle took its quota or its targets keeps its record; so on a busy cohort a skipped workload resumes at its next
flavor instead of starting over, and preempting, on the first. Without the gate the record lasts only while the
queue's allocatable generation (advanced whenever one of its admitted workloads goes) stays the same.

kubernetes-sigs/kueue v0.19.2: pkg/scheduler/scheduler.go (lastAssignmentOutdated, markSkipped, recordAssignment,
markPreemptionOutcome), pkg/workload/workload.go (AssignmentClusterQueueState),
pkg/scheduler/flavorassigner/flavorassigner.go (findFlavorForPodSets), pkg/features/kube_features.go.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, eq=False)
class ScanProgress:
    """AssignmentClusterQueueState: where each pod set's scans stopped (resource -> flavor index, per pod set), the
    scheduling cycle and the queue's allocatable generation it was recorded at, and the workload's scheduling shape
    (None: unknown, as Kueue's SchedulingHashUnknown)."""

    tried: tuple[dict[str, int], ...]
    cycle: int
    generation: int
    shape: tuple | None = None

    def pending_flavors(self) -> bool:
        """PendingFlavors: some scan stopped before its group's last flavor."""
        return any(i != -1 for pod_set in self.tried for i in pod_set.values())


def outdated(last: ScanProgress, generation: int, cycle: int, shape: tuple | None, *, preserve: bool) -> bool:
    """lastAssignmentOutdated: whether the record no longer describes the state, so the scan starts over."""
    if preserve:
        if last.shape is not None and shape is not None and last.shape != shape:
            return True  # the recorded indices belong to other requests
        if cycle - last.cycle <= 1:
            return False  # on a busy cohort the generation moves every cycle: the progress would never be used
    return generation > last.generation
