"""Turn pure rule functions into pulumi_policy policies.

How to add a rule. Write a pure function in `policies/rules/<topic>.py` (no pulumi import):

    def check_tpu_node_count(resource: ResourceView, config: dict) -> list[str]:
        ...  # one message per violation: name the resource, the numbers and the fix

or, for a rule over the whole stack,

    def check_quota_vs_capacity(resources: list[ResourceView], config: dict) -> list[tuple[str | None, str]]:
        ...  # (urn of the offending resource, or None for the stack; message)

Test it directly with `ResourceView(...)` objects (`gkecap.policies.resource_view`). Then register it in
`policies/registry.py` with `resource_policy(name, description, check, types=..., enforcement_level=...,
config=...)` or `stack_policy(...)`. `types` limits a rule to some type tokens (or a predicate on the
token); `config` is the policy's JSON-schema properties, each with a `default` that the check receives
when the user sets nothing (the Pulumi engine fills defaults the same way). Numbers arrive as int when
integral. A value unknown during preview is `UNKNOWN`; if a check raises on a resource that holds one,
the policy reports "can't be known during preview" (advisory) as pulumi_policy does for unknowns; if it
raises otherwise, the policy reports that it could not check the resource, at its own level, and the
other policies still run. The pack runs with its own directory on sys.path, so never name a module in
`policies/` after a stdlib or third-party module.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from google.protobuf import json_format
from pulumi_policy import (
    EnforcementLevel,
    PolicyConfigSchema,
    ReportViolation,
    ResourceValidationArgs,
    ResourceValidationPolicy,
    Severity,
    StackValidationArgs,
    StackValidationPolicy,
)
from pulumi_policy.deserialize import SPECIAL_SIG_KEY, deserialize_properties
from pulumi_policy.proxy import (
    UNKNOWN_ARCHIVE_VALUE,
    UNKNOWN_ARRAY_VALUE,
    UNKNOWN_ASSET_VALUE,
    UNKNOWN_BOOLEAN_VALUE,
    UNKNOWN_NUMBER_VALUE,
    UNKNOWN_OBJECT_VALUE,
    UNKNOWN_STRING_VALUE,
    UnknownValueError,
)

from gkecap.compat import policy_proxies
from gkecap.policies.rule_help import HELP, url_of
from gkecap.policies.resource_view import UNKNOWN, ProviderView, ResourceOptions, ResourceView

ResourceCheck = Callable[[ResourceView, dict], Sequence[str]]
StackCheck = Callable[[list[ResourceView], dict], Sequence[tuple[str | None, str]]]
TypeFilter = Collection[str] | Callable[[str], bool] | None

_LEVELS = {level.value: level for level in EnforcementLevel}
_SEVERITIES = {s.value: s for s in Severity}
_UNKNOWNS = frozenset(
    {
        UNKNOWN_BOOLEAN_VALUE,
        UNKNOWN_NUMBER_VALUE,
        UNKNOWN_STRING_VALUE,
        UNKNOWN_ARRAY_VALUE,
        UNKNOWN_ASSET_VALUE,
        UNKNOWN_ARCHIVE_VALUE,
        UNKNOWN_OBJECT_VALUE,
    }
)


def resource_policy(
    name: str,
    description: str,
    check: ResourceCheck,
    *,
    enforcement_level: str = "mandatory",
    types: TypeFilter = None,
    config: Mapping[str, Mapping[str, Any]] | None = None,
    required_config: Sequence[str] = (),
    remediation_steps: str | None = None,
    severity: str | None = None,
    url: str | None = None,
) -> ResourceValidationPolicy:
    """A ResourceValidationPolicy running `check` on each resource whose type passes `types`."""
    matches = _type_matcher(types)
    defaults = _defaults(config)

    def validate(args: ResourceValidationArgs, report_violation: ReportViolation) -> None:
        if not matches(args.resource_type):
            return
        view, unknown_at = resource_view(args)
        messages = _run(name, check, view, _config(args.get_config(), defaults), unknown_at)
        for message in messages:
            report_violation(message if isinstance(message, str) else message[1], None)

    policy = ResourceValidationPolicy(
        name=name,
        description=description,
        validate=validate,
        **_policy_settings(name, enforcement_level, config, required_config, remediation_steps, severity, url),
    )
    policy.gkecap_rule = Rule("resource", check, matches, defaults)  # type: ignore[attr-defined]
    return policy


def stack_policy(
    name: str,
    description: str,
    check: StackCheck,
    *,
    enforcement_level: str = "mandatory",
    types: TypeFilter = None,
    config: Mapping[str, Mapping[str, Any]] | None = None,
    required_config: Sequence[str] = (),
    remediation_steps: str | None = None,
    severity: str | None = None,
    url: str | None = None,
) -> StackValidationPolicy:
    """A StackValidationPolicy running `check` once over the stack's resources whose type passes `types`."""
    matches = _type_matcher(types)
    defaults = _defaults(config)

    def validate(args: StackValidationArgs, report_violation: ReportViolation) -> None:
        views: list[ResourceView] = []
        unknown_at: list[str] | None = None
        for r in args.resources:
            if not matches(r.resource_type):
                continue
            view, unknown = stack_resource_view(r)
            unknown_at = unknown_at or unknown
            views.append(view)
        for found in _run(name, check, views, _config(args.get_config(), defaults), unknown_at):
            urn, message = (None, found) if isinstance(found, str) else found
            report_violation(message, urn or None)

    policy = StackValidationPolicy(
        name=name,
        description=description,
        validate=validate,
        **_policy_settings(name, enforcement_level, config, required_config, remediation_steps, severity, url),
    )
    policy.gkecap_rule = Rule("stack", check, matches, defaults)  # type: ignore[attr-defined]
    return policy


