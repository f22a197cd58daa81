"""What a user should do about each policy's finding, and where to read more: one entry per policy.

The adapter gives every policy its `remediation_steps` (shown by the Pulumi CLI, `gkecap policies` and in
SARIF `help`), its `url` (the policy's section of docs/policies.md, SARIF `helpUri`) and its category tag from
here, so a new rule without help fails `tests/policies/test_rule_help.py`. docs/policies.md is generated
from the pack's own answer (`gkecap policies --format markdown`) and checked to be current by that test.
"""

from __future__ import annotations

from dataclasses import dataclass

# Where the policies' documentation lives (the repository's docs/policies.md); one place to change for a fork.
PROJECT_URL = "https://github.com/acme/gke-capacity"
DOCS_URL = f"{PROJECT_URL}/blob/main/docs/policies.md"


@dataclass(frozen=True)
class RuleHelp:
    category: str  # one of CATEGORIES: a tag in the pack and in SARIF
    fix: str  # markdown: what to change so the finding goes away


CATEGORIES = ("runner", "node-pools", "tpu", "gpu", "dws", "reservations", "kueue", "teams", "quotas", "organisation", "vertex", "input")

HELP: dict[str, RuleHelp] = {
    # The two policies that run every rule (policies/rule_runner.py): findings carry the rule's own name.
    "gke-capacity-resource-rules": RuleHelp(
        "runner",
        "Nothing to fix here: this policy runs every resource rule of the pack and reports each finding under the "
        "rule's own name. Configure or disable rules by their own names in the policy config.",
    ),
    "gke-capacity-stack-rules": RuleHelp(
        "runner",
        "Nothing to fix here: this policy runs every stack rule of the pack and reports each finding under the "
        "rule's own name. Configure or disable rules by their own names in the policy config.",
    ),
    "tpu-slice-topology": RuleHelp(
        "tpu",
        "Give a multi-host TPU node pool `placementPolicy: {type: COMPACT, tpuTopology: <topology>}` (TPU7x: a "
        "workload policy), one zone, and autoscaling limits and node counts equal to the slice's VM count "
        "(`gkecap slice <machine type> <topology>` prints it). With gkecap's components, size TPU pools in `slices`.",
    ),
    "tpu-workload-policy": RuleHelp(
        "tpu",
        "Size each TPU7x node pool to the accelerator topology of the workload policy that places it, or point it "
        "at a workload policy whose topology matches the pool.",
    ),
    "compact-placement-zone": RuleHelp(
        "node-pools",
        "Give a node pool with COMPACT placement exactly one zone (`nodeLocations` / `zones: [<zone>]`), or remove "
        "compact placement to spread it over zones.",
    ),
    "node-pool-field-ranges": RuleHelp(
        "node-pools",
        "Keep node counts, autoscaling limits, disk sizes and local SSD counts within the GKE API's 32-bit "
        "fields (at most 2,147,483,647).",
    ),
    "gpu-accelerator": RuleHelp(
        "gpu",
        "Use the accelerator type and count that the machine type comes with (`gkecap catalog` lists them), a MIG "
        "`gpuPartitionSize` that exists for that GPU, and complete time-sharing or MPS settings "
        "(`maxSharedClientsPerGpu` of at least 2).",
    ),
    "flex-start-settings": RuleHelp(
        "dws",
        "On a flex-start or queued-provisioning pool: use a machine family that offers it, autoscale from 0 with no "
        "initial nodes, set reservation affinity `NO_RESERVATION`, do not combine it with spot, keep "
        "`maxRunDuration` at most 7 days, and use compact placement only where GKE supports it.",
    ),
    "flex-start-recommended": RuleHelp(
        "dws",
        "Turn auto-repair off on flex-start and queued-provisioning pools, and use location policy `ANY` when the "
        "pool spans zones, as Google's flex-start guides do.",
    ),
    "queued-provisioning-admission-check": RuleHelp(
        "dws",
        "Add a Kueue AdmissionCheck with controller `kueue.x-k8s.io/provisioning-request` and a "
        "ProvisioningRequestConfig of class `queued-provisioning.gke.io`, and name it in the ClusterQueues that use "
        "the queued pool's flavor (gkecap's `capacity: queued` does this). Ignore if another stack declares it.",
    ),
    "calendar-reservation-window": RuleHelp(
        "reservations",
        "Move the reservation's window: it must start in the future, at most 60 days ahead for GPUs (120 for "
        "TPUs), and last 1 to 90 days, with 1 to 80 GPU VMs or a calendar TPU chip count.",
    ),
    "calendar-reservation-ended": RuleHelp(
        "reservations",
        "Remove the ended reservation and the node pools that consume it from the stack: Compute Engine deleted "
        "it at its end time.",
    ),
    "submitted-reservation-protected": RuleHelp(
        "reservations",
        "A submitted calendar reservation cannot be cancelled: give it the `protect` or `retainOnDelete` resource "
        "option, or `deletionPolicy: PREVENT` or `ABANDON` (gkecap's `submit: true` does this).",
    ),
    "reservation-affinity-match": RuleHelp(
        "reservations",
        "Make the node pool's `reservationAffinity` name the reservation exactly, and use the reservation's machine "
        "type and zone, with no more nodes than it holds VMs.",
    ),
    "reservation-affinity-reference": RuleHelp(
        "reservations",
        "Check that the specific reservation the node pool names exists in its project and zone and matches the "
        "pool's machine type; declare it in this stack to have it checked here.",
    ),
    "calendar-draft-consumed": RuleHelp(
        "reservations",
        "Submit the reservation (`submit: true`, after checking its window and size) or remove the pools that "
        "consume it: a draft holds no capacity.",
    ),
    "kueue-object-valid": RuleHelp(
        "kueue",
        "Fix the field the message names: Kueue's API server would reject the object (its OpenAPI schema, CEL "
        "rules or webhook).",
    ),
    "multikueue-dispatch": RuleHelp(
        "kueue",
        "Give a ClusterQueue either the MultiKueue admission check or a ProvisioningRequest one, not both (Kueue "
        "marks such a queue inactive), and create every LocalQueue of the manager on each worker cluster that the "
        "MultiKueueConfig lists (gkecap's `workers:` does both). Enable on each worker the Kueue integrations the "
        "manager dispatches, and run Kueue v0.15.0 or later on a manager with topology-aware flavors.",
    ),
    "kueue-references": RuleHelp(
        "kueue",
        "Declare the ResourceFlavor, ClusterQueue, AdmissionCheck, ProvisioningRequestConfig or Topology the object "
        "names, or fix the name. Ignore if another stack declares it.",
    ),
    "team-isolation": RuleHelp(
        "teams",
        "Give each team's ClusterQueue a `namespaceSelector` that matches only the team's namespaces (for example "
        "`kubernetes.io/metadata.name In [<namespace>]`), or list a deliberately shared queue in the "
        "`sharedQueues` config.",
    ),
    "team-isolation-single-queue": RuleHelp(
        "teams",
        "Before adding a second team, give the ClusterQueue a `namespaceSelector` that matches only its team's "
        "namespaces, or list it in `sharedQueues` if it is meant for everyone.",
    ),
    "cluster-queue-namespace-selector": RuleHelp(
        "kueue",
        "Set `namespaceSelector` on the ClusterQueue: without it no namespace's workloads are admitted.",
    ),
    "local-queue-namespace-admitted": RuleHelp(
        "kueue",
        "Change the ClusterQueue's `namespaceSelector` to match the LocalQueue's namespace, or point the LocalQueue "
        "at the ClusterQueue meant for that namespace.",
    ),
    "team-quota-bypass": RuleHelp(
        "teams",
        "Keep accelerator work in the team's quota: let Kueue manage jobs without a queue name in the namespace "
        "(`manageJobsWithoutQueueName` with a `managedJobsNamespaceSelector` that selects it), or bind a "
        "ValidatingAdmissionPolicy that denies accelerator requests without `kueue.x-k8s.io/queue-name` there "
        "(gkecap's environments do both).",
    ),
    "team-quota-layers": RuleHelp(
        "teams",
        "Add the missing layer in the team namespace: Kueue's management of jobs without a queue name, or the "
        "admission policy that requires the queue label; either alone leaves one kind of mistake uncaught.",
    ),
    "cluster-queue-reachable": RuleHelp(
        "teams",
        "Narrow the ClusterQueue's `namespaceSelector` to the team's own namespaces, so no other team's LocalQueue "
        "or labelled namespace can submit to it.",
    ),
    "team-priority-allowance": RuleHelp(
        "teams",
        "Restrict the namespace's admission policy to the priority classes the team is allowed (`teams[i].priorities`), "
        "or raise the team's allowance in the `priorityAllowance` policy config if it is meant to preempt others.",
    ),
    "quota-capacity": RuleHelp(
        "quotas",
        "Lower the nominal quotas of the flavor's ClusterQueues and Cohorts to what its reservation, calendar, spot "
        "or on-demand node pools can hold, or add capacity to those pools.",
    ),
    "quota-capacity-dws": RuleHelp(
        "quotas",
        "Lower the nominal quotas on the flex-start or queued flavor, or raise the pools' `maxNodes`/`slices`: "
        "Kueue would admit work the pools cannot grow to hold.",
    ),
    "quota-whole-vms": RuleHelp(
        "quotas",
        "Give quotas on flex-start and queued flavors in multiples of a VM's accelerators, and no more VMs, "
        "rounded up, than the pools can build: each workload gets whole VMs of its own.",
    ),
    "team-accelerator-limit": RuleHelp(
        "organisation",
        "Lower the team's nominal quota to the organisation's limit, or raise `maxAcceleratorsPerTeam` (or the "
        "team's entry in `teamAcceleratorLimits`) in the policy config if the limit is meant to change.",
    ),
    "allow-lists": RuleHelp(
        "organisation",
        "Use a machine type and region from the organisation's allow-lists, or add them to `allowedMachineTypes` / "
        "`allowedRegions` in the policy config.",
    ),
    "vertex-flex-start": RuleHelp(
        "vertex",
        "Use a GPU machine that Dynamic Workload Scheduler serves for FLEX_START, the same machine configuration in "
        "every worker pool, a timeout of at most 7 days, and quota preferences naming a region and a whole number "
        "of GPUs.",
    ),
    "vertex-quota-preference": RuleHelp(
        "vertex",
        "Raise the preemptible Vertex training GPU quota preference of the region and GPU to replicas x GPUs x "
        "concurrent jobs of the FLEX_START profiles, or lower their concurrency.",
    ),
}

# The two rules gkecap itself reports about its input (SARIF only; not policies of the pack).
INPUT_HELP: dict[str, tuple[str, str]] = {
    "invalid-input": (
        "The environment, program or stack file is invalid, so nothing is planned (exit 2).",
        "Fix the field the message names; `gkecap plan` lists every problem of the file at once, each with what "
        "is allowed.",
    ),
    "input-warning": (
        "A finding about the input that does not stop the plan.",
        "Read the message: it names the field and why the value may not do what you expect (for example a "
        "draft reservation, or a quota that is not whole VMs).",
    ),
}


def url_of(policy: str) -> str:
    """The policy's section of docs/policies.md (GitHub's anchor of a `## <name>` heading is the name)."""
    return f"{DOCS_URL}#{policy}"
