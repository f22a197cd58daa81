"""The offline engine: run Python Pulumi code on mocks and record every resource it registers.

`run_program` does what `pulumi preview` does for the program side, without the CLI or a cloud:
it configures the Python SDK with the recording monitor (gkecap.engine.recording_monitor) and the mocked
provider answers (gkecap.engine.mocks), hands the program its stack config exactly as the CLI does
(gkecap.engine.stack_config), runs the program's entry point inside the root `pulumi:pulumi:Stack` with
`pulumi.runtime.run_in_stack` (the SDK's own entry path, which waits for every outstanding
registration, apply and output before returning; the engine first waits for them itself, in one pass,
see `_settle`), and returns the records in registration order.

`run_callable` is that run for any Python callable (the one both `run_program` and the component tests'
`pulumi_run` fixture use): a fresh context (the SDK keeps its settings in context variables), its own
event loop and worker threads, the callable inside the root stack, one wait for everything it started,
and every task still pending cancelled afterwards, so one process can run one after another.

An exception in the program (a `SpecError` from `gkecap.components.spec`, a typo, a failed invoke) is raised
as `ProgramFailed` carrying the original exception; nothing of the half-run program is returned.
`run_program` also runs the program in its project directory and forgets the program's own modules
afterwards.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import inspect
import logging
import os
import runpy
import sys
import time
import traceback
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pulumi.runtime
from pulumi.runtime.mocks import MockEngine
from pulumi.runtime.proto import engine_pb2

from gkecap.compat import pulumi_runtime
from gkecap.engine.deadline import DeadlineExceeded
from gkecap.engine.deferred_packages import defer_heavy_packages
from gkecap.engine.mocks import GkeMocks, mocks_for_config
from gkecap.engine.origins import RegistrationOrigins
from gkecap.engine.stack_references import check_reference
from gkecap.engine.program import Program
from gkecap.engine.program_exit import SDK_THREAD_PREFIX, contained_program, ended_early
from gkecap.engine.recording_monitor import RecordingMonitor
from gkecap.engine.resource_record import ROOT_STACK_TYPE, ResourceRecord
from gkecap.engine.stack_config import StackConfig
from gkecap.collector import fewer_collections

_SEVERITIES = {
    engine_pb2.DEBUG: "debug",
    engine_pb2.INFO: "info",
    engine_pb2.WARNING: "warning",
    engine_pb2.ERROR: "error",
}


@dataclass(frozen=True)
class LogEntry:
    severity: str  # debug | info | warning | error
    message: str
    urn: str | None = None


class ProgramFailed(Exception):
    """The program raised. `cause` is the original exception (e.g. a gkecap.components.spec.SpecError)."""

    def __init__(self, cause: BaseException, program: Program, location: str | None, origins: RegistrationOrigins | None = None) -> None:
        self.cause = cause
        self.program = program
        self.location = location
        self.origins = origins  # where the program created each resource it got to
        super().__init__(f"{type(cause).__name__}: {cause}")


@dataclass
class EngineRun:
    program: Program
    stack: str
    config: StackConfig
    records: list[ResourceRecord]
    logs: list[LogEntry] = field(default_factory=list)
    invokes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    origins: RegistrationOrigins | None = None  # the program line that created each resource

    @property
    def stack_record(self) -> ResourceRecord | None:
        return next((r for r in self.records if r.type == ROOT_STACK_TYPE), None)

    @property
    def exports(self) -> dict[str, Any]:
        root = self.stack_record
        return root.outputs if root is not None else {}


class RecordingEngine(MockEngine):
    """Collects what the code and the SDK log (`pulumi.log.*`) in `entries` instead of printing it."""

    def __init__(self) -> None:
        super().__init__(logging.getLogger("gkecap.engine.program"))
        self.entries: list[LogEntry] = []

    def Log(self, request: Any) -> None:  # noqa: N802
        if request.severity == engine_pb2.DEBUG:
            return  # the SDK's own tracing, several lines per resource
        self.entries.append(LogEntry(_SEVERITIES.get(request.severity, "info"), request.message, request.urn or None))


def run_program(
    program: Program,
    stack: str,
    config: StackConfig,
    *,
    mocks: GkeMocks | None = None,
    on_record: Callable[[ResourceRecord], None] | None = None,
    preview: bool = False,
    organization: str = "organization",
    workers: int | None = None,
    stack_outputs: Mapping[str, Mapping[str, Any]] | None = None,
) -> EngineRun:
    """Run `program` for `stack` with `config`; return what it registered. Raises ProgramFailed.

    `stack_outputs` ({stack name: outputs}) answers the program's `pulumi.StackReference`s."""
    started = time.perf_counter()
    defer_heavy_packages()  # a class of pulumi_gcp.compute without the other 280 (gkecap.engine.deferred_packages)
    mocks = mocks or mocks_for_config(config.values)
    monitor = RecordingMonitor(mocks, program.project, stack, on_record=on_record)
    monitor.stack_outputs = dict(stack_outputs or {})
    origins = RegistrationOrigins(program.entry.parent)
    engine = RecordingEngine()
    previous_cwd = Path.cwd()
    modules_before = set(sys.modules)
    try:
        os.chdir(program.project_dir)  # the CLI runs a program in its project directory
        check = functools.partial(check_reference, stack_outputs=monitor.stack_outputs)
        # sys.exit/os._exit/print in the program: see gkecap.engine.program_exit
        with contained_program(), fewer_collections(), origins.capture(on_create=lambda type_, name, props: check(type_, name, props)):
            run_callable(
                lambda: _run_entry(program.entry),
                monitor,
                engine,
                config=config.runtime,
                secret_keys=config.secret_keys,
                preview=preview,
                organization=organization,
                root_directory=program.project_dir,
                workers=workers,
            )
    except (SystemExit, KeyboardInterrupt) as exc:  # the program ended the run: never gkecap's exit code
        raise ProgramFailed(ended_early(exc), program, _program_location(exc, program), origins) from exc
    except DeadlineExceeded as exc:  # --timeout (a BaseException): with the program line that was running
        raise ProgramFailed(exc, program, _program_location(exc, program), origins) from exc
    except Exception as exc:  # noqa: BLE001 -- whatever the program raised, reported as ProgramFailed
        raise ProgramFailed(exc, program, _program_location(exc, program), origins) from exc
    finally:
        os.chdir(previous_cwd)
        _forget_program_modules(program, modules_before)
    return EngineRun(
        program=program,
        stack=stack,
        config=config,
        records=monitor.records,
        logs=engine.entries + [LogEntry("warning", note) for note in monitor.notes],
        invokes=monitor.invokes,
        seconds=time.perf_counter() - started,
        origins=origins,
    )


