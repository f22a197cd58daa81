"""Vertex AI CustomJob bodies: every body parses into Google's own API type (google.cloud.aiplatform_v1.CustomJob,
in a child process: testkit.vertex_types), so a misspelled field or a wrong enum fails; the FLEX_START rules hold
for any body."""

from __future__ import annotations

import pytest
import yaml
from gkecap.components.vertex_api import custom_job, flex_start_job_issues, format_duration, parse_duration
from gkecap.starters import gcloud_config
from gkecap.components.model import derive
from gkecap.components.spec import load_environment
from testkit.spec_data import NOW
from testkit.vertex_types import VertexParseError, vertex_types  # noqa: F401  (the session's parser)


def _body(**overrides) -> dict:
    args = {"machine_type": "a3-highgpu-8g", "accelerator_type": "NVIDIA_H100_80GB", "accelerator_count": 8,
            "replica_count": 2, "max_wait_seconds": 1800, "timeout_seconds": 2 * 86400}
    return custom_job("llm-h100", **{**args, **overrides})


def test_a_body_is_a_custom_job_with_flex_start_scheduling(vertex_types):
    scheduling = vertex_types.parse("CustomJob", _body())["job_spec"]["scheduling"]
    assert scheduling == {"strategy": "FLEX_START", "max_wait_duration": "1800s", "timeout": "172800s"}


def test_replicas_are_a_primary_pool_and_a_worker_pool_on_the_same_machines(vertex_types):
    pools = vertex_types.parse("CustomJob", _body(replica_count=3))["job_spec"]["worker_pool_specs"]
    assert [p["replica_count"] for p in pools] == ["1", "2"]  # int64, as proto JSON writes it
    assert pools[0]["machine_spec"] == pools[1]["machine_spec"] == {
        "machine_type": "a3-highgpu-8g", "accelerator_type": "NVIDIA_H100_80GB", "accelerator_count": 8}


def test_the_google_type_rejects_a_misspelled_field(vertex_types):
    body = _body()
    body["jobSpec"]["scheduling"]["maxWait"] = body["jobSpec"]["scheduling"].pop("maxWaitDuration")
    with pytest.raises(VertexParseError, match="maxWait"):
        vertex_types.parse("CustomJob", body)


def test_the_google_type_rejects_an_unknown_strategy(vertex_types):
    body = _body()
    body["jobSpec"]["scheduling"]["strategy"] = "DWS_FLEX_START"  # the proto comment's name, not the enum value
    with pytest.raises(VertexParseError):
        vertex_types.parse("CustomJob", body)


def test_the_gcloud_config_is_the_job_spec(vertex_types):
    spec = load_environment({
        "region": "us-east5", "cluster": {"name": "c"},
        "vertex": {"region": "us-central1", "profiles": [{"name": "l4", "machineType": "g2-standard-12",
                   "acceleratorType": "NVIDIA_L4", "acceleratorCount": 1, "maxWaitDuration": "0"}]},
    }, project="acme-ml", now=NOW)
    profile = derive(spec).vertex_profiles[0]
    parsed = vertex_types.parse("CustomJobSpec", yaml.safe_load(gcloud_config(profile, "acme-ml")))
    assert parsed["scheduling"] == {"strategy": "FLEX_START", "max_wait_duration": "0s",  # 0: wait indefinitely
                                    "timeout": "604800s"}


def test_a_body_that_follows_the_rules_has_no_issue():
    assert flex_start_job_issues(_body()) == []


def test_worker_pools_on_different_machines_are_refused():
    body = _body()
    body["jobSpec"]["workerPoolSpecs"][1]["machineSpec"]["machineType"] = "a3-megagpu-8g"
    [issue] = flex_start_job_issues(body)
    assert issue.path == "jobSpec.workerPoolSpecs[1].machineSpec" and "same machine configuration" in issue.message


def test_a_timeout_over_seven_days_is_refused():
    [issue] = flex_start_job_issues(_body(timeout_seconds=8 * 86400))
    assert issue.path == "jobSpec.scheduling.timeout" and "7d" in issue.message


@pytest.mark.parametrize(
    ("machine", "accelerator", "count", "path"),
    [
        ("n1-standard-8", "NVIDIA_TESLA_T4", 1, "acceleratorType"),  # T4: not a FLEX_START GPU
        ("g2-standard-12", "NVIDIA_H100_80GB", 8, "machineType"),  # L4 machine, H100 asked for
        ("a3-highgpu-8g", "NVIDIA_H100_80GB", 4, "acceleratorCount"),  # the machine has 8
    ],
)
def test_a_machine_configuration_flex_start_cannot_serve_is_refused(machine, accelerator, count, path):
    [issue] = flex_start_job_issues(_body(machine_type=machine, accelerator_type=accelerator, accelerator_count=count))
    assert issue.path == f"jobSpec.workerPoolSpecs[0].machineSpec.{path}"


@pytest.mark.parametrize(("text", "seconds"), [("30m", 1800), ("2d", 172800), ("1800s", 1800), ("0", 0), (90, 90)])
def test_durations_read_as_seconds(text, seconds):
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["1w", "-5", "soon", True, -1])
def test_a_bad_duration_says_what_is_allowed(text):
    with pytest.raises(ValueError, match="30m|0 or more"):
        parse_duration(text)


def test_durations_print_in_their_shortest_exact_unit():
    assert [format_duration(s) for s in (0, 90, 1800, 7200, 172800)] == ["0", "90s", "30m", "2h", "2d"]
