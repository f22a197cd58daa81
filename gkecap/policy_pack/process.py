"""Run a Python policy pack as the Pulumi engine does, and call its Analyzer gRPC service.

Launch (sdk/go/common/resource/plugin/analyzer_plugin.go, NewPolicyAnalyzer): for a `runtime: python`
pack the engine starts the `pulumi-analyzer-policy-python` shim with the pack directory as working
directory and the arguments `<engine address> .`, and with the environment of `constructEnv`:
`PULUMI_CONFIG` (the stack's config as JSON), `PULUMI_PROJECT`, `PULUMI_STACK`, `PULUMI_DRY_RUN`,
`PULUMI_ORGANIZATION`. The shim (sdk/python/dist/pulumi-analyzer-policy-python) picks the pack's
`virtualenv` runtime option, else `python3`, and runs `python -u -m pulumi.policy <engine address> .`,
which executes the pack's `__main__.py`; `PolicyPack(...)` serves the Analyzer service and prints its
port on stdout. `PolicyPackProcess` does the same (the interpreter: the pack's virtualenv when it exists,
else the one running gkecap, which has the pack's dependencies).

Protocol, in the engine's order: Handshake (UNIMPLEMENTED is fine: pulumi_policy has none),
ConfigureStack, GetAnalyzerInfo, GetPluginInfo, Configure (the reconciled policy config: every
policy's level and properties), Remediate then Analyze for each resource (inputs, options, provider),
AnalyzeStack once with every resource but providers (outputs, parent, dependencies). The messages are
built and read in gkecap.policy_pack.messages; gkecap.policy_pack.analysis drives a whole preview.
"""

from __future__ import annotations

import atexit
import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import grpc
import yaml
from google.protobuf import empty_pb2
from pulumi.runtime.proto import analyzer_pb2, analyzer_pb2_grpc

from gkecap import shutdown
from gkecap.engine.resource_record import ResourceRecord
from gkecap.policy_pack import messages, pack_guard
from gkecap.policy_pack.policy_config import PolicySchema, PolicySettings, reconcile
from gkecap.policy_pack.results import AnalyzerInfo, Diagnostic, PolicyPackError

# As pulumi's rpcutil and pulumi_policy: large stacks exceed gRPC's default 4 MB.
_MAX_MESSAGE = 400 * 1024 * 1024
_CHANNEL_OPTIONS = [("grpc.max_receive_message_length", _MAX_MESSAGE), ("grpc.max_send_message_length", _MAX_MESSAGE)]


