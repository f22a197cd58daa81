"""Pods on nodes: after Kueue admits a workload by quota, its pods need room on its pool's nodes. Pure.

One `PoolNodes` per pool without queued provisioning (a queued pool gives each workload its own VMs through a
ProvisioningRequest: `engine`). Its nodes are shared by the pods of many workloads:

- kube-scheduler binds each pending pod to a ready node with enough free units (the units a node advertises: GPUs,
  TPU chips, MIG partitions times sharing clients) and, for pods that request them, enough cpu and memory (the
  machine type's, from the catalog: GKE's allocatable is somewhat less, its system reservations are not modelled). Pending pods are tried in kube-scheduler's queue order (higher
  priority first, then the earlier arrival: the PrioritySort plugin); a pod that does not fit does not block the
  others. Among the nodes that fit the simulator takes the oldest: kube-scheduler's default scoring
  (NodeResourcesFit, LeastAllocated) weighs only cpu and memory, which the simulated pods do not request, so every
  fitting node scores the same and kube-scheduler picks one of them at random.
- A multi-host TPU slice serves one workload: a workload takes whole slices (its pods as slice-sized claims).
- Reservation and calendar pools have their nodes while the capacity exists (a calendar pool only in its window).
- Autoscaled pools (on-demand, spot, flex-start) start with `min_nodes`; for pods that fit nowhere, the cluster
  autoscaler adds the nodes they need (first packing them onto nodes still coming up), up to what the pool can
  obtain now; new nodes are ready `Delays.provisioning` later. A node empty for `Delays.scale_down` is removed
  (never below `min_nodes`).

Accounting: each pool keeps steps of (time, ready nodes in VMs, nodes with pods in VMs, units bound) for the idle
capacity report.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from gkecap.simulate.shortcuts import SHORTCUTS
from gkecap.simulate.timing import (  # noqa: F401  (the node delays' defaults, re-exported where they apply)
    DEFAULT_POD_START_SECONDS, DEFAULT_PROVISIONING_SECONDS, DEFAULT_SCALE_DOWN_SECONDS, Delays,
)
from gkecap.simulate.topology import Layout, TopologyRequest, place


UNTRACKED = 1 << 62  # the cpu or memory of a node whose pods request none: never the limit


class FirstFit:
    """First fit over a row of free amounts (`node_first_fit`): the lowest index whose amount is at least `need`,
    what a scan from the start finds, in O(log n) from a tree of maxima. Places not yet taken (up to `capacity`)
    hold -1 and never fit. Pure."""

    __slots__ = ("size", "tree")

    def __init__(self, values: list[int], capacity: int = 0):
        size = 1
        while size < max(len(values), capacity):
            size *= 2
        tree = [-1] * (2 * size)
        tree[size:size + len(values)] = values
        for i in range(size - 1, 0, -1):
            tree[i] = max(tree[2 * i], tree[2 * i + 1])
        self.size, self.tree = size, tree

    def first(self, need: int) -> int:
        """The lowest index holding at least `need` (>= 0), or -1."""
        tree = self.tree
        if tree[1] < need:
            return -1
        i, size = 1, self.size
        while i < size:
            i = 2 * i if tree[2 * i] >= need else 2 * i + 1
        return i - size

    def value(self, index: int) -> int:
        return self.tree[self.size + index]

    def set(self, index: int, value: int) -> None:
        tree = self.tree
        i = index + self.size
        tree[i] = value
        i //= 2
        while i:
            top = max(tree[2 * i], tree[2 * i + 1])
            if tree[i] == top:
                break  # the maxima above are unchanged
            tree[i] = top
            i //= 2


@dataclass(eq=False)
class Node:
    capacity: int  # units
    free: int
    ready_at: float
    pods: int = 0
    empty_since: float | None = None  # ready and without pods since then
    seen_ready: bool = False  # the scheduler has had the chance to use it since it became ready
    cpu: int = UNTRACKED  # free cpu (milli-units) and memory (bytes)
    memory: int = UNTRACKED
    slot: int = 0  # its place in the pool's layout (topology-aware pools)


@dataclass(eq=False)
class _Claim:
    """A workload's pods on one pool: `waiting` not yet bound, each needing `per_pod` units."""

    name: str
    order: tuple
    per_pod: int
    waiting: int
    bound: list[Node] = field(default_factory=list)
    cpu: int = 0  # per pod
    memory: int = 0
    topology: TopologyRequest | None = None  # all its pods are bound together, in the domains TAS chooses


