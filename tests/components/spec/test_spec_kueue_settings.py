"""The environment file's Kueue settings: `kueue.frameworks` within the release, `kueue.waitForPodsReady` with
Kueue's own field names and its warning, `kueue.manageJobsWithoutQueueName`."""

from __future__ import annotations

import pytest

from gkecap.components.spec import SpecError, load_environment
from testkit.spec_data import NOW, dev, prod


def issues(env) -> dict[str, str]:
    with pytest.raises(SpecError) as err:
        load_environment(env, now=NOW)
    return {issue.path: issue.message for issue in err.value.issues}


def warnings(env) -> dict[str, str]:
    return {issue.path: issue.message for issue in load_environment(env, now=NOW).warning_issues}


def test_a_framework_is_refused_below_the_release_that_adds_it():
    env = dev()
    env["kueue"].update(version="v0.16.9", frameworks=["batch/job", "ray.io/rayservice"])
    assert issues(env)["kueue.frameworks[1]"] == (
        "'ray.io/rayservice' needs Kueue v0.17.0 or later (kueue.version is v0.16.9); remove it or use a newer Kueue")


def test_a_framework_no_release_knows_is_refused_with_the_known_ones():
    env = dev()
    env["kueue"]["frameworks"] = ["batch/jobs"]
    message = issues(env)["kueue.frameworks[0]"]
    assert message.startswith("'batch/jobs' is not a Kueue integration; Kueue v0.19.2 knows: batch/job, ")


def test_frameworks_within_the_release_are_accepted():
    env = dev()
    env["kueue"]["frameworks"] = ["batch/job", "jobset.x-k8s.io/jobset", "kubeflow.org/pytorchjob"]
    assert load_environment(env, now=NOW).kueue.frameworks == env["kueue"]["frameworks"]


def test_wait_for_pods_ready_is_off_unless_set():
    assert load_environment(prod(), now=NOW).kueue.wait_for_pods_ready is None


def test_wait_for_pods_ready_takes_kueues_field_names():
    env = dev()
    env["kueue"]["waitForPodsReady"] = {"timeout": "3h", "blockAdmission": False, "recoveryTimeout": "5m",
                                        "requeuingStrategy": {"timestamp": "Creation", "backoffLimitCount": 5}}
    ready = load_environment(env, now=NOW).kueue.wait_for_pods_ready
    assert ready.config() == env["kueue"]["waitForPodsReady"]


@pytest.mark.parametrize(("timeout", "message"), [
    ("10", "'10' is not a duration"), ("0s", "'0s' must be greater than 0"), ("-5m", "'-5m' must be greater than 0")])
def test_a_timeout_kueue_refuses_is_an_error(timeout, message):
    env = dev()
    env["kueue"]["waitForPodsReady"] = {"timeout": timeout}
    assert message in issues(env)["kueue.waitForPodsReady.timeout"]


def test_a_misspelled_wait_for_pods_ready_field_is_an_error():
    env = dev()
    env["kueue"]["waitForPodsReady"] = {"timeout": "3h", "requeuingStrategy": {"backofLimitCount": 3}}
    assert "did you mean backoffLimitCount" in issues(env)["kueue.waitForPodsReady.requeuingStrategy.backofLimitCount"]


def test_a_timeout_shorter_than_flex_start_may_take_is_warned_about():
    env = prod()  # flex-start v6e and queued H100 pools
    env["kueue"] = {**env.get("kueue", {}), "waitForPodsReady": {"timeout": "10m"}}
    message = warnings(env)["kueue.waitForPodsReady.timeout"]
    assert "shorter than flex-start capacity may take after admission (up to 2h)" in message
    assert "v6e-16" in message


def test_a_timeout_shorter_than_the_queued_booking_is_warned_about():
    env = prod()
    env["kueue"] = {**env.get("kueue", {}), "waitForPodsReady": {"timeout": "5m"}}
    message = warnings(env)["kueue.waitForPodsReady.timeout"]
    assert "queued capacity may take after admission (up to 10m)" in message


def test_a_timeout_that_outlasts_capacity_is_not_warned_about():
    env = prod()
    env["kueue"] = {**env.get("kueue", {}), "waitForPodsReady": {"timeout": "2h"}}
    assert "kueue.waitForPodsReady.timeout" not in warnings(env)


def test_manage_jobs_without_queue_name_is_on_by_default():
    assert load_environment(dev(), now=NOW).kueue.manage_jobs_without_queue_name is True
