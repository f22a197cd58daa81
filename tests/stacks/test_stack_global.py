"""`gkecap plan --stack global` (MultiKueue, issue 24), end to end: the real CLI, the offline engine and the pack.

One plan per module (session of a policy pack): a manager and two workers in two regions.
"""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MOCK_TOKEN = "mock-token-"  # the engine's stand-in for the token Kubernetes writes (gkecap.engine.mocks)


@pytest.fixture(scope="module")
def plan(tmp_path_factory):
    out = tmp_path_factory.mktemp("global")
    done = subprocess.run([sys.executable, "-c", "from gkecap.cli import main; main()", "plan", "--stack", "global",
                           "--format", "json", "--out", str(out)], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    return done, json.loads(done.stdout), out


def _by_name(document: dict) -> dict[str, dict]:
    return {r["name"]: r for r in document["resources"]}


def test_the_global_plan_exits_0_without_violations(plan) -> None:
    done, document, _ = plan
    assert done.returncode == 0, done.stderr
    assert [v for v in document["violations"] if v["enforcementLevel"] == "mandatory"] == []
    # Quotas are judged per cluster: the manager's dispatching quotas do not double those of the workers.
    assert [v for v in document["violations"] if v["policy"].startswith("quota-")] == []


def test_each_clusters_kueue_objects_use_that_clusters_provider(plan) -> None:
    _, document, _ = plan
    providers = {r["name"]: r["urn"] for r in document["resources"] if r["type"] == "pulumi:providers:kubernetes"}
    assert set(providers) == {"global-k8s", "global-east-k8s", "global-central-k8s"}
    resources = _by_name(document)
    for name, provider in (("kueue-objects-east", "global-k8s"), ("east-kueue-objects-h100-dws", "global-east-k8s"),
                           ("central-kueue-objects-v6e-4x4", "global-central-k8s"),
                           ("east-multikueue-secret", "global-east-k8s"),
                           ("east-multikueue-kubeconfig", "global-k8s")):
        assert resources[name]["options"]["provider"].startswith(providers[provider] + "::"), name


def test_node_pools_belong_to_the_worker_clusters(plan) -> None:
    resources = _by_name(plan[1])
    assert resources["h100-dws"]["inputs"]["cluster"] == "ml-east"
    assert {resources["v6e-4x4-s0"]["inputs"]["cluster"], resources["v6e-4x4-s1"]["inputs"]["cluster"]} == {
        "ml-central"}
    assert not [r for r in plan[1]["resources"] if r["type"] == "gcp:container/nodePool:NodePool"
                and r["inputs"].get("cluster") == "ml-global" and r["name"] != "ml-global-system"]


def test_the_manager_points_at_a_worker_only_after_its_kueue_and_kubeconfig(plan) -> None:
    resources = _by_name(plan[1])
    manager_objects = resources["kueue-objects"]
    # A component dependency stands for its children: the workers' ClusterQueues, and the kubeconfig Secrets.
    wanted = {resources[n]["urn"] for n in ("east-kueue-objects-llm", "central-kueue-objects-llm",
                                            "east-multikueue-kubeconfig", "central-multikueue-kubeconfig")}
    assert wanted <= set(manager_objects["dependencies"])
    assert resources["east-kueue"]["urn"] in resources["east-multikueue-secret"]["dependencies"]


def test_no_token_or_kubeconfig_reaches_any_output(plan) -> None:
    done, document, out = plan
    encoded = base64.b64encode(MOCK_TOKEN.encode()).decode()[:12]
    assert document["resources"] and _by_name(document)["east-multikueue-kubeconfig"]["inputs"]["stringData"] == \
        "[secret]"
    texts = [done.stdout, done.stderr] + [p.read_text(errors="replace") for p in out.rglob("*") if p.is_file()]
    for text in texts:
        assert MOCK_TOKEN not in text
        assert encoded not in text


def test_manifests_are_written_per_cluster(plan) -> None:
    out = plan[2]
    # Each cluster's folder is a GitOps unit (kustomization.yaml, its plain objects under objects/).
    manager = {p.name for p in (out / "manifests" / "objects").glob("*.yaml")}
    assert (out / "manifests" / "kustomization.yaml").is_file()
    assert any(name.endswith("-multikueueclusters.yaml") for name in manager)
    for worker in ("east", "central"):
        files = {p.name for p in (out / "manifests" / "workers" / worker / "objects").glob("*.yaml")}
        assert (out / "manifests" / "workers" / worker / "kustomization.yaml").is_file()
        assert files and not any("multikueue" in name for name in files)
    east = {p.name for p in (out / "manifests" / "workers" / "east" / "objects").glob("*.yaml")}
    assert any(name.endswith("-provisioningrequestconfigs.yaml") for name in east)


def test_the_report_shows_capacity_per_cluster_and_region(plan) -> None:
    html = (plan[2] / "report.html").read_text()
    assert 'id="clusters-table"' in html and "us-central1" in html and "(dispatch only)" in html


def test_no_token_or_kubeconfig_reaches_the_sarif_log(tmp_path) -> None:
    done = subprocess.run([sys.executable, "-c", "from gkecap.cli import main; main()", "plan", "--stack", "global",
                           "--format", "sarif", "--out", str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["version"] == "2.1.0"
    encoded = base64.b64encode(MOCK_TOKEN.encode()).decode()[:12]
    for text in [done.stdout, done.stderr] + [p.read_text(errors="replace") for p in tmp_path.rglob("*") if p.is_file()]:
        assert MOCK_TOKEN not in text and encoded not in text