def run_callable(
    fn: Callable[[], Any],
    monitor: RecordingMonitor,
    engine: MockEngine,
    *,
    config: Mapping[str, str] | None = None,
    secret_keys: Iterable[str] = (),
    preview: bool = False,
    organization: str = "organization",
    root_directory: Path | None = None,
    workers: int | None = None,
) -> None:
    """Call `fn` inside the root stack of `monitor.project`/`monitor.stack`, and wait for what it started.

    The SDK is configured in a fresh context with `monitor` (registrations, invokes) and `engine` (logs),
    and the stack `config` (`{"project:key": value}`, `secret_keys` among them). Whatever `fn` raises, or
    the SDK raises for a registration or apply that failed, is raised here as is.
    """
    settings = {
        "project": monitor.project,
        "stack": monitor.stack,
        "monitor": monitor,
        "engine": engine,
        "dry_run": preview,
        "organization": organization,
        "root_directory": str(root_directory) if root_directory is not None else None,
    }
    # Fresh SDK settings, config and root resource for this run (the SDK's Settings are context variables,
    # set when the Settings object is made: it is made inside the new context).
    contextvars.Context().run(_run_in_context, fn, settings, dict(config or {}), list(secret_keys), workers)


def _run_in_context(
    fn: Callable[[], Any],
    settings: dict[str, Any],
    config: dict[str, str],
    secret_keys: list[str],
    workers: int | None,
) -> None:
    pulumi_runtime.reset_root()
    pulumi.runtime.configure(pulumi.runtime.Settings(**settings))
    pulumi.runtime.set_all_config(config, secret_keys)

    loop = asyncio.new_event_loop()
    # Code that raises leaves futures whose exception nobody reads; asyncio would format them from a
    # finalizer at a later garbage collection (CPython 3.11.7 can then fail an unrelated `ast` parse with
    # "AST constructor recursion depth mismatch"). The exception itself reaches the caller.
    loop.set_exception_handler(lambda _loop, _context: None)
    # The SDK sends every registration through the loop's default executor, as under the CLI.
    executor = ThreadPoolExecutor(max_workers=workers or min(32, (os.cpu_count() or 1) + 4), thread_name_prefix=SDK_THREAD_PREFIX)
    loop.set_default_executor(executor)
    asyncio.set_event_loop(loop)
    try:
        loop.run_until_complete(pulumi.runtime.run_in_stack(lambda: _call_then_settle(fn)))
    finally:
        _cancel_pending(loop)
        loop.close()
        asyncio.set_event_loop(None)
        executor.shutdown(wait=True)


