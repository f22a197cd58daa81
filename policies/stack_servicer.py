"""AnalyzeStack with each resource read once, straight from the request: the servicer the pack serves.

pulumi_policy's AnalyzeStack converts every resource of the request (Struct -> dict -> deserialized copy ->
proxies) and holds all of it until its stack policies return; the pack's stack runner then copies each resource
into a plain view. At 1,000 teams that tree was the pack's peak memory (490 MB) and most of its AnalyzeStack
time (benchmarks/RESULTS.md, issue 14). When the stack runner (rule_runner.StackRunner) is the only stack policy
to run, `StackServicer` reads its views straight from the request's Structs, one resource at a time
(`adapter.request_resource_view`), and hands them to the runner: the same views and findings as pulumi_policy's
path (tests/policies/test_stack_servicer.py compares both on the bundled environments). Any other stack policy
(a pack of separate rules, GKECAP_PACK_RULES_SEPARATELY=1) gets pulumi_policy's own AnalyzeStack.

`servicer_class()` is this subclass of pulumi_policy's servicer when pulumi_policy's internals are as expected
(`gkecap.compat.policy_servicer`, through which every private name is reached), else None: then the pack is
pulumi_policy's, untouched, with every rule its own policy. The pack's `__main__.py` puts it where `PolicyPack`
looks for its servicer class; gkecap's in-process mode builds it directly. Its `Configure` keeps the two runners
running whatever level `all` sets (they carry the rules, which keep their own levels).
"""

from __future__ import annotations

import functools
from typing import Any

from pulumi_policy import EnforcementLevel, StackValidationPolicy

from gkecap.compat import policy_servicer as compat
from gkecap.policies import adapter
from gkecap.policies.rule_runner import RUNNER_NAMES, StackRunner, _Reporter, retargeting_supported


@functools.cache  # one class per process: the pack's, gkecap's in-process mode and the tests see the same
def servicer_class() -> type | None:
    """The servicer class the pack serves: `StackServicer` when supported, else pulumi_policy's own (None if
    pulumi_policy's internals are not the ones the pack uses: then the pack is pulumi_policy's, untouched)."""
    base = compat.base_class()
    if base is None or not retargeting_supported():
        return base

    class StackServicer(base):  # type: ignore[misc, valid-type]
        """pulumi_policy's servicer; AnalyzeStack reads the runner's views from the request when it can."""

        def Configure(self, request: Any, context: Any) -> Any:  # noqa: N802 -- the gRPC method's name
            # The runners only carry the rules, which keep their own levels: `"all": "disabled"` with some rules
            # enabled (Pulumi's config shapes, pkg/resource/analyzer/config.go applyConfig) must still run those.
            from pulumi.runtime.proto import analyzer_pb2

            if any(request.policyConfig[n].enforcementLevel == analyzer_pb2.DISABLED
                   for n in RUNNER_NAMES if n in request.policyConfig):
                copy = analyzer_pb2.ConfigureAnalyzerRequest()
                copy.CopyFrom(request)
                for name in RUNNER_NAMES:
                    if name in copy.policyConfig and copy.policyConfig[name].enforcementLevel == analyzer_pb2.DISABLED:
                        copy.policyConfig[name].enforcementLevel = analyzer_pb2.ADVISORY
                request = copy
            return super().Configure(request, context)

        def AnalyzeStack(self, request: Any, context: Any) -> Any:  # noqa: N802 -- the gRPC method's name
            runner = _only_stack_policy(self)
            if runner is None:
                return super().AnalyzeStack(request, context)
            compat.configure_runtime_settings(self)
            from pulumi.runtime.proto import analyzer_pb2

            response = analyzer_pb2.AnalyzeResponse()
            urns = {r.urn for r in request.resources}
            providers: dict[tuple, Any] = {}

            def views_of(wanted: Any) -> list[tuple[Any, list[str] | None]]:
                return [
                    adapter.request_resource_view(r, urns, compat.resource_options(self, r), providers)
                    for r in request.resources
                    if wanted(r.type)
                ]

            runner.check(_Reporter(self, response), views_of)
            return response

    return StackServicer


def _only_stack_policy(servicer: Any) -> StackRunner | None:
    """The pack's stack runner, when it is the one stack policy that runs; None otherwise."""
    policies = compat.policies(servicer)
    if policies is None:
        return None
    running = [
        p for p in policies
        if isinstance(p, StackValidationPolicy) and compat.enforcement_level(servicer, p) != EnforcementLevel.DISABLED
    ]
    return running[0] if len(running) == 1 and isinstance(running[0], StackRunner) else None
