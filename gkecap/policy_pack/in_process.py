"""The bundled policy pack in gkecap's own process: an option (`gkecap plan --pack-in-process`), not the default.

By default gkecap runs the pack as the Pulumi CLI does, as its own process spoken to over the Analyzer gRPC
protocol (gkecap.policy_pack.process). In-process mode serves the same policies (gkecap.policies.pack_definition)
with the same pulumi_policy servicer the pack process serves over gRPC, and hands it the same request messages,
built by gkecap.policy_pack.messages: only the transport and the second interpreter are gone (its start-up,
its copy of every module and of every resource). Findings are the same (tests/gkecap/policy_pack/test_in_process.py).

Only the bundled pack: another pack's `__main__.py` starts a gRPC server when it runs.
"""

from __future__ import annotations

import concurrent.futures
import contextvars
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import grpc
import pulumi.runtime
from pulumi.runtime.proto import analyzer_pb2, analyzer_pb2_grpc

from gkecap.policy_pack.process import PolicyPackProcess
from gkecap.policy_pack.results import PolicyPackError

IN_PROCESS_ENV = "GKECAP_PACK_IN_PROCESS"
# What PolicyPack hands its servicer: "Python policy packs should specify a version in PulumiPolicy.yaml ...
# We always return "0.0.1"" (pulumi_policy/policy.py, PolicyPack.__init__).
_SERVICER_VERSION = "0.0.1"


class InProcessCallError(grpc.RpcError):
    """A servicer method failed or is not implemented: what gRPC would report to the client."""

    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        super().__init__(details)
        self._code = code
        self._details = details

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return self._details


class _Method:
    """One Analyzer method of the servicer, called as a gRPC stub's method is (`m(request)`, `m.future(request)`)."""

    def __init__(self, name: str, call: Callable[[str, Any], Any]) -> None:
        self._method = name
        self._call = call

    def __call__(self, request: Any) -> Any:
        return self._call(self._method, request)

    def future(self, request: Any) -> concurrent.futures.Future:
        future: concurrent.futures.Future = concurrent.futures.Future()
        try:
            future.set_result(self(request))
        except grpc.RpcError as exc:
            future.set_exception(exc)
        return future


class _InProcessStub:
    """An AnalyzerStub whose calls go to a servicer in this process, in the pack's own context."""

    def __init__(self, servicer: Any, context: contextvars.Context) -> None:
        self._servicer = servicer
        self._context = context
        self._lock = threading.Lock()  # a Context is entered by one thread at a time

    def __getattr__(self, name: str) -> _Method:
        return _Method(name, self._call)

    def _call(self, name: str, request: Any) -> Any:
        method = getattr(type(self._servicer), name, None)
        if method is None or method is getattr(analyzer_pb2_grpc.AnalyzerServicer, name, None):
            raise InProcessCallError(grpc.StatusCode.UNIMPLEMENTED, "Method not implemented!")
        try:
            with self._lock:
                return self._context.run(method, self._servicer, request, None)
        except Exception as exc:  # noqa: BLE001 -- as a gRPC server reports an exception in a handler
            raise InProcessCallError(grpc.StatusCode.UNKNOWN, f"Exception calling application: {exc}") from exc


def bundled_servicer() -> Any:
    """pulumi_policy's Analyzer servicer for the bundled pack, built as `PolicyPack(...)` builds it."""
    from gkecap.policies import pack_definition
    from gkecap.policies.stack_servicer import servicer_class

    class Servicer(servicer_class()):  # type: ignore[misc]  # made at run time: the class the pack process serves
        def _configure_runtime_settings(self) -> None:
            # The pack process configures the SDK from its environment on every call; here the pack's context
            # was configured once from the same values (InProcessPack.start), and gkecap's environment stays out.
            pass

    return Servicer(pack_definition.NAME, _SERVICER_VERSION, pack_definition.policies(), pack_definition.ENFORCEMENT_LEVEL,
                    None, pack_definition.DESCRIPTION)


class InProcessPack(PolicyPackProcess):
    """The bundled pack served in this process: the same calls and messages as `PolicyPackProcess`."""

    def __init__(self, pack_dir: Path, **kwargs: Any) -> None:
        super().__init__(pack_dir, **kwargs)
        self._servicer: Any = None

    def start(self) -> InProcessPack:
        if self._servicer is not None:
            return self
        try:
            self._servicer = bundled_servicer()
        except Exception as exc:  # noqa: BLE001 -- as a pack process that fails to start
            raise PolicyPackError(f"policy pack {self.pack_dir} failed to start in process: {type(exc).__name__}: {exc}") from None
        # The SDK's settings and config as the pack process has them (pulumi_policy's _configure_runtime_settings
        # reads PULUMI_CONFIG, PULUMI_PROJECT, PULUMI_STACK, PULUMI_DRY_RUN, PULUMI_ORGANIZATION), in a context of
        # the pack's own: the program's runs use theirs.
        context = contextvars.Context()
        context.run(self._configure_sdk)
        # It answers every AnalyzerStub method by name (__getattr__).
        self._stub = cast(analyzer_pb2_grpc.AnalyzerStub, _InProcessStub(self._servicer, context))
        return self

    def _configure_sdk(self) -> None:
        pulumi.runtime.set_all_config(self.stack_config, self.secret_keys)  # set_config would write the shared default
        pulumi.runtime.configure(pulumi.runtime.Settings(project=self.project, stack=self.stack, dry_run=self.dry_run,
                                                         organization=self.organization))

    def connect(self) -> InProcessPack:
        """The engine's start-up calls (Handshake, ConfigureStack), as the pack process gets them."""
        with self._connect_lock:
            if self._connected.is_set():
                return self
            self.start()
            self._startup_calls()
            self._connected.set()
            return self

    def _raw_future(self, method: str, wire: bytes) -> Any:
        # The servicer takes messages, as gRPC's server hands them to it after parsing the bytes.
        name = method.rsplit("/", 1)[1]
        request_type = analyzer_pb2.AnalyzeStackRequest if name == "AnalyzeStack" else analyzer_pb2.AnalyzeRequest
        return getattr(self.stub, name).future(request_type.FromString(wire))

    def _first_call_options(self) -> dict[str, Any]:
        return {}  # no connection to wait for

    def close(self) -> None:
        self._stub = None
        self._servicer = None

    def stderr_tail(self, lines: int = 20) -> str:
        return ""
