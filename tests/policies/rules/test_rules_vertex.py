"""vertex-flex-start and vertex-quota-preference: the profiles a stack declares follow FLEX_START's rules, and its
preemptible Vertex training quota preferences cover them."""

from __future__ import annotations

from testkit.rule_resources import resource

from gkecap.components.vertex_api import custom_job
from gkecap.policies.rules.vertex import (
    QUOTA_PREFERENCE_TYPE,
    VERTEX_TRAINING_TYPE,
    check_vertex_flex_start,
    check_vertex_quota_covers,
)
from gkecap.policies.resource_view import UNKNOWN

H100_QUOTA = "CustomModelTrainingPreemptibleH100GPUsPerProjectPerRegion"


def _profiles(timeout_days: int = 2, region: str = "us-central1"):
    body = custom_job("llm", machine_type="a3-highgpu-8g", accelerator_type="NVIDIA_H100_80GB", accelerator_count=8,
                      replica_count=2, max_wait_seconds=1800, timeout_seconds=timeout_days * 86400)
    return resource(VERTEX_TRAINING_TYPE, "vertex", region=region,
                    profiles=[{"name": "llm", "quotaGpus": 16, "requestBody": body}])


def _preference(value="16", region="us-central1", quota_id=H100_QUOTA, **extra):
    props = {"service": "aiplatform.googleapis.com", "quotaId": quota_id, "dimensions": {"region": region},
             "quotaConfig": {"preferredValue": value}, **extra}
    return resource(QUOTA_PREFERENCE_TYPE, "h100", **props)


def test_a_profile_within_the_rules_passes():
    assert check_vertex_flex_start(_profiles(), {}) == []


def test_a_profile_over_seven_days_is_named():
    [message] = check_vertex_flex_start(_profiles(timeout_days=8), {})
    assert "'llm'" in message and "jobSpec.scheduling.timeout" in message


def test_a_preference_without_a_region_is_named():
    preference = resource(QUOTA_PREFERENCE_TYPE, "h100", service="aiplatform.googleapis.com", quotaId=H100_QUOTA,
                          dimensions={}, quotaConfig={"preferredValue": "16"})
    [message] = check_vertex_flex_start(preference, {})
    assert "region" in message


def test_a_preference_for_an_unknown_preemptible_gpu_quota_is_named():
    [message] = check_vertex_flex_start(_preference(quota_id="CustomModelTrainingPreemptibleX9GPUsPerProjectPerRegion"), {})
    assert H100_QUOTA in message


def test_other_quota_preferences_are_not_judged():
    assert check_vertex_flex_start(resource(QUOTA_PREFERENCE_TYPE, "cpus", service="compute.googleapis.com",
                                            quotaId="CPUS-per-project-region", dimensions={}), {}) == []


def test_profiles_without_a_preference_are_named():
    [(urn, message)] = check_vertex_quota_covers([_profiles()], {})
    assert H100_QUOTA in message and "us-central1" in message and "16 GPUs" in message


def test_a_preference_too_small_is_named_with_what_is_needed():
    [(_, message)] = check_vertex_quota_covers([_profiles(), _preference("8")], {})
    assert "ask for 8" in message and "raise preferredValue to 16" in message


def test_a_preference_in_another_region_does_not_count():
    assert check_vertex_quota_covers([_profiles(), _preference(region="europe-west4")], {})


def test_a_preference_that_covers_the_profiles_passes():
    assert check_vertex_quota_covers([_profiles(), _preference("16")], {}) == []


def test_an_unknown_preferred_value_is_not_judged_during_preview():
    assert check_vertex_quota_covers([_profiles(), _preference(UNKNOWN)], {}) == []


def test_a_preference_with_no_dimensions_at_all_is_named():
    preference = resource(QUOTA_PREFERENCE_TYPE, "h100", service="aiplatform.googleapis.com", quotaId=H100_QUOTA,
                          quotaConfig={"preferredValue": "16"})
    [message] = check_vertex_flex_start(preference, {})
    assert "names no region" in message
