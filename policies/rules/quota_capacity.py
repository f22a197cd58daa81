"""Kueue quota against node pool capacity, and the accelerators one team may hold.

Per ResourceFlavor: the nominal quotas every ClusterQueue and Cohort gives that flavor, per accelerator
resource (nvidia.com/gpu, google.com/tpu), against the capacity of the stack's node pools whose nodes
carry all of the flavor's nodeLabels (maximum nodes x accelerator units per node). As in the environment
spec check (gkecap.components.spec): over-commit is an error where capacity is fixed (reservation, calendar,
spot, on-demand) and a warning where DWS obtains it on demand (flex-start, queued).

A flavor is judged only when every pool's labels and size are known and it selects at least one pool of
this stack (its pools may live in another stack).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from gkecap.components.catalog import (
    GKE_ACCELERATOR_LABEL,
    GKE_FLEX_START_LABEL,
    GKE_MACHINE_TYPE_LABEL,
    GKE_QUEUED_LABEL,
    GKE_SPOT_LABEL,
    GKE_TPU_ACCELERATOR_LABEL,
    GKE_TPU_TOPOLOGY_LABEL,
    GPU_RESOURCE,
    TPU_RESOURCE,
    CatalogError,
    gpu_machine,
    is_gpu_machine_type,
    is_tpu_machine_type,
    normalize_topology,
    tpu_family_of,
)
from gkecap.components.gke import OVERCOMMIT_WARNS  # the environment spec's rule (gkecap.components.spec.checks)
from gkecap.components.gke import WHOLE_VM_CAPACITIES, whole_vm_findings  # also the spec's (gke.whole_vms)
from gkecap.policies.resource_view import ResourceView, is_unknown
from gkecap.policies.rules.known_values import at, has_unknown, known_int, known_str
from gkecap.policies.rules.kueue_props import (
    display_name,
    flavor_quotas,
    capacity_scopes,
    kueue_kind,
    number_text,
    object_name,
    objects_of,
    quantity,
)
from gkecap.policies.rules.node_pool_props import NODE_POOL_TYPES, PoolView, node_pools

ACCELERATOR_RESOURCES = (GPU_RESOURCE, TPU_RESOURCE)

# Labels GKE puts on every node. FACTS A.1 [S1]; E [S25] (GPU sharing); B.3 [S20] (flex-start, spot).
NODE_POOL_LABEL = "cloud.google.com/gke-nodepool"
_MACHINE_TYPE_LABELS = (GKE_MACHINE_TYPE_LABEL, "node.kubernetes.io/instance-type", "beta.kubernetes.io/instance-type")
_ZONE_LABELS = ("topology.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/zone")
_PARTITION_LABEL = "cloud.google.com/gke-gpu-partition-size"
_SHARED_CLIENTS_LABEL = "cloud.google.com/gke-max-shared-clients-per-gpu"
_SHARING_STRATEGY_LABEL = "cloud.google.com/gke-gpu-sharing-strategy"
# Keys modelled above: a node without one of them does not carry it.
_MODELED = frozenset({
    *_MACHINE_TYPE_LABELS, *_ZONE_LABELS, NODE_POOL_LABEL, GKE_ACCELERATOR_LABEL, GKE_TPU_ACCELERATOR_LABEL,
    GKE_TPU_TOPOLOGY_LABEL, _PARTITION_LABEL, _SHARED_CLIENTS_LABEL, _SHARING_STRATEGY_LABEL, GKE_SPOT_LABEL,
    GKE_FLEX_START_LABEL, GKE_QUEUED_LABEL,
})
# Label prefixes Kubernetes or GKE manage: a key we do not model may still be on the node.
_MANAGED_PREFIXES = ("cloud.google.com/", "autoscaling.gke.io/", "node.gke.io/")
_MANAGED_SUFFIXES = ("kubernetes.io/", "k8s.io/")

TEAM_LIMIT_SCHEMA: dict[str, dict[str, Any]] = {
    "maxAcceleratorsPerTeam": {
        "type": "integer",
        "minimum": 0,
        "description": "Most accelerators (GPUs plus TPU chips) of nominal quota one ClusterQueue (team) may hold "
        "across its flavors. Unset: no limit.",
    },
    "teamAcceleratorLimits": {
        "type": "object",
        "additionalProperties": {"type": "integer", "minimum": 0},
        "default": {},
        "description": "Per-ClusterQueue limits that override maxAcceleratorsPerTeam, e.g. {vision: 64}.",
    },
}


# --- which pools a flavor selects ------------------------------------------------------------------------

def _node_labels(pool: PoolView) -> dict[str, Any]:
    """Labels every node of the pool carries: GKE's automatic ones, then the user's. UNKNOWN where unknown."""
    labels: dict[str, Any] = {}
    machine_type = pool.machine_type
    for key in _MACHINE_TYPE_LABELS:
        labels[key] = machine_type if machine_type is not None else _UNSURE
    labels[NODE_POOL_LABEL] = pool.name if pool.name is not None else _UNSURE
    zones = pool.zone_names()
    for key in _ZONE_LABELS:
        labels[key] = zones[0] if zones is not None and len(zones) == 1 else _UNSURE
    if machine_type is not None and is_tpu_machine_type(machine_type):
        labels[GKE_TPU_ACCELERATOR_LABEL] = tpu_family_of(machine_type).accelerator_label
        topology = known_str(pool.get("placementPolicy.tpuTopology"))
        labels[GKE_TPU_TOPOLOGY_LABEL] = normalize_topology(topology) if topology else _UNSURE
    elif machine_type is not None:
        accelerators = pool.guest_accelerators()
        if accelerators is None:
            labels[GKE_ACCELERATOR_LABEL] = _UNSURE
        elif accelerators:
            first = accelerators[0]
            labels[GKE_ACCELERATOR_LABEL] = first.get("type")
            partition = first.get("gpuPartitionSize")
            if partition is not None:
                labels[_PARTITION_LABEL] = partition
            sharing = first.get("gpuSharingConfig")
            if isinstance(sharing, Mapping):
                clients, strategy = sharing.get("maxSharedClientsPerGpu"), sharing.get("gpuSharingStrategy")
                labels[_SHARED_CLIENTS_LABEL] = str(clients) if known_int(clients) is not None else _UNSURE
                labels[_SHARING_STRATEGY_LABEL] = (
                    known.lower().replace("_", "-") if (known := known_str(strategy)) else _UNSURE
                )
        elif is_gpu_machine_type(machine_type):
            labels[GKE_ACCELERATOR_LABEL] = gpu_machine(machine_type).accelerator_label
    else:
        for key in (GKE_ACCELERATOR_LABEL, GKE_TPU_ACCELERATOR_LABEL, GKE_TPU_TOPOLOGY_LABEL):
            labels[key] = _UNSURE
    spot = pool.get("nodeConfig.spot")
    spot_flag = False if spot is None else (spot if isinstance(spot, bool) else None)
    for key, flag in ((GKE_SPOT_LABEL, spot_flag), (GKE_FLEX_START_LABEL, pool.flex_start)):
        if flag is None:
            labels[key] = _UNSURE
        elif flag:
            labels[key] = "true"
    if pool.queued is not False:
        labels[GKE_QUEUED_LABEL] = _UNSURE  # GKE taints queued nodes; the label is set by tooling, not always
    user = pool.get("nodeConfig.labels")
    if isinstance(user, Mapping):
        labels.update(user)
    elif user is not None:
        labels[_ANY_USER_LABEL] = _UNSURE
    return labels


class _Unsure:
    def __repr__(self) -> str:
        return "UNSURE"


_UNSURE: Any = _Unsure()
_ANY_USER_LABEL = "\x00user-labels-unknown"


def _is_managed(key: str) -> bool:
    prefix = key.split("/", 1)[0] + "/" if "/" in key else ""
    return key.startswith(_MANAGED_PREFIXES) or prefix.endswith(_MANAGED_SUFFIXES)


def flavor_selects(pool: PoolView, node_labels: Mapping[str, Any], labels: Mapping[str, Any] | None = None) -> bool | None:
    """Whether every node of the pool carries all of the flavor's nodeLabels; None when that is unknown.
    `labels`: the pool's `_node_labels`, when the caller has them (one computation per pool, not per flavor)."""
    labels = _node_labels(pool) if labels is None else labels
    unsure = False
    for key, wanted in node_labels.items():
        if key in labels:
            have = labels[key]
            if have is _UNSURE or is_unknown(have) or is_unknown(wanted):
                unsure = True
            elif str(have) != str(wanted):
                return False
        elif _ANY_USER_LABEL in labels or (_is_managed(key) and key not in _MODELED):
            unsure = True
        else:
            return False  # a user label the pool does not set
    return None if unsure else True


