"""MultiKueue in the simulator (gkecap.simulate.multicluster): an environment with workers is simulated as its
manager dispatches, and every workload says the worker and region it ran in."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gkecap.components.kubernetes_objects.build import kueue_objects
from gkecap.components.model import derive
from gkecap.components.spec import load_stack_file
from gkecap.simulate import load_workloads_file, simulate_environment
from gkecap.simulate.output import to_document

ROOT = Path(__file__).resolve().parents[3]
SCENARIO = ROOT / "stacks" / "scenarios" / "global.yaml"


@pytest.fixture(scope="module")
def document() -> dict:
    model = derive(load_stack_file(ROOT / "stacks" / "Pulumi.global.yaml"))
    return to_document(simulate_environment(model, kueue_objects(model), load_workloads_file(SCENARIO)))


def _workload(document: dict, name: str) -> dict:
    return next(w for w in document["workloads"] if w["name"] == name)


def test_a_job_that_fits_east_runs_in_east(document) -> None:
    finetune = _workload(document, "llm-finetune")
    assert (finetune["cluster"], finetune["region"], finetune["pool"]) == ("east", "us-east5", "h100-dws")


def test_a_job_east_cannot_hold_is_dispatched_to_central(document) -> None:
    # 24 GPUs: h100-dws holds 16 in all, so the manager's flavor assignment (and east's queue) cannot take it.
    pretrain = _workload(document, "llm-pretrain")
    assert (pretrain["cluster"], pretrain["region"], pretrain["pool"]) == ("central", "us-central1", "h100-flex")
    assert pretrain["admitted"] == pretrain["submitted"]


def test_results_per_cluster_and_region(document) -> None:
    clusters = {row["name"]: row for row in document["clusters"]}
    assert (clusters["east"]["workloads"], clusters["central"]["workloads"]) == (1, 3)
    assert {row["name"]: row["clusters"] for row in document["regions"]} == {
        "us-east5": ["east"], "us-central1": ["central"]}


def test_a_single_cluster_simulation_has_no_placement(tmp_path) -> None:
    model = derive(load_stack_file(ROOT / "stacks" / "Pulumi.dev.yaml"))
    workloads = load_workloads_file(ROOT / "stacks" / "scenarios" / "dev.yaml")
    single = to_document(simulate_environment(model, kueue_objects(model), workloads))
    assert "clusters" not in single and all("cluster" not in w for w in single["workloads"])


def test_the_cli_prints_the_dispatch_in_text() -> None:
    done = subprocess.run([sys.executable, "-c", "from gkecap.cli import main; main()", "simulate", "--stack",
                           "global", "--workloads", str(SCENARIO)], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert "llm-pretrain (llm) -> central (us-central1) on h100-flex" in done.stdout


def test_the_timeline_names_each_pools_worker_and_region() -> None:
    from gkecap.simulate.timeline import render_html

    model = derive(load_stack_file(ROOT / "stacks" / "Pulumi.global.yaml"))
    html = render_html(simulate_environment(model, kueue_objects(model), load_workloads_file(SCENARIO)))
    assert "Pool h100-flex (worker central, us-central1)" in html and "Pool h100-dws (worker east, us-east5)" in html
