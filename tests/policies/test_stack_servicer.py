"""gkecap.policies.stack_servicer: AnalyzeStack read straight from the request answers as pulumi_policy's does.

Differential, like awsx's "same layout as legacy": the same AnalyzeStack request (as gkecap sends it over gRPC)
to pulumi_policy's own servicer and to the pack's, on the bundled environments and on raw programs."""

from __future__ import annotations

import math
from dataclasses import asdict
from pathlib import Path

import pulumi
import pytest
from google.protobuf import json_format, struct_pb2
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pulumi.runtime.proto import analyzer_pb2
from pulumi_policy import policy as pulumi_policy_internals
from pulumi_policy.deserialize import SPECIAL_ASSET_SIG, SPECIAL_SECRET_SIG, SPECIAL_SIG_KEY, deserialize_properties
from pulumi_policy.proxy import UNKNOWN_NUMBER_VALUE, UNKNOWN_STRING_VALUE, unknown_checking_proxy

from gkecap.engine.program import find_program
from gkecap.engine.run import run_program
from gkecap.engine.stack_config import load_stack_config
from gkecap.policies import adapter, pack_definition
from gkecap.policies.registry import ALL_POLICIES
from gkecap.policies.resource_view import UNKNOWN
from gkecap.policies.rule_runner import StackRunner
from gkecap.policies.stack_servicer import _only_stack_policy, servicer_class
from gkecap.policy_pack import messages
from testkit.engine_fixtures import PROGRAMS

STACKS = Path(__file__).resolve().parents[2] / "stacks"
STOCK = pulumi_policy_internals._PolicyAnalyzerServicer


def _servicer(base: type, policies: list) -> object:
    class Quiet(base):  # type: ignore[misc, valid-type]
        def _configure_runtime_settings(self) -> None:  # the test process's SDK settings stay as they are
            pass

    return Quiet(pack_definition.NAME, "1.0.0", policies, pack_definition.ENFORCEMENT_LEVEL, None, pack_definition.DESCRIPTION)


def _request(program_dir: Path, stack: str = "dev"):
    program = find_program(program_dir)
    stack_file = program.stack_file(stack)
    config = load_stack_config(stack_file if stack_file.is_file() else None, program.project)
    records = run_program(program, stack, config).records
    # As gkecap sends it: in wire form, parsed by the servicer's side as gRPC's server parses it.
    wire = messages.analyze_stack_request_bytes(records, {r.urn: r for r in records if r.is_provider})
    return analyzer_pb2.AnalyzeStackRequest.FromString(wire)


CASES = {
    "dev": (STACKS, "dev"),
    "prod": (STACKS, "prod"),
    "raw_resources": (PROGRAMS / "raw_resources", "test"),
    "reads_and_providers": (PROGRAMS / "reads_and_providers", "dev"),
    "output_chains": (PROGRAMS / "output_chains", "dev"),
    "yaml_manifests": (PROGRAMS / "yaml_manifests", "dev"),
}


@pytest.fixture(scope="module", params=sorted(CASES))
def request_of(request):
    return request.param, _request(*CASES[request.param])


def test_the_pack_serves_the_subclass():
    # A silent fallback to pulumi_policy's own class would keep findings and lose the gain: fail here instead.
    assert servicer_class() is not STOCK and issubclass(servicer_class(), STOCK)


def test_same_response_as_pulumi_policy(request_of):
    name, request = request_of
    policies = pack_definition.policies()
    stock = _servicer(STOCK, policies).AnalyzeStack(request, None)
    lean = _servicer(servicer_class(), policies).AnalyzeStack(request, None)
    assert lean == stock
    if name == "raw_resources":  # stack-rule findings: the comparison is not only of empty answers
        assert {d.policyName for d in stock.diagnostics} >= {"kueue-references"}


def test_same_views_as_pulumi_policys_resources(request_of, monkeypatch):
    # Every field of every view, typed (1 is not 1.0), including what no rule reads today (providers, options).
    _, request = request_of

    def views(base: type) -> list:
        seen: list = []
        monkeypatch.setattr(StackRunner, "check", lambda self, reporter, views_of: seen.extend(views_of(lambda _: True)))
        _servicer(base, pack_definition.policies()).AnalyzeStack(request, None)
        return seen

    stock, lean = views(STOCK), views(servicer_class())
    assert len(stock) == len(request.resources)
    assert [(_comparable(asdict(v)), u) for v, u in lean] == [(_comparable(asdict(v)), u) for v, u in stock]