# --- capacity ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _PoolCapacity:
    pool: PoolView
    resource: str | None  # None: no accelerators
    units_per_node: int
    max_nodes: int
    model: str | None

    @property
    def units(self) -> int:
        return self.units_per_node * self.max_nodes

    def text(self) -> str:
        return f"{self.pool.name or self.pool.resource.name}: {self.max_nodes} nodes x {self.units_per_node}"


def _capacity(pool: PoolView) -> _PoolCapacity | None:
    machine_type = pool.machine_type
    if machine_type is None:
        return None
    accelerators = pool.guest_accelerators()
    if accelerators is None:
        return None
    if not accelerators and not is_gpu_machine_type(machine_type) and not is_tpu_machine_type(machine_type):
        return _PoolCapacity(pool, None, 0, 0, pool.capacity_model())
    try:
        found = pool.accelerator_resource()
    except CatalogError:
        return None
    max_nodes = pool.max_nodes()
    if found is None or max_nodes is None:
        return None
    return _PoolCapacity(pool, found[0], found[1], max_nodes, pool.capacity_model())


@dataclass(frozen=True)
class QuotaFinding:
    urn: str
    message: str
    dws_only: bool  # every pool behind the flavor is flex-start or queued: over-commit is a warning


@dataclass(frozen=True)
class _StackPools:
    """What both quota computations read of a stack: its pools, each pool's node labels, the nominal quotas."""

    pools: list[PoolView]
    labels: list[dict[str, Any]]  # _node_labels of each pool
    holders: dict[str, dict[str, list[tuple[str, Fraction | None]]]]  # _nominal_quotas


