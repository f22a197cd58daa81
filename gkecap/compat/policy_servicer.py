"""pulumi_policy's private Analyzer servicer, as the gke-capacity pack uses it (pulumi_policy 1.21).

`PolicyPack` serves `pulumi_policy.policy._PolicyAnalyzerServicer`; the pack serves a subclass of it instead
(`policies.stack_servicer`) and reports findings through its violation reporter (`policies.rule_runner`). Every
private name involved is read here, and only when `supported()`: the installed pulumi_policy is the tested release
(`versions`) and has each name with the shape used. Otherwise `base_class()` is None and the pack falls back to
public API only: pulumi_policy's own servicer, every rule registered as its own policy (same findings, slower).
"""

from __future__ import annotations

from typing import Any

from gkecap.compat.versions import uses_internals

SERVICER = "_PolicyAnalyzerServicer"
# The servicer's methods the pack calls, and the name-mangled attributes it reads.
METHODS = ("_get_enforcement_level", "_get_policy_config", "_create_report_violation", "_configure_runtime_settings",
           "_get_resource_options", "AnalyzeStack")
_MANGLED = f"_{SERVICER.lstrip('_')}__"  # Python's name mangling of the class's `__x` attributes
_POLICIES = f"{_MANGLED}policies"
_PACK_NAME = f"{_MANGLED}policy_pack_name"
_PACK_VERSION = f"{_MANGLED}policy_pack_version"


def _internals() -> Any:
    from pulumi_policy import policy

    return policy


def supported() -> bool:
    """pulumi_policy's internals are as the pack uses them: the tested release, the servicer class with its methods,
    and a violation reporter that closes over the servicer (`self`) and the call's `response`."""
    if not uses_internals("pulumi_policy"):
        return False
    try:
        servicer = getattr(_internals(), SERVICER)
        reporter_code = next(c for c in servicer._create_report_violation.__code__.co_consts if hasattr(c, "co_freevars"))
    except (ImportError, AttributeError, StopIteration):
        return False
    return {"self", "response"} <= set(reporter_code.co_freevars) and all(hasattr(servicer, m) for m in METHODS)


def base_class() -> type | None:
    """pulumi_policy's servicer class when `supported()`, else None (public API only)."""
    return getattr(_internals(), SERVICER, None) if supported() else None


def serve(servicer_class: type) -> None:
    """Make `PolicyPack` serve `servicer_class` (a subclass of `base_class()`): it looks the class up by name."""
    setattr(_internals(), SERVICER, servicer_class)


def reporter_target(report_violation: Any) -> tuple[Any, Any]:
    """(servicer, response) of a violation reporter pulumi_policy handed to a policy (its closure cells)."""
    code = report_violation.__code__
    cells = dict(zip(code.co_freevars, (c.cell_contents for c in report_violation.__closure__ or ())))
    return cells["self"], cells["response"]


def enforcement_level(servicer: Any, policy: Any) -> Any:
    """The policy's level as configured (Configure), else its own."""
    return servicer._get_enforcement_level(policy)


def policy_config(servicer: Any, name: str) -> dict:
    return servicer._get_policy_config(name)


def create_reporter(servicer: Any, response: Any, name: str, description: str, level: Any, severity: Any) -> Any:
    """A violation reporter that adds diagnostics of policy `name` at `level` to `response`."""
    return servicer._create_report_violation(response, name, description, level, severity)


def configure_runtime_settings(servicer: Any) -> None:
    servicer._configure_runtime_settings()


def resource_options(servicer: Any, request_resource: Any) -> Any:
    return servicer._get_resource_options(request_resource)


def policies(servicer: Any) -> list | None:
    """The servicer's policies (None if it has no such list)."""
    return getattr(servicer, _POLICIES, None)


def pack_identity(servicer: Any) -> tuple[str, str]:
    """(pack name, pack version) as the servicer reports them."""
    return getattr(servicer, _PACK_NAME, ""), getattr(servicer, _PACK_VERSION, "")
