"""The pack as `pulumi policy publish` ships it: `policies/` alone (no repository around it), in a fresh venv
holding only what its requirements.txt installs (gke-capacity from the wheel built from the checkout, through
--find-links), started as the Pulumi CLI starts a Python pack, answering GetAnalyzerInfo and Analyze."""

from __future__ import annotations

import subprocess

import pytest

from gkecap.engine.resource_record import ResourceRecord
from gkecap.policies.registry import ALL_POLICIES
from gkecap.policies.rule_runner import RUNNER_NAMES
from gkecap.policy_pack.process import PolicyPackProcess
from testkit.distribution import child_env

STACK_URN = "urn:pulumi:ci::acme::pulumi:pulumi:Stack::acme-ci"


@pytest.fixture(scope="module")
def pack(published_pack):
    folder, python = published_pack
    # No interpreter given: the process finds the pack's venv from PulumiPolicy.yaml, as the CLI does.
    with PolicyPackProcess(folder, project="acme", stack="ci") as process:
        assert process.python == str(python)
        process.configure(None)
        yield process


def _node_pool(name: str, **inputs) -> ResourceRecord:
    return ResourceRecord(
        urn=f"urn:pulumi:ci::acme::gcp:container/nodePool:NodePool::{name}", type="gcp:container/nodePool:NodePool",
        name=name, custom=True, parent=STACK_URN, dependencies=(), property_dependencies={}, provider=None, id=None,
        options={"protect": False}, inputs=inputs, outputs=inputs,
    )


def test_the_pack_imports_its_rules_from_the_installed_distribution(published_pack):
    folder, python = published_pack
    where = subprocess.run([str(python), "-c", "import gkecap.policies.registry as r; print(r.__file__)"],
                           cwd=folder, env=child_env(), capture_output=True, text=True, check=True).stdout.strip()
    assert "site-packages" in where and str(folder) not in where


def test_the_published_pack_serves_every_policy(pack):
    info = pack.info()
    assert info.name == "gke-capacity"
    assert sorted(p.name for p in info.policies) == sorted([*(p.name for p in ALL_POLICIES), *RUNNER_NAMES])


def test_the_published_pack_analyzes_a_hand_written_node_pool(pack):
    # A multi-host v6e 4x4 slice (4 VMs) sized to 3 nodes: GKE would reject it.
    pool = _node_pool("v6e-16", cluster="ml", location="us-east5", nodeLocations=["us-east5-a"],
                      nodeConfig={"machineType": "ct6e-standard-4t"},
                      placementPolicy={"type": "COMPACT", "tpuTopology": "4x4"},
                      autoscaling={"totalMinNodeCount": 0, "totalMaxNodeCount": 3, "locationPolicy": "ANY"})
    violations = pack.analyzed(pack.analyze_future(pool), pool.urn)
    assert [(v.policy, v.enforcement_level) for v in violations] == [("tpu-slice-topology", "mandatory")]
    assert "totalMaxNodeCount is 3" in violations[0].message