_last_pools: tuple[list[ResourceView], _StackPools] | None = None


def _stack_pools(resources: list[ResourceView]) -> _StackPools:
    """The `_StackPools` of the resources, computed once when the quota rules see the same views (as
    `_quota_findings_once`)."""
    global _last_pools
    last = _last_pools
    if last is not None and len(last[0]) == len(resources) and all(a is b for a, b in zip(last[0], resources)):
        return last[1]
    pools = [p for r in resources if r.type in NODE_POOL_TYPES for p in node_pools(r)]
    found = _StackPools(pools, [_node_labels(p) for p in pools], _nominal_quotas(resources) if pools else {})
    _last_pools = (list(resources), found)
    return found


def quota_findings(resources: list[ResourceView]) -> list[QuotaFinding]:
    """Findings per cluster (kueue_props.capacity_scopes): each cluster's quotas against the pools."""
    return [finding for scope in capacity_scopes(resources) for finding in _cluster_quota_findings(scope)]


def _cluster_quota_findings(resources: list[ResourceView]) -> list[QuotaFinding]:
    stack = _stack_pools(resources)
    if not stack.pools:
        return []
    holders = stack.holders
    findings: list[QuotaFinding] = []
    for flavor in objects_of(resources, "ResourceFlavor"):
        name = object_name(flavor)
        if name is None or name not in holders:
            continue
        node_labels = at(flavor.props, "spec.nodeLabels") or {}
        if not isinstance(node_labels, Mapping) or has_unknown(node_labels):
            continue
        selected = _selected_capacity(stack, node_labels)
        if not selected:
            continue
        for resource_name, entries in holders[name].items():
            quotas = [(who, q) for who, q in entries if q is not None]
            if resource_name not in ACCELERATOR_RESOURCES or len(quotas) < len(entries):
                continue
            total = sum((q for _, q in quotas), Fraction(0))
            behind = [c for c in selected if c.resource == resource_name and c.units > 0]
            capacity = sum(c.units for c in behind)
            if total <= capacity:
                continue
            models = {c.model for c in behind}
            dws_only = bool(behind) and None not in models and models <= OVERCOMMIT_WARNS
            pools_text = "; ".join(c.text() for c in behind) or "none of them has " + resource_name
            quotas_text = ", ".join(f"{who} {number_text(q)}" for who, q in quotas)
            fix = (
                "some quota will wait for flex-start capacity; lower the quotas or raise the pools' maximum nodes"
                if dws_only
                else "Kueue would admit work the nodes cannot hold: lower the quotas or raise the pools' maximum nodes"
            )
            findings.append(QuotaFinding(flavor.urn, (
                f"ResourceFlavor {name!r}: nominal quotas total {number_text(total)} {resource_name} "
                f"({quotas_text}) but the node pools it selects hold {capacity} ({pools_text}); {fix}."
            ), dws_only))
    return findings


def _selected_capacity(stack: _StackPools, node_labels: Mapping[str, Any]) -> list[_PoolCapacity] | None:
    selected: list[_PoolCapacity] = []
    for pool, labels in zip(stack.pools, stack.labels):
        chosen = flavor_selects(pool, node_labels, labels)
        if chosen is None:
            return None
        if chosen:
            capacity = _capacity(pool)
            if capacity is None:
                return None
            selected.append(capacity)
    return selected


