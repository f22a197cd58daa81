"""Every policy the gke-capacity pack serves, in the order the engine runs them.

Add a rule here with `resource_policy(...)` or `stack_policy(...)` from `gkecap.policies.adapter`; the rule
itself is a pure function in `gkecap.policies.rules` (see the adapter's docstring).

Default levels (issue 5): mandatory where GCP or Kueue would reject the resource, where the settings would
waste or strand capacity, or where teams would see each other's queues; advisory where the answer may
depend on another stack. Every level can be overridden per policy in the pack's config, as Pulumi does
(`{"<policy>": {"enforcementLevel": "advisory"}}`, or `"all"`).
"""

from __future__ import annotations

from pulumi_policy import Policy

from gkecap.policies.adapter import resource_policy, stack_policy
from gkecap.policies.rules.allow_lists import ALLOW_LIST_SCHEMA, check_allow_lists
from gkecap.policies.rules.dws import (
    check_flex_start_recommended,
    check_flex_start_settings,
    check_queued_admission_check,
)
from gkecap.policies.rules.gpu_pools import check_gpu_accelerator
from gkecap.policies.rules.kueue_objects import check_kueue_object_valid, check_kueue_references
from gkecap.policies.rules.kueue_props import is_kueue_token
from gkecap.policies.rules.multikueue import check_multikueue_dispatch, is_multikueue_token
from gkecap.policies.rules.node_pool_props import NODE_POOL_TYPES
from gkecap.policies.rules.quota_capacity import (
    TEAM_LIMIT_SCHEMA,
    check_quota_capacity,
    check_quota_capacity_dws,
    check_team_accelerator_limit,
    check_whole_vm_quotas,
)
from gkecap.policies.rules.reservations import (
    CLOCK_SCHEMA,
    FUTURE_RESERVATION_TYPE,
    PROTECTION_SCHEMA,
    RESERVATION_TYPES,
    check_calendar_reservation_ended,
    check_calendar_reservation_window,
    check_draft_reservation_consumed,
    check_reservation_affinity_match,
    check_reservation_affinity_reference,
    check_submitted_reservation_protected,
)
from gkecap.policies.rules.team_isolation import (
    SHARED_QUEUES_SCHEMA,
    check_namespace_selector_present,
    check_single_open_queue,
    check_team_isolation,
)
from gkecap.policies.rules.node_pool_ranges import check_node_pool_ranges
from gkecap.policies.rules.placement import check_compact_placement_zone
from gkecap.policies.rules.quota_enforcement import (
    PRIORITY_ALLOWANCE_SCHEMA,
    check_cluster_queue_reachable,
    check_enforcement_layers,
    check_priority_allowance,
    check_quota_bypass,
    is_enforcement_token,
)
from gkecap.policies.rules.local_queues import check_local_queue_admitted, is_namespace_token
from gkecap.policies.rules.vertex import VERTEX_TYPES, check_vertex_flex_start, check_vertex_quota_covers
from gkecap.policies.rules.tpu_slices import RESOURCE_POLICY_TYPE, check_tpu_slice_topology, check_tpu_workload_policies

_POOLS_AND_KUEUE = lambda token: token in NODE_POOL_TYPES or is_kueue_token(token)  # noqa: E731

ALL_POLICIES: list[Policy] = []

