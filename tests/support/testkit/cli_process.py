"""Run the real `gkecap` CLI in a subprocess, as CI runs it, and see what it left behind.

`run_gkecap(args, cwd=...)` starts `python -m gkecap ...` (the installed package, the interpreter of the
tests), or with `console_script=True` the installed `gkecap` entry point beside that interpreter, as a user runs
it, in a session of its own, waits at most `timeout` seconds (a hang fails the test instead of the whole
run) and returns a `CliRun`: exit code, stdout, stderr, and `leftovers`, the processes of that session still
alive after gkecap exited (the policy pack it should have stopped). Processes are read from /proc: a
child keeps its session when its parent dies.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass
class CliRun:
    exit_code: int
    stdout: str
    stderr: str
    leftovers: list[int]
    seconds: float

    @property
    def error_lines(self) -> list[str]:
        return [line for line in self.stderr.splitlines() if line.startswith("error: ")]


def gkecap_command(console_script: bool = False) -> list[str]:
    """The command that runs gkecap: `python -m gkecap`, or the console script pip installed beside the interpreter."""
    if console_script:
        script = Path(sys.executable).parent / "gkecap"
        assert script.is_file(), f"no gkecap console script at {script} (install the package: make test)"
        return [str(script)]
    return [sys.executable, "-m", "gkecap"]


def run_gkecap(args: list[str], *, cwd: Path, timeout: float = 120.0, env: dict[str, str] | None = None,
               console_script: bool = False, stdin: int | bytes | None = subprocess.DEVNULL) -> CliRun:
    """`stdin`: DEVNULL (the default), a file descriptor, or bytes fed to gkecap's stdin."""
    started = time.monotonic()
    data = stdin if isinstance(stdin, bytes) else None
    process = subprocess.Popen(  # noqa: S603 -- our own interpreter and module
        [*gkecap_command(console_script), *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.PIPE if data is not None else stdin,
        start_new_session=True,
        env={**os.environ, "COLUMNS": "200", **(env or {})},
    )
    try:
        stdout, stderr = process.communicate(data, timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_session(process.pid)
        stdout, stderr = process.communicate()
        raise AssertionError(f"gkecap {' '.join(args)} did not end within {timeout}s\nstderr:\n{stderr.decode(errors='replace')[-3000:]}") from None
    seconds = time.monotonic() - started
    leftovers = wait_session_empty(process.pid, grace=3.0)
    kill_session(process.pid)  # never leave them to the next test
    return CliRun(process.returncode, stdout.decode(errors="replace"), stderr.decode(errors="replace"), leftovers, seconds)


def session_members(sid: int) -> list[int]:
    """Live (not zombie) processes whose session id is `sid`."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()  # after "pid (comm) ": state ppid pgrp session ...
        if int(fields[3]) == sid and fields[0] != "Z":
            members.append(int(entry.name))
    return members


def wait_session_empty(sid: int, grace: float) -> list[int]:
    """The session's processes still alive after `grace` seconds (gkecap's own clean-up is allowed that long)."""
    deadline = time.monotonic() + grace
    while True:
        members = session_members(sid)
        if not members or time.monotonic() > deadline:
            return members
        time.sleep(0.05)


def kill_session(sid: int) -> None:
    for pid in session_members(sid):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def run_with_terminal_stderr(command: list[str], timeout: float = 300) -> tuple[int, bytes]:
    """Run `command` with its stderr a pseudo-terminal (a developer's shell) and its stdout a pipe; the exit code
    and every byte written to the terminal (a progress indicator draws there only when it is one)."""
    import pty
    import threading

    primary, secondary = pty.openpty()
    chunks: list[bytes] = []

    def read() -> None:
        while True:
            try:
                chunk = os.read(primary, 4096)
            except OSError:  # the terminal closed
                return
            if not chunk:
                return
            chunks.append(chunk)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        process = subprocess.run(command, stdout=subprocess.PIPE, stderr=secondary, timeout=timeout,
                                 env={**os.environ, "TERM": "xterm"})
    finally:
        os.close(secondary)
        reader.join(timeout=10)
        os.close(primary)
    return process.returncode, b"".join(chunks)
