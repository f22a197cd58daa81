"""`--policy-config` means what it means to the Pulumi CLI, for each of its shapes.

Pulumi's rule (pkg/resource/analyzer/config.go, `parsePolicyPackConfig` and `applyConfig`, pulumi/pulumi @ 070757c7):
a value is an enforcement level string or an object with an optional `enforcementLevel` and properties; start from
each policy's own level, then `all`'s level (string, or `enforcementLevel` of an object) applies to every policy,
then each named policy's level overrides it. Transcribed below as `pulumi_level`; checked through the pack process
(its two runners, and pulumi_policy's own handling with every rule its own policy) and through `gkecap plan`.
The runners that execute every rule are not switched off by `all` (issue 22 item 6).
"""

from __future__ import annotations

import json
import tempfile

import pytest
from typer.testing import CliRunner

import gkecap.commands.plan  # noqa: F401  (registers the commands on the app)
from gkecap.cli import app
from gkecap.engine.resource_record import ResourceRecord
from gkecap.plan import default_policy_pack
from gkecap.policies.rule_runner import RUNNER_NAMES, SEPARATELY_ENV
from gkecap.policy_pack.analysis import StreamingAnalysis
from gkecap.policy_pack.policy_config import PolicyConfigError, parse_policy_config
from gkecap.policy_pack.process import PolicyPackProcess
from testkit.engine_fixtures import PROGRAMS
from testkit.rule_resources import flex_tpu_pool, on_demand_gpu_pool, queued_gpu_pool

PROGRAM = str(PROGRAMS / "rule_violations")
STACK_URN = "urn:pulumi:dev::gke-capacity::pulumi:pulumi:Stack::gke-capacity-dev"
runner = CliRunner()
_OUT = tempfile.TemporaryDirectory(prefix="gkecap-config-shapes-")

SHAPES = {
    # The reproduction: `all` disabled, two policies enabled by name (level strings).
    "all-string-then-named-strings": {"all": "disabled", "tpu-slice-topology": "mandatory",
                                      "queued-provisioning-admission-check": "mandatory"},
    "all-object": {"all": {"enforcementLevel": "advisory"}},
    "all-string-then-named-object": {"all": "mandatory", "compact-placement-zone": {"enforcementLevel": "advisory"}},
    "named-string-only": {"flex-start-recommended": "disabled"},
}


def pulumi_level(config: dict, policy: str, own: str) -> str:
    """A policy's level under `config`, as Pulumi's applyConfig computes it."""
    def level(value):
        return value if isinstance(value, str) else (value or {}).get("enforcementLevel")

    return level(config.get(policy)) or level(config.get("all")) or own


def expected(default: list[tuple], config: dict) -> list[tuple]:
    """The default findings, each at the level `config` gives its policy; disabled ones gone."""
    found = [(p, pulumi_level(config, p, level), urn, message) for p, level, urn, message in default]
    return sorted(f for f in found if f[1] != "disabled")


# --- through the pack process ------------------------------------------------------------------------------------


def _record(view) -> ResourceRecord:
    return ResourceRecord(
        urn=f"urn:pulumi:dev::gke-capacity::{view.type}::{view.name}", type=view.type, name=view.name, custom=True,
        parent=STACK_URN, dependencies=(), property_dependencies={}, provider=None, id=view.name,
        options={"protect": False}, inputs=dict(view.props), outputs=dict(view.props),
    )


RECORDS = [
    _record(flex_tpu_pool("v6e-bad", placementPolicy={"type": "COMPACT", "tpuTopology": "4x3"})),
    _record(queued_gpu_pool("h100-dws", management={"autoRepair": True})),
    _record(on_demand_gpu_pool("l4-compact", placementPolicy={"type": "COMPACT"})),
]


def _pack_findings(config: dict | None) -> list[tuple]:
    with PolicyPackProcess(default_policy_pack(), project="gke-capacity", stack="dev") as pack:
        analysis = StreamingAnalysis(pack, parse_policy_config(config) if config else None).start()
        for record in RECORDS:
            analysis.submit(record)
        result = analysis.finish(RECORDS)
    return sorted((d.policy, d.enforcement_level, d.urn, d.message) for d in result.diagnostics)


@pytest.fixture(scope="module", params=["runners", "separately"])
def pack_path(request):
    """The pack as it serves by default (two runners), and with every rule its own pulumi_policy policy."""
    with pytest.MonkeyPatch.context() as patch:
        if request.param == "separately":
            patch.setenv(SEPARATELY_ENV, "1")  # the pack process inherits it
        default = _pack_findings(None)
        yield request.param, default, _pack_findings


def test_the_records_break_mandatory_and_advisory_rules(pack_path):
    _, default, _ = pack_path
    assert {(p, level) for p, level, _, _ in default} >= {
        ("tpu-slice-topology", "mandatory"), ("compact-placement-zone", "mandatory"),
        ("queued-provisioning-admission-check", "advisory"), ("flex-start-recommended", "advisory")}


@pytest.mark.parametrize("shape", SHAPES)
def test_the_pack_applies_each_config_shape_as_pulumi_does(pack_path, shape):
    _, default, findings_with = pack_path
    assert findings_with(SHAPES[shape]) == expected(default, SHAPES[shape])


def test_all_disabled_with_two_policies_enabled_still_checks_them(pack_path):
    _, _, findings_with = pack_path
    found = findings_with(SHAPES["all-string-then-named-strings"])
    assert {p for p, _, _, _ in found} == {"tpu-slice-topology", "queued-provisioning-admission-check"}


def test_disabling_the_runners_by_name_does_not_switch_the_rules_off(pack_path):
    path, _, findings_with = pack_path
    config = {"all": "disabled", **{name: "disabled" for name in RUNNER_NAMES}, "tpu-slice-topology": "advisory"}
    if path == "separately":  # no runners to name: gkecap says so, as for any policy the pack does not have
        with pytest.raises(PolicyConfigError, match="gke-capacity-resource-rules: no such policy in the pack"):
            findings_with(config)
        return
    assert [(p, level) for p, level, _, _ in findings_with(config)] == [("tpu-slice-topology", "advisory")]


# --- through the console -----------------------------------------------------------------------------------------


def _plan(*extra: str) -> list[tuple]:
    result = runner.invoke(app, ["plan", "--program", PROGRAM, "--format", "json",
                                 "--out", tempfile.mkdtemp(dir=_OUT.name), *extra])
    assert result.exit_code in (0, 1), result.stderr
    return sorted((v["policy"], v["enforcementLevel"], v["urn"], v["message"])
                  for v in json.loads(result.stdout)["violations"])


@pytest.fixture(scope="module")
def console_default():
    return _plan()


@pytest.mark.parametrize("shape", SHAPES)
def test_gkecap_plan_applies_each_config_shape_as_pulumi_does(console_default, shape, tmp_path):
    config = tmp_path / "policy-config.json"
    config.write_text(json.dumps(SHAPES[shape]))
    assert _plan("--policy-config", str(config)) == expected(console_default, SHAPES[shape])
