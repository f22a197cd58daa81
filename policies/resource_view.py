"""Plain data a rule sees: one resource, its options, and the marker for values unknown during preview.

Pure: no pulumi or pulumi_policy import, so rules and their tests build views directly:

    ResourceView("gcp:container/nodePool:NodePool", "pool", props={"nodeCount": 4})
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


class _Unknown:
    """A value Pulumi cannot know during preview (an output of a resource not created yet)."""

    _instance: _Unknown | None = None

    def __new__(cls) -> _Unknown:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNKNOWN"

    def __reduce__(self) -> str:
        return "UNKNOWN"


UNKNOWN: Any = _Unknown()
"""Stands in for a value unknown during preview; compare with `is UNKNOWN` or `is_unknown(v)`."""


def is_unknown(value: Any) -> bool:
    return value is UNKNOWN


@dataclass(frozen=True, slots=True)
class ResourceOptions:
    """The resource options the Analyzer protocol carries (`AnalyzerResourceOptions` in analyzer.proto)."""

    protect: bool = False
    ignore_changes: tuple[str, ...] = ()
    delete_before_replace: bool | None = None
    aliases: tuple[str, ...] = ()
    additional_secret_outputs: tuple[str, ...] = ()
    custom_timeouts: Mapping[str, float] = field(default_factory=dict)  # create/update/delete, seconds
    parent: str | None = None


@dataclass(frozen=True, slots=True)
class ProviderView:
    """The explicit provider of a resource (None when the default provider is used)."""

    type: str
    name: str
    urn: str
    props: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ResourceView:
    """One resource as a rule sees it.

    `props` are the resource's properties with the engine's camelCase keys (`nodeCount`,
    `placementPolicy.tpuTopology`, a CustomResource's `apiVersion`/`kind`/`metadata`/`spec`), as plain
    dicts, lists, str, bool, int (integral numbers) and float; secrets are unwrapped; a value
    unknown during preview is `UNKNOWN`. Resource policies see inputs; stack policies see outputs
    (the engine's choice: inputs plus what the provider computed).
    """

    type: str
    name: str
    urn: str = ""
    props: Mapping[str, Any] = field(default_factory=dict)
    options: ResourceOptions = field(default_factory=ResourceOptions)
    parent: str | None = None
    dependencies: tuple[str, ...] = ()
    property_dependencies: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    provider: ProviderView | None = None

    def __post_init__(self) -> None:
        if not self.urn:
            # Same shape as the engine's URNs, handy in tests and messages.
            object.__setattr__(self, "urn", f"urn:pulumi:stack::project::{self.type}::{self.name}")

    def get(self, path: str, default: Any = None) -> Any:
        """`props` at a dotted path (`"autoscaling.maxNodeCount"`; list indexes as digits), or `default`."""
        value: Any = self.props
        for part in path.split("."):
            if isinstance(value, Mapping):
                if part not in value:
                    return default
                value = value[part]
            elif isinstance(value, list) and part.isascii() and part.isdigit() and int(part) < len(value):
                value = value[int(part)]
            else:
                return default
        return value

    @property
    def protected(self) -> bool:
        return self.options.protect
