"""Analyzer gRPC messages from and to gkecap's own types, marshalled as the Pulumi engine marshals them.

Requests: `analyze_request` (Analyze and Remediate see a resource's inputs, options and provider),
`analyze_stack_request` (AnalyzeStack sees every resource but providers, with outputs, parent and
dependencies), `configure_request` (the reconciled policy config). Analyze and AnalyzeStack are sent in wire
form (`analyze_request_bytes`, `analyze_stack_request_bytes`: the records' serialized properties as they are);
the message builders are what those bytes are tested to parse back to, and Remediate's request. Responses: `analyzer_info`
(GetAnalyzerInfo, with the version of PulumiPolicy.yaml as the engine prefers it), `diagnostics`
(Analyze/AnalyzeStack), `remediated` (Remediate). `provider_of` finds a resource's provider record.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import yaml
from google.protobuf import json_format, struct_pb2
from pulumi.runtime.proto import analyzer_pb2

from gkecap.components.k8s.duration import DurationError, parse_duration
from gkecap.engine.resource_record import ResourceRecord, make_urn
from gkecap.engine.struct_values import RESOURCE_REF_SIG, downgrade_resource_refs, has_resource_refs
from gkecap.policy_pack.policy_config import PolicySettings
from gkecap.policy_pack.results import AnalyzerInfo, Diagnostic, PolicyInfo

LEVEL_NAMES = {
    analyzer_pb2.ADVISORY: "advisory",
    analyzer_pb2.MANDATORY: "mandatory",
    analyzer_pb2.DISABLED: "disabled",
    analyzer_pb2.REMEDIATE: "remediate",
}
LEVEL_VALUES = {name: value for value, name in LEVEL_NAMES.items()}


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


def analyze_stack_request(records: Iterable[ResourceRecord], providers: Mapping[str, ResourceRecord]) -> analyzer_pb2.AnalyzeStackRequest:
    request = analyzer_pb2.AnalyzeStackRequest()
    for record in records:
        if record.is_provider:
            continue  # the engine leaves providers out of AnalyzeStack
        _fill_stack_resource(request.resources.add(), record, provider_of(record, providers))
    return request


def analyze_request_bytes(record: ResourceRecord, provider: ResourceRecord | None, provider_fields: dict[tuple, bytes]) -> bytes:
    """`analyze_request(...)` in wire form: the record's serialized inputs as they are, its provider's field
    serialized once per provider (`provider_fields`: a cache kept by the caller). Parsed, the same message."""
    head = analyzer_pb2.AnalyzeRequest(urn=record.urn, type=record.type, name=record.name, options=_options(record)).SerializeToString()
    if provider is not None:
        head += _provider_field(analyzer_pb2.AnalyzeRequest, provider, provider_fields)
    return head + _length_delimited(_ANALYZE_PROPERTIES, _wire_bytes(record.properties_wire(outputs=False)))


def _provider_field(message_type: type, provider: ResourceRecord, cache: dict[tuple, bytes]) -> bytes:
    # Every resource of a provider carries the provider's properties (a kubeconfig...): built and serialized once.
    key = (message_type, provider.urn)
    if key not in cache:
        cache[key] = message_type(provider=_provider_message(provider)).SerializeToString()
    return cache[key]


def analyze_stack_request_bytes(records: Iterable[ResourceRecord], providers: Mapping[str, ResourceRecord]) -> bytes:
    """`analyze_stack_request(...)` in wire form, assembled from the records' serialized properties.

    Parsed, it is the same message (tests/gkecap/policy_pack/test_messages.py): each resource's fields but its
    properties are serialized as a message, and its properties (the record's bytes) appended as their field,
    as protobuf's encoding allows. The main process never holds the parsed request: at 1,000 teams that was
    147 MB for 32 MB of bytes, beside every record, while the pack analyzed the stack (measured, issue 14)."""
    chunks: list[bytes] = []
    provider_fields: dict[tuple, bytes] = {}
    for record in records:
        if record.is_provider:
            continue  # the engine leaves providers out of AnalyzeStack
        provider = provider_of(record, providers)
        message = analyzer_pb2.AnalyzerResource()
        _fill_stack_resource(message, record, None, properties=False)
        head = message.SerializeToString()
        if provider is not None:
            head += _provider_field(analyzer_pb2.AnalyzerResource, provider, provider_fields)
        properties = _wire_bytes(record.properties_wire(outputs=record.has_outputs))
        resource = head + _length_delimited(_RESOURCE_PROPERTIES, properties)
        chunks.append(_length_delimited(_REQUEST_RESOURCES, resource))
    return b"".join(chunks)


_REQUEST_RESOURCES = analyzer_pb2.AnalyzeStackRequest.DESCRIPTOR.fields_by_name["resources"].number
_RESOURCE_PROPERTIES = analyzer_pb2.AnalyzerResource.DESCRIPTOR.fields_by_name["properties"].number
_ANALYZE_PROPERTIES = analyzer_pb2.AnalyzeRequest.DESCRIPTOR.fields_by_name["properties"].number


def _length_delimited(field_number: int, payload: bytes) -> bytes:
    """A length-delimited field (wire type 2: a message, bytes) of protobuf's encoding."""
    return _varint(field_number << 3 | 2) + _varint(len(payload)) + payload


def _varint(value: int) -> bytes:
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _wire_bytes(wire: bytes) -> bytes:
    # As `_wire`, on serialized properties: only those holding a resource reference are parsed and rewritten.
    if RESOURCE_REF_SIG.encode() not in wire:
        return wire
    return downgrade_resource_refs(struct_pb2.Struct.FromString(wire)).SerializeToString(deterministic=True)


def configure_request(config: Mapping[str, PolicySettings]) -> analyzer_pb2.ConfigureAnalyzerRequest:
    request = analyzer_pb2.ConfigureAnalyzerRequest()
    for name, settings in config.items():
        entry = request.policyConfig[name]
        if settings.enforcement_level:
            entry.enforcementLevel = LEVEL_VALUES[settings.enforcement_level]
        if settings.properties:
            entry.properties.update(settings.properties)
    return request


def _fill_stack_resource(
    message: analyzer_pb2.AnalyzerResource, record: ResourceRecord, provider: ResourceRecord | None, *, properties: bool = True
) -> None:
    # AnalyzeStack sees each resource's outputs (engine: "AnalyzeStack uses Outputs (final state)").
    message.urn = record.urn
    message.type = record.type
    message.name = record.name
    if properties:
        message.properties.CopyFrom(_wire(_stack_properties(record)))
    message.options.CopyFrom(_options(record))
    provider_message = _provider_message(provider)
    if provider_message is not None:
        message.provider.CopyFrom(provider_message)
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


def _seconds(value: Any) -> float:
    """Seconds of a custom timeout: a number, or a Go duration string as the SDK sends (`1h30m`); 0 (none) for
    anything else."""
    if value in (None, ""):
        return 0.0
    if isinstance(value, (int, float)):
        return float(value)
    try:
        return parse_duration(str(value))
    except DurationError:
        return 0.0


def provider_of(record: ResourceRecord, providers: Mapping[str, ResourceRecord]) -> ResourceRecord | None:
    """The provider record of `record` among `providers` (by URN), or None."""
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


# --- responses -----------------------------------------------------------------------------------


def diagnostics(response: analyzer_pb2.AnalyzeResponse, urn: str | None, version: str) -> list[Diagnostic]:
    """Diagnostics of a response. For Analyze the engine always uses the analyzed resource's URN.

    `version` is the pack's version from AnalyzerInfo (empty: each diagnostic's own).
    """
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


def remediated(record: ResourceRecord, response: Any) -> tuple[ResourceRecord, list[Diagnostic]]:
    """A Remediate response applied: the record with the remediated inputs, and the advisory diagnostics."""
    found = []
    for remediation in response.remediations:
        if remediation.diagnostic:
            found.append(
                Diagnostic(remediation.policyName, remediation.policyPackName, remediation.policyPackVersion, "advisory", record.urn, remediation.diagnostic, remediation.description)
            )
        elif remediation.HasField("properties"):
            record = _with_inputs(record, remediation.properties)
    return record, found


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


_KIND_TAG = "policy-type:"  # a policy the pack runs through another one says its kind in a tag (policies/rule_runner.py)


def _policy_kind(policy: Any) -> str | None:
    """resource | stack: the policy type pulumi_policy reports, else the pack's `policy-type:<kind>` tag."""
    kind = {analyzer_pb2.POLICY_TYPE_RESOURCE: "resource", analyzer_pb2.POLICY_TYPE_STACK: "stack"}.get(policy.policy_type)
    if kind is None:
        kind = next((t[len(_KIND_TAG):] for t in policy.tags if t.startswith(_KIND_TAG)), None)
    return kind


def analyzer_info(response: analyzer_pb2.AnalyzerInfo, pack_dir: Path) -> AnalyzerInfo:
    policies = []
    for p in response.policies:
        properties = _integral(json_format.MessageToDict(p.configSchema.properties)) if p.HasField("configSchema") else None
        policies.append(
            PolicyInfo(
                name=p.name,
                description=p.description,
                enforcement_level=LEVEL_NAMES.get(p.enforcementLevel, "advisory"),
                kind=_policy_kind(p),
                config_properties=properties or None,
                config_required=tuple(p.configSchema.required) if p.HasField("configSchema") else (),
                display_name=p.displayName,
                remediation_steps=p.remediation_steps,
                url=p.url,
                tags=tuple(t for t in p.tags if not t.startswith(_KIND_TAG)),
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
