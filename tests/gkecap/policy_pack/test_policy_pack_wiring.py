"""The gke-capacity pack (`policies/`) starts the way the Pulumi CLI starts it and serves its registry."""

from gkecap.plan import default_policy_pack
from gkecap.policy_pack.process import PolicyPackProcess, pack_runtime_options
from gkecap.policies.registry import ALL_POLICIES
from gkecap.policies.rule_runner import RUNNER_NAMES


def test_pack_manifest_is_a_python_pack_using_the_repository_venv():
    assert pack_runtime_options(default_policy_pack())["virtualenv"] == "../.venv"


def test_pack_process_serves_every_registered_policy():
    with PolicyPackProcess(default_policy_pack(), project="gke-capacity", stack="dev") as pack:
        info = pack.info()
        pack.configure(None)  # every schema default validates
    assert info.name == "gke-capacity"
    # Every rule by name, plus the two policies that run them (gkecap.policies.rule_runner).
    assert [p.name for p in info.policies] == sorted([*(p.name for p in ALL_POLICIES), *RUNNER_NAMES])
    # A policy without its own level gets the pack's default, advisory (so do the runners).
    assert {p.name: p.enforcement_level for p in info.policies} == {
        **{p.name: p.enforcement_level.value if p.enforcement_level else "advisory" for p in ALL_POLICIES},
        **dict.fromkeys(RUNNER_NAMES, "advisory"),
    }