def _nominal_quotas(resources: list[ResourceView]) -> dict[str, dict[str, list[tuple[str, Fraction | None]]]]:
    """flavor -> resource -> [(holder, nominal quota)] over every ClusterQueue and Cohort."""
    holders: dict[str, dict[str, list[tuple[str, Fraction | None]]]] = {}
    for resource in resources:
        kind = kueue_kind(resource)
        if kind not in ("ClusterQueue", "Cohort"):
            continue
        who = f"{kind} {display_name(resource)}"
        for flavor, resource_name, raw in flavor_quotas(resource.props.get("spec")):
            holders.setdefault(flavor, {}).setdefault(resource_name, []).append((who, quantity(raw)))
    return holders


_last_findings: tuple[list[ResourceView], list[QuotaFinding]] | None = None


def _quota_findings_once(resources: list[ResourceView]) -> list[QuotaFinding]:
    """`quota_findings` of the last stack again when the two quota rules see the same views (the pack's stack
    runner hands both the same objects): one computation, split into two policies."""
    global _last_findings
    last = _last_findings
    if last is not None and len(last[0]) == len(resources) and all(a is b for a, b in zip(last[0], resources)):
        return last[1]
    found = quota_findings(resources)
    _last_findings = (list(resources), found)
    return found


def check_quota_capacity(resources: list[ResourceView], config: dict) -> list[tuple[str | None, str]]:
    """quota-capacity: quotas on fixed capacity (reservation, calendar, spot, on-demand) fit the pools."""
    return [(f.urn, f.message) for f in _quota_findings_once(resources) if not f.dws_only]


def check_quota_capacity_dws(resources: list[ResourceView], config: dict) -> list[tuple[str | None, str]]:
    """quota-capacity-dws: quotas on flex-start/queued pools beyond what the pools can grow to."""
    return [(f.urn, f.message) for f in _quota_findings_once(resources) if f.dws_only]


def check_whole_vm_quotas(resources: list[ResourceView], config: dict) -> list[tuple[str | None, str]]:
    """quota-whole-vms: quotas on flex-start/queued pools come in whole VMs and fit the VMs the pools can build."""
    return [found for scope in capacity_scopes(resources) for found in _cluster_whole_vm_findings(scope)]


def _cluster_whole_vm_findings(resources: list[ResourceView]) -> list[tuple[str | None, str]]:
    stack = _stack_pools(resources)
    if not stack.pools:
        return []
    holders = stack.holders
    found: list[tuple[str | None, str]] = []
    for flavor in objects_of(resources, "ResourceFlavor"):
        name = object_name(flavor)
        node_labels = at(flavor.props, "spec.nodeLabels") or {}
        if name is None or name not in holders or not isinstance(node_labels, Mapping) or has_unknown(node_labels):
            continue
        selected = _selected_capacity(stack, node_labels)
        for resource_name, entries in holders[name].items():
            behind = [c for c in selected or () if c.resource == resource_name and c.units > 0]
            per_vm = {c.units_per_node for c in behind}
            if (not behind or len(per_vm) != 1 or any(c.model not in WHOLE_VM_CAPACITIES for c in behind)
                    or any(q is None or q.denominator != 1 for _, q in entries)):
                continue  # judged only where every pool is whole-VM capacity of one VM size, quotas whole units
            quotas = [(who, int(q)) for who, q in entries]  # type: ignore[arg-type]
            vms = sum(c.max_nodes for c in behind)
            for finding in whole_vm_findings(name, per_vm.pop(), vms, resource_name, quotas):
                found.append((flavor.urn, f"ResourceFlavor {name!r}: {finding.message}"))
    return found


# --- team-accelerator-limit ------------------------------------------------------------------------------

def check_team_accelerator_limit(resource: ResourceView, config: dict) -> list[str]:
    """team-accelerator-limit: a ClusterQueue's accelerator quota stays within the configured maximum."""
    if kueue_kind(resource) != "ClusterQueue":
        return []
    name = object_name(resource)
    overrides = config.get("teamAcceleratorLimits") or {}
    limit = overrides.get(name) if isinstance(overrides, Mapping) and name in overrides else None
    if limit is None:
        limit = config.get("maxAcceleratorsPerTeam")
    limit = known_int(limit)
    if limit is None:
        return []
    total = Fraction(0)
    parts: list[str] = []
    for flavor, resource_name, raw in flavor_quotas(resource.props.get("spec")):
        if resource_name not in ACCELERATOR_RESOURCES:
            continue
        value = quantity(raw)
        if value is None:
            return []
        total += value
        parts.append(f"{flavor} {number_text(value)} {resource_name}")
    if total <= limit:
        return []
    return [
        f"ClusterQueue {display_name(resource)!r} holds {number_text(total)} accelerators of nominal quota "
        f"({', '.join(parts)}), above the limit of {limit} per team set in this policy's config "
        f"(maxAcceleratorsPerTeam / teamAcceleratorLimits): lower its nominalQuota or raise the limit."
    ]
