"""Run a Python policy pack as the Pulumi engine does, and speak the Analyzer gRPC protocol to it.

Launch (sdk/go/common/resource/plugin/analyzer_plugin.go, NewPolicyAnalyzer): for a `runtime: python`
pack the engine starts the `pulumi-analyzer-policy-python` shim with the pack directory as working
directory and the arguments `<engine address> .`, and with the environment of `constructEnv`:
`PULUMI_CONFIG` (the stack's config as JSON), `PULUMI_PROJECT`, `PULUMI_STACK`, `PULUMI_DRY_RUN`,
`PULUMI_ORGANIZATION`. The shim (sdk/python/dist/pulumi-analyzer-policy-python) picks the pack's
`virtualenv` runtime option, else `python3`, and runs `python -u -m pulumi.policy <engine address> .`,
which executes the pack's `__main__.py`; `PolicyPack(...)` serves the Analyzer service and prints its
port on stdout. This module does the same (the interpreter: the pack's virtualenv when it exists,
else the one running gkecap, which has the pack's dependencies).

Protocol, in the engine's order: Handshake (UNIMPLEMENTED is fine: pulumi_policy has none),
ConfigureStack, GetAnalyzerInfo, GetPluginInfo, Configure (the reconciled policy config: every
policy's level and properties), Remediate then Analyze for each resource (inputs, options, provider),
AnalyzeStack once with every resource but providers (outputs, parent, dependencies).
"""

from __future__ import annotations

import atexit
import json
import os
import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import yaml
from google.protobuf import empty_pb2, json_format
from pulumi.runtime.proto import analyzer_pb2, analyzer_pb2_grpc

from gkecap.policy_pack.policy_config import PolicySchema, PolicySettings, reconcile
from gkecap.engine.resource_record import ResourceRecord, make_urn
from gkecap.engine.struct_values import downgrade_resource_refs, has_resource_refs

LEVEL_NAMES = {
    analyzer_pb2.ADVISORY: "advisory",
    analyzer_pb2.MANDATORY: "mandatory",
    analyzer_pb2.DISABLED: "disabled",
    analyzer_pb2.REMEDIATE: "remediate",
}
LEVEL_VALUES = {name: value for value, name in LEVEL_NAMES.items()}
# As pulumi's rpcutil and pulumi_policy: large stacks exceed gRPC's default 4 MB.
_MAX_MESSAGE = 400 * 1024 * 1024
_CHANNEL_OPTIONS = [("grpc.max_receive_message_length", _MAX_MESSAGE), ("grpc.max_send_message_length", _MAX_MESSAGE)]
_IN_FLIGHT = 16  # Analyze calls kept in flight while streaming


class PolicyPackError(RuntimeError):
    """The pack failed to start, or an Analyzer call failed."""


@dataclass(frozen=True)
class PolicyInfo:
    name: str
    description: str
    enforcement_level: str
    kind: str | None  # "resource" | "stack" (None if the pack does not say)
    config_properties: Mapping[str, Any] | None = None
    config_required: tuple[str, ...] = ()
    display_name: str = ""
    remediation_steps: str = ""


@dataclass(frozen=True)
class AnalyzerInfo:
    name: str
    version: str
    description: str
    supports_config: bool
    policies: tuple[PolicyInfo, ...]
    initial_config: Mapping[str, PolicySettings] = field(default_factory=dict)

    def policy(self, name: str) -> PolicyInfo | None:
        return next((p for p in self.policies if p.name == name), None)


@dataclass(frozen=True)
class Diagnostic:
    """One policy violation."""

    policy: str
    policy_pack: str
    policy_pack_version: str
    enforcement_level: str  # advisory | mandatory | disabled
    urn: str | None  # None: the stack as a whole
    message: str  # the policy's own message (the pack's description prefix removed)
    description: str

    def to_json(self) -> dict[str, Any]:
        return {"policy": self.policy, "enforcementLevel": self.enforcement_level, "urn": self.urn, "message": self.message}


