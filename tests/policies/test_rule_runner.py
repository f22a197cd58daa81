"""gkecap.policies.rule_runner: the pack's runners read each resource once and report under each rule's name.

Over the real Analyzer protocol: the gke-capacity pack process, fed as `gkecap plan` feeds it."""

from __future__ import annotations

import pytest

from gkecap.engine.resource_record import ResourceRecord
from gkecap.plan import default_policy_pack
from gkecap.policies import rule_runner
from gkecap.policies.registry import ALL_POLICIES
from gkecap.policies.rule_runner import SEPARATELY_ENV, PolicyDeclaration, pack_policies, retargeting_supported
from gkecap.policy_pack.analysis import StreamingAnalysis
from gkecap.policy_pack.policy_config import PolicySettings
from gkecap.policy_pack.process import PolicyPackProcess
from testkit.rule_resources import flex_tpu_pool, queued_gpu_pool

STACK_URN = "urn:pulumi:dev::gke-capacity::pulumi:pulumi:Stack::gke-capacity-dev"


def _record(view) -> ResourceRecord:
    return ResourceRecord(
        urn=f"urn:pulumi:dev::gke-capacity::{view.type}::{view.name}", type=view.type, name=view.name, custom=True,
        parent=STACK_URN, dependencies=(), property_dependencies={}, provider=None, id=view.name,
        options={"protect": False}, inputs=dict(view.props), outputs=dict(view.props),
    )


# A v6e pool with a topology v6e does not have (resource rule, mandatory) and a queued-provisioning pool
# without an admission check in the stack (stack rule, advisory).
RECORDS = [
    _record(flex_tpu_pool("v6e-bad", placementPolicy={"type": "COMPACT", "tpuTopology": "4x3"})),
    _record(queued_gpu_pool("h100-dws")),
]


def _findings(config: dict[str, PolicySettings] | None = None) -> list[tuple[str, str, str | None, str]]:
    with PolicyPackProcess(default_policy_pack(), project="gke-capacity", stack="dev") as pack:
        analysis = StreamingAnalysis(pack, config).start()
        for record in RECORDS:
            analysis.submit(record)
        result = analysis.finish(RECORDS)
    return sorted((d.policy, d.enforcement_level, d.urn, d.message) for d in result.diagnostics)


@pytest.fixture(scope="module")
def default_findings():
    return _findings()


def test_findings_name_each_rules_policy_at_its_level(default_findings):
    found = {(policy, level) for policy, level, _, _ in default_findings}
    assert ("tpu-slice-topology", "mandatory") in found
    assert ("queued-provisioning-admission-check", "advisory") in found
    assert not {policy for policy, _ in found} & rule_runner.RUNNER_NAMES  # runners never report as themselves


def test_same_findings_as_every_rule_registered_on_its_own(default_findings, monkeypatch):
    monkeypatch.setenv(SEPARATELY_ENV, "1")  # the pack process inherits it
    assert _findings() == default_findings


def test_a_rules_configured_level_applies_and_disabled_rules_do_not_run():
    config = {
        "tpu-slice-topology": PolicySettings("advisory"),
        "queued-provisioning-admission-check": PolicySettings("disabled"),
    }
    found = {(policy, level) for policy, level, _, _ in _findings(config)}
    assert ("tpu-slice-topology", "advisory") in found
    assert ("tpu-slice-topology", "mandatory") not in found
    assert all(policy != "queued-provisioning-admission-check" for policy, _ in found)


def test_installed_pulumi_policy_supports_retargeting():
    # If a pulumi_policy release changes its reporter, the pack falls back (slower); this says so first.
    assert retargeting_supported()


def test_pack_declares_every_rule_and_adds_two_runners():
    served = pack_policies(ALL_POLICIES)
    declared = [p for p in served if isinstance(p, PolicyDeclaration)]
    assert [p.name for p in declared] == [p.name for p in ALL_POLICIES]
    assert [p.enforcement_level for p in declared] == [p.enforcement_level for p in ALL_POLICIES]
    assert sorted(p.name for p in served if not isinstance(p, PolicyDeclaration)) == sorted(rule_runner.RUNNER_NAMES)


def test_without_retargeting_every_rule_is_its_own_policy(monkeypatch):
    monkeypatch.setattr(rule_runner, "retargeting_supported", lambda: False)
    assert pack_policies(ALL_POLICIES) == ALL_POLICIES


def test_the_pack_says_each_rules_kind():
    with PolicyPackProcess(default_policy_pack(), project="gke-capacity", stack="dev") as pack:
        kinds = {p.name: p.kind for p in pack.info().policies}
    assert {p.name: kinds[p.name] for p in ALL_POLICIES} == {p.name: p.gkecap_rule.kind for p in ALL_POLICIES}


def test_stack_runner_frees_each_resources_proxies_once_read(monkeypatch):
    # Where pulumi_policy's own AnalyzeStack runs (the fallback of gkecap.policies.stack_servicer): the property
    # proxies of a stack resource are dropped once the runner has its view, not held beside the views. Run in
    # process, where the resources can be seen afterwards.
    from pulumi_policy import policy as pulumi_policy_internals

    from gkecap.policies import adapter, stack_servicer
    from gkecap.policy_pack.in_process import InProcessPack

    monkeypatch.setattr(stack_servicer, "servicer_class", lambda: pulumi_policy_internals._PolicyAnalyzerServicer)
    seen = []
    original = adapter.stack_resource_view
    monkeypatch.setattr(adapter, "stack_resource_view", lambda r: (seen.append(r), original(r))[1])
    with InProcessPack(default_policy_pack(), project="gke-capacity", stack="dev") as pack:
        analysis = StreamingAnalysis(pack).start()
        for record in RECORDS:
            analysis.submit(record)
        found = analysis.finish(RECORDS).diagnostics
    assert {d.policy for d in found} >= {"tpu-slice-topology", "queued-provisioning-admission-check"}
    assert len(seen) == len(RECORDS)
    assert all(r.props == {} for r in seen)


def test_the_pack_reads_the_stack_from_the_request(monkeypatch):
    # The servicer the pack serves builds the stack runner's views from the request (stack_servicer), never from
    # pulumi_policy's converted resources.
    from gkecap.policies import adapter
    from gkecap.policy_pack.in_process import InProcessPack

    def not_this_way(r):
        raise AssertionError("pulumi_policy converted the stack")

    monkeypatch.setattr(adapter, "stack_resource_view", not_this_way)
    with InProcessPack(default_policy_pack(), project="gke-capacity", stack="dev") as pack:
        analysis = StreamingAnalysis(pack).start()
        for record in RECORDS:
            analysis.submit(record)
        found = analysis.finish(RECORDS).diagnostics
    assert ("queued-provisioning-admission-check", "advisory") in {(d.policy, d.enforcement_level) for d in found}