@dataclass(frozen=True)
class Rule:
    """What a policy built here runs: its kind, check, type filter and config defaults (the pack's
    runners, `gkecap.policies.rule_runner`, run rules from this)."""

    kind: str  # "resource" | "stack"
    check: Callable[[Any, dict], Sequence[Any]]
    matches: Callable[[str], bool]
    defaults: dict[str, Any]


def rule_of(policy: Any) -> Rule | None:
    """The rule of a policy built by `resource_policy` / `stack_policy` (None for any other policy)."""
    return getattr(policy, "gkecap_rule", None)


def resource_view(args: ResourceValidationArgs) -> tuple[ResourceView, list[str] | None]:
    """The view a resource rule sees of an Analyze call's resource, and where its first unknown value is."""
    props, unknown_at = _plain_props(args.props)
    view = ResourceView(
        type=args.resource_type,
        name=args.name,
        urn=args.urn,
        props=props,
        options=_options(args.opts),
        parent=args.opts.parent or None,
        provider=_provider(args.provider),
    )
    return view, unknown_at


def stack_resource_view(r: Any) -> tuple[ResourceView, list[str] | None]:
    """The view a stack rule sees of one of AnalyzeStack's resources (a PolicyResource), and its first unknown."""
    props, unknown_at = _plain_props(r.props)
    view = ResourceView(
        type=r.resource_type,
        name=r.name,
        urn=r.urn,
        props=props,
        options=_options(r.opts),
        parent=r.parent.urn if r.parent is not None else (r.opts.parent or None),
        dependencies=tuple(d.urn for d in r.dependencies),
        property_dependencies={k: tuple(d.urn for d in v) for k, v in r.property_dependencies.items()},
        provider=_provider(r.provider),
    )
    return view, unknown_at


def request_resource_view(
    r: Any, urns: Collection[str], options: Any, providers: dict[tuple, ProviderView | None]
) -> tuple[ResourceView, list[str] | None]:
    """`stack_resource_view` of an AnalyzeStack request's resource (an AnalyzerResource message), read straight
    from its Structs: the same view, without pulumi_policy's dict, deserialized copy and proxies in between.

    `urns`: the request's resources (pulumi_policy links a parent or dependency only when it is one of them);
    `options`: the servicer's PolicyResourceOptions of `r`; `providers`: views already made, shared by key."""
    props, unknown_at = plain_struct(r.properties)
    parent = r.parent if r.parent and r.parent in urns else None
    view = ResourceView(
        type=r.type,
        name=r.name,
        urn=r.urn,
        props=props,
        options=_options(options),
        parent=parent or options.parent or None,
        dependencies=tuple(d for d in r.dependencies if d in urns),
        property_dependencies={k: tuple(d for d in v.urns if d in urns) for k, v in r.propertyDependencies.items()},
        provider=_request_provider(r, providers),
    )
    return view, unknown_at


