"""Fewer garbage collections where a run allocates millions of objects: CPython's default thresholds are made
for small heaps. Stdlib only: used by gkecap's offline engine (the program) and by the pack's process.

Registering a resource allocates thousands of container objects (the SDK's Outputs, futures, tasks, property
dicts, captured stack traces); pulumi_policy turns every property of every resource into a container and a proxy.
Almost all of it is freed by reference counting, but with the default thresholds (700, 10, 10) the cyclic
collector still runs every 700 net allocations, and each full collection re-traverses every live object: the
resources, the loaded provider SDKs' generated classes. A 300-team plan spent 2.8 of its 9.6 CPU-s in the
collector; with `THRESHOLDS` it takes 2.4 CPU-s less and peaks at the same memory (measured, benchmarks/RESULTS.md,
issue 14). Cyclic garbage is still collected, later.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

# Generation 0 every 10,000 net allocations (CPython's default: 700), generation 1 every 20 of those, generation 2
# every 100 of generation 1 (CPython also waits until the long-lived objects grew by 25%, gcmodule.c).
THRESHOLDS = (10_000, 20, 100)


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """`THRESHOLDS` for the block (nested blocks keep them), the previous thresholds afterwards."""
    previous = gc.get_threshold()
    gc.set_threshold(*THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*previous)
