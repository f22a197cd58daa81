"""What selects, taints and tolerates an accelerator pool's nodes: labels, taints, selectors, tolerations.

The node pools set these labels and taints; Kueue flavors select and tolerate exactly them; workloads use the
same selectors. Also the rules for a user's own labels and taints on a pool.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from gkecap.components.catalog import (
    GKE_ACCELERATOR_LABEL,
    GKE_QUEUED_LABEL,
    GPU_RESOURCE,
    TPU_TAINT,
    gpu_machine,
    is_gpu_machine_type,
    is_n1_machine_type,
    tpu_slice,
)
from gkecap.components.issues import Issue, key_path
from gkecap.components.k8s.names import label_value_errors, qualified_name_errors

# Our node labels: a workload (or a Kueue ResourceFlavor) selects exactly one accelerator pool with them.
POOL_LABEL = "gkecap.dev/pool"
CAPACITY_LABEL = "gkecap.dev/capacity"
MANAGED_LABELS = frozenset({POOL_LABEL, CAPACITY_LABEL})

TAINT_EFFECTS = ("NO_SCHEDULE", "PREFER_NO_SCHEDULE", "NO_EXECUTE")  # GKE API NodeTaint.Effect [S3]
_K8S_EFFECT = {"NO_SCHEDULE": "NoSchedule", "PREFER_NO_SCHEDULE": "PreferNoSchedule", "NO_EXECUTE": "NoExecute"}
# "The kubernetes.io/ and k8s.io/ prefixes are reserved for Kubernetes core components"
# (https://kubernetes.io/docs/reference/labels-annotations-taints/); node.kubernetes.io/* taints are the
# node controller's.
RESERVED_KEY_PREFIXES = ("kubernetes.io", "k8s.io")


@dataclass(frozen=True)
class NodeTaint:
    """A node taint in the GKE API's form (effect NO_SCHEDULE ...)."""

    key: str
    value: str
    effect: str = "NO_SCHEDULE"

    def toleration(self) -> dict[str, str]:
        """The Kubernetes toleration (pod or Kueue ResourceFlavor form) that matches this taint."""
        return {"key": self.key, "operator": "Equal", "value": self.value, "effect": _K8S_EFFECT[self.effect]}

    def k8s(self) -> dict[str, str]:
        """The taint as Kubernetes (and Kueue ResourceFlavor.nodeTaints) writes it."""
        return {"key": self.key, "value": self.value, "effect": _K8S_EFFECT[self.effect]}


# GKE taints GPU nodes nvidia.com/gpu=present (pods requesting GPUs get the toleration automatically);
# TPU node pools google.com/tpu=present. FACTS A.1 [S9]. Queued pools: cloud.google.com/gke-queued=true
# (GKE adds it; declared so the config matches the nodes). FACTS B.1 [S14], B.3 [S9].
GPU_TAINT = NodeTaint(GPU_RESOURCE, "present", "NO_SCHEDULE")
TPU_NODE_TAINT = NodeTaint(TPU_TAINT["key"], TPU_TAINT["value"], TPU_TAINT["effect"])
QUEUED_TAINT = NodeTaint(GKE_QUEUED_LABEL, "true", "NO_SCHEDULE")
# Calendar pools: capacity that exists only in its reservation's window, and only once submitted. The nodes carry
# this taint and the pool's Kueue flavor lists it in `nodeTaints` without tolerating it, so Kueue assigns the
# flavor only to workloads that tolerate it (ResourceFlavor.spec.nodeTaints, apis/kueue/v1beta2/
# resourceflavor_types.go @ v0.19.2): work without that toleration is never admitted to a reservation (outside
# its window its pods would stay Pending). docs/design.md "Calendar windows".
CALENDAR_TAINT = NodeTaint("gkecap.dev/calendar", "true", "NO_SCHEDULE")
# NodeTaint keys a pool's nodes already carry: a user taint with one of these keys would clash with them.
RESERVED_TAINT_KEYS = frozenset(t.key for t in (GPU_TAINT, TPU_NODE_TAINT, QUEUED_TAINT, CALENDAR_TAINT))


def node_labels(pool: str, capacity: str, extra: Mapping[str, str] = {}) -> dict[str, str]:
    """Labels the node pool config sets: ours, the queued label GKE needs for nodeSelectors, the user's."""
    labels = {POOL_LABEL: pool, CAPACITY_LABEL: capacity}
    if capacity == "queued":
        # Cluster Toolkit adds it: GKE applies the taint, workloads select the label. FACTS B.2 [S9]
        labels[GKE_QUEUED_LABEL] = "true"
    labels.update(extra)
    return labels


def node_taints(machine_type: str, capacity: str, extra: Iterable[NodeTaint] = ()) -> tuple[NodeTaint, ...]:
    """Taints the pool's nodes carry (declared in the node pool config); Kueue flavors tolerate these."""
    gpu = is_gpu_machine_type(machine_type) or is_n1_machine_type(machine_type)
    taints = [GPU_TAINT if gpu else TPU_NODE_TAINT]
    if capacity == "queued":
        taints.append(QUEUED_TAINT)
    if capacity == "calendar":
        taints.append(CALENDAR_TAINT)
    taints.extend(extra)
    return tuple(taints)


