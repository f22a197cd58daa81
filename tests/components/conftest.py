"""Run Pulumi component code on the offline engine's recording monitor and mocked GCP answers.

`pulumi_run(fn)` runs `fn` with `gkecap.engine.run.run_callable`, the engine's own run (fresh SDK context,
`fn` inside the root stack, one wait for every registration and output it started), and returns what was
registered, with inputs as the engine sees them (camelCase, plain values) and options (protect,
ignoreChanges...), and what was logged as `(severity, message)`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from gkecap.engine.mocks import GkeMocks
from gkecap.engine.recording_monitor import RecordingMonitor
from gkecap.engine.resource_record import ResourceRecord
from gkecap.engine.run import RecordingEngine, run_callable

PROJECT = "acme-ml"
REGION = "us-east5"


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
    engine = RecordingEngine()
    run_callable(fn, monitor, engine, config={"gcp:project": PROJECT, "gcp:region": REGION, **(config or {})})
    return Registered(monitor.records, [(entry.severity, entry.message) for entry in engine.entries])


@pytest.fixture
def pulumi_run() -> Callable[..., Registered]:
    return run_registered
