"""A program that ends the process, or prints, must not decide gkecap's exit code or its stdout.

`gkecap plan --program` runs the program in gkecap's own process (as the language host runs it in its own).
A program that calls `sys.exit(0)` (or raises `SystemExit`/`KeyboardInterrupt`, also inside an `.apply()`)
or `os._exit(0)` would otherwise end gkecap with the program's code: exit 0 with no output and no policy
run, or an undocumented code, and the policy pack left running. `contained_program()` guards one run:

- `os._exit` raises `ProgramEnded` instead of ending the process (the process must live on to report);
- `ended_early(exc)` turns a `SystemExit`/`KeyboardInterrupt` into `ProgramEndedEarly`, a `ValueError` the CLI
  reports as invalid input (exit 2: "the program ended early ...");
- `print()` and `sys.stdout` go to stderr: gkecap's stdout holds only its own document (`--format json`).
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Iterator
from typing import NoReturn


SDK_THREAD_PREFIX = "gkecap-sdk"  # gkecap.engine.run's executor threads, where the SDK runs registrations


class ProgramEnded(SystemExit):
    """The program called `os._exit(code)`."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.how = f"os._exit({code})"


class ProgramEndedEarly(ValueError):
    """The program ended the run before it finished (reported as exit 2, never as the program's own code)."""


def ended_early(exc: BaseException) -> ProgramEndedEarly:
    if isinstance(exc, ProgramEnded):
        how = exc.how
    elif isinstance(exc, SystemExit):
        how = f"sys.exit({exc.code!r})" if exc.code is not None else "sys.exit()"
    else:
        how = type(exc).__name__
    return ProgramEndedEarly(
        f"the program ended early ({how}) before it finished registering its resources; nothing was checked. "
        "A Pulumi program must return normally (raise an exception to report an error)"
    )


@contextlib.contextmanager
def contained_program() -> Iterator[None]:
    """Run a program with `os._exit` raising and stdout sent to stderr (restored afterwards).

    Only the program's threads are intercepted (the main thread, which runs it and its event loop, and the SDK's
    `gkecap-sdk` workers): gkecap's own threads (a deadline's watchdog) still end the process at once.
    """
    real_exit = os._exit

    def _exit_instead(code: int = 0) -> NoReturn:
        thread = threading.current_thread()
        if thread is threading.main_thread() or thread.name.startswith(SDK_THREAD_PREFIX):
            raise ProgramEnded(code)
        real_exit(code)

    os._exit = _exit_instead  # type: ignore[assignment]
    try:
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        os._exit = real_exit