def _call_then_settle(fn: Callable[[], Any]) -> Any:
    result = fn()

    async def settle() -> None:
        if inspect.isawaitable(result):
            await result  # as run_in_stack would
        await _settle()

    return settle()


async def _settle() -> None:
    """Wait until every registration and Output the program started has finished, before the SDK's own wait.

    The SDK's `wait_for_rpcs` waits on all pending Outputs with `asyncio.wait(FIRST_COMPLETED)` in a loop,
    re-subscribing to every pending Output each time one finishes: O(pending) per wake-up, quadratic over a
    program. Waiting for all of them at once subscribes each Output once; the SDK's wait then finds nothing
    left (or only what finished with an error, which it reports as before: nothing is awaited here).
    """
    while True:
        await asyncio.sleep(0)  # let the registrations the program queued start
        pending = pulumi_runtime.pending_work()  # [] where the SDK's internals are not the tested ones
        if not pending:
            return
        await asyncio.wait(pending)  # ALL_COMPLETED; a failure stays in its task for the SDK to raise


CANCEL_GRACE = 2.0  # seconds the cancelled tasks of a run get to end


def _finish_waiting(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


def _cancel_pending(loop: asyncio.AbstractEventLoop) -> None:
    """Cancel what the run left and give it `CANCEL_GRACE` seconds to end. A task may never end: it catches its
    cancellation, or awaits an Output whose resolver died with the program (`SystemExit` in an `.apply()` left
    the SDK's tasks waiting forever, and gkecap with them); what is left then is abandoned with the loop."""
    pending = asyncio.all_tasks(loop)
    for task in pending:
        task.cancel()
    ends = time.monotonic() + CANCEL_GRACE
    while pending and (left := ends - time.monotonic()) > 0:
        # A plain future, not a coroutine: one that never started would be reported as "never awaited".
        waiter = loop.create_future()
        left_running = [len(pending)]  # counted down as each ends: thousands of tasks are checked once each

        def wake(_task: Any, waiter: asyncio.Future = waiter, left_running: list[int] = left_running) -> None:
            left_running[0] -= 1
            if left_running[0] <= 0 and not waiter.done():
                waiter.set_result(None)

        for task in pending:
            task.add_done_callback(wake)
        timer = loop.call_later(left, _finish_waiting, waiter)
        try:  # a task's SystemExit or KeyboardInterrupt comes out of the loop: keep waiting for the others
            loop.run_until_complete(waiter)
        except (Exception, SystemExit, KeyboardInterrupt, asyncio.CancelledError):  # noqa: BLE001 -- the run's own error is raised already
            pass
        finally:
            timer.cancel()
        pending = {task for task in pending if not task.done()}


def _run_entry(entry: Path) -> None:
    # As the language host: a program directory runs its __main__.py with the directory on sys.path.
    target = entry.parent if entry.name == "__main__.py" else entry
    runpy.run_path(str(target), run_name="__main__")


def _forget_program_modules(program: Program, before: set[str]) -> None:
    # A later program may have a sibling module of the same name (helpers.py...): drop this one's.
    # Only the program directory's: library modules (components...) keep their identity across runs.
    root = str(program.entry.parent) + os.sep
    for name in set(sys.modules) - before:
        module_file = getattr(sys.modules.get(name), "__file__", None) or ""
        if module_file.startswith(root) and not _is_installed(module_file):
            sys.modules.pop(name, None)


def _is_installed(module_file: str) -> bool:
    return "site-packages" in module_file or "dist-packages" in module_file


def _program_location(exc: BaseException, program: Program) -> str | None:
    """`file:line` of the innermost frame in the program's own directory, for the error message."""
    root = str(program.entry.parent) + os.sep
    location = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename.startswith(root) and not _is_installed(frame.filename):
            location = f"{os.path.relpath(frame.filename, program.project_dir)}:{frame.lineno}"
    return location
