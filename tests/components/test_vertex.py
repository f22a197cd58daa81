"""VertexTrainingQuota: one Cloud Quotas preference per region and GPU, sized from the profiles; bad profiles are
refused with their paths before anything is registered."""

from __future__ import annotations

import pulumi
import pytest

from gkecap.components.vertex import VertexTrainingQuota
from testkit.input_errors import lines

PREFERENCE = "gcp:cloudquota/sQuotaPreference:SQuotaPreference"
H100 = {"name": "llm-h100", "machineType": "a3-highgpu-8g", "acceleratorType": "NVIDIA_H100_80GB",
        "acceleratorCount": 8, "replicaCount": 2, "maxWaitDuration": "30m", "timeout": "2d", "maxConcurrentJobs": 1}
L4 = {"name": "l4", "machineType": "g2-standard-24", "acceleratorType": "NVIDIA_L4", "acceleratorCount": 2,
      "maxConcurrentJobs": 4}


def test_one_preference_per_region_and_gpu_sized_from_the_profiles(pulumi_run):
    registered = pulumi_run(lambda: VertexTrainingQuota(
        "vertex", {"vertex": {"region": "us-central1", "profiles": [H100, L4]}, "region": "us-east5"}))
    preferences = {r.inputs["quotaId"]: r.inputs for r in registered.of_type(PREFERENCE)}
    h100 = preferences["CustomModelTrainingPreemptibleH100GPUsPerProjectPerRegion"]
    assert h100["quotaConfig"]["preferredValue"] == "16"  # 2 replicas x 8 GPUs x 1 job
    assert h100["dimensions"] == {"region": "us-central1"}
    assert h100["service"] == "aiplatform.googleapis.com" and h100["parent"] == "projects/acme-ml"
    assert preferences["CustomModelTrainingPreemptibleL4GPUsPerProjectPerRegion"]["quotaConfig"]["preferredValue"] == "8"


def test_the_component_carries_each_profile_request_for_the_policy_pack(pulumi_run):
    registered = pulumi_run(lambda: VertexTrainingQuota("vertex", {"vertex": {"profiles": [H100]}, "region": "us-east5"}))
    component = registered.one("gkecap:index:VertexTrainingQuota")
    [profile] = component.inputs["profiles"]
    assert component.inputs["region"] == "us-east5"
    assert profile["requestBody"]["jobSpec"]["scheduling"]["strategy"] == "FLEX_START"


def test_bad_profiles_are_refused_at_their_paths_before_anything_is_registered(pulumi_run):
    bad = {**H100, "timeout": "9d", "acceleratorCount": 4}
    with pytest.raises(pulumi.InputPropertiesError) as err:
        pulumi_run(lambda: VertexTrainingQuota("vertex", {"vertex": {"profiles": [bad]}, "region": "us-east5"}))
    found = lines(err.value)
    assert any(line.startswith("vertex.profiles[0].timeout:") for line in found)
    assert any(line.startswith("vertex.profiles[0].acceleratorCount:") for line in found)


def test_an_unreadable_duration_is_refused_at_its_path(pulumi_run):
    with pytest.raises(pulumi.InputPropertiesError) as err:
        pulumi_run(lambda: VertexTrainingQuota(
            "vertex", {"vertex": {"profiles": [{**H100, "timeout": "forever"}]}, "region": "us-east5"}))
    assert [line.split(":")[0] for line in lines(err.value)] == ["vertex.profiles[0].timeout"]
