"""workloads/ and vertex/ in the plan's output: a file per team with a starter per pool its queue can use, each
profile's request and gcloud config; a rerun removes what is no longer generated."""

from __future__ import annotations

import json

import yaml

from gkecap.components.model import derive
from gkecap.report import write_outputs
from gkecap.components.kubernetes_objects.workloads import starter_workloads
from gkecap.starters import write_starters
from testkit.report_fixtures import NOW, plan_result, small_spec
from testkit.vertex_types import vertex_types  # noqa: F401  (the session's aiplatform_v1 parser)

VERTEX = {"region": "us-central1", "profiles": [
    {"name": "vision-l4", "team": "vision", "machineType": "g2-standard-24", "acceleratorType": "NVIDIA_L4",
     "acceleratorCount": 2, "maxConcurrentJobs": 2}]}


def _write(path, text):
    path.write_text(text)
    return path


def test_the_plan_writes_a_starter_file_per_team_and_each_vertex_profile(tmp_path, vertex_types):
    written = write_outputs(plan_result(small_spec(vertex=VERTEX), []), tmp_path, now=NOW)
    assert {"workloads", "vertex"} <= set(written)
    model = derive(small_spec(vertex=VERTEX))
    files = sorted(str(p.relative_to(tmp_path / "workloads")) for p in (tmp_path / "workloads").rglob("*"))
    assert files == sorted(f"{team.name}.yaml" for team in model.teams)
    jobs = [d for d in yaml.safe_load_all((tmp_path / "workloads/vision.yaml").read_text()) if d]
    assert next(job["kind"] for job in jobs if job["metadata"]["name"] == "vision-v6e-16") == "JobSet"
    body = json.loads((tmp_path / "vertex/vision-l4.json").read_text())
    assert vertex_types.parse("CustomJob", body)["job_spec"]["scheduling"]["strategy"] == "FLEX_START"
    assert yaml.safe_load((tmp_path / "vertex/vision-l4.yaml").read_text()) == body["jobSpec"]


def test_a_rerun_removes_starters_that_are_no_longer_generated(tmp_path):
    write_starters(derive(small_spec(vertex=VERTEX)), tmp_path, "test", _write)
    written = write_starters(derive(small_spec()), tmp_path, "test", _write)
    assert "vertex" not in written
    assert list((tmp_path / "vertex").rglob("*.json")) == []


def test_a_starter_says_where_a_job_without_the_queue_label_goes():
    from gkecap.starters import workload_files

    text = next(iter(workload_files(derive(small_spec()), "test").values()))
    assert "without the kueue.x-k8s.io/queue-name label goes to the namespace's `default` LocalQueue" in text


def test_a_starter_says_to_keep_the_label_when_kueue_manages_only_labelled_jobs():
    from gkecap.starters import workload_files

    spec = small_spec(kueue={"manageJobsWithoutQueueName": False})
    text = next(iter(workload_files(derive(spec), "test").values()))
    assert "Keep the kueue.x-k8s.io/queue-name label: without it Kueue does not manage the job" in text


def test_a_rerun_never_removes_a_users_file_nor_one_edited_since(tmp_path):
    write_starters(derive(small_spec(vertex=VERTEX)), tmp_path, "test", _write)
    edited = tmp_path / "vertex" / "vision-l4.yaml"
    edited.write_text(edited.read_text() + "# tuned by hand\n")
    (tmp_path / "workloads" / "prod").mkdir()
    mine = _write(tmp_path / "workloads" / "prod" / "train.yaml", "kind: Job\n")
    write_starters(derive(small_spec()), tmp_path, "test", _write)
    assert not (tmp_path / "vertex" / "vision-l4.json").exists()  # ours, unchanged: removed
    assert edited.is_file() and mine.read_text() == "kind: Job\n"


def test_a_tampered_written_list_removes_nothing_outside_the_starters(tmp_path):
    from gkecap.starters import WRITTEN_LIST, remove_stale_starters

    victim = _write(tmp_path / "plan.json", "{}\n")
    outside = _write(tmp_path.parent / f"{tmp_path.name}-outside.yaml", "x\n")
    digest = "8b1b2c3f" * 8
    listed = {"plan.json": digest, f"workloads/../../{outside.name}": digest, str(outside): digest}
    (tmp_path / WRITTEN_LIST).write_text(json.dumps({"files": listed}))
    assert remove_stale_starters(tmp_path) == []
    assert victim.is_file() and outside.is_file()


def test_a_teams_file_holds_exactly_its_starter_per_pool_in_flavor_order(tmp_path):
    """The documents of workloads/<team>.yaml, read back by PyYAML, are the team's starter_workloads (each one
    validated against the Kubernetes and JobSet schemas in tests/components/kubernetes_objects/test_workloads.py),
    in its queue's flavor order, each under a comment naming its pool."""
    model = derive(small_spec())
    write_starters(model, tmp_path, "test", _write)
    starters = starter_workloads(model)
    for team in model.teams:
        text = (tmp_path / "workloads" / f"{team.name}.yaml").read_text()
        expected = [(pool, manifest) for (owner, pool), manifest in starters.items() if owner == team.name]
        assert [d for d in yaml.safe_load_all(text) if d] == [manifest for _, manifest in expected]
        assert [line for line in text.splitlines() if line.startswith("# Pool ")] == [
            f"# Pool {pool}: a {manifest['kind']}." for pool, manifest in expected]


def test_a_teams_file_says_how_to_take_one_starter(tmp_path):
    from gkecap.starters import workload_files

    text = workload_files(derive(small_spec()), "dev")["workloads/vision.yaml"]
    assert "gkecap workload --stack dev --team vision --pool POOL > job.yaml" in text
    assert "`kubectl create -f workloads/vision.yaml` creates every one" in text


def test_a_plan_removes_the_former_per_pool_starters_it_wrote_and_their_emptied_folders(tmp_path):
    """Upgrading: a plan of the former layout listed workloads/<team>/<pool>.yaml in its written list; the next plan
    removes those it wrote (unchanged since) and the team folders they leave empty, never a user's file."""
    from gkecap.starters import WRITTEN_LIST, _digest

    old = {"workloads/vision/h100-dws.yaml": "kind: Job\n# ours\n", "workloads/speech/h100-dws.yaml": "kind: Job\n# ours\n"}
    for relative, text in old.items():
        _write_new(tmp_path / relative, text)
    mine = _write_new(tmp_path / "workloads" / "speech" / "train.yaml", "kind: Job\n")
    (tmp_path / WRITTEN_LIST).write_text(json.dumps({"files": {path: _digest(text) for path, text in old.items()}}))
    write_starters(derive(small_spec()), tmp_path, "test", _write)
    assert not (tmp_path / "workloads" / "vision").exists()
    assert sorted(p.name for p in (tmp_path / "workloads" / "speech").iterdir()) == ["train.yaml"]
    assert mine.read_text() == "kind: Job\n"


def _write_new(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    return _write(path, text)
