"""How commands print: a console that never cuts a table in CI logs, and a progress indicator for terminals.

* `stdout_console()`: on a terminal, the window's width; anywhere else (a CI log, `| tee`, a file) `COLUMNS`
  when set, else a readable 100 columns. Tables fit that width (`gkecap.report.fit`): wrapped, or stacked a block
  per row where even wrapped they would not fit, so a pool called `h100-dws-long` is printed whole at any width,
  never as `h100-d…`.
* `progress(label)`: a spinner on stderr while a plan runs, once it has taken more than a moment (half a
  second), only when stderr is a terminal (a CI log or a pipe stays silent), erased when the plan is done.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Iterator
from typing import Any, TextIO

from rich.console import Console

READABLE_WIDTH = 100  # piped text wraps here unless COLUMNS says otherwise
PROGRESS_DELAY = 0.5  # seconds: a plan quicker than this shows no spinner


def stdout_console(**options: Any) -> Console:
    """The console for a command's output on stdout."""
    if sys.stdout.isatty():
        return Console(**options)
    return Console(width=piped_width(), **options)


def piped_width() -> int:
    """The width of output that goes to no terminal: `COLUMNS` if it is a width, else READABLE_WIDTH."""
    columns = os.environ.get("COLUMNS", "")
    return int(columns) if columns.isdigit() and int(columns) >= 20 else READABLE_WIDTH


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
