"""A preview's policy analysis: every Analyzer call the engine makes, over resources as they are registered.

`StreamingAnalysis` configures the pack and analyzes each resource while the program still runs (the pack,
another process, works in parallel with it), then runs AnalyzeStack once every resource is in. The pack
itself is a gkecap.policy_pack.process.PolicyPackProcess.
"""

from __future__ import annotations

import collections
import queue
import threading
import time
from collections.abc import Mapping, Sequence

import grpc

from gkecap.engine.resource_record import ResourceRecord
from gkecap.policy_pack import messages
from gkecap.policy_pack.policy_config import PolicySettings
from gkecap.policy_pack.process import PolicyPackProcess
from gkecap.policy_pack.secret_redaction import redact, secret_texts
from gkecap.policy_pack.results import Diagnostic, PolicyResult

_BACKLOG = 512  # Analyze calls in flight before a submitter waits for the oldest (bounds the requests held)


class StreamingAnalysis:
    """Analyze resources while the program still registers them, as the engine does during a preview.

    `start()` connects and configures the pack on a worker thread; `submit(record)` hands over a resource;
    `finish(records)` waits for the per-resource calls and runs AnalyzeStack.

    Once the pack is configured, `submit` starts the resource's Analyze call itself (gRPC sends it without the
    GIL). A worker thread that took each record from a queue needed the GIL several times per resource (take,
    send, collect), and the program's threads hold it in 5 ms turns: at 1,000 teams the pack had answered about
    1,000 of 5,478 calls when the program ended, and analyzed the rest while the user waited (5 s; measured,
    benchmarks/RESULTS.md). Records submitted before the pack is configured wait in a queue the worker drains.
    With a `remediate` policy each resource is remediated, then analyzed, one at a time on the worker, as
    the engine does.
    """

    def __init__(self, pack: PolicyPackProcess, policy_config: Mapping[str, PolicySettings] | None = None) -> None:
        self.pack = pack
        self.policy_config = policy_config
        self._queue: queue.SimpleQueue[ResourceRecord | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._work, name="policy-analysis", daemon=True)
        self._lock = threading.Lock()
        self._direct = False  # configured, nothing to remediate: submitters send the calls themselves
        self._in_flight: collections.deque[tuple[str, grpc.Future]] = collections.deque()
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
        with self._lock:
            if self._direct and self._error is None:
                self._send(record)
            else:  # put under the lock: the worker's switch to direct sending sees it (`_go_direct`)
                self._queue.put(record)

    def finish(self, records: Sequence[ResourceRecord]) -> PolicyResult:
        """Wait for the Analyze calls, then run AnalyzeStack."""
        self._queue.put(None)
        self._thread.join()
        with self._lock:
            if self._error is None:
                try:
                    self._collect()
                except BaseException as exc:  # noqa: BLE001 -- raised below
                    self._error = exc
        if self._error is not None:
            raise self._error
        providers = {r.urn: r for r in records if r.is_provider}
        self._diagnostics.extend(self.pack.analyze_stack(records, providers))
        secrets = secret_texts(records)
        return PolicyResult(
            info=self.pack.info(),
            config=self._config,
            diagnostics=redact(self._diagnostics, secrets) if secrets else self._diagnostics,
            analyzed=self._analyzed,
            seconds=time.perf_counter() - self._started,
        )

    def abort(self) -> None:
        """Stop early (the program failed): stop the worker and the pack."""
        self._queue.put(None)
        self.pack.close()
        self._thread.join(timeout=30)

    def _send(self, record: ResourceRecord) -> None:
        """Start `record`'s Analyze call (under the lock: one order of calls, providers seen before their users)."""
        try:
            if record.is_provider:
                self._providers[record.urn] = record
            provider = messages.provider_of(record, self._providers)
            self._in_flight.append((record.urn, self.pack.analyze_future(record, provider)))
            self._analyzed += 1
            # Harvest what has come back; wait for the oldest only when too many calls are out.
            while self._in_flight and (len(self._in_flight) > _BACKLOG or self._in_flight[0][1].done()):
                self._collect_oldest()
        except BaseException as exc:  # noqa: BLE001 -- re-raised by finish(); the program goes on meanwhile
            self._error = exc

    def _collect(self) -> None:
        while self._in_flight:
            self._collect_oldest()

    def _collect_oldest(self) -> None:
        urn, future = self._in_flight.popleft()
        self._diagnostics.extend(self.pack.analyzed(future, urn))

    def _work(self) -> None:
        # Whether the stop signal (None) was taken: a failure after it must not wait for a second one that never
        # comes (that hung the run).
        stopped = False
        try:
            self.pack.connect()
            self.pack.info()
            self.pack.plugin_version()
            self._config = self.pack.configure(self.policy_config)
            if not any(s.enforcement_level == "remediate" for s in self._config.values()):
                stopped = self._go_direct()
                return
            while True:
                record = self._queue.get()
                if record is None:
                    stopped = True
                    break
                if record.is_provider:
                    self._providers[record.urn] = record
                provider = messages.provider_of(record, self._providers)
                record = self._remediated(record, provider)
                self._diagnostics.extend(self.pack.analyzed(self.pack.analyze_future(record, provider), record.urn))
                self._analyzed += 1
        except BaseException as exc:  # noqa: BLE001 -- re-raised by finish()
            self._error = exc
            while not stopped and self._queue.get() is not None:  # let submitters finish
                pass

    def _go_direct(self) -> bool:
        """Send what was queued before the pack was ready, then let submitters send (True if the stop was taken)."""
        while True:
            try:
                record = self._queue.get_nowait()
            except queue.Empty:
                with self._lock:
                    # Checked again under the lock: a submitter that found `_direct` false has queued already.
                    if self._queue.empty():
                        self._direct = True
                        return False
                continue
            if record is None:
                return True
            with self._lock:
                self._send(record)
                if self._error is not None:
                    raise self._error

    def _remediated(self, record: ResourceRecord, provider: ResourceRecord | None) -> ResourceRecord:
        response = self.pack.remediate(record, provider)
        if response is None:
            return record
        record, found = messages.remediated(record, response)
        self._diagnostics.extend(found)
        return record
