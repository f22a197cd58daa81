"""How commands print: a console that never cuts a table in CI logs, and a progress indicator for terminals.

* `stdout_console()`: on a terminal, rich fits tables to the window; anywhere else (a CI log, `| tee`,
  a file) there is no window to fit, so the page is as wide as the widest row: a pool called
  `h100-dws-long` is printed whole, never as `h100-d…`.
* `progress(label)`: a spinner on stderr while a plan runs, only when stderr is a terminal (a CI log or a
  pipe stays silent), erased when the plan is done.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import Any, TextIO

from rich.console import Console

LOG_WIDTH = 4096  # wider than any row a report prints; rich pads nothing beyond a table's own width


def stdout_console(**options: Any) -> Console:
    """The console for a command's output on stdout."""
    if sys.stdout.isatty():
        return Console(**options)
    return Console(width=LOG_WIDTH, **options)


@contextlib.contextmanager
def progress(label: str, stream: TextIO | None = None) -> Iterator[None]:
    """Show `label` with a spinner on `stream` (default stderr) while the block runs, if it is a terminal."""
    stream = stream if stream is not None else sys.stderr
    if not stream.isatty():
        yield
        return
    console = Console(file=stream, force_terminal=True)
    with console.status(label, spinner="dots"):  # transient: erased when the block ends
        yield
