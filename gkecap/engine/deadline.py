"""A time limit for a plan: `--timeout SECONDS`, so a program that never ends cannot hang CI.

The program runs in this process (on the main thread's event loop), so the limit is a real-time timer
(`SIGALRM`) whose handler raises `DeadlineExceeded` wherever the main thread is: in the program's own
loop, in an await, or waiting for the policy pack. The exception unwinds through the plan's clean-up
(the pack process is closed in its `finally`). Where there is no SIGALRM (Windows) or the plan does not
run on the main thread, no limit applies.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType

DEFAULT_TIMEOUT = 600.0  # seconds; the largest bundled plan takes a few seconds


class DeadlineExceeded(Exception):
    """The plan ran past `--timeout`. `location` is the program line that was running, when known."""

    def __init__(self, seconds: float, location: str | None = None) -> None:
        self.seconds = seconds
        self.location = location
        where = f"; the program was running {location}" if location else ""
        super().__init__(f"--timeout: the plan did not finish within {seconds:g} s{where}; raise --timeout if it needs longer")

    def at(self, location: str | None) -> "DeadlineExceeded":
        return DeadlineExceeded(self.seconds, location) if location else self


@contextlib.contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Raise DeadlineExceeded in the main thread once `seconds` have passed (None or 0: no limit)."""
    if not seconds or not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_alarm(_signum: int, _frame: FrameType | None) -> None:
        raise DeadlineExceeded(seconds)

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