def node_selector(
    pool: str, machine_type: str, tpu_topology: str | None = None, gpu_type: str | None = None
) -> dict[str, str]:
    """Labels that select exactly this pool's nodes: our pool label plus the accelerator labels GKE sets
    (`gpu_type`: the GPU attached to an N1 pool)."""
    selector = {POOL_LABEL: pool}
    if is_n1_machine_type(machine_type) and gpu_type is not None:
        selector[GKE_ACCELERATOR_LABEL] = gpu_type
    elif is_gpu_machine_type(machine_type):
        selector[GKE_ACCELERATOR_LABEL] = gpu_machine(machine_type).accelerator_label
    elif tpu_topology is not None:
        selector.update(tpu_slice(machine_type, tpu_topology).node_selector)
    return selector


def tolerations(machine_type: str, capacity: str, extra: Iterable[NodeTaint] = ()) -> list[dict[str, str]]:
    """Kubernetes tolerations for every taint of `node_taints` (for Kueue ResourceFlavor.spec.tolerations),
    except the opt-in ones of `flavor_node_taints`, which a workload must tolerate itself."""
    return [t.toleration() for t in node_taints(machine_type, capacity, extra) if t not in OPT_IN_TAINTS]


OPT_IN_TAINTS = (CALENDAR_TAINT,)


def flavor_node_taints(capacity: str) -> list[dict[str, str]]:
    """Taints a Kueue flavor lists in `nodeTaints` (untolerated): admitted only to workloads that tolerate them."""
    return [CALENDAR_TAINT.k8s()] if capacity == "calendar" else []


# --- The user's labels and taints ---------------------------------------------------------------------


def label_issues(path: str, labels: Mapping[str, str]) -> list[Issue]:
    """Extra node labels: Kubernetes label keys and values, none of the labels gke-capacity sets itself."""
    issues: list[Issue] = []
    for key, value in labels.items():
        where = key_path(path, str(key))
        if key in MANAGED_LABELS:
            issues.append(Issue(where, f"{key!r} is set by gke-capacity to select this pool; remove it"))
            continue
        problems = qualified_name_errors(key) if isinstance(key, str) else ["must be a string"]
        if problems:
            issues.append(Issue(where, f"{key!r} is not a label key: {'; '.join(problems)}"))
        value_problems = label_value_errors(value) if isinstance(value, str) else ["must be a string"]
        if value_problems:
            issues.append(Issue(where, f"{value!r} is not a label value: {'; '.join(value_problems)}"))
    return issues


def _reserved_taint_key(key: str) -> str | None:
    """Why a taint key is not the user's to set (None when it is)."""
    if key in RESERVED_TAINT_KEYS:
        return "is set by GKE on these nodes (gke-capacity declares it, and the pool's Kueue flavor tolerates it)"
    prefix, slash, _ = key.rpartition("/")
    if slash and any(prefix == p or prefix.endswith("." + p) for p in RESERVED_KEY_PREFIXES):
        return f"uses the {prefix}/ prefix, which is reserved for Kubernetes' own components"
    return None


def taint_issues(path: str, taints: Iterable[NodeTaint]) -> list[Issue]:
    """Extra node taints: keys of the user's own, label-like keys and values, a known effect, one per key and
    effect."""
    issues: list[Issue] = []
    seen: dict[tuple[str, str], int] = {}
    for index, taint in enumerate(taints):
        where = f"{path}[{index}]"
        reserved = _reserved_taint_key(taint.key) if isinstance(taint.key, str) else None
        if reserved:
            issues.append(Issue(f"{where}.key", f"{taint.key!r} {reserved}; use a key of your own, e.g. example.com/dedicated"))
        else:
            problems = qualified_name_errors(taint.key) if isinstance(taint.key, str) else ["must be a string"]
            if problems:
                issues.append(Issue(f"{where}.key", f"{taint.key!r} is not a taint key: {'; '.join(problems)}"))
        value_problems = label_value_errors(taint.value) if isinstance(taint.value, str) else ["must be a string"]
        if value_problems:
            issues.append(Issue(f"{where}.value", f"{taint.value!r} is not a taint value: {'; '.join(value_problems)}"))
        if taint.effect not in TAINT_EFFECTS:
            issues.append(Issue(f"{where}.effect", f"{taint.effect!r} is not allowed; allowed: {', '.join(TAINT_EFFECTS)}"))
        first = seen.setdefault((taint.key, taint.effect), index)
        if first != index:
            # Kubernetes keeps one taint per key and effect ("taints must be unique by key and effect pair").
            issues.append(
                Issue(where, f"taint {taint.key!r} with effect {taint.effect} repeats taint {first}; a node has one "
                      "taint per key and effect")
            )
    return issues
