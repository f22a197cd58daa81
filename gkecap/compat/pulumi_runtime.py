"""The Pulumi Python SDK's internals gkecap's offline engine uses (pulumi 3.272), each with a public fallback.

* `pending_work()`: the registrations and Outputs still running (`settings.SETTINGS.outputs` and
  `settings._get_rpc_manager().rpcs`), so the engine waits for all of them at once instead of the SDK's
  one-at-a-time loop. Fallback: nothing, and the SDK's own `wait_for_rpcs` waits (slower on large programs).
* `reset_root()`: no root resource in a new run (`settings.ROOT`). Fallback: nothing; a run starts in a fresh
  context, where the variable has its default.
* `run_awaitable(awaitable)`: the result of a coroutine from synchronous code inside the SDK's loop
  (`sync_await._sync_await`). Fallback: run it on an event loop of its own, in a thread.
* `knows_lazy_imports()`, `is_lazy_module(module)`: pulumi's `lazy_import` and the `_LazyModule` of a package it
  left unloaded, which `engine.deferred_packages` replaces. Fallback: no deferral, packages are imported as the SDK
  imports them (slower start, the same program).

Each shortcut is taken only on the tested pulumi release (`versions`) with the name present.
"""

from __future__ import annotations

import asyncio
import types
from collections.abc import Awaitable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from gkecap.compat.versions import uses_internals

T = TypeVar("T")


def _settings() -> Any:
    from pulumi.runtime import settings

    return settings


def _private(module: Any, name: str) -> Any:
    """`module.name` on the tested pulumi release, else None."""
    return getattr(module, name, None) if uses_internals("pulumi") else None


def pending_work() -> list[Any]:
    """Registrations (RPCs) and Outputs the program started that have not finished; [] where unknown."""
    settings = _settings()
    state, rpc_manager = _private(settings, "SETTINGS"), _private(settings, "_get_rpc_manager")
    if state is None or rpc_manager is None:
        return []
    with state.lock:
        pending = [task for task in state.outputs if not task.done()]
    return pending + [rpc for rpc in rpc_manager().rpcs if not rpc.done()]


def reset_root() -> None:
    root = _private(_settings(), "ROOT")
    if root is not None:
        root.set(None)


def run_awaitable(awaitable: Awaitable[T]) -> T:
    """`awaitable`'s result, from synchronous code that may run inside the SDK's event loop."""
    from pulumi.runtime import sync_await

    sync = _private(sync_await, "_sync_await")
    if sync is not None:
        return sync(awaitable)

    async def result() -> T:
        return await awaitable

    with ThreadPoolExecutor(max_workers=1) as worker:
        return worker.submit(asyncio.run, result()).result()


def knows_lazy_imports() -> bool:
    """pulumi's `lazy_import` (pulumi/_utils.py) is the tested one: it returns a module already in `sys.modules`, and
    leaves a `_LazyModule` for a package it has not loaded."""
    return uses_internals("pulumi")


def is_lazy_module(module: types.ModuleType) -> bool:
    """A package `pulumi._utils.lazy_import` registered and has not loaded yet."""
    if not knows_lazy_imports():
        return False
    return type(module).__name__ == "_LazyModule" and type(module).__module__ == "pulumi._utils"
