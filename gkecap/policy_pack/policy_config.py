"""Policy pack configuration, read and reconciled as the Pulumi CLI does for `--policy-pack-config`.

File format (pkg/resource/analyzer/config.go: parsePolicyPackConfig): a JSON object keyed by policy
name (or `all`); a value is an enforcement level string, or an object with an optional
`enforcementLevel` and the policy's config properties. Reconciliation (ReconcilePolicyPackConfig):
start from every policy's own level and its schema defaults, apply the pack's initial config, then the
given config (`all` sets every policy's level first), and validate each policy's properties against its
config schema. The result goes to the pack's `Configure`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gkecap.components.spec.user_files import UserFileError, parse_json, read_text

ENFORCEMENT_LEVELS = ("advisory", "mandatory", "remediate", "disabled")


class PolicyConfigError(ValueError):
    """Unreadable config, or config that the policies' schemas reject (`problems`: one line each)."""

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


@dataclass(frozen=True)
class PolicySettings:
    enforcement_level: str | None = None
    properties: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class PolicySchema:
    """What reconciliation needs to know about one policy of the pack."""

    name: str
    enforcement_level: str
    properties: Mapping[str, Mapping[str, Any]] | None = None
    required: tuple[str, ...] = ()


def load_policy_config(path: Path) -> dict[str, PolicySettings]:
    try:
        text = read_text(path)
        if not text.strip():
            return {}
        data = parse_json(text, object_pairs_hook=_refuse_duplicates)
    except UserFileError as exc:
        raise PolicyConfigError([f"{path}: {exc}"]) from None
    except _DuplicateKey as exc:
        raise PolicyConfigError([f"{path}: key {exc} is given twice in one object; give it once"]) from None
    return parse_policy_config(data, source=str(path))


class _DuplicateKey(ValueError):
    pass


def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # A repeated key would silently keep the last value (json's default): a careless merge must not pass.
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _DuplicateKey(repr(key))
        result[key] = value
    return result


def parse_policy_config(data: Any, source: str = "policy config") -> dict[str, PolicySettings]:
    if not isinstance(data, dict):
        raise PolicyConfigError([f"{source}: must be a JSON object keyed by policy name, got {type(data).__name__}"])
    result: dict[str, PolicySettings] = {}
    problems: list[str] = []
    for policy, value in data.items():
        if isinstance(value, str):
            if value not in ENFORCEMENT_LEVELS:
                problems.append(f"{source}: {policy}: {value!r} is not a valid enforcement level; valid: {', '.join(ENFORCEMENT_LEVELS)}")
                continue
            result[policy] = PolicySettings(enforcement_level=value)
        elif isinstance(value, dict):
            properties = dict(value)
            level = properties.pop("enforcementLevel", None)
            if level is not None and level not in ENFORCEMENT_LEVELS:
                problems.append(f"{source}: {policy}.enforcementLevel: {level!r} is not a valid enforcement level; valid: {', '.join(ENFORCEMENT_LEVELS)}")
                continue
            if level is None and not properties:
                continue  # the CLI drops empty entries
            result[policy] = PolicySettings(enforcement_level=level, properties=properties or None)
        else:
            problems.append(f"{source}: {policy}: {value!r} is not valid; use an enforcement level or an object")
    if problems:
        raise PolicyConfigError(problems)
    return result


def reconcile(
    policies: Iterable[PolicySchema],
    initial: Mapping[str, PolicySettings] | None,
    given: Mapping[str, PolicySettings] | None,
) -> dict[str, PolicySettings]:
    """Every policy's effective level and properties (defaults, then initial, then given); validated."""
    policies = list(policies)
    result: dict[str, PolicySettings] = {}
    for policy in policies:
        defaults = {k: v["default"] for k, v in (policy.properties or {}).items() if "default" in v}
        result[policy.name] = PolicySettings(policy.enforcement_level, defaults or None)
    for layer in (initial, given):
        if layer:
            result = _apply(result, layer)
    known = {p.name for p in policies} | {"all"}
    problems = [f"policy config: {name}: no such policy in the pack; policies: {', '.join(sorted(known - {'all'}))}" for name in (given or {}) if name not in known]
    problems += _validate(policies, result)
    if problems:
        raise PolicyConfigError(problems)
    return result


def _apply(result: dict[str, PolicySettings], layer: Mapping[str, PolicySettings]) -> dict[str, PolicySettings]:
    result = dict(result)
    everything = layer.get("all")
    if everything is not None and everything.enforcement_level:
        result = {k: PolicySettings(everything.enforcement_level, v.properties) for k, v in result.items()}
    for name, given in layer.items():
        if name == "all":
            continue
        current = result.get(name, PolicySettings())
        properties = dict(current.properties or {})
        properties.update(given.properties or {})
        result[name] = PolicySettings(given.enforcement_level or current.enforcement_level, properties or None)
    return result


def _validate(policies: list[PolicySchema], config: Mapping[str, PolicySettings]) -> list[str]:
    problems: list[str] = []
    with_schema = [p for p in policies if p.properties or p.required]
    if not with_schema:
        return problems
    try:
        import jsonschema  # only needed when a policy has a config schema
    except ImportError:  # pragma: no cover -- a dependency of gke-capacity; without it, no validation
        return problems

    for policy in with_schema:
        schema: dict[str, Any] = {"type": "object"}
        if policy.properties:
            schema["properties"] = dict(policy.properties)
        if policy.required:
            schema["required"] = list(policy.required)
        settings = config.get(policy.name)
        document = dict(settings.properties or {}) if settings else {}
        for error in sorted(jsonschema.Draft7Validator(schema).iter_errors(document), key=lambda e: list(e.path)):
            where = ".".join(str(p) for p in error.path)
            problems.append(f"policy config: {policy.name}{'.' + where if where else ''}: {error.message}")
    return problems
