"""How commands print: a console that never cuts a table in CI logs, and a progress indicator for terminals.

* `stdout_console()`: on a terminal, the window's width; anywhere else (a CI log, `| tee`, a file) `COLUMNS`
  when set, else a readable 100 columns. Tables fit that width (`gkecap.report.fit`): wrapped, or stacked a block
  per row where even wrapped they would not fit, so a pool called `h100-dws-long` is printed whole at any width,
  never as `h100-d…`.
* `printable(text)` and `SafeConsole`: text from users (resource and workload names, log and violation messages)
  is printed with its control characters escaped (`\\x1b`), never as the terminal would act on them (clear the
  screen, set the window title, move the cursor); the console's own styles are unaffected.
* `progress(label)`: a spinner on stderr while a plan runs, once it has taken more than a moment (half a
  second), only when stderr is a terminal (a CI log or a pipe stays silent), erased when the plan is done; with
  `detail`, the label is followed by what it returns, refreshed every second (how far a simulation got).
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TextIO

from rich.console import Console
from rich.markup import escape
from rich.segment import Segment

READABLE_WIDTH = 100  # piped text wraps here unless COLUMNS says otherwise
PROGRESS_DELAY = 0.5  # seconds: a plan quicker than this shows no spinner
PROGRESS_REFRESH = 1.0  # seconds between two refreshes of a detail


# C0 controls but tab and line feed, DEL, C1 controls (ECMA-48: a terminal acts on each), and the bidirectional
# overrides and isolates that reorder what a reader sees (Unicode TR#9; "Trojan Source", CVE-2021-42574).
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def printable(text: str) -> str:
    """`text` with every control character escaped (`\\x1b`); line breaks and tabs are kept."""
    return _CONTROL.sub(_escaped, text) if _CONTROL.search(text) else text


class SafeConsole(Console):
    """A rich console that escapes control characters in the text it renders (`printable`): strings before they
    are measured (a table sizes its columns to the escaped text), and every rendered segment (a `Text` built by
    hand). The escape codes of its own styles are added after rendering, so they are kept."""

    def render_str(self, text: str, **options: Any) -> Any:
        return super().render_str(printable(text), **options)

    def render(self, renderable: Any, options: Any = None) -> Iterable[Segment]:
        for segment in super().render(renderable, options):
            if segment.control is None and _CONTROL.search(segment.text):
                yield Segment(printable(segment.text), segment.style)
            else:
                yield segment


def stdout_console(**options: Any) -> Console:
    """The console for a command's output on stdout (control characters of user text escaped)."""
    if sys.stdout.isatty():
        return SafeConsole(**options)
    return SafeConsole(width=piped_width(), **options)


def piped_width() -> int:
    """The width of output that goes to no terminal: `COLUMNS` if it is a width, else READABLE_WIDTH."""
    columns = os.environ.get("COLUMNS", "")
    return int(columns) if columns.isdigit() and int(columns) >= 20 else READABLE_WIDTH


@contextlib.contextmanager
def progress(label: str, stream: TextIO | None = None, delay: float = PROGRESS_DELAY,
             detail: Callable[[], str] | None = None, every: float = PROGRESS_REFRESH) -> Iterator[None]:
    """Show `label` with a spinner on `stream` (default stderr) once the block has run `delay` seconds, if
    `stream` is a terminal; with `detail`, followed by `detail()` every `every` seconds (best effort: it runs
    beside the block, and a failing or empty detail leaves the label alone)."""
    stream = stream if stream is not None else sys.stderr
    if not stream.isatty():
        yield
        return
    status = Console(file=stream, force_terminal=True).status(label, spinner="dots")  # transient: erased at the end
    lock = threading.Lock()
    finished = threading.Event()

    def show() -> None:
        with lock:
            if finished.is_set():
                return
            status.start()
        while detail is not None and not finished.wait(every):
            try:
                text = detail()
            except Exception:  # noqa: BLE001 -- read while the block changes it: the next refresh tries again
                continue
            with lock:
                if text and not finished.is_set():
                    status.update(f"{label}: {escape(printable(text))}")

    timer = threading.Thread(target=lambda: None if finished.wait(delay) else show(), daemon=True)
    timer.start()
    try:
        yield
    finally:
        with lock:
            finished.set()
            status.stop()
