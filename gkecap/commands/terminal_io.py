"""How commands print: a console that never cuts a table in CI logs, and a progress indicator for terminals.

* `stdout_console()`: on a terminal, rich fits tables to the window; anywhere else (a CI log, `| tee`,
  a file) there is no window to fit, so the page is as wide as the widest row: a pool called
  `h100-dws-long` is printed whole, never as `h100-d…`.
* `progress(label)`: a spinner on stderr while a plan runs, once it has taken more than a moment (half a
  second), only when stderr is a terminal (a CI log or a pipe stays silent), erased when the plan is done.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Iterator
from typing import Any, TextIO

from rich.console import Console

LOG_WIDTH = 4096  # wider than any row a report prints; rich pads nothing beyond a table's own width
PROGRESS_DELAY = 0.5  # seconds: a plan quicker than this shows no spinner


def stdout_console(**options: Any) -> Console:
    """The console for a command's output on stdout."""
    if sys.stdout.isatty():
        return Console(**options)
    return Console(width=LOG_WIDTH, **options)


@contextlib.contextmanager
def progress(label: str, stream: TextIO | None = None, delay: float = PROGRESS_DELAY) -> Iterator[None]:
    """Show `label` with a spinner on `stream` (default stderr) once the block has run `delay` seconds, if
    `stream` is a terminal."""
    stream = stream if stream is not None else sys.stderr
    if not stream.isatty():
        yield
        return
    status = Console(file=stream, force_terminal=True).status(label, spinner="dots")  # transient: erased at the end
    lock = threading.Lock()
    finished = False

    def show() -> None:
        with lock:
            if not finished:
                status.start()

    timer = threading.Timer(delay, show)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        with lock:
            finished = True
            status.stop()