def _request_provider(r: Any, providers: dict[tuple, ProviderView | None]) -> ProviderView | None:
    if not r.HasField("provider"):
        return None
    p = r.provider
    # Every resource of a provider carries its properties (a kubeconfig...): one view per distinct provider.
    key = (p.type, p.name, p.urn, p.properties.SerializeToString(deterministic=True))
    if key not in providers:
        providers[key] = ProviderView(type=p.type, name=p.name, urn=p.urn, props=plain_struct(p.properties)[0])
    return providers[key]


def plain_struct(struct: Any) -> tuple[dict, list[str] | None]:
    """A protobuf Struct of resource properties -> what `_plain_props` gives for pulumi_policy's conversion of
    it (`MessageToDict`, `deserialize_properties`, proxies): plain data, unknowns as `UNKNOWN`, integral numbers
    as int, secrets unwrapped, assets and archives as the SDK's objects; and the path of the first unknown."""
    seen: list[bool] = []
    # The properties themselves are a plain map, as deserialize_properties reads them; nested maps may be special.
    plain = {_intern(k): _plain_value(v, seen) for k, v in struct.fields.items()}
    return plain, (_unknown_path(plain, []) if seen else None)


def _plain_fields(struct: Any, seen: list[bool]) -> Any:
    fields = struct.fields
    if SPECIAL_SIG_KEY in fields:  # a secret, asset or archive: rare, so pulumi_policy's own decoding
        # deserialize_properties decodes each value of a map: this one, under a key of its own.
        decoded = deserialize_properties({"value": json_format.MessageToDict(struct)})["value"]
        return _plain(decoded, lambda: seen.append(True))
    return {_intern(k): _plain_value(v, seen) for k, v in fields.items()}


def _plain_value(value: Any, seen: list[bool]) -> Any:
    kind = value.WhichOneof("kind")
    if kind == "string_value":
        text = value.string_value
        if text in _UNKNOWNS:
            seen.append(True)
            return UNKNOWN
        return _intern(text) if len(text) <= 64 else text
    if kind == "number_value":
        number = value.number_value
        if number != number or number in (_INFINITY, -_INFINITY):  # what MessageToDict refuses, refused alike
            raise ValueError(f"Fail to serialize {number} for Value.number_value")
        return int(number) if number.is_integer() else number
    if kind == "struct_value":
        return _plain_fields(value.struct_value, seen)
    if kind == "list_value":
        return [_plain_value(v, seen) for v in value.list_value.values]
    if kind == "bool_value":
        return value.bool_value
    return None  # null_value, or no kind set (MessageToDict gives None for both)


_INFINITY = float("inf")
# The views of a stack are held together: its thousands of resources repeat the same keys and short values
# (`metadata`, `apiVersion`, `kueue.x-k8s.io/v1beta2`...). One copy of each: a 1,000-team stack's views
# 140 MB to 48 MB (measured, benchmarks/RESULTS.md, issue 14).
_intern = sys.intern


def _policy_settings(
    name: str,
    enforcement_level: str,
    config: Mapping[str, Mapping[str, Any]] | None,
    required_config: Sequence[str],
    remediation_steps: str | None,
    severity: str | None,
    url: str | None,
) -> dict[str, Any]:
    """The keyword arguments resource and stack policies share."""
    settings = {
        "enforcement_level": _level(enforcement_level, name),
        "config_schema": _schema(config, required_config),
        "severity": _SEVERITIES[severity] if severity else None,
        **help_settings(name),
    }
    settings["remediation_steps"] = remediation_steps or settings["remediation_steps"]
    settings["url"] = url or settings["url"]
    return settings


def help_settings(name: str) -> dict[str, Any]:
    """A policy's remediation steps, documentation URL and category tag (`rule_help`; None where it has none)."""
    known = HELP.get(name)
    if known is None:
        return {"remediation_steps": None, "url": None, "tags": None}
    return {"remediation_steps": known.fix, "url": url_of(name), "tags": [f"category:{known.category}"]}


def run_check(name: str, check: Callable[[Any, dict], Sequence[Any]], subject: Any, config: dict, unknown_at: list[str] | None) -> list[Any]:
    """`check(subject, config)` as every policy runs it (see `_run`)."""
    return _run(name, check, subject, config, unknown_at)


def config_with_defaults(given: Mapping[str, Any] | None, defaults: dict[str, Any]) -> dict:
    """A rule's config: its schema defaults, overridden by what the user configured."""
    return _config(given or {}, defaults)