@dataclass
class PolicyResult:
    info: AnalyzerInfo
    config: Mapping[str, PolicySettings]
    diagnostics: list[Diagnostic]
    analyzed: int
    seconds: float


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
        self._process = subprocess.Popen(  # noqa: S603 -- our own interpreter and arguments
            [self.python, "-u", "-m", "pulumi.policy", self.engine_address, "."],
            cwd=self.pack_dir,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        # No preexec_fn (e.g. prctl PDEATHSIG): gRPC threads run in this process, and Python code between
        # fork and exec can crash the child. atexit stops the pack when gkecap exits or fails instead.
        atexit.register(self.close)
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
            if not port or not port.isdigit():
                self._wait_exit()
                raise PolicyPackError(f"policy pack {self.pack_dir} failed to start:\n{self.stderr_tail() or port or '(no output)'}")
            self._channel = grpc.insecure_channel(f"127.0.0.1:{port}", options=_CHANNEL_OPTIONS)
            grpc.channel_ready_future(self._channel).result(timeout=self.start_timeout)
            self._stub = analyzer_pb2_grpc.AnalyzerStub(self._channel)
            self._optional_call(
                self._stub.Handshake,
                analyzer_pb2.AnalyzerHandshakeRequest(
                    engine_address=self.engine_address, root_directory=str(self.pack_dir), program_directory=str(self.pack_dir)
                ),
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
            self._connected.set()
            return self

    def _wait_exit(self) -> None:
        if self._process is not None:
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
            time.sleep(0.05)  # let the stderr reader collect the last lines

    def _optional_call(self, method: Any, request: Any) -> Any:
        try:
            return method(request)
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
        process, self._process = self._process, None
        atexit.unregister(self.close)
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
            self._info = _analyzer_info(response, self.pack_dir)
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
        request = analyzer_pb2.ConfigureAnalyzerRequest()
        for name, settings in config.items():
            entry = request.policyConfig[name]
            if settings.enforcement_level:
                entry.enforcementLevel = LEVEL_VALUES[settings.enforcement_level]
            if settings.properties:
                entry.properties.update(settings.properties)
        try:
            self.stub.Configure(request)
        except grpc.RpcError as exc:
            raise self._error("Configure", exc) from None
        return config

    def analyze(self, record: ResourceRecord, provider: ResourceRecord | None = None) -> list[Diagnostic]:
        try:
            response = self.stub.Analyze(analyze_request(record, provider))
        except grpc.RpcError as exc:
            raise self._error("Analyze", exc) from None
        return self.diagnostics(response, record.urn)

    def analyze_future(self, record: ResourceRecord, provider: ResourceRecord | None = None) -> grpc.Future:
        return self.stub.Analyze.future(analyze_request(record, provider))

    def remediate(self, record: ResourceRecord, provider: ResourceRecord | None = None) -> Any:
        try:
            return self.stub.Remediate(analyze_request(record, provider))
        except grpc.RpcError as exc:
            if exc.code() == grpc.StatusCode.UNIMPLEMENTED:
                return None
            raise self._error("Remediate", exc) from None

    def analyze_stack(self, records: Iterable[ResourceRecord], providers: Mapping[str, ResourceRecord] | None = None) -> list[Diagnostic]:
        request = analyzer_pb2.AnalyzeStackRequest()
        for record in records:
            if record.is_provider:
                continue  # the engine leaves providers out of AnalyzeStack
            _fill_stack_resource(request.resources.add(), record, _provider_of(record, providers or {}))
        try:
            response = self.stub.AnalyzeStack(request)
        except grpc.RpcError as exc:
            if exc.code() == grpc.StatusCode.UNIMPLEMENTED:
                return []
            raise self._error("AnalyzeStack", exc) from None
        return self.diagnostics(response, None)

    def diagnostics(self, response: analyzer_pb2.AnalyzeResponse, urn: str | None) -> list[Diagnostic]:
        """Diagnostics of a response. For Analyze the engine always uses the analyzed resource's URN."""
        info = self._info
        version = info.version if info is not None else ""
        out = []
        for d in response.diagnostics:
            level = LEVEL_NAMES.get(d.enforcementLevel, "advisory")
            if level == "remediate":
                level = "mandatory"  # as the engine: a remediation that still violates is mandatory
            message = d.message
            if d.description and message.startswith(d.description + "\n"):
                message = message[len(d.description) + 1 :]  # pulumi_policy prefixes the description
            out.append(
                Diagnostic(
                    policy=d.policyName,
                    policy_pack=d.policyPackName,
                    policy_pack_version=version or d.policyPackVersion,
                    enforcement_level=level,
                    urn=urn if urn is not None else (d.urn or None),
                    message=message,
                    description=d.description,
                )
            )
        return out


def run_policies(
    pack: PolicyPackProcess,
    records: Sequence[ResourceRecord],
    policy_config: Mapping[str, PolicySettings] | None = None,
) -> PolicyResult:
    """Every call of a preview over `records` (already complete): configure, analyze each, analyze the stack."""
    analysis = StreamingAnalysis(pack, policy_config)
    analysis.start()
    for record in records:
        analysis.submit(record)
    return analysis.finish(records)


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

    def finish(self, records: Sequence[ResourceRecord]) -> PolicyResult:
        self._queue.put(None)
        self._thread.join()
        if self._error is not None:
            raise self._error
        providers = {r.urn: r for r in records if r.is_provider}
        self._diagnostics.extend(self.pack.analyze_stack(records, providers))
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
                provider = _provider_of(record, self._providers)
                if remediate:
                    record = self._remediated(record, provider)
                in_flight.append((record.urn, self.pack.analyze_future(record, provider)))
                self._analyzed += 1
                if len(in_flight) >= _IN_FLIGHT:
                    self._collect(*in_flight.pop(0))
            for urn, future in in_flight:
                self._collect(urn, future)
        except BaseException as exc:  # noqa: BLE001 -- re-raised by finish()
            self._error = exc
            while self._queue.get() is not None:  # let submitters finish
                pass

    def _collect(self, urn: str, future: grpc.Future) -> None:
        try:
            response = future.result()
        except grpc.RpcError as exc:
            raise self.pack._error("Analyze", exc) from None
        self._diagnostics.extend(self.pack.diagnostics(response, urn))

    def _remediated(self, record: ResourceRecord, provider: ResourceRecord | None) -> ResourceRecord:
        response = self.pack.remediate(record, provider)
        if response is None:
            return record
        for remediation in response.remediations:
            if remediation.diagnostic:
                self._diagnostics.append(
                    Diagnostic(remediation.policyName, remediation.policyPackName, remediation.policyPackVersion, "advisory", record.urn, remediation.diagnostic, remediation.description)
                )
            elif remediation.HasField("properties"):
                record = _with_inputs(record, remediation.properties)
        return record


# --- requests ------------------------------------------------------------------------------------


def analyze_request(record: ResourceRecord, provider: ResourceRecord | None) -> analyzer_pb2.AnalyzeRequest:
    """Analyze sees the inputs (engine: `Properties: inputs`), options and provider of a resource."""
    return analyzer_pb2.AnalyzeRequest(
        urn=record.urn,
        type=record.type,
        name=record.name,
        properties=_wire(record.properties_struct(outputs=False)),
        options=_options(record),
        provider=_provider_message(provider),
    )


def _fill_stack_resource(message: analyzer_pb2.AnalyzerResource, record: ResourceRecord, provider: ResourceRecord | None) -> None:
    # AnalyzeStack sees each resource's outputs (engine: "AnalyzeStack uses Outputs (final state)").
    message.urn = record.urn
    message.type = record.type
    message.name = record.name
    message.properties.CopyFrom(_wire(_stack_properties(record)))
    message.options.CopyFrom(_options(record))
    if provider is not None:
        message.provider.CopyFrom(_provider_message(provider))
    message.parent = record.parent or ""
    message.dependencies.extend(record.dependencies)
    for key, urns in record.property_dependencies.items():
        if urns:
            message.propertyDependencies[key].urns.extend(urns)


def _stack_properties(record: ResourceRecord) -> Any:
    return record.properties_struct(outputs=record.has_outputs)


def _wire(struct: Any) -> Any:
    # The engine marshals without resource references: each becomes its id (URN for a component).
    return downgrade_resource_refs(struct) if has_resource_refs(struct) else struct


def _options(record: ResourceRecord) -> analyzer_pb2.AnalyzerResourceOptions:
    options = record.options
    dbr = options.get("deleteBeforeReplace")
    message = analyzer_pb2.AnalyzerResourceOptions(
        protect=bool(options.get("protect")),
        ignoreChanges=list(options.get("ignoreChanges") or ()),
        deleteBeforeReplace=bool(dbr),
        deleteBeforeReplaceDefined=dbr is not None,
        additionalSecretOutputs=list(options.get("additionalSecretOutputs") or ()),
        aliases=[_alias_urn(a, record) for a in options.get("aliases") or ()],
        parent=record.parent or "",
    )
    timeouts = options.get("customTimeouts")
    if timeouts:
        message.customTimeouts.create = _seconds(timeouts.get("create"))
        message.customTimeouts.update = _seconds(timeouts.get("update"))
        message.customTimeouts.delete = _seconds(timeouts.get("delete"))
    else:
        message.customTimeouts.SetInParent()  # the engine always sends the (zero) timeouts
    return message


def _alias_urn(alias: Any, record: ResourceRecord) -> str:
    if isinstance(alias, str):
        return alias
    # An alias spec: the URN it names (engine: Alias.GetURN()), defaults from the resource itself.
    _, rest = record.urn.split("urn:pulumi:", 1)
    stack, project, _ = rest.split("::", 2)
    parent = "" if alias.get("noParent") else (alias.get("parentUrn") or record.parent or "")
    return make_urn(alias.get("stack") or stack, alias.get("project") or project, parent, alias.get("type") or record.type, alias.get("name") or record.name)


_DURATION = re.compile(r"(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)")
_UNIT_SECONDS = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}


def _seconds(value: Any) -> float:
    """Seconds of a custom timeout: a number, or a Go duration string as the SDK sends (`1h30m`)."""
    if value in (None, ""):
        return 0.0
    if isinstance(value, (int, float)):
        return float(value)
    return sum(float(n) * _UNIT_SECONDS[u] for n, u in _DURATION.findall(str(value)))


def _provider_of(record: ResourceRecord, providers: Mapping[str, ResourceRecord]) -> ResourceRecord | None:
    # A provider reference is `<provider urn>::<provider id>`.
    if not record.provider:
        return None
    return providers.get(record.provider.rsplit("::", 1)[0])


def _provider_message(provider: ResourceRecord | None) -> analyzer_pb2.AnalyzerProviderResource | None:
    if provider is None:
        return None
    return analyzer_pb2.AnalyzerProviderResource(
        urn=provider.urn, type=provider.type, name=provider.name, properties=_wire(provider.properties_struct(outputs=False))
    )


def _with_inputs(record: ResourceRecord, properties: Any) -> ResourceRecord:
    return ResourceRecord(
        urn=record.urn,
        type=record.type,
        name=record.name,
        custom=record.custom,
        parent=record.parent,
        dependencies=record.dependencies,
        property_dependencies=record.property_dependencies,
        provider=record.provider,
        id=record.id,
        options=record.options,
        inputs_struct=properties,
        outputs_struct=record.outputs_struct,
        external=record.external,
    )


def _integral(value: Any) -> Any:
    """JSON numbers come back from a Struct as floats; keep integral ones as int (schema defaults, limits)."""
    if isinstance(value, dict):
        return {k: _integral(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_integral(v) for v in value]
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _analyzer_info(response: analyzer_pb2.AnalyzerInfo, pack_dir: Path) -> AnalyzerInfo:
    policies = []
    for p in response.policies:
        properties = _integral(json_format.MessageToDict(p.configSchema.properties)) if p.HasField("configSchema") else None
        policies.append(
            PolicyInfo(
                name=p.name,
                description=p.description,
                enforcement_level=LEVEL_NAMES.get(p.enforcementLevel, "advisory"),
                kind={analyzer_pb2.POLICY_TYPE_RESOURCE: "resource", analyzer_pb2.POLICY_TYPE_STACK: "stack"}.get(p.policy_type),
                config_properties=properties or None,
                config_required=tuple(p.configSchema.required) if p.HasField("configSchema") else (),
                display_name=p.displayName,
                remediation_steps=p.remediation_steps,
            )
        )
    # As the engine reads it: the level is always taken (proto default ADVISORY when the pack left it out).
    initial = {
        name: PolicySettings(LEVEL_NAMES.get(config.enforcementLevel, "advisory"), _integral(json_format.MessageToDict(config.properties)) or None)
        for name, config in response.initialConfig.items()
    }
    version = response.version
    try:
        # The engine prefers the version in PulumiPolicy.yaml over the pack's own (always 0.0.1 in Python).
        document = yaml.safe_load((pack_dir / "PulumiPolicy.yaml").read_text(encoding="utf-8")) or {}
        version = str(document.get("version") or version)
    except (OSError, yaml.YAMLError):
        pass
    return AnalyzerInfo(
        name=response.name,
        version=version,
        description=response.description,
        supports_config=response.supportsConfig,
        policies=tuple(sorted(policies, key=lambda p: p.name)),
        initial_config=initial,
    )