def test_same_response_with_rules_disabled(request_of):
    _, request = request_of
    policies = pack_definition.policies()
    stock, lean = _servicer(STOCK, policies), _servicer(servicer_class(), policies)
    for servicer in (stock, lean):
        servicer.Configure(messages.configure_request({"kueue-references": _disabled(), "quota-vs-capacity": _disabled()}), None)
    assert lean.AnalyzeStack(request, None) == stock.AnalyzeStack(request, None)


def _disabled():
    from gkecap.policy_pack.policy_config import PolicySettings

    return PolicySettings(enforcement_level="disabled")


def test_rules_registered_separately_get_pulumi_policys_path():
    servicer = _servicer(servicer_class(), list(ALL_POLICIES))
    assert _only_stack_policy(servicer) is None


# --- plain_struct: the runner's props from a Struct, as from pulumi_policy's conversion -----------------------

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53), max_value=2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
    | st.sampled_from([UNKNOWN_STRING_VALUE, UNKNOWN_NUMBER_VALUE])
)
_KEYS = st.text(min_size=1, max_size=6).filter(lambda k: k != SPECIAL_SIG_KEY)


def _extend(children):
    return (
        st.lists(children, max_size=4)
        | st.dictionaries(_KEYS, children, max_size=4)
        | children.map(lambda v: {SPECIAL_SIG_KEY: SPECIAL_SECRET_SIG, "value": v})
    )


_VALUES = st.recursive(_SCALARS | st.builds(lambda t: {SPECIAL_SIG_KEY: SPECIAL_ASSET_SIG, "text": t}, st.text(max_size=5)), _extend, max_leaves=20)


def _struct(props: dict) -> struct_pb2.Struct:
    struct = struct_pb2.Struct()
    struct.update(props)
    return struct


def _comparable(value):
    """`value` with the type of every scalar beside it: 1 and 1.0, or True and 1, differ."""
    if isinstance(value, (pulumi.Asset, pulumi.Archive)):
        return (type(value).__name__, sorted((k, _comparable(v)) for k, v in vars(value).items()))
    if isinstance(value, dict):
        return {k: _comparable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [_comparable(v) for v in value])
    return (type(value).__name__, value if value is not UNKNOWN else "UNKNOWN")


@settings(max_examples=200, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(_KEYS, _VALUES, max_size=5))
def test_plain_struct_is_pulumi_policys_conversion(props):
    struct = _struct(props)
    stock = adapter._plain_props(unknown_checking_proxy(deserialize_properties(json_format.MessageToDict(struct))))
    lean = adapter.plain_struct(struct)
    assert _comparable(lean[0]) == _comparable(stock[0])
    assert lean[1] == stock[1]  # where the first unknown is


def test_plain_struct_refuses_what_message_to_dict_refuses():
    struct = _struct({"x": math.inf})
    with pytest.raises(ValueError):
        json_format.MessageToDict(struct)
    with pytest.raises(ValueError):
        adapter.plain_struct(struct)


def test_resources_of_one_provider_share_its_view():
    request = _request(STACKS, "dev")  # every Kueue object has the cluster's kubernetes provider
    urns = {r.urn for r in request.resources}
    servicer = _servicer(servicer_class(), pack_definition.policies())
    providers: dict = {}
    with_provider = [r for r in request.resources if r.HasField("provider")]
    assert len(with_provider) >= 2
    views = [adapter.request_resource_view(r, urns, servicer._get_resource_options(r), providers)[0] for r in with_provider]
    by_urn = {}
    for view in views:
        by_urn.setdefault(view.provider.urn, set()).add(id(view.provider))
    assert all(len(ids) == 1 for ids in by_urn.values())


def test_a_pulumi_policy_without_the_servicer_class_leaves_the_pack_untouched(monkeypatch):
    # Another pulumi_policy release: the pack's __main__ then installs nothing and serves pulumi_policy as it is.
    monkeypatch.delattr(pulumi_policy_internals, "_PolicyAnalyzerServicer")
    servicer_class.cache_clear()
    try:
        assert servicer_class() is None
    finally:
        monkeypatch.undo()
        servicer_class.cache_clear()
    assert servicer_class() is not STOCK
