"""The simulator's performance shortcuts, each with an off switch. Pure.

Every shortcut is exact: with all of them off the simulator does what Kueue's code does, step by step, and
tests/gkecap/simulate/test_scheduler_shortcuts.py runs random scenarios both ways and requires identical output.

- `kept_nominations`: a head's flavor assignment and preemption targets are kept until an admission or eviction
  changes something they read (`Scheduler._nominate`).
- `incremental_tournament`: the fair-sharing tournament recomputes only the keys and winners that the entry just
  processed can have changed, and reuses an entry's keys from an earlier cycle when its path's usage is the same
  (`scheduler._Tournament`); off, every key and winner is recomputed before each pop, as Kueue does.
- `inert_entries`: heads that cannot fit, or need preemption without a target in a queue that keeps no quota for
  them, change nothing when processed; they are set aside without being processed in order (`scheduler.Entry.inert`).
- `early_stop`: a fair-sharing preemption search stops before trying any candidate when no strategy can accept one
  (`preemption._no_target_passes`).
- `repeated_states`: a head's nomination is reused from an earlier moment when the lasting state it is computed
  on (the admitted workloads, their flavors, evicted marks and the order of their admission times) was the same
  (`Scheduler._repeated_state`): preemption loops and the walks between their steps come back to the same states.
- `memoised_facts`: facts computed once and kept while what they depend on is unchanged: a workload's scheduling
  shape and usage, a pod set's totals, shares of quota nodes, potential and lendable quota, the tree's queues,
  almost-lowest common ancestors, preemption candidates and targets per nomination, and each queue's classified
  candidates for a classical search while its workloads are the same.
- `bounded_search`: a preemption search answers "no targets" without trying its candidates one by one when the
  preemptor could not fit even with all of them evicted (`preemption._classical_hopeless`,
  `preemption._fair_hopeless`): under contention most heads are in that case.
- `over_nominal_index`: preemption's walk of a cohort tree visits only the children above their nominal quota,
  from an index kept up to date with usage (`quota_tree.over_nominal_children`); off, it tests every child.
- `share_heap`: the fair-sharing preemption walk finds the queue with the highest share from a heap of the queues'
  keys, refreshing only those whose usage or next candidate changed (`preemption._QueueOrdering._best_queue`); off,
  it compares every queue holding candidates before each target, as Kueue does.
- `node_first_fit`: a pod that requests units only (no cpu or memory) finds the first ready node with room, and the
  cluster autoscaler's packing the first node coming up or new with room, from a tree of the nodes' free units
  (`nodes.FirstFit`) instead of scanning the nodes in order: what the scan finds, in O(log n) (a pool of 1,000
  nodes with thousands of pods waiting for them).
- `period_jump`: when the whole simulation state comes back equal, shifted in time, after a period (a preemption
  loop between pending workloads), the following periods up to the next event from outside the loop are replayed
  from the one just run instead of being run (`gkecap.simulate.periods`). Read when a simulation starts.

`SHORTCUTS` is read when the code runs; `switched(...)` changes it for a block (`switched(**ALL_OFF)`: none).
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, fields, replace
from typing import Iterator


@dataclass
class Shortcuts:
    kept_nominations: bool = True
    incremental_tournament: bool = True
    inert_entries: bool = True
    early_stop: bool = True
    repeated_states: bool = True
    memoised_facts: bool = True
    bounded_search: bool = True
    over_nominal_index: bool = True
    share_heap: bool = True
    node_first_fit: bool = True
    period_jump: bool = True


SHORTCUTS = Shortcuts()
NAMES = tuple(f.name for f in fields(Shortcuts))
ALL_OFF = {name: False for name in NAMES}


@contextmanager
def switched(**flags: bool) -> Iterator[Shortcuts]:
    """Set some shortcuts on or off for the block (unknown names are an error)."""
    unknown = set(flags) - set(NAMES)
    if unknown:
        raise ValueError(f"unknown shortcuts {sorted(unknown)}; known: {', '.join(NAMES)}")
    saved = replace(SHORTCUTS)
    for name, value in flags.items():
        setattr(SHORTCUTS, name, value)
    try:
        yield SHORTCUTS
    finally:
        for name in NAMES:
            setattr(SHORTCUTS, name, getattr(saved, name))
