"""Serve many rules while reading each resource once: what the pack registers with pulumi_policy.

pulumi_policy converts a resource's properties (Struct -> dict -> deserialized -> proxy) once per policy:
on every Analyze for each resource policy, and on AnalyzeStack for each stack policy over every resource of
the stack. With 11 resource and 9 stack rules that conversion, not the checking, is most of the pack's time
and grows with rules x resources. `pack_policies(rules)` serves the same rules with the conversion done once:

* one `PolicyDeclaration` per rule: a plain pulumi_policy `Policy` with the rule's name, description,
  enforcement level and config schema. GetAnalyzerInfo lists it and Configure sets its level and
  properties exactly as before, so `pulumi preview --policy-pack`, `--policy-pack-config` and gkecap see
  every rule by name; pulumi_policy never converts resources for it (it is neither a resource nor a stack
  policy, so Analyze and AnalyzeStack skip it);
* one resource policy (`gke-capacity-resource-rules`) that reads each resource once and runs every resource
  rule on it, and one stack policy (`gke-capacity-stack-rules`) that reads the stack once and runs every
  stack rule. Each finding is reported under its own rule's name, at that rule's configured level, through
  pulumi_policy's own violation reporter (`_create_report_violation` of the servicer that called the runner).

That reporter is pulumi_policy internals, reached only through `gkecap.compat.policy_servicer`.
`retargeting_supported()` says whether they are as expected (the tested pulumi_policy release; the reporter closes
over `self` and `response`); when they are not, or when the environment sets `GKECAP_PACK_RULES_SEPARATELY=1` (to
compare or measure), the pack registers every rule as its own policy, as it did before (slower, same findings:
tests/policies/test_rule_runner.py). The runners run whatever level `all` gives them (`stack_servicer`): they only
carry the rules, which keep their own levels.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pulumi_policy import (
    EnforcementLevel,
    Policy,
    ReportViolation,
    ResourceValidationArgs,
    ResourceValidationPolicy,
    StackValidationArgs,
    StackValidationPolicy,
)
from pulumi_policy.proxy import UnknownValueError

from gkecap.compat import policy_servicer as compat
from gkecap.policies import adapter
from gkecap.policies.resource_view import ResourceView

RESOURCE_RUNNER = "gke-capacity-resource-rules"
STACK_RUNNER = "gke-capacity-stack-rules"
RUNNER_NAMES = frozenset({RESOURCE_RUNNER, STACK_RUNNER})
SEPARATELY_ENV = "GKECAP_PACK_RULES_SEPARATELY"


KIND_TAG = "policy-type:"  # + "resource" | "stack": a declaration's kind, which GetAnalyzerInfo cannot carry


class PolicyDeclaration(Policy):
    """A rule as the engine lists and configures it; run by the pack's resource or stack runner.

    pulumi_policy sets a policy's type in GetAnalyzerInfo only for the policies it runs itself, so a declaration
    carries its kind as the tag `policy-type:resource` / `policy-type:stack` (gkecap reads it back)."""

    def __init__(self, policy: Policy, rule: adapter.Rule) -> None:
        super().__init__(
            policy.name,
            policy.description,
            policy.enforcement_level,
            policy.config_schema,
            policy.display_name,
            policy.severity,
            policy.framework,
            [*(policy.tags or ()), KIND_TAG + rule.kind],
            policy.remediation_steps,
            policy.url,
        )
        self.rule = rule


@dataclass(frozen=True)
class _Reporter:
    """pulumi_policy's servicer and the response of the call being answered (taken from its reporter)."""

    servicer: Any
    response: Any

    @classmethod
    def of(cls, report_violation: ReportViolation) -> _Reporter:
        return cls(*compat.reporter_target(report_violation))

    def level(self, declaration: PolicyDeclaration) -> EnforcementLevel:
        level = compat.enforcement_level(self.servicer, declaration)
        # As pulumi_policy: a violation of a remediation policy that validation still finds is mandatory.
        return EnforcementLevel.MANDATORY if level == EnforcementLevel.REMEDIATE else level

    def config(self, declaration: PolicyDeclaration) -> dict:
        return adapter.config_with_defaults(compat.policy_config(self.servicer, declaration.name), declaration.rule.defaults)

    def reporter(self, declaration: PolicyDeclaration, level: EnforcementLevel) -> ReportViolation:
        return compat.create_reporter(self.servicer, self.response, declaration.name, declaration.description, level,
                                      declaration.severity)

    def cannot_run(self, declaration: PolicyDeclaration, error: UnknownValueError) -> None:
        # pulumi_policy's answer when a policy touches a value unknown during preview: advisory, no URN.
        pack, version = compat.pack_identity(self.servicer)
        message = f"can't run policy '{declaration.name}' from policy pack '{pack}@v{version}' during preview: {error.message}"
        self.reporter(declaration, EnforcementLevel.ADVISORY)(message, None)


def retargeting_supported() -> bool:
    """pulumi_policy's servicer and violation reporter are as the runners use them (see the module docstring)."""
    return compat.supported()


