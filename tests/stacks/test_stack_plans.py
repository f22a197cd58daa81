"""`gkecap plan` on the environments, end to end: the real CLI, the offline engine and the policy pack process.

Few and module-scoped (each plan starts a policy pack): both stacks are planned once, concurrently.
The prod reservation's start is a fixed date (a calendar request must start within 60 days of now, FACTS C),
so the committed file goes stale; the plan here uses a copy whose start is moved to 30 days from today and
nothing else, while tests/stacks/test_stack_environments.py checks the committed file at its writing date.
"""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
STACKS = ROOT / "stacks"


def _redated_prod(directory: Path) -> Path:
    document = yaml.safe_load((STACKS / "Pulumi.prod.yaml").read_text())
    start = (datetime.now(timezone.utc) + timedelta(days=30)).strftime("%Y-%m-%dT00:00:00Z")
    for reservation in document["config"]["gkecap:environment"]["reservations"]:
        reservation["start"] = start
    path = directory / "Pulumi.prod.yaml"
    path.write_text(yaml.safe_dump(document, sort_keys=False))
    return path


@pytest.fixture(scope="module")
def plans(tmp_path_factory):
    base = tmp_path_factory.mktemp("plans")
    commands = {
        "dev": ["--stack", "dev"],
        "prod": ["--config", str(_redated_prod(base))],
    }
    running = {
        name: subprocess.Popen(
            [sys.executable, "-c", "from gkecap.cli import main; main()", "plan", *args, "--format", "json", "--out", str(base / name)],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for name, args in commands.items()
    }
    results = {}
    for name, process in running.items():
        stdout, stderr = process.communicate(timeout=600)
        results[name] = (process.returncode, stdout, stderr, base / name)
    return results


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
    assert html.count('<figure class="chart"') == 3
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