def _run(name: str, check: Callable[[Any, dict], Sequence[Any]], subject: Any, config: dict, unknown_at: list[str] | None) -> list[Any]:
    try:
        return list(check(subject, config) or ())
    except Exception as exc:  # noqa: BLE001 -- a rule must not take the whole preview down
        if unknown_at is not None:
            # As pulumi_policy does when a policy touches an unknown: an advisory "can't run during preview".
            raise UnknownValueError(UNKNOWN_STRING_VALUE, unknown_at) from exc
        # Fail closed, at the policy's own level, and let every other policy still run: a resource
        # shaped so that the rule cannot read it is not known to be compliant.
        return [
            f"policy {name!r} could not check this: {type(exc).__name__}: {exc}. "
            "Check the resource's properties; if they are valid, this is a bug in the rule."
        ]


def _type_matcher(types: TypeFilter) -> Callable[[str], bool]:
    if types is None:
        return lambda _t: True
    if callable(types):
        return types
    wanted = frozenset(types)
    return wanted.__contains__


def _level(level: str, policy: str) -> EnforcementLevel:
    try:
        return _LEVELS[level]
    except KeyError:
        raise ValueError(f"policy {policy!r}: enforcement_level {level!r} is not one of {sorted(_LEVELS)}") from None


def _schema(config: Mapping[str, Mapping[str, Any]] | None, required: Sequence[str]) -> PolicyConfigSchema | None:
    if not config:
        return None
    return PolicyConfigSchema(properties={k: dict(v) for k, v in config.items()}, required=list(required) or None)


def _defaults(config: Mapping[str, Mapping[str, Any]] | None) -> dict[str, Any]:
    return {k: v["default"] for k, v in (config or {}).items() if "default" in v}


def _config(given: Mapping[str, Any], defaults: dict[str, Any]) -> dict:
    merged = dict(defaults)
    for key, value in (given or {}).items():
        merged[key] = _plain(value, _no_unknowns)
    return merged


def _no_unknowns() -> None:
    pass


def _plain_props(props: Any) -> tuple[dict, list[str] | None]:
    """pulumi_policy's unknown-checking proxies -> plain data; also the path of the first unknown value."""
    seen: list[bool] = []
    plain = _plain(props, lambda: seen.append(True))
    # Unknowns are rare (previews only): find where the first one is only when there is one.
    return plain, (_unknown_path(plain, []) if seen else None)


_PROXIES = frozenset(policy_proxies.proxy_types())


def _plain(value: Any, on_unknown: Callable[[], None]) -> Any:
    # Runs for every property of every resource each stack policy sees: exact type checks first.
    # A proxy's wrapped container (gkecap.compat.policy_proxies): reading through it would raise on the first
    # unknown instead of letting the rule decide.
    kind = type(value)
    if kind is str:
        if value in _UNKNOWNS:
            on_unknown()
            return UNKNOWN
        return value
    if kind in _PROXIES:
        value = policy_proxies.contents(value)
        kind = type(value)
    if kind is dict or isinstance(value, Mapping):
        return {k: _plain(v, on_unknown) for k, v in value.items()}
    if kind is list or kind is tuple:
        return [_plain(v, on_unknown) for v in value]
    if kind is float and value.is_integer():
        return int(value)  # protobuf Struct numbers are doubles; rules compare counts as ints
    return value


def _unknown_path(value: Any, path: list[str]) -> list[str] | None:
    if value is UNKNOWN:
        return path
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found = _unknown_path(item, [*path, str(key)])
        if found is not None:
            return found
    return None


def _options(opts: Any) -> ResourceOptions:
    timeouts = opts.custom_timeouts
    return ResourceOptions(
        protect=bool(opts.protect),
        ignore_changes=tuple(opts.ignore_changes or ()),
        delete_before_replace=opts.delete_before_replace,
        aliases=tuple(opts.aliases or ()),
        additional_secret_outputs=tuple(opts.additional_secret_outputs or ()),
        custom_timeouts={
            "create": timeouts.create_seconds,
            "update": timeouts.update_seconds,
            "delete": timeouts.delete_seconds,
        }
        if timeouts is not None
        else {},
        parent=opts.parent or None,
    )


def _provider(provider: Any) -> ProviderView | None:
    if provider is None:
        return None
    props, _ = _plain_props(provider.props)
    return ProviderView(type=provider.resource_type, name=provider.name, urn=provider.urn, props=props)
