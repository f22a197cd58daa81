"""The Analyzer client against a real policy pack process (tests/fixtures/packs/mini_pack)."""

import shutil

import pytest

from gkecap.engine.resource_record import ResourceRecord
from gkecap.policy_pack.analysis import StreamingAnalysis
from gkecap.policy_pack.policy_config import PolicyConfigError, PolicySettings
from gkecap.policy_pack.process import PolicyPackProcess
from gkecap.policy_pack.results import PolicyPackError
from testkit.engine_fixtures import MINI_PACK

STACK_URN = "urn:pulumi:dev::demo::pulumi:pulumi:Stack::demo-dev"


def _pool(name: str, max_nodes: int, *, protect: bool = False) -> ResourceRecord:
    inputs = {"cluster": "ml", "autoscaling": {"totalMinNodeCount": 0, "totalMaxNodeCount": max_nodes}}
    return ResourceRecord(
        urn=f"urn:pulumi:dev::demo::gcp:container/nodePool:NodePool::{name}",
        type="gcp:container/nodePool:NodePool",
        name=name,
        custom=True,
        parent=STACK_URN,
        dependencies=(),
        property_dependencies={},
        provider=None,
        id=name,
        options={"protect": protect, "ignoreChanges": ["nodeCount"], "deleteBeforeReplace": None},
        inputs=inputs,
        outputs=inputs,
    )


STACK = ResourceRecord(
    urn=STACK_URN, type="pulumi:pulumi:Stack", name="demo-dev", custom=False, parent=None, dependencies=(),
    property_dependencies={}, provider=None, id=None, options={}, inputs={}, outputs={},
)


def _analyze(pack: PolicyPackProcess, record: ResourceRecord):
    return pack.analyzed(pack.analyze_future(record), record.urn)


@pytest.fixture(scope="module")
def pack():
    with PolicyPackProcess(MINI_PACK, project="demo", stack="dev") as process:
        yield process


def test_analyzer_info_lists_policies_with_levels_and_schema(pack):
    info = pack.info()
    assert (info.name, info.version) == ("mini-pack", "9.9.9")  # version from PulumiPolicy.yaml, as the engine
    assert [(p.name, p.enforcement_level, p.kind) for p in info.policies] == [
        ("max-nodes", "mandatory", "resource"),
        ("protected-pools", "advisory", "stack"),
    ]
    max_nodes = next(p for p in info.policies if p.name == "max-nodes")
    assert max_nodes.config_properties["maxNodes"]["default"] == 2


def test_plugin_reports_its_sdk_version(pack):
    assert pack.plugin_version()


def test_resource_violation_is_mandatory_with_the_resource_urn(pack):
    pack.configure(None)
    diagnostics = _analyze(pack, _pool("big", 6))
    assert [(d.policy, d.enforcement_level, d.urn) for d in diagnostics] == [("max-nodes", "mandatory", _pool("big", 6).urn)]
    assert "scales to 6 nodes, above the limit of 2" in diagnostics[0].message
    assert diagnostics[0].description == "Node pools stay within the node limit."
    assert diagnostics[0].policy_pack == "mini-pack"


def test_compliant_resource_has_no_diagnostic(pack):
    pack.configure(None)
    assert _analyze(pack, _pool("small", 2)) == []


def test_config_properties_reach_the_rule(pack):
    config = pack.configure({"max-nodes": PolicySettings(properties={"maxNodes": 8})})
    assert config["max-nodes"] == PolicySettings("mandatory", {"maxNodes": 8})
    assert _analyze(pack, _pool("big", 6)) == []


def test_enforcement_level_can_be_lowered_or_disabled(pack):
    pack.configure({"max-nodes": PolicySettings(enforcement_level="advisory")})
    assert [d.enforcement_level for d in _analyze(pack, _pool("big", 6))] == ["advisory"]
    pack.configure({"all": PolicySettings(enforcement_level="disabled")})
    assert _analyze(pack, _pool("big", 6)) == []


def test_stack_policy_reports_resources_and_the_stack(pack):
    pack.configure(None)
    unprotected = pack.analyze_stack([STACK, _pool("a", 1, protect=True), _pool("b", 1)])
    assert [(d.policy, d.enforcement_level, d.urn) for d in unprotected] == [("protected-pools", "advisory", _pool("b", 1).urn)]
    empty = pack.analyze_stack([STACK])
    assert [(d.message, d.urn) for d in empty] == [("the stack has no node pool", None)]


def test_config_rejected_by_the_schema_is_reported(pack):
    with pytest.raises(PolicyConfigError, match=r"max-nodes\.maxNodes: -1 is less than the minimum of 0"):
        pack.configure({"max-nodes": PolicySettings(properties={"maxNodes": -1})})


def test_config_for_an_unknown_policy_is_reported(pack):
    with pytest.raises(PolicyConfigError, match="max-node: no such policy"):
        pack.configure({"max-node": PolicySettings(enforcement_level="advisory")})