# --- policy-rules: node pools, reservations, Kueue objects, quotas, allow-lists (policies/rules/) ----------
ALL_POLICIES += [
    resource_policy(
        "tpu-slice-topology",
        "TPU node pools: the topology is valid for the machine type; a multi-host slice has COMPACT placement with "
        "tpuTopology (TPU7x: a workload policy), lives in one zone, and its autoscaling maximum and node counts "
        "equal the slice's VM count (or 0).",
        check_tpu_slice_topology,
        types=NODE_POOL_TYPES,
        enforcement_level="mandatory",
        remediation_steps="Set placementPolicy {type: COMPACT, tpuTopology} and size the pool to the slice's VMs.",
    ),
    stack_policy(
        "tpu-workload-policy",
        "TPU7x node pools placed by a workload policy of this stack are sized to that policy's accelerator topology.",
        check_tpu_workload_policies,
        types=lambda token: token in NODE_POOL_TYPES or token == RESOURCE_POLICY_TYPE,
        enforcement_level="mandatory",
    ),
    resource_policy(
        "node-pool-field-ranges",
        "Node pool counts and sizes (node counts, autoscaling limits, disk size, local SSDs) fit the GKE API's "
        "32-bit fields.",
        check_node_pool_ranges,
        types=NODE_POOL_TYPES,
        enforcement_level="mandatory",
    ),
    resource_policy(
        "gpu-accelerator",
        "GPU node pools: accelerator type and count match the machine type, the MIG partition size exists for "
        "that GPU, and time-sharing/MPS settings are complete and sane.",
        check_gpu_accelerator,
        types=NODE_POOL_TYPES,
        enforcement_level="mandatory",
    ),
    resource_policy(
        "compact-placement-zone",
        "GPU and CPU node pools with COMPACT placement live in one zone (a compact placement policy places VMs "
        "close together within a zone; GKE refuses it across zones).",
        check_compact_placement_zone,
        types=NODE_POOL_TYPES,
        enforcement_level="mandatory",
    ),
    resource_policy(
        "flex-start-settings",
        "Flex-start and queued-provisioning node pools: a machine family that offers it, autoscaling from zero, no "
        "initial nodes, NO_RESERVATION, not spot, maxRunDuration at most 7 days, compact placement only where "
        "supported (what GKE rejects otherwise).",
        check_flex_start_settings,
        types=NODE_POOL_TYPES,
        enforcement_level="mandatory",
    ),
    resource_policy(
        "flex-start-recommended",
        "Flex-start and queued-provisioning node pools: auto-repair off, and location policy ANY when the pool spans "
        "zones (as Google's guides set them; GKE accepts the pool either way, so advisory).",
        check_flex_start_recommended,
        types=NODE_POOL_TYPES,
        enforcement_level="advisory",
    ),
    stack_policy(
        "multikueue-dispatch",
        "A MultiKueue manager's ClusterQueues dispatch only through MultiKueue (no ProvisioningRequest check beside "
        "it, no topology-aware flavor before Kueue v0.15), and every worker cluster of the stack has the manager's "
        "LocalQueues and the job integrations it dispatches.",
        check_multikueue_dispatch,
        types=is_multikueue_token,
        enforcement_level="mandatory",
    ),
    stack_policy(
        "queued-provisioning-admission-check",
        "A queued-provisioning node pool needs a Kueue ProvisioningRequest admission check (it may live in "
        "another stack).",
        check_queued_admission_check,
        types=_POOLS_AND_KUEUE,
        enforcement_level="advisory",
    ),
    resource_policy(
        "calendar-reservation-window",
        "Calendar-mode future reservations: 1-90 days, starting in the future and within the advance window "
        "(GPU 60 days, TPU 120; a SUBMITTED one whose window began is not judged on its start), 1-80 GPU VMs or a "
        "calendar TPU chip count, valid workload type and sharing.",
        check_calendar_reservation_window,
        types=[FUTURE_RESERVATION_TYPE],
        enforcement_level="mandatory",
        config=CLOCK_SCHEMA,
    ),
    resource_policy(
        "calendar-reservation-ended",
        "A submitted calendar-mode reservation whose window has ended: Compute Engine deleted it at its end time, "
        "so the pools consuming it get nothing; remove it and its pools from the stack.",
        check_calendar_reservation_ended,
        types=[FUTURE_RESERVATION_TYPE],
        enforcement_level="advisory",
        config=CLOCK_SCHEMA,
    ),
    resource_policy(
        "submitted-reservation-protected",
        "A SUBMITTED future reservation cannot be cancelled, so it must be protected from deletion "
        "(protect or retainOnDelete option, or deletionPolicy PREVENT/ABANDON).",
        check_submitted_reservation_protected,
        types=[FUTURE_RESERVATION_TYPE],
        enforcement_level="mandatory",
        config=PROTECTION_SCHEMA,
    ),
    stack_policy(
        "reservation-affinity-match",
        "A node pool consuming a specific reservation of this stack names it correctly and matches its machine "
        "type, zone and VM count.",
        check_reservation_affinity_match,
        types=lambda token: token in NODE_POOL_TYPES or token in RESERVATION_TYPES,
        enforcement_level="mandatory",
    ),
    stack_policy(
        "reservation-affinity-reference",
        "A node pool consumes a specific reservation that is not in this stack (check it exists and matches).",
        check_reservation_affinity_reference,
        types=lambda token: token in NODE_POOL_TYPES or token in RESERVATION_TYPES,
        enforcement_level="advisory",
    ),
    stack_policy(
        "calendar-draft-consumed",
        "A node pool consumes a future reservation of this stack that is still a draft: it gets no capacity "
        "until the reservation is submitted.",
        check_draft_reservation_consumed,
        types=lambda token: token in NODE_POOL_TYPES or token in RESERVATION_TYPES,
        enforcement_level="advisory",
    ),
    resource_policy(
        "kueue-object-valid",
        "Kueue objects (kueue.x-k8s.io v1beta1/v1beta2) pass the schema, CEL and webhook rules Kueue's API "
        "server enforces.",
        check_kueue_object_valid,
        types=is_kueue_token,
        enforcement_level="mandatory",
    ),
    stack_policy(
        "kueue-references",
        "Flavors, ClusterQueues, admission checks, ProvisioningRequestConfigs and topologies a Kueue object names "
        "exist in the stack (they may live in another stack).",
        check_kueue_references,
        types=is_kueue_token,
        enforcement_level="advisory",
    ),
    stack_policy(
        "team-isolation",
        "A ClusterQueue with namespaceSelector {} admits every namespace; where it shares a cohort or sits beside "
        "other teams' queues, only allow-listed shared queues may.",
        check_team_isolation,
        types=is_kueue_token,
        enforcement_level="mandatory",
        config=SHARED_QUEUES_SCHEMA,
    ),
    stack_policy(
        "team-isolation-single-queue",
        "The stack's only ClusterQueue admits every namespace (one queue for everyone): fine for one team, "
        "a leak once a second team is added.",
        check_single_open_queue,
        types=is_kueue_token,
        enforcement_level="advisory",
        config=SHARED_QUEUES_SCHEMA,
    ),
    resource_policy(
        "cluster-queue-namespace-selector",
        "A ClusterQueue without namespaceSelector admits no namespace at all.",
        check_namespace_selector_present,
        types=is_kueue_token,
        enforcement_level="advisory",
    ),
    stack_policy(
        "local-queue-namespace-admitted",
        "A LocalQueue's namespace is admitted by its ClusterQueue's namespaceSelector (else its workloads are never "
        "admitted).",
        check_local_queue_admitted,
        types=lambda token: is_kueue_token(token) or is_namespace_token(token),
        enforcement_level="advisory",
    ),
    stack_policy(
        "team-quota-bypass",
        "A team namespace (one with a LocalQueue) where neither Kueue's management of jobs without a queue name nor a "
        "denying admission policy requiring kueue.x-k8s.io/queue-name keeps accelerator work in the team's quota.",
        check_quota_bypass,
        types=is_enforcement_token,
        enforcement_level="mandatory",
    ),
    stack_policy(
        "team-quota-layers",
        "A team namespace has both layers that keep work queued: Kueue manages its jobs without a queue name, and an "
        "admission policy requires the queue label.",
        check_enforcement_layers,
        types=is_enforcement_token,
        enforcement_level="advisory",
    ),
    stack_policy(
        "cluster-queue-reachable",
        "A ClusterQueue's namespaceSelector admits no namespace of another team (whose LocalQueues feed another "
        "queue, or that carries another team's label).",
        check_cluster_queue_reachable,
        types=is_enforcement_token,
        enforcement_level="mandatory",
    ),
    stack_policy(
        "team-priority-allowance",
        "A team namespace cannot use a WorkloadPriorityClass above its team's allowance (config priorityAllowance; "
        "default: every class below the highest).",
        check_priority_allowance,
        types=is_enforcement_token,
        enforcement_level="mandatory",
        config=PRIORITY_ALLOWANCE_SCHEMA,
    ),
    stack_policy(
        "quota-capacity",
        "Per ResourceFlavor, the nominal quotas of all ClusterQueues and Cohorts fit the fixed capacity "
        "(reservation, calendar, spot, on-demand) of the node pools the flavor selects.",
        check_quota_capacity,
        types=_POOLS_AND_KUEUE,
        enforcement_level="mandatory",
    ),
    stack_policy(
        "quota-capacity-dws",
        "Per ResourceFlavor on flex-start/queued node pools, nominal quotas beyond what the pools can grow to.",
        check_quota_capacity_dws,
        types=_POOLS_AND_KUEUE,
        enforcement_level="advisory",
    ),
    stack_policy(
        "quota-whole-vms",
        "Per ResourceFlavor on flex-start/queued node pools, nominal quotas are whole VMs and, rounded up to whole "
        "VMs, fit the VMs the pools can build (a ProvisioningRequest provisions whole VMs for one workload).",
        check_whole_vm_quotas,
        types=_POOLS_AND_KUEUE,
        enforcement_level="advisory",
    ),
    resource_policy(
        "team-accelerator-limit",
        "A ClusterQueue (team) holds at most the configured number of accelerators (GPUs plus TPU chips) of "
        "nominal quota.",
        check_team_accelerator_limit,
        types=is_kueue_token,
        enforcement_level="mandatory",
        config=TEAM_LIMIT_SCHEMA,
    ),
    resource_policy(
        "allow-lists",
        "Machine types and regions are in the organisation's allow-lists (when configured).",
        check_allow_lists,
        types=lambda token: token in NODE_POOL_TYPES or token in RESERVATION_TYPES,
        enforcement_level="mandatory",
        config=ALLOW_LIST_SCHEMA,
    ),
    resource_policy(
        "vertex-flex-start",
        "Vertex AI FLEX_START training profiles: a GPU Dynamic Workload Scheduler serves on a matching machine, the "
        "same machine configuration in every worker pool, a timeout of at most 7 days; Vertex training GPU quota "
        "preferences name a region and a whole number of GPUs.",
        check_vertex_flex_start,
        types=list(VERTEX_TYPES),
        enforcement_level="mandatory",
    ),
    stack_policy(
        "vertex-quota-preference",
        "The preemptible Vertex training quota preferences of the stack cover what its FLEX_START profiles need per "
        "region and GPU (replicas x GPUs x concurrent jobs).",
        check_vertex_quota_covers,
        types=list(VERTEX_TYPES),
        enforcement_level="mandatory",
    ),
]
