"""A preview's policy analysis: every Analyzer call the engine makes, over resources as they are registered.

`StreamingAnalysis` configures the pack and analyzes each resource while the program still runs (the pack,
another process, works in parallel with it), then runs AnalyzeStack once every resource is in. The pack
itself is a gkecap.policy_pack.process.PolicyPackProcess.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Mapping, Sequence

import grpc

from gkecap.engine.resource_record import ResourceRecord
from gkecap.policy_pack import messages
from gkecap.policy_pack.policy_config import PolicySettings
from gkecap.policy_pack.process import PolicyPackProcess
from gkecap.policy_pack.results import Diagnostic, PolicyResult

_IN_FLIGHT = 16  # Analyze calls kept in flight while streaming


class StreamingAnalysis:
    """Analyze resources while the program still registers them, as the engine does during a preview.

    `start()` connects and configures the pack on a worker thread; `submit(record)` queues a resource;
    `finish(records)` waits for the per-resource calls and runs AnalyzeStack. The worker keeps a few
    Analyze calls in flight so the pack (another process) works in parallel with the program.
    """

    def __init__(self, pack: PolicyPackProcess, policy_config: Mapping[str, PolicySettings] | None = None) -> None:
        self.pack = pack
        self.policy_config = policy_config
        self._queue: queue.SimpleQueue[ResourceRecord | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._work, name="policy-analysis", daemon=True)
        self._providers: dict[str, ResourceRecord] = {}
        self._diagnostics: list[Diagnostic] = []
        self._error: BaseException | None = None
        self._config: dict[str, PolicySettings] = {}
        self._analyzed = 0
        self._started = 0.0

    def start(self) -> StreamingAnalysis:
        self._started = time.perf_counter()
        self.pack.start()
        self._thread.start()
        return self

    def submit(self, record: ResourceRecord) -> None:
        self._queue.put(record)

    def finish(self, records: Sequence[ResourceRecord], *, while_waiting: Callable[[], object] | None = None) -> PolicyResult:
        """Wait for the Analyze calls, then run AnalyzeStack; `while_waiting` runs while the pack analyzes the stack."""
        self._queue.put(None)
        self._thread.join()
        if self._error is not None:
            raise self._error
        providers = {r.urn: r for r in records if r.is_provider}
        self._diagnostics.extend(self.pack.analyze_stack(records, providers, while_waiting=while_waiting))
        return PolicyResult(
            info=self.pack.info(),
            config=self._config,
            diagnostics=self._diagnostics,
            analyzed=self._analyzed,
            seconds=time.perf_counter() - self._started,
        )

    def abort(self) -> None:
        """Stop early (the program failed): stop the worker and the pack."""
        self._queue.put(None)
        self.pack.close()
        self._thread.join(timeout=30)

    def _work(self) -> None:
        try:
            self.pack.connect()
            self.pack.info()
            self.pack.plugin_version()
            self._config = self.pack.configure(self.policy_config)
            remediate = any(s.enforcement_level == "remediate" for s in self._config.values())
            in_flight: list[tuple[str, grpc.Future]] = []
            while True:
                record = self._queue.get()
                if record is None:
                    break
                if record.is_provider:
                    self._providers[record.urn] = record
                provider = messages.provider_of(record, self._providers)
                if remediate:
                    record = self._remediated(record, provider)
                in_flight.append((record.urn, self.pack.analyze_future(record, provider)))
                self._analyzed += 1
                if len(in_flight) >= _IN_FLIGHT:
                    urn, future = in_flight.pop(0)
                    self._diagnostics.extend(self.pack.analyzed(future, urn))
            for urn, future in in_flight:
                self._diagnostics.extend(self.pack.analyzed(future, urn))
        except BaseException as exc:  # noqa: BLE001 -- re-raised by finish()
            self._error = exc
            while self._queue.get() is not None:  # let submitters finish
                pass

    def _remediated(self, record: ResourceRecord, provider: ResourceRecord | None) -> ResourceRecord:
        response = self.pack.remediate(record, provider)
        if response is None:
            return record
        record, found = messages.remediated(record, response)
        self._diagnostics.extend(found)
        return record
