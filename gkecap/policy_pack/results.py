"""What running a policy pack yields: the pack's self-description, its violations, a run's result.

`AnalyzerInfo` and `PolicyInfo` describe the pack as its GetAnalyzerInfo answer does (policies, levels,
config schemas); `Diagnostic` is one violation as the engine reports it; `PolicyResult` is a whole run
(the reconciled config, every diagnostic, how many resources were analyzed). `PolicyPackError` is raised
when the pack fails to start or an Analyzer call fails. Plain data: no gRPC here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gkecap.policy_pack.policy_config import PolicySettings


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
    url: str = ""
    tags: tuple[str, ...] = ()


@dataclass(frozen=True)
class AnalyzerInfo:
    name: str
    version: str
    description: str
    supports_config: bool
    policies: tuple[PolicyInfo, ...]
    initial_config: Mapping[str, PolicySettings] = field(default_factory=dict)


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
