"""Every way gkecap ends stops what it started: the policy pack and any other child process.

Children register here (`track(child)`, anything with a `close()`); `stop_children()` closes every one still
running. The paths out of a run, and what covers each:

- a return, an exception, `sys.exit`: the `finally` blocks of `gkecap.plan` close the pack, and `main()`
  calls `stop_children()` whatever happened;
- SIGTERM, SIGHUP and SIGINT (CI timeouts, `timeout`, `docker stop`, a closed terminal, Ctrl-C): `install_signal_handlers()`
  turns the first one into `Terminated`, raised in the main thread, so the same `finally` blocks run; gkecap
  then exits 128 + the signal number, as a process killed by it would report. Before, clean-up waited for
  `atexit`, which a signal's default action never runs: the pack lived on for minutes;
- a deadline (`--timeout`): whatever raises at the deadline leaves through the same `finally` blocks, and
  `stop_children()` is callable from any thread;
- `atexit`, as before, for what is left at interpreter exit.
"""

from __future__ import annotations

import signal
import threading
import weakref
from typing import Any, Protocol


class _Closable(Protocol):
    def close(self) -> None: ...


_children: weakref.WeakSet[Any] = weakref.WeakSet()
_lock = threading.Lock()


class Terminated(BaseException):
    """gkecap received a termination signal (a BaseException: no `except Exception` in a program swallows it)."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        super().__init__(f"stopped by {signal.Signals(signum).name}")

    @property
    def exit_code(self) -> int:
        return 128 + self.signum


def track(child: _Closable) -> None:
    with _lock:
        _children.add(child)


def untrack(child: _Closable) -> None:
    with _lock:
        _children.discard(child)


def stop_children() -> None:
    """Close every tracked child still open (safe from any thread, and to call twice)."""
    with _lock:
        children = list(_children)
    for child in children:
        try:
            child.close()
        except Exception:  # noqa: BLE001,S112 -- stop the others whatever one of them does
            continue


_received: list[int] = []


_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)


def _on_signal(signum: int, _frame: Any) -> None:
    if _received:
        return
    _received.append(signum)
    # A second signal takes its default action (ends gkecap at once): the way out of a clean-up that hangs.
    for other in _SIGNALS:
        signal.signal(other, signal.SIG_DFL)
    raise Terminated(signum)


def install_signal_handlers() -> None:
    """SIGTERM, SIGHUP and SIGINT raise `Terminated` in the main thread (call it from the main thread)."""
    if threading.current_thread() is not threading.main_thread():
        return
    for signum in _SIGNALS:
        signal.signal(signum, _on_signal)
