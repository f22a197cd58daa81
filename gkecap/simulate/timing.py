"""How long Kueue's and Kubernetes' own steps take between a preemption and the victim's return. Pure.

The defaults, each overridable under `delays:` in the workloads file:

- `termination` (30 s): a preempted workload's pods are deleted with graceful termination; they hold their nodes,
  and the workload its quota, until they are gone. 30 s is a pod's default `terminationGracePeriodSeconds`
  (Kubernetes API reference, PodSpec: "Defaults to 30 seconds"). Kueue clears the quota reservation of an
  evicted workload only once its job is no longer active (pkg/controller/jobframework/reconciler.go @ v0.19.2,
  "handle eviction": `if !job.IsActive() { ... UnsetQuotaReservationWithCondition }`); a pod group is active while a
  pod runs (pkg/controller/jobs/pod/pod_controller.go, `IsActive`; FastQuotaReleaseInPodIntegration, which releases
  at deletion, is alpha and off in v0.19, pkg/features/kube_features.go). A batch/v1 Job counts `status.active`, which
  leaves out pods already terminating: its quota returns sooner while its pods still hold their GPUs; set
  `termination` to what your workloads take to stop.
- `release` (1 s): a preempted workload without running pods (quota reserved, pods pending or not yet created)
  gives its quota back after the API round trips between Kueue's eviction and the cleared reservation (the Workload's
  Evicted condition, the job suspended, its pods deleted, the job's status, the reservation cleared: the
  reconciler above). No project documents this latency; 1 s is an estimate for a healthy control plane. Real
  clusters do flap this way: kueue#7101 ("preempted over 33 times (and counting)") and kueue#14543 (open: "infinite
  preemption loop" with both fair-sharing strategies).
- `requeue` (0 s): an evicted workload goes back to its queue when its quota is cleared; Kueue's back-off
  (requeueState) applies to waitForPodsReady evictions only (UpdateRequeueState, pkg/workload/workload.go @ v0.19.2,
  is called from the workload controller's PodsReady timeout alone).
- The scheduler's cycle is not a delay: Kueue runs cycles back to back and backs off 1 to 10 ms when one makes no
  progress (pkg/util/wait/backoff.go @ v0.19.2, initialBackoff and maxBackoff), so the simulator runs the cycles of
  an instant one after the other at that instant.

Not a delay of the eviction but of everything that waits for quota: when quota is released (a workload finishes or
is evicted), Kueue does not put the inadmissible workloads of the cohort tree back into their queues at once. It
notifies a delaying work queue, `AddAfter(root cohort, 1 s)`: one requeue of the tree 1 s after the first release,
every other release of that tree meanwhile folded into it (pkg/cache/queue/inadmissible_workloads.go @ v0.19.2,
requeueBatchPeriod; 10 s under the SchedulerLongRequeueInterval gate, alpha and off). A preemptor is not affected:
it waits in the heap, not among the inadmissible ones (RequeueReasonPendingPreemption is requeued immediately).
`INADMISSIBLE_REQUEUE_BATCH_SECONDS`, not overridable: it is Kueue's constant.

With `termination: 0s` and `release: 0s` an eviction takes no time: the victims rejoin their queues after the cycle that follows
their preemption (so the preemptor is first to see the quota they free), as the simulator did before delays.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

DEFAULT_TERMINATION_SECONDS = 30.0
DEFAULT_RELEASE_SECONDS = 1.0
DEFAULT_REQUEUE_SECONDS = 0.0
INADMISSIBLE_REQUEUE_BATCH_SECONDS = 1.0
# Cluster autoscaler FAQ (kubernetes/autoscaler cluster-autoscaler/FAQ.md, "How fast is HPA when combined with CA?"):
# "on GCE it usually takes 3 to 4 minutes from CA request to when pods can be scheduled on newly created nodes";
# "How fast is Cluster Autoscaler?": scale-down "10 minutes after a node becomes unneeded" (--scale-down-unneeded-time).
DEFAULT_PROVISIONING_SECONDS = 240.0
DEFAULT_SCALE_DOWN_SECONDS = 600.0
# Image pull and container start depend on the image: none by default, set `delays.podStart` in the workloads file.
DEFAULT_POD_START_SECONDS = 0.0


@dataclass(frozen=True)
class Delays:
    """Every delay the simulator applies (the workloads file's `delays:`): the nodes' (gkecap.simulate.nodes) and the
    evictions' (above)."""

    provisioning: float = DEFAULT_PROVISIONING_SECONDS
    scale_down: float = DEFAULT_SCALE_DOWN_SECONDS
    pod_start: float = DEFAULT_POD_START_SECONDS
    termination: float = DEFAULT_TERMINATION_SECONDS
    requeue: float = DEFAULT_REQUEUE_SECONDS
    release: float = DEFAULT_RELEASE_SECONDS

    def overridden(self, given: Any) -> "Delays":
        """These delays with each one `given` (the workloads file's `delays:` entry) sets, by field name."""
        return replace(self, **{f.name: value for f in fields(self) if (value := getattr(given, f.name, None)) is not None})


EvictionDelays = Delays  # the engine's name for the eviction part of the delays
