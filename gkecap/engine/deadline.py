"""A time limit for a command: `--timeout SECONDS`, so a program (or a simulation) that never ends cannot hang CI.

Two stages, so that nothing a program does can keep gkecap running past its limit:

1. At the limit, a real-time timer (`SIGALRM`) raises `DeadlineExceeded` wherever the main thread is: in the
   program's own loop, in an await, or waiting for the policy pack. It is a `BaseException`, so a program's
   `except Exception` retry loop does not swallow it, and it unwinds through the plan's clean-up (the pack
   process is closed in its `finally`) with the program line that was running.
2. A program can still catch everything, reset the interval timer or replace the signal handler. So a watchdog
   thread, which the program does not know of, waits `HARD_GRACE` seconds longer: if the block has not ended by
   then it reports the timeout (`on_expiry`), stops every child process (`gkecap.shutdown`) and ends gkecap
   with exit code 2 (`os._exit`: no exception that anything could catch).

Where there is no SIGALRM (Windows) or the block does not run on the main thread, only the watchdog applies.
"""

from __future__ import annotations

import contextlib
import math
import os
import signal
import threading
from collections.abc import Callable, Iterator
from types import FrameType

DEFAULT_TIMEOUT = 600.0  # seconds; the largest bundled plan takes a few seconds
MAX_TIMEOUT = 7 * 24 * 3600.0  # seconds: a week; beyond it a limit means nothing (and `inf` overflows the timer)
HARD_GRACE = 10.0  # seconds the clean unwinding gets before the watchdog ends gkecap
EXIT_TIMEOUT = 2  # invalid input (a program that never ends), as the clean path reports it


class DeadlineExceeded(BaseException):
    """The command ran past `--timeout`. `location` is the program line that was running, when known.

    A BaseException, as KeyboardInterrupt: a program's `except Exception` does not swallow it."""

    def __init__(self, seconds: float, location: str | None = None, what: str = "plan") -> None:
        self.seconds = seconds
        self.location = location
        self.what = what
        super().__init__(timeout_message(seconds, what, location))

    def at(self, location: str | None) -> "DeadlineExceeded":
        return DeadlineExceeded(self.seconds, location, self.what) if location else self


def timeout_message(seconds: float, what: str = "plan", location: str | None = None) -> str:
    where = f"; the program was running {location}" if location else ""
    return f"--timeout: the {what} did not finish within {seconds:g} s{where}; raise --timeout if it needs longer"


def timeout_problem(seconds: float) -> str | None:
    """Why `seconds` is not a usable `--timeout` (None when it is): a number of seconds from 0 to `MAX_TIMEOUT`."""
    if not math.isfinite(seconds) or not 0 <= seconds <= MAX_TIMEOUT:
        return f"--timeout: {seconds:g} is not a time limit; give seconds from 0 (no limit) to {MAX_TIMEOUT:g} (a week)"
    return None


def _write_all(fd: int, data: bytes) -> None:
    with contextlib.suppress(OSError):
        while data:
            data = data[os.write(fd, data):]


def _watchdog(seconds: float, finished: threading.Event, on_expiry: Callable[[], tuple[str, str]] | None, what: str) -> None:
    if finished.wait(seconds + HARD_GRACE):
        return
    # Whatever happens below, gkecap ends: a report that blocks (a full pipe) must not keep it alive.
    threading.Timer(5.0, os._exit, (EXIT_TIMEOUT,)).start()
    from gkecap import shutdown

    shutdown.stop_children()
    stderr, stdout = on_expiry() if on_expiry is not None else ("", "")
    message = timeout_message(seconds, what) + f" (the {what} kept running {HARD_GRACE:g} s after it; gkecap ended it)"
    # Straight to the file descriptors: the main thread may hold the streams' locks.
    _write_all(2, (stderr or f"error: {message}\n").encode())
    if stdout:
        _write_all(1, stdout.encode())
    os._exit(EXIT_TIMEOUT)


@contextlib.contextmanager
def deadline(seconds: float | None, *, what: str = "plan", on_expiry: Callable[[], tuple[str, str]] | None = None) -> Iterator[None]:
    """Raise DeadlineExceeded in the main thread once `seconds` have passed (None or 0: no limit); end the
    process `HARD_GRACE` seconds later if the block is still running. `on_expiry()` gives the (stderr, stdout)
    texts gkecap prints then (default: the error line)."""
    if not seconds:
        yield
        return
    if problem := timeout_problem(seconds):
        raise ValueError(problem)
    finished = threading.Event()
    threading.Thread(target=_watchdog, args=(seconds, finished, on_expiry, what), name="gkecap-deadline", daemon=True).start()
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        try:
            yield
        finally:
            finished.set()
        return

    def on_alarm(_signum: int, _frame: FrameType | None) -> None:
        raise DeadlineExceeded(seconds, what=what)

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        finished.set()
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
