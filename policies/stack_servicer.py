"""AnalyzeStack with each resource read once, straight from the request: the servicer the pack serves.

pulumi_policy's AnalyzeStack converts every resource of the request (Struct -> dict -> deserialized copy ->
proxies) and holds all of it until its stack policies return; the pack's stack runner then copies each resource
into a plain view. At 1,000 teams that tree was the pack's peak memory (490 MB) and most of its AnalyzeStack
time (benchmarks/RESULTS.md, issue 14). When the stack runner (rule_runner.StackRunner) is the only stack policy
to run, `StackServicer` reads its views straight from the request's Structs, one resource at a time
(`adapter.request_resource_view`), and hands them to the runner: the same views and findings as pulumi_policy's
path (tests/policies/test_stack_servicer.py compares both on the bundled environments). Any other stack policy
(a pack of separate rules, GKECAP_PACK_RULES_SEPARATELY=1) gets pulumi_policy's own AnalyzeStack.

`servicer_class()` is pulumi_policy's servicer class, or this subclass of it when pulumi_policy's internals
are as expected (as rule_runner.retargeting_supported checks for the reporter). The pack's `__main__.py` puts
it where `PolicyPack` looks for its servicer class; gkecap's in-process mode builds it directly.
"""

from __future__ import annotations

import functools
from typing import Any

from pulumi_policy import EnforcementLevel, StackValidationPolicy

from gkecap.policies import adapter
from gkecap.policies.rule_runner import StackRunner, _Reporter, retargeting_supported

# What the subclass uses of pulumi_policy's servicer, besides what the runner's reporter needs.
_INTERNALS = ("_configure_runtime_settings", "_get_resource_options", "AnalyzeStack")
_POLICIES = "_PolicyAnalyzerServicer__policies"  # the servicer's list of policies (a private attribute)


@functools.cache  # one class per process: the pack's, gkecap's in-process mode and the tests see the same
def servicer_class() -> type | None:
    """The servicer class the pack serves: `StackServicer` when supported, else pulumi_policy's own (None if
    this pulumi_policy has no servicer class where 1.x has it: then the pack is pulumi_policy's, untouched)."""
    from pulumi_policy import policy as internals

    base = getattr(internals, "_PolicyAnalyzerServicer", None)
    if base is None or not (retargeting_supported() and all(hasattr(base, name) for name in _INTERNALS)):
        return base

    class StackServicer(base):  # type: ignore[misc, valid-type]
        """pulumi_policy's servicer; AnalyzeStack reads the runner's views from the request when it can."""

        def AnalyzeStack(self, request: Any, context: Any) -> Any:  # noqa: N802 -- the gRPC method's name
            runner = _only_stack_policy(self)
            if runner is None:
                return super().AnalyzeStack(request, context)
            self._configure_runtime_settings()
            from pulumi.runtime.proto import analyzer_pb2

            response = analyzer_pb2.AnalyzeResponse()
            urns = {r.urn for r in request.resources}
            providers: dict[tuple, Any] = {}

            def views_of(wanted: Any) -> list[tuple[Any, list[str] | None]]:
                return [
                    adapter.request_resource_view(r, urns, self._get_resource_options(r), providers)
                    for r in request.resources
                    if wanted(r.type)
                ]

            runner.check(_Reporter(self, response), views_of)
            return response

    return StackServicer


def _only_stack_policy(servicer: Any) -> StackRunner | None:
    """The pack's stack runner, when it is the one stack policy that runs; None otherwise."""
    policies = getattr(servicer, _POLICIES, None)
    if policies is None:
        return None
    running = [
        p for p in policies
        if isinstance(p, StackValidationPolicy) and servicer._get_enforcement_level(p) != EnforcementLevel.DISABLED
    ]
    return running[0] if len(running) == 1 and isinstance(running[0], StackRunner) else None