def pack_runtime_options(pack_dir: Path) -> dict[str, Any]:
    """The `runtime.options` of the pack's PulumiPolicy.yaml (checks that the file is there)."""
    project_file = pack_dir / "PulumiPolicy.yaml"
    if not project_file.is_file():
        raise PolicyPackError(f"{pack_dir}: not a policy pack (no PulumiPolicy.yaml)")
    try:
        document = yaml.safe_load(project_file.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        raise PolicyPackError(f"{project_file}: not valid YAML: {getattr(exc, 'problem', None) or exc}") from None
    runtime = document.get("runtime")
    name = runtime.get("name") if isinstance(runtime, dict) else runtime
    if name != "python":
        raise PolicyPackError(f"{project_file}: runtime: {name!r}; gkecap runs Python policy packs")
    options = runtime.get("options") if isinstance(runtime, dict) else None
    return dict(options or {})


def pack_python(pack_dir: Path) -> str:
    """The interpreter the shim would use: the pack's virtualenv if it has one, else this one."""
    virtualenv = pack_runtime_options(pack_dir).get("virtualenv")
    if virtualenv:
        candidate = (pack_dir / str(virtualenv)).resolve() / "bin" / "python"
        if candidate.is_file():
            return str(candidate)
    return sys.executable


# The Analyzer service's methods whose requests gkecap serializes itself (messages.*_bytes).
_SERVICE = analyzer_pb2.DESCRIPTOR.services_by_name["Analyzer"].full_name
_ANALYZE = f"/{_SERVICE}/Analyze"
_ANALYZE_STACK = f"/{_SERVICE}/AnalyzeStack"
_GUARD_SOURCE = Path(pack_guard.__file__).read_text(encoding="utf-8")
_MAX_ENV_VALUE = 128 * 1024 - 64  # MAX_ARG_STRLEN (32 pages), less the "PULUMI_CONFIG=" prefix


class PolicyPackProcess:
    """A running policy pack and a client of its Analyzer service.

    Start it from a thread that outlives it (the main thread): on Linux the pack ends with that thread.
    """

    def __init__(
        self,
        pack_dir: Path,
        *,
        project: str,
        stack: str,
        organization: str = "organization",
        dry_run: bool = True,
        stack_config: Mapping[str, str] | None = None,
        secret_keys: Sequence[str] = (),
        python: str | None = None,
        start_timeout: float = 120.0,
    ) -> None:
        self.pack_dir = pack_dir.resolve()
        self.project = project
        self.stack = stack
        self.organization = organization
        self.dry_run = dry_run
        self.stack_config = dict(stack_config or {})
        self.secret_keys = list(secret_keys)
        self.python = python or pack_python(self.pack_dir)
        self.start_timeout = start_timeout
        self.engine_address = "127.0.0.1:0"  # pulumi_policy never calls the engine back
        self._process: subprocess.Popen[bytes] | None = None
        self._channel: grpc.Channel | None = None
        self._stub: analyzer_pb2_grpc.AnalyzerStub | None = None
        self._port: queue.Queue[str | None] = queue.Queue()
        self._stderr: list[bytes] = []
        self._info: AnalyzerInfo | None = None
        self._connected = threading.Event()
        self._connect_lock = threading.Lock()
        self._provider_fields: dict[tuple, bytes] = {}
        self._raw_calls: dict[str, Any] = {}

    # --- process ---------------------------------------------------------------------------------

    def start(self) -> PolicyPackProcess:
        """Spawn the pack process (returns at once; `connect` waits for it)."""
        if self._process is not None:
            return self
        pack_runtime_options(self.pack_dir)
        env = dict(os.environ)
        config_json = json.dumps(self.stack_config) if self.stack_config else ""
        # Linux caps one environment string at 128 KiB (MAX_ARG_STRLEN); a larger config (an organisation
        # of a thousand teams) would make the spawn fail. Rules read resources, not the stack config.
        if config_json and len(config_json.encode()) < _MAX_ENV_VALUE:
            env["PULUMI_CONFIG"] = config_json
        env.update(
            {
                "PULUMI_PROJECT": self.project,
                "PULUMI_STACK": self.stack,
                "PULUMI_DRY_RUN": "true" if self.dry_run else "false",
                "PULUMI_ORGANIZATION": self.organization,
            }
        )
        env.pop("PYTHONHOME", None)  # as the shim does before running a virtualenv's python
        env[pack_guard.PARENT_ENV] = str(os.getpid())
        # `python -u -m pulumi.policy <engine> .` as the shim runs it, behind pack_guard: the pack ends when gkecap
        # ends, SIGKILL included (parent-death signal, and end of file on its stdin, a pipe only gkecap holds).
        # No preexec_fn: gRPC threads run in this process, and Python code between fork and exec can crash the
        # child. atexit, `close()` and gkecap.shutdown stop the pack on every way out gkecap sees.
        self._process = subprocess.Popen(  # noqa: S603 -- our own interpreter and arguments
            [self.python, "-u", "-c", _GUARD_SOURCE, self.engine_address, "."],
            cwd=self.pack_dir,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        atexit.register(self.close)
        shutdown.track(self)
        threading.Thread(target=self._read_stdout, name="policy-pack-stdout", daemon=True).start()
        threading.Thread(target=self._read_stderr, name="policy-pack-stderr", daemon=True).start()
        return self

    def _read_stdout(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        first = True
        for line in self._process.stdout:  # keep draining so the pack never blocks on a full pipe
            if first:
                self._port.put(line.decode(errors="replace").strip())
                first = False
        if first:
            self._port.put(None)

    def _read_stderr(self) -> None:
        assert self._process is not None and self._process.stderr is not None
        for line in self._process.stderr:
            self._stderr.append(line)
            del self._stderr[:-200]

    def stderr_tail(self, lines: int = 20) -> str:
        return b"".join(self._stderr[-lines:]).decode(errors="replace").strip()

    def connect(self) -> PolicyPackProcess:
        """Wait for the port, connect, and run the engine's start-up calls (Handshake, ConfigureStack)."""
        with self._connect_lock:
            if self._connected.is_set():
                return self
            self.start()
            try:
                port = self._port.get(timeout=self.start_timeout)
            except queue.Empty:
                self.close()
                raise PolicyPackError(f"policy pack {self.pack_dir} did not print its port within {self.start_timeout:.0f}s") from None
            if not port or not (port.isascii() and port.isdigit()):
                self._wait_exit()
                raise PolicyPackError(f"policy pack {self.pack_dir} failed to start:\n{self.stderr_tail() or port or '(no output)'}")
            self._channel = grpc.insecure_channel(f"127.0.0.1:{port}", options=_CHANNEL_OPTIONS)
            self._stub = analyzer_pb2_grpc.AnalyzerStub(self._channel)
            # The first call waits for the connection (wait_for_ready) rather than grpc.channel_ready_future: that
            # future polls from a thread of its own, which raised "Channel closed!" on stderr, and kept this call
            # waiting for the whole start-up timeout, when close() came first (a program that ended early).
            self._startup_calls()
            self._connected.set()
            return self

    def _first_call_options(self) -> dict[str, Any]:
        """The first call waits until the pack accepts connections, within the start-up timeout."""
        return {"wait_for_ready": True, "timeout": self.start_timeout}

    def _startup_calls(self) -> None:
        """The engine's first calls once connected: Handshake, ConfigureStack (a pack may implement neither)."""
        assert self._stub is not None
        self._optional_call(
            self._stub.Handshake,
            analyzer_pb2.AnalyzerHandshakeRequest(
                engine_address=self.engine_address, root_directory=str(self.pack_dir), program_directory=str(self.pack_dir)
            ),
            **self._first_call_options(),
        )
        self._optional_call(
            self._stub.ConfigureStack,
            analyzer_pb2.AnalyzerStackConfigureRequest(
                stack=self.stack,
                project=self.project,
                organization=self.organization,
                dry_run=self.dry_run,
                config=self.stack_config,
                config_secret_keys=self.secret_keys,
            ),
        )

    def _wait_exit(self) -> None:
        if self._process is not None:
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
            time.sleep(0.05)  # let the stderr reader collect the last lines

    def _optional_call(self, method: Any, request: Any, **options: Any) -> Any:
        try:
            return method(request, **options)
        except grpc.RpcError as exc:
            if exc.code() == grpc.StatusCode.UNIMPLEMENTED:
                return None
            raise self._error(method, exc) from None

    def _error(self, what: Any, exc: grpc.RpcError) -> PolicyPackError:
        name = getattr(what, "_method", what)
        if isinstance(name, bytes):
            name = name.decode()
        details = exc.details() if hasattr(exc, "details") else str(exc)
        tail = self.stderr_tail()
        return PolicyPackError(f"policy pack {self.pack_dir.name}: {name} failed: {details}" + (f"\n{tail}" if tail else ""))

    def close(self) -> None:
        """Close the connection and stop the process (SIGTERM, then SIGKILL after a grace period)."""
        if self._channel is not None:
            self._channel.close()
            self._channel = None
            self._raw_calls = {}
        process, self._process = self._process, None
        atexit.unregister(self.close)
        shutdown.untrack(self)
        if process is not None and process.stdin is not None:
            try:
                process.stdin.close()  # the pack's guard sees the end of its stdin and exits
            except OSError:
                pass
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)

    def __enter__(self) -> PolicyPackProcess:
        return self.connect()

    def __exit__(self, *_exc: object) -> None:
        self.close()

    @property
    def stub(self) -> analyzer_pb2_grpc.AnalyzerStub:
        if self._stub is None:
            self.connect()
        assert self._stub is not None
        return self._stub

    # --- Analyzer calls --------------------------------------------------------------------------

    def info(self) -> AnalyzerInfo:
        if self._info is None:
            try:
                response = self.stub.GetAnalyzerInfo(empty_pb2.Empty())
            except grpc.RpcError as exc:
                raise self._error("GetAnalyzerInfo", exc) from None
            self._info = messages.analyzer_info(response, self.pack_dir)
        return self._info

    def plugin_version(self) -> str:
        try:
            return self.stub.GetPluginInfo(empty_pb2.Empty()).version
        except grpc.RpcError as exc:
            raise self._error("GetPluginInfo", exc) from None

    def configure(self, given: Mapping[str, PolicySettings] | None = None) -> dict[str, PolicySettings]:
        """Reconcile `given` with the policies' defaults and send it (PolicyConfigError if invalid)."""
        info = self.info()
        schemas = [PolicySchema(p.name, p.enforcement_level, p.config_properties, p.config_required) for p in info.policies]
        config = reconcile(schemas, info.initial_config, given)
        try:
            self.stub.Configure(messages.configure_request(config))
        except grpc.RpcError as exc:
            raise self._error("Configure", exc) from None
        return config

    def analyze_future(self, record: ResourceRecord, provider: ResourceRecord | None = None) -> grpc.Future:
        """Analyze `record`, its request in wire form (messages.analyze_request_bytes); the call's future."""
        return self._raw_future(_ANALYZE, messages.analyze_request_bytes(record, provider, self._provider_fields))

    def analyzed(self, future: grpc.Future, urn: str) -> list[Diagnostic]:
        """The diagnostics of an `analyze_future` call, once it has finished."""
        try:
            response = future.result()
        except grpc.RpcError as exc:
            raise self._error("Analyze", exc) from None
        return self.diagnostics(response, urn)

    def remediate(self, record: ResourceRecord, provider: ResourceRecord | None = None) -> Any:
        try:
            return self.stub.Remediate(messages.analyze_request(record, provider))
        except grpc.RpcError as exc:
            if exc.code() == grpc.StatusCode.UNIMPLEMENTED:
                return None
            raise self._error("Remediate", exc) from None

    def analyze_stack(self, records: Iterable[ResourceRecord], providers: Mapping[str, ResourceRecord] | None = None) -> list[Diagnostic]:
        """AnalyzeStack over `records` (sent in wire form: messages.analyze_stack_request_bytes)."""
        request = messages.analyze_stack_request_bytes(records, providers or {})
        try:
            future = self._raw_future(_ANALYZE_STACK, request)
            del request  # the pack has it; do not hold a second copy of every resource meanwhile
            response = future.result()
        except grpc.RpcError as exc:
            if exc.code() == grpc.StatusCode.UNIMPLEMENTED:
                return []
            raise self._error("AnalyzeStack", exc) from None
        return self.diagnostics(response, None)

    def _raw_future(self, method: str, wire: bytes) -> grpc.Future:
        """Call Analyze or AnalyzeStack with a request already in wire form; the call's future."""
        calls = self._raw_calls
        if method not in calls:
            calls[method] = self._channel_or_raise().unary_unary(
                method, request_serializer=None, response_deserializer=analyzer_pb2.AnalyzeResponse.FromString
            )
        return calls[method].future(wire)

    def _channel_or_raise(self) -> grpc.Channel:
        self.stub  # noqa: B018 -- connects, or raises as every other call does
        assert self._channel is not None
        return self._channel

    def diagnostics(self, response: analyzer_pb2.AnalyzeResponse, urn: str | None) -> list[Diagnostic]:
        """Diagnostics of a response. For Analyze the engine always uses the analyzed resource's URN."""
        return messages.diagnostics(response, urn, self._info.version if self._info is not None else "")
