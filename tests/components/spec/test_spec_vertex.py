"""The environment file's `vertex` section: checked like pools, every problem at its YAML path; what it needs of
the preemptible Vertex quota follows from replicas x GPUs x concurrent jobs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from gkecap.components.catalog import GPU_MACHINES
from gkecap.components.model import derive
from gkecap.components.spec import SpecError, load_environment
from gkecap.components.vertex_api import custom_job, flex_start_job_issues
from testkit.spec_data import NOW, dev

PROFILE = {"name": "llm-h100", "team": "vision", "machineType": "a3-highgpu-8g", "acceleratorType": "NVIDIA_H100_80GB",
           "acceleratorCount": 8, "replicaCount": 2, "maxWaitDuration": "30m", "timeout": "2d", "maxConcurrentJobs": 1}


def _with(*profiles: dict, region: str | None = "us-central1") -> dict:
    data = dev()
    data["vertex"] = {"profiles": [dict(p) for p in profiles], **({"region": region} if region else {})}
    return data


def _errors(data: dict) -> dict[str, str]:
    with pytest.raises(SpecError) as err:
        load_environment(data, project="acme-ml", now=NOW)
    return {issue.path: issue.message for issue in err.value.issues}


def test_a_profile_of_the_issue_loads_with_its_durations_in_seconds():
    spec = load_environment(_with(PROFILE), project="acme-ml", now=NOW)
    profile = spec.vertex.profiles[0]
    assert (profile.max_wait_duration, profile.timeout) == (1800, 172800)


def test_defaults_are_a_day_of_waiting_and_a_seven_day_timeout():
    minimal = {k: v for k, v in PROFILE.items() if k not in ("maxWaitDuration", "timeout")}
    profile = load_environment(_with(minimal), project="acme-ml", now=NOW).vertex.profiles[0]
    assert (profile.max_wait_duration, profile.timeout) == (86400, 7 * 86400)


def test_a_timeout_over_seven_days_is_an_error_at_its_path():
    errors = _errors(_with({**PROFILE, "timeout": "8d"}))
    assert "7d" in errors["vertex.profiles[0].timeout"]


def test_a_bad_duration_is_an_error_at_its_path():
    assert "30m" in _errors(_with({**PROFILE, "maxWaitDuration": "half an hour"}))["vertex.profiles[0].maxWaitDuration"]


def test_a_gpu_flex_start_does_not_serve_is_an_error():
    errors = _errors(_with({**PROFILE, "machineType": "n1-standard-8", "acceleratorType": "NVIDIA_TESLA_T4",
                            "acceleratorCount": 1}))
    assert "NVIDIA_H100_80GB" in errors["vertex.profiles[0].acceleratorType"]  # lists the supported GPUs


def test_a_gpu_count_other_than_the_machine_has_is_an_error():
    assert "has 8" in _errors(_with({**PROFILE, "acceleratorCount": 4}))["vertex.profiles[0].acceleratorCount"]


def test_an_unknown_team_and_a_repeated_name_are_errors():
    errors = _errors(_with(PROFILE, {**PROFILE, "team": "nobody"}))
    assert set(errors) == {"vertex.profiles[1].name", "vertex.profiles[1].team"}


def test_an_unknown_key_is_an_error():
    assert "vertex.profiles[0].replicas" in _errors(_with({**PROFILE, "replicas": 2}))


def test_the_quota_is_replicas_times_gpus_times_concurrent_jobs_per_region_and_gpu():
    second = {**PROFILE, "name": "llm-h100-small", "replicaCount": 1, "maxConcurrentJobs": 3}
    model = derive(load_environment(_with(PROFILE, second), project="acme-ml", now=NOW))
    [quota] = model.vertex_quotas
    assert (quota.region, quota.gpus, quota.profiles) == ("us-central1", 2 * 8 + 8 * 3, ("llm-h100", "llm-h100-small"))
    assert quota.quota_id == "CustomModelTrainingPreemptibleH100GPUsPerProjectPerRegion"


def test_profiles_run_in_the_environment_region_unless_vertex_names_one():
    model = derive(load_environment(_with(PROFILE, region=None), project="acme-ml", now=NOW))
    assert model.vertex_profiles[0].region == "us-east5"


# --- the spec and the policy pack agree on any profile ------------------------------------------------------

ACCELERATORS = ["NVIDIA_L4", "NVIDIA_TESLA_A100", "NVIDIA_A100_80GB", "NVIDIA_H100_80GB", "NVIDIA_H200_141GB",
                "NVIDIA_B200", "NVIDIA_TESLA_T4", "NVIDIA_H100_MEGA_80GB"]


@settings(max_examples=60, deadline=None)
@given(machine=st.sampled_from([m.machine_type for m in GPU_MACHINES]), accelerator=st.sampled_from(ACCELERATORS),
       count=st.integers(1, 16), replicas=st.integers(1, 4), timeout_hours=st.integers(1, 24 * 9))
def test_a_profile_the_spec_accepts_is_one_the_pack_accepts(machine, accelerator, count, replicas, timeout_hours):
    profile = {"name": "p", "machineType": machine, "acceleratorType": accelerator, "acceleratorCount": count,
               "replicaCount": replicas, "timeout": f"{timeout_hours}h"}
    try:
        load_environment(_with(profile), project="acme-ml", now=NOW)
        accepted = True
    except SpecError:
        accepted = False
    body = custom_job("p", machine_type=machine, accelerator_type=accelerator, accelerator_count=count,
                      replica_count=replicas, max_wait_seconds=0, timeout_seconds=timeout_hours * 3600)
    assert accepted == (flex_start_job_issues(body) == [])