class PoolNodes:
    """The nodes of one pool and the pods bound to them.

    `units_per_node`: what one VM advertises; `vms_per_node`: VMs per schedulable unit (a multi-host slice's VMs,
    else 1); `obtainable(t)`: VMs the pool can have at `t` (its maximum, its capacity entries or its calendar
    window); `autoscaled`: nodes come and go with pending pods (else they follow `obtainable`)."""

    def __init__(self, name: str, units_per_node: int, vms_per_node: int, obtainable: Callable[[float], int], *,
                 autoscaled: bool, min_nodes: int, delays: Delays, host: dict[str, int] | None = None,
                 layout: Layout | None = None):
        self.name = name
        self.layout = layout
        # cpu and memory of one node, tracked only where a multi-host slice does not take whole nodes
        self.host = (host or {}) if vms_per_node == 1 else {}
        self.vms = vms_per_node
        self.capacity = units_per_node * vms_per_node
        self.obtainable = obtainable
        self.autoscaled = autoscaled
        self.min_nodes = min_nodes // vms_per_node
        self.delays = delays
        self.nodes: list[Node] = []
        self.claims: dict[str, _Claim] = {}
        self.waiting: dict[str, _Claim] = {}
        self.dirty = True
        self.used = 0
        self.busy = 0
        self.samples: list[tuple[float, int, int, int]] = [(0.0, 0, 0, 0)]
        if autoscaled:
            self._add_nodes(self.min_nodes, 0.0)

    @property
    def whole_slices(self) -> bool:
        return self.vms > 1

    def _node(self, ready_at: float) -> Node:
        slot = 0
        if self.layout is not None:  # the first place of the layout no node holds
            taken = {n.slot for n in self.nodes}
            slot = next(i for i in range(len(self.nodes) + 1) if i not in taken)
        return Node(self.capacity, self.capacity, ready_at, empty_since=ready_at,
                    cpu=self.host.get("cpu", UNTRACKED), memory=self.host.get("memory", UNTRACKED), slot=slot)

    def _add_nodes(self, count: int, ready_at: float) -> None:
        for _ in range(count):  # one by one: each takes the first free place of the layout
            self.nodes.append(self._node(ready_at))

    def topology_placement(self, pods: int, per_pod: int, host: dict[str, int], request: TopologyRequest,
                           now: float) -> dict[Node, int] | None:
        """Where Kueue's TAS puts `pods` pods on the ready nodes now (gkecap.simulate.topology.place), None when the
        request cannot be met."""
        ready = [n for n in self.nodes if n.ready_at <= now]
        cpu, memory = (host.get("cpu", 0), host.get("memory", 0)) if self.host else (0, 0)
        fits = [min(n.free // per_pod if per_pod else pods, n.cpu // cpu if cpu else pods,
                    n.memory // memory if memory else pods) for n in ready]
        layout = self.layout
        paths = [layout.path(n.slot) for n in ready] if layout else [(0, 0, i, i) for i in range(len(ready))]
        chosen = place(paths, fits, pods, request.index, request.required)
        return None if chosen is None else {ready[i]: count for i, count in chosen.items()}

    # -- what the engine tells ------------------------------------------------------------------------------

    def admit(self, name: str, pods: int, per_pod: int, order: tuple, host: dict[str, int] | None = None,
              topology: TopologyRequest | None = None) -> None:
        """Kueue admitted the workload: its pods are created and wait for nodes (`host`: cpu and memory per pod;
        `topology`: placed all at once where TAS puts them)."""
        if self.whole_slices:  # whole slices: the pods' units in slice-sized claims
            pods, per_pod = -(-pods * per_pod // self.capacity), self.capacity
        host = (host or {}) if self.host else {}
        claim = _Claim(name, order, per_pod, pods, cpu=host.get("cpu", 0), memory=host.get("memory", 0),
                       topology=topology if not self.whole_slices else None)
        self.claims[name] = claim
        self.waiting[name] = claim
        self.dirty = True

    def release(self, name: str, now: float) -> None:
        """The workload's pods are gone (finished, preempted or evicted): their units are free."""
        claim = self.claims.pop(name, None)
        if claim is None:
            return
        self.waiting.pop(name, None)
        for node in claim.bound:
            node.free += claim.per_pod
            node.cpu += claim.cpu
            node.memory += claim.memory
            node.pods -= 1
            self.used -= claim.per_pod
            if node.pods == 0:
                node.empty_since = now
                self.busy -= 1
        if claim.bound:
            self.dirty = True
            self._sample(now)

    def touch(self) -> None:
        """What the pool can obtain changed."""
        self.dirty = True

    # -- the scheduler and the autoscaler -------------------------------------------------------------------

    def schedule(self, now: float) -> list[str]:
        """Bring nodes up to date at `now`, bind what fits; the workloads whose every pod is now bound. The engine
        calls it only while `dirty` (a workload admitted or released, what the pool can obtain changed, or a
        `next_change` came due): nothing else changes its nodes."""
        self._sync(now)
        started: list[str] = []
        self.dirty = False
        if not self.waiting:
            return started
        # With `node_first_fit`, pods that request units only find their node in the ready nodes' FirstFit tree
        # (built at the first such pod, kept up to date with every bind); pods that request cpu or memory scan.
        ready: list[Node] | None = None
        fit: FirstFit | None = None
        at: dict[int, int] = {}
        for claim in sorted(self.waiting.values(), key=lambda c: c.order):
            if claim.topology is not None:
                placement = self.topology_placement(claim.waiting, claim.per_pod,
                                                    {"cpu": claim.cpu, "memory": claim.memory}, claim.topology, now)
                for node, count in (placement or {}).items():
                    for _ in range(count):
                        self._bind(claim, node)
                    if fit is not None:
                        fit.set(at[id(node)], node.free)
            fast = SHORTCUTS.node_first_fit and not claim.cpu and not claim.memory
            if fast and fit is None and claim.waiting and claim.topology is None:
                ready = [n for n in self.nodes if n.ready_at <= now]
                fit = FirstFit([n.free for n in ready])
                at = {id(n): i for i, n in enumerate(ready)}
            while claim.waiting and claim.topology is None:
                if fast:
                    index = fit.first(claim.per_pod)  # type: ignore[union-attr]
                    fitted = None if index < 0 else ready[index]  # type: ignore[index]
                else:
                    fitted = self._fit(claim, now)
                if fitted is None:
                    break
                self._bind(claim, fitted)
                if fit is not None:
                    fit.set(at[id(fitted)], fitted.free)
            if not claim.waiting:
                del self.waiting[claim.name]
                started.append(claim.name)
        if self.autoscaled and self.waiting:
            self._scale_up(now)
        self._sample(now)
        return started

    def next_change(self, now: float) -> float | None:
        """When nodes next come up or an empty one may be removed (after `now`)."""
        times = [n.ready_at for n in self.nodes if n.ready_at > now]
        if self.autoscaled and len(self.nodes) > self.min_nodes:
            times += [n.empty_since + self.delays.scale_down for n in self.nodes
                      if n.empty_since is not None and n.empty_since + self.delays.scale_down > now]
        return min(times, default=None)

    def _fit(self, claim: _Claim, now: float) -> Node | None:
        units, cpu, memory = claim.per_pod, claim.cpu, claim.memory
        for node in self.nodes:
            if node.free >= units and node.ready_at <= now and node.cpu >= cpu and node.memory >= memory:
                return node
        return None

    def _bind(self, claim: _Claim, node: Node) -> None:
        if node.pods == 0:
            self.busy += 1
        node.free -= claim.per_pod
        node.cpu -= claim.cpu
        node.memory -= claim.memory
        node.pods += 1
        node.empty_since = None
        self.used += claim.per_pod
        claim.waiting -= 1
        claim.bound.append(node)

    def _sync(self, now: float) -> None:
        if not self.autoscaled:
            target = self.obtainable(now) // self.vms
            if len(self.nodes) < target:
                self._add_nodes(target - len(self.nodes), now)
                self.dirty = True
            elif len(self.nodes) > target:
                # Only empty nodes go (the engine evicts a calendar pool's workloads at the end of its window).
                keep = [n for n in self.nodes if n.pods]
                spare = [n for n in self.nodes if not n.pods][:max(0, target - len(keep))]
                self.nodes = [n for n in self.nodes if n.pods or n in spare]
        else:
            for node in self.nodes:
                if not node.seen_ready and node.ready_at <= now:
                    node.seen_ready = True
                    self.dirty = True
            removable = len(self.nodes) - self.min_nodes
            if removable > 0:
                gone = [n for n in reversed(self.nodes) if n.empty_since is not None
                        and n.empty_since + self.delays.scale_down <= now][:removable]
                if gone:
                    self.nodes = [n for n in self.nodes if n not in gone]
        self._sample(now)

    def _scale_up(self, now: float) -> None:
        """The cluster autoscaler: pending pods go onto nodes still coming up, then onto new nodes."""
        # What each node coming up has left, as (units, cpu, memory); units alone while no pod requests the others.
        waiting = sorted(self.waiting.values(), key=lambda c: c.order)
        dimensions = 3 if any(c.cpu or c.memory for c in waiting) else 1
        coming = [(n.free, n.cpu, n.memory)[:dimensions] for n in self.nodes if n.ready_at > now]
        new: list[tuple[int, ...]] = []
        room = self.obtainable(now) // self.vms - len(self.nodes)
        fresh = self._node(0.0)
        empty = (fresh.free, fresh.cpu, fresh.memory)[:dimensions]
        if dimensions == 1 and SHORTCUTS.node_first_fit:
            self._add_nodes(self._scale_up_units(waiting, [c[0] for c in coming], room, empty[0]),
                            now + self.delays.provisioning)
            return
        for claim in waiting:
            need = (claim.per_pod, claim.cpu, claim.memory)[:dimensions]
            for _ in range(claim.waiting):
                for space in (coming, new):
                    slot = next((i for i, free in enumerate(space) if all(f >= n for f, n in zip(free, need))), None)
                    if slot is not None:
                        space[slot] = tuple(f - n for f, n in zip(space[slot], need))
                        break
                else:
                    if len(new) < room and all(f >= n for f, n in zip(empty, need)):
                        new.append(tuple(f - n for f, n in zip(empty, need)))
        ready = now + self.delays.provisioning
        self._add_nodes(len(new), ready)

    @staticmethod
    def _scale_up_units(waiting: list[_Claim], coming: list[int], room: int, empty: int) -> int:
        """_scale_up's packing when pods request units only, by FirstFit: how many new nodes it adds."""
        pods = sum(c.waiting for c in waiting)
        onto_coming = FirstFit(coming)
        onto_new = FirstFit([], capacity=max(0, min(room, pods)))
        added = 0
        for claim in waiting:
            need = claim.per_pod
            for _ in range(claim.waiting):
                slot = onto_coming.first(need)
                if slot >= 0:
                    onto_coming.set(slot, onto_coming.value(slot) - need)
                    continue
                slot = onto_new.first(need)
                if slot >= 0:
                    onto_new.set(slot, onto_new.value(slot) - need)
                elif added < room and empty >= need:
                    onto_new.set(added, empty - need)
                    added += 1
        return added

    def _sample(self, now: float) -> None:
        ready = sum(1 for n in self.nodes if n.ready_at <= now) * self.vms
        entry = (now, ready, self.busy * self.vms, self.used)
        if self.samples[-1][0] == now:
            self.samples[-1] = entry
        elif self.samples[-1][1:] != entry[1:]:
            self.samples.append(entry)
