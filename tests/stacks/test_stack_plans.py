"""`gkecap plan` on the environments, end to end: the real CLI, the offline engine and the policy pack process.

Few and session-scoped (each plan starts a policy pack): both stacks are planned once per test session,
concurrently, as committed (the prod reservation is submitted, so its fixed start date never makes the plan
fail). Under pytest-xdist the first worker to need them plans them and the others read its results, as
pytest-xdist's documentation shows for session fixtures (a file lock in the session's shared temp dir).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from filelock import FileLock

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = {"dev": ["--stack", "dev"], "prod": ["--stack", "prod"]}


def _prod_on_8_gpu_vms(base: Path) -> Path:
    """The prod stack as it was before issue 11: the 4/2/2/8 split on two 8-GPU a3-highgpu-8g VMs."""
    import yaml

    document = yaml.safe_load((ROOT / "stacks" / "Pulumi.prod.yaml").read_text())
    pool = document["config"]["gkecap:environment"]["nodePools"][0]
    assert pool["name"] == "h100-dws"
    pool.update(machineType="a3-highgpu-8g", maxNodes=2)
    path = base / "Pulumi.prod-8g.yaml"
    path.write_text(yaml.safe_dump(document))
    return path


def _plan_both(base: Path) -> dict[str, tuple[int, str, str, str]]:
    running = {
        name: subprocess.Popen(
            [sys.executable, "-c", "from gkecap.cli import main; main()", "plan", *args, "--format", "json", "--out", str(base / name)],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for name, args in {**COMMANDS, "prod-8g": ["--config", str(_prod_on_8_gpu_vms(base))]}.items()
    }
    results = {}
    for name, process in running.items():
        stdout, stderr = process.communicate(timeout=600)
        results[name] = (process.returncode, stdout, stderr, str(base / name))
    return results


@pytest.fixture(scope="session")
def plans(tmp_path_factory, worker_id):
    if worker_id == "master":  # not distributed: this process is the session
        results = _plan_both(tmp_path_factory.mktemp("plans"))
    else:
        shared = tmp_path_factory.getbasetemp().parent  # one directory for every worker of this session
        saved = shared / "stack-plans.json"
        with FileLock(str(saved) + ".lock"):
            if saved.is_file():
                results = json.loads(saved.read_text())
            else:
                base = shared / "stack-plans"
                base.mkdir(exist_ok=True)
                results = _plan_both(base)
                saved.write_text(json.dumps(results))
    return {name: (code, stdout, stderr, Path(out)) for name, (code, stdout, stderr, out) in results.items()}


@pytest.mark.parametrize("stack", ["dev", "prod"])
def test_plan_exits_0_without_mandatory_violations(plans, stack):
    code, stdout, stderr, _ = plans[stack]
    assert code == 0, stderr
    document = json.loads(stdout)
    assert [v for v in document["violations"] if v["enforcementLevel"] == "mandatory"] == []
    assert document["summary"]["policyPack"]["policies"] > 0


@pytest.mark.parametrize("stack", ["dev", "prod"])
def test_plan_writes_report_json_and_manifests(plans, stack):
    code, stdout, _, out = plans[stack]
    assert json.loads((out / "plan.json").read_text()) == json.loads(stdout)
    html = (out / "report.html").read_text()
    assert html.count('<figure class="chart"') == 2 and 'id="cohort-tree"' in html
    assert sorted(p.name for p in (out / "manifests").glob("*.yaml"))


def test_prod_plan_registers_the_capacity_resources(plans):
    _, stdout, _, _ = plans["prod"]
    types = json.loads(stdout)["summary"]["resourcesByType"]
    assert types["gcp:compute/futureReservation:FutureReservation"] == 1
    # h100-dws, h100-dws-long, v6e-4x4 (one node pool per slice: 2), h100-cal, l4-spot, and the created
    # cluster's system pool.
    assert types["gcp:container/nodePool:NodePool"] == 7
    assert types["kubernetes:kueue.x-k8s.io/v1beta2:ClusterQueue"] == 4
    assert types["kubernetes:kueue.x-k8s.io/v1beta2:AdmissionCheck"] >= 1


def test_prod_submitted_reservation_is_protected_from_deletion(plans):
    _, stdout, _, _ = plans["prod"]
    (reservation,) = [r for r in json.loads(stdout)["resources"] if r["type"] == "gcp:compute/futureReservation:FutureReservation"]
    assert reservation["inputs"]["planningStatus"] == "SUBMITTED"
    assert reservation["options"]["protect"] is True


def test_a_prod_split_that_is_not_whole_vms_is_surfaced_by_the_plan(plans):
    # Issue 11 item 2: 2-GPU quotas on 8-GPU queued VMs. The pack's advisory quota-whole-vms reports the flavor
    # through the real CLI and pack process, and the report lists the spec's warnings; the exit code stays 0.
    code, stdout, stderr, out = plans["prod-8g"]
    assert code == 0, stderr
    document = json.loads(stdout)
    report = (out / "report.html").read_text()
    for team in (0, 1, 2):
        assert f"teams[{team}].quota.h100-dws: team" in report
    whole = [v for v in document["violations"] if v["policy"] == "quota-whole-vms"]
    assert whole and all(v["enforcementLevel"] == "advisory" for v in whole)
    assert not [v for v in json.loads(plans["prod"][1])["violations"] if v["policy"] == "quota-whole-vms"]


@pytest.mark.parametrize("stack", ["dev", "prod"])
def test_plan_writes_team_workloads_and_vertex_requests(plans, stack):
    _, stdout, _, out = plans[stack]
    assert list((out / "workloads").glob("*.yaml"))  # a starter file per team
    assert list((out / "vertex").glob("*.json")) and list((out / "vertex").glob("*.yaml"))
    # The stack asks for the preemptible Vertex quota its FLEX_START profiles need.
    types = json.loads(stdout)["summary"]["resourcesByType"]
    assert types["gcp:cloudquota/sQuotaPreference:SQuotaPreference"] >= 1
