"""The public fallbacks of `gkecap.compat` keep behaviour: `gkecap plan` on the bundled stacks (and on hand-written
pools the pack finds fault with) gives the same resources and findings with every private name of pulumi and
pulumi_policy out of reach, and with every fallback forced (`GKECAP_COMPAT=public`, as a release outside the tested
range would get them, in gkecap and in the pack process alike)."""

from __future__ import annotations

import asyncio
import json
import tempfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

import gkecap.commands.plan  # noqa: F401  (registers the commands on the app)
from gkecap.cli import app
from gkecap.compat import policy_servicer, pulumi_runtime
from gkecap.compat.versions import FORCE_ENV, PUBLIC
from gkecap.policies import rule_runner
from gkecap.policies.registry import ALL_POLICIES
from gkecap.policies.stack_servicer import servicer_class
from testkit.engine_fixtures import PROGRAMS

ROOT = Path(__file__).resolve().parents[3]
runner = CliRunner()
_OUT = tempfile.TemporaryDirectory(prefix="gkecap-compat-")
TARGETS = {"dev": ["--stack", "dev"], "prod": ["--stack", "prod"],
           "rule-violations": ["--program", str(PROGRAMS / "rule_violations")]}


def _plan(target: str, *extra: str, env: dict[str, str] | None = None) -> tuple[int, dict]:
    result = runner.invoke(app, ["plan", *TARGETS[target], "--format", "json", "--out",
                                 tempfile.mkdtemp(dir=_OUT.name), *extra], env=env)
    document = json.loads(result.stdout)
    document.pop("summary")  # timings
    for resource in document["resources"]:
        resource["dependencies"] = sorted(resource["dependencies"])  # the SDK collects them in a set
    for key in ("resources", "violations", "diagnostics"):  # registration order follows the SDK's scheduling
        document[key] = sorted(document[key], key=lambda item: json.dumps(item, sort_keys=True))
    return result.exit_code, document


@pytest.fixture(autouse=True)
def _at_the_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # --stack NAME reads stacks/Pulumi.NAME.yaml


@pytest.fixture(scope="module")
def plans_as_tested():
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)
        return {target: _plan(target) for target in TARGETS}


def test_the_plans_have_findings_to_compare(plans_as_tested):
    assert plans_as_tested["rule-violations"][1]["violations"]
    assert all(document["resources"] for _, document in plans_as_tested.values())


@pytest.mark.parametrize("target", TARGETS)
def test_every_fallback_forced_gives_the_same_plan(plans_as_tested, target):
    assert _plan(target, env={FORCE_ENV: PUBLIC}) == plans_as_tested[target]


@pytest.fixture
def private_names_gone(monkeypatch):
    """pulumi_policy's servicer class and its violation reporter's closure, the SDK's `_get_rpc_manager` and
    `_sync_await`: out of reach of gkecap's process (the SDK's own modules keep the references they imported)."""
    from pulumi.runtime import settings, sync_await
    from pulumi_policy import policy

    def reporter_of_another_shape(self, *args, **kwargs):
        def report(message, urn=None):
            return None

        return report

    monkeypatch.setattr(policy._PolicyAnalyzerServicer, "_create_report_violation", reporter_of_another_shape)
    monkeypatch.delattr(policy, "_PolicyAnalyzerServicer")
    monkeypatch.delattr(settings, "_get_rpc_manager")
    monkeypatch.delattr(sync_await, "_sync_await")
    servicer_class.cache_clear()
    yield
    servicer_class.cache_clear()


@pytest.mark.parametrize("target", ["dev", "prod"])
def test_without_the_private_names_the_plan_is_the_same(plans_as_tested, private_names_gone, target):
    assert not policy_servicer.supported() and servicer_class() is None
    # --pack-in-process needs pulumi_policy's servicer: without it the pack runs as its own process.
    assert _plan(target, "--pack-in-process") == plans_as_tested[target]


def test_without_the_reporter_closure_every_rule_is_its_own_policy(monkeypatch):
    from pulumi_policy import policy

    monkeypatch.setattr(policy._PolicyAnalyzerServicer, "_create_report_violation", lambda self, *a: (lambda m, u=None: None))
    assert not rule_runner.retargeting_supported()
    assert rule_runner.pack_policies(ALL_POLICIES) == ALL_POLICIES


def test_forcing_the_fallbacks_turns_every_shortcut_off(monkeypatch):
    monkeypatch.setenv(FORCE_ENV, PUBLIC)
    assert not policy_servicer.supported() and policy_servicer.base_class() is None
    assert not pulumi_runtime.knows_lazy_imports()
    assert pulumi_runtime.pending_work() == []


def test_awaiting_without_the_sdk_helper_runs_the_coroutine(monkeypatch):
    from pulumi.runtime import sync_await

    monkeypatch.delattr(sync_await, "_sync_await")

    async def answer() -> int:
        await asyncio.sleep(0)
        return 42

    assert pulumi_runtime.run_awaitable(answer()) == 42


def test_proxies_read_entry_by_entry_give_the_same_plain_properties(monkeypatch):
    from pulumi_policy.proxy import UNKNOWN_NUMBER_VALUE, UNKNOWN_STRING_VALUE, unknown_checking_proxy

    from gkecap.compat import policy_proxies
    from gkecap.policies import adapter

    props = {"nodeConfig": {"machineType": UNKNOWN_STRING_VALUE, "labels": {"a": "b"}},
             "nodeLocations": ["us-east5-a", UNKNOWN_STRING_VALUE], "autoscaling": {"totalMaxNodeCount": 4.0},
             "initialNodeCount": UNKNOWN_NUMBER_VALUE}
    shortcut = adapter._plain_props(unknown_checking_proxy(props))
    monkeypatch.setattr(policy_proxies, "_shortcut", lambda: False)
    assert adapter._plain_props(unknown_checking_proxy(props)) == shortcut
    plain, unknown_at = shortcut
    assert unknown_at == ["nodeConfig", "machineType"] and plain["nodeLocations"][1] is adapter.UNKNOWN
