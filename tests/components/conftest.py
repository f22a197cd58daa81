"""Run Pulumi component code on the offline engine's recording monitor and mocked GCP answers.

`pulumi_run(fn)` runs `fn` inside a root stack, as `gkecap.engine.run.run_program` runs a program (fresh
SDK context, `run_in_stack` waits for every registration), and returns what was registered, with
inputs as the engine sees them (camelCase, plain values) and options (protect, ignoreChanges...).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import pulumi.runtime
import pytest
from pulumi.runtime import settings as runtime_settings
from pulumi.runtime.mocks import MockEngine
from pulumi.runtime.proto import engine_pb2

from gkecap.engine.mocks import GkeMocks
from gkecap.engine.recording_monitor import RecordingMonitor
from gkecap.engine.resource_record import ResourceRecord

PROJECT = "acme-ml"
REGION = "us-east5"


class _Logs(MockEngine):
    def __init__(self) -> None:
        super().__init__(logging.getLogger("tests.components"))
        self.entries: list[tuple[str, str]] = []

    def Log(self, request: Any) -> None:  # noqa: N802
        severity = {engine_pb2.WARNING: "warning", engine_pb2.ERROR: "error"}.get(request.severity, "info")
        self.entries.append((severity, request.message))


@dataclass
class Registered:
    records: list[ResourceRecord]
    logs: list[tuple[str, str]] = field(default_factory=list)

    def of_type(self, type_: str) -> list[ResourceRecord]:
        return [r for r in self.records if r.type == type_]

    def one(self, type_: str, name: str | None = None) -> ResourceRecord:
        found = [r for r in self.of_type(type_) if name is None or r.name == name]
        assert len(found) == 1, f"expected one {type_} {name or ''}, got {[r.name for r in found]}"
        return found[0]

    def warnings(self) -> list[str]:
        return [m for s, m in self.logs if s == "warning"]


def run_registered(fn: Callable[[], Any], config: dict[str, str] | None = None) -> Registered:
    monitor = RecordingMonitor(GkeMocks(project=PROJECT, region=REGION), "gke-capacity", "test")
    logs = _Logs()

    def run() -> None:
        runtime_settings.ROOT.set(None)
        pulumi.runtime.configure(
            pulumi.runtime.Settings(project="gke-capacity", stack="test", monitor=monitor, engine=logs, dry_run=False)
        )
        pulumi.runtime.set_all_config({"gcp:project": PROJECT, "gcp:region": REGION, **(config or {})}, [])
        loop = asyncio.new_event_loop()
        # A program that raises leaves futures whose exception nobody reads; asyncio would log them (with a
        # formatted traceback, which parses source with `ast`) from a finalizer at some later garbage
        # collection -- possibly in the middle of another module's AST conversion, which CPython 3.11.7
        # reports as "AST constructor recursion depth mismatch". The exception reaches the test anyway.
        loop.set_exception_handler(lambda _loop, _context: None)
        executor = ThreadPoolExecutor(max_workers=4)
        loop.set_default_executor(executor)
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(pulumi.runtime.run_in_stack(fn))
        finally:
            pending = asyncio.all_tasks(loop)
            for task in pending:
                task.cancel()
            for task in pending:
                with contextlib.suppress(BaseException):
                    loop.run_until_complete(task)
            loop.close()
            asyncio.set_event_loop(None)
            executor.shutdown(wait=True)

    contextvars.Context().run(run)
    return Registered(monitor.records, logs.entries)


@pytest.fixture
def pulumi_run() -> Callable[..., Registered]:
    return run_registered