def test_streaming_analysis_makes_every_call(pack):
    records = [STACK, _pool("big", 6), _pool("ok", 1, protect=True)]
    analysis = StreamingAnalysis(pack).start()
    for record in records:
        analysis.submit(record)
    result = analysis.finish(records)
    assert result.analyzed == 3
    assert sorted((d.policy, d.urn.rsplit("::", 1)[-1]) for d in result.diagnostics) == [("max-nodes", "big"), ("protected-pools", "big")]


def test_streaming_analysis_analyzes_resources_submitted_before_and_after_the_pack_is_ready(pack):
    early = [STACK, _pool("early-big", 6)]
    late = [_pool(f"late-{i}", 3 + i % 2 * 3) for i in range(40)]  # every other one above the limit
    analysis = StreamingAnalysis(pack).start()
    for record in early:  # the pack is still being configured: these wait for it
        analysis.submit(record)
    analysis._thread.join(timeout=60)  # the worker ends once the pack is configured; submit() then sends itself
    assert not analysis._thread.is_alive()
    for record in late:
        analysis.submit(record)
    result = analysis.finish(early + late)
    assert result.analyzed == 42
    flagged = [d.urn.rsplit("::", 1)[-1] for d in result.diagnostics if d.policy == "max-nodes"]
    assert flagged == ["early-big"] + [r.name for r in late if r.inputs["autoscaling"]["totalMaxNodeCount"] > 2]


def test_streaming_analysis_analyzes_what_a_remediate_policy_left(tmp_path):
    remediating = tmp_path / "remediating"
    shutil.copytree(MINI_PACK, remediating)
    source = (remediating / "__main__.py").read_text()
    source = source.replace("    policies=[\n", """    policies=[
        ResourceValidationPolicy(
            "cap-nodes",
            "Caps node pools at 2 nodes.",
            remediate=lambda args: {**args.props, "autoscaling": {**args.props["autoscaling"], "totalMaxNodeCount": 2}}
            if args.resource_type == NODE_POOL else None,
            enforcement_level=EnforcementLevel.REMEDIATE,
        ),
""", 1).replace("import EnforcementLevel, PolicyPack", "import EnforcementLevel, PolicyPack, ResourceValidationPolicy")
    (remediating / "__main__.py").write_text(source)
    records = [STACK, _pool("big", 6), _pool("huge", 9)]
    with PolicyPackProcess(remediating, project="demo", stack="dev") as process:
        analysis = StreamingAnalysis(process).start()
        for record in records:
            analysis.submit(record)
        result = analysis.finish(records)
    assert result.analyzed == 3
    assert [d.policy for d in result.diagnostics if d.policy == "max-nodes"] == []  # Analyze saw the capped pools


def test_a_pack_that_fails_to_start_reports_its_error(tmp_path):
    broken = tmp_path / "broken"
    shutil.copytree(MINI_PACK, broken)
    (broken / "__main__.py").write_text("raise RuntimeError('rules failed to import')\n")
    with pytest.raises(PolicyPackError, match="rules failed to import"):
        PolicyPackProcess(broken, project="demo", stack="dev").connect()


def test_a_directory_without_pulumipolicy_yaml_is_not_a_pack(tmp_path):
    with pytest.raises(PolicyPackError, match="no PulumiPolicy.yaml"):
        PolicyPackProcess(tmp_path, project="demo", stack="dev").start()


def test_analyze_request_carries_options_provider_and_timeouts():
    from gkecap.policy_pack.messages import analyze_request, provider_of

    provider = ResourceRecord(
        urn="urn:pulumi:dev::demo::pulumi:providers:kubernetes::k8s", type="pulumi:providers:kubernetes", name="k8s", custom=True,
        parent=None, dependencies=(), property_dependencies={}, provider=None, id="pid", options={}, inputs={"namespace": "ml"},
    )
    namespace = ResourceRecord(
        urn="urn:pulumi:dev::demo::kubernetes:core/v1:Namespace::ns", type="kubernetes:core/v1:Namespace", name="ns", custom=True,
        parent=STACK_URN, dependencies=(), property_dependencies={}, provider=provider.urn + "::pid", id="ns",
        options={"protect": True, "deleteBeforeReplace": False, "customTimeouts": {"create": "5m", "update": "", "delete": "1h30m"}},
        inputs={"metadata": {"name": "ns"}},
    )
    request = analyze_request(namespace, provider_of(namespace, {provider.urn: provider}))
    assert (request.provider.type, request.provider.properties["namespace"]) == ("pulumi:providers:kubernetes", "ml")
    assert (request.options.protect, request.options.deleteBeforeReplaceDefined, request.options.parent) == (True, True, STACK_URN)
    assert (request.options.customTimeouts.create, request.options.customTimeouts.delete) == (300, 5400)


def test_a_stack_config_too_large_for_the_environment_still_starts_the_pack():
    # An organisation of ~1,000 teams is several hundred KiB of config: more than one environment string.
    huge = {"gkecap:environment": "x" * (300 * 1024)}
    with PolicyPackProcess(MINI_PACK, project="demo", stack="dev", stack_config=huge) as process:
        assert process.info().name == "mini-pack"