def pack_policies(policies: Sequence[Policy]) -> list[Policy]:
    """What the pack registers for `policies` (built by `adapter.resource_policy` / `stack_policy`): one
    declaration per rule plus the two runners, or the policies themselves where retargeting is not supported
    or a policy is not an adapter rule."""
    if os.environ.get(SEPARATELY_ENV) == "1" or not retargeting_supported():
        return list(policies)
    declarations = [PolicyDeclaration(p, rule) if (rule := adapter.rule_of(p)) else p for p in policies]
    resource_rules = [d for d in declarations if isinstance(d, PolicyDeclaration) and d.rule.kind == "resource"]
    stack_rules = [d for d in declarations if isinstance(d, PolicyDeclaration) and d.rule.kind == "stack"]
    return [*declarations, _resource_runner(resource_rules), _stack_runner(stack_rules)]


def _enabled(reporter: _Reporter, declarations: Sequence[PolicyDeclaration]) -> list[tuple[PolicyDeclaration, EnforcementLevel]]:
    found: list[tuple[PolicyDeclaration, EnforcementLevel]] = []
    for declaration in declarations:
        level = reporter.level(declaration)
        if level != EnforcementLevel.DISABLED:
            found.append((declaration, level))
    return found


def _report(reporter: _Reporter, declaration: PolicyDeclaration, level: EnforcementLevel, subject: Any, unknown_at: list[str] | None) -> None:
    try:
        found = adapter.run_check(declaration.name, declaration.rule.check, subject, reporter.config(declaration), unknown_at)
    except UnknownValueError as error:
        reporter.cannot_run(declaration, error)
        return
    report = reporter.reporter(declaration, level)
    for item in found:
        if declaration.rule.kind == "resource":
            report(item if isinstance(item, str) else item[1], None)
        else:
            urn, message = (None, item) if isinstance(item, str) else item
            report(message, urn or None)


def _resource_runner(declarations: list[PolicyDeclaration]) -> ResourceValidationPolicy:
    def validate(args: ResourceValidationArgs, report_violation: ReportViolation) -> None:
        reporter = _Reporter.of(report_violation)
        view: ResourceView | None = None
        unknown_at: list[str] | None = None
        for declaration, level in _enabled(reporter, declarations):
            if not declaration.rule.matches(args.resource_type):
                continue
            if view is None:  # converted once, for the first rule that wants this resource
                view, unknown_at = adapter.resource_view(args)
            _report(reporter, declaration, level, view, unknown_at)

    return ResourceValidationPolicy(
        name=RESOURCE_RUNNER,
        description="Runs every resource rule of the gke-capacity pack on each resource, read once; each rule reports under its own name.",
        validate=validate,
        enforcement_level=EnforcementLevel.ADVISORY,
        **adapter.help_settings(RESOURCE_RUNNER),
    )


_READ: dict = {}  # what a stack resource's props are once the runner has read them

ViewsOf = Callable[[Callable[[str], bool]], list[tuple[ResourceView, "list[str] | None"]]]


class StackRunner(StackValidationPolicy):
    """The pack's one stack policy: runs every stack rule over views of the stack's resources.

    pulumi_policy calls it with AnalyzeStack's resources already converted (`validate`); the pack's
    `stack_servicer.StackServicer` calls `check` with views it read straight from the request instead."""

    def __init__(self, declarations: list[PolicyDeclaration]) -> None:
        self.declarations = declarations

        def validate(args: StackValidationArgs, report_violation: ReportViolation) -> None:
            def views_of(wanted: Callable[[str], bool]) -> list[tuple[ResourceView, list[str] | None]]:
                views = []
                for r in args.resources:
                    if wanted(r.resource_type):
                        views.append(adapter.stack_resource_view(r))  # converted once for every stack rule
                    # pulumi_policy builds these resources for this one call (AnalyzeStack, per stack policy); once
                    # read, their property proxies (a container, a proxy and a path list per value) are freed, not
                    # held beside the views.
                    r.props = _READ
                return views

            self.check(_Reporter.of(report_violation), views_of)

        super().__init__(
            name=STACK_RUNNER,
            description="Runs every stack rule of the gke-capacity pack over the stack, read once; each rule reports under its own name.",
            validate=validate,
            enforcement_level=EnforcementLevel.ADVISORY,
            **adapter.help_settings(STACK_RUNNER),
        )

    def check(self, reporter: _Reporter, views_of: ViewsOf) -> None:
        """Run the enabled stack rules over `views_of(wanted)`: views of the resources whose type one wants."""
        enabled = _enabled(reporter, self.declarations)
        if not enabled:
            return
        views = views_of(lambda resource_type: any(d.rule.matches(resource_type) for d, _ in enabled))
        for declaration, level in enabled:
            mine = [(v, u) for v, u in views if declaration.rule.matches(v.type)]
            unknown_at = next((u for _, u in mine if u), None)
            _report(reporter, declaration, level, [v for v, _ in mine], unknown_at)


def _stack_runner(declarations: list[PolicyDeclaration]) -> StackValidationPolicy:
    return StackRunner(declarations)
