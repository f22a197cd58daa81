"""multikueue-dispatch: a manager's queues dispatch only through MultiKueue, and every worker has their queues."""

from __future__ import annotations

from dataclasses import replace

from testkit.rule_resources import kueue

from gkecap.components.kueue_api import MULTIKUEUE_CONTROLLER, PROVISIONING_REQUEST_CONTROLLER
from gkecap.policies.resource_view import ProviderView, ResourceView
from gkecap.policies.rules.multikueue import check_multikueue_dispatch

MANAGER = ProviderView("pulumi:providers:kubernetes", "manager-k8s", "urn:pulumi:s::p::pulumi:providers:kubernetes::manager-k8s")
WORKER = ProviderView("pulumi:providers:kubernetes", "east-k8s", "urn:pulumi:s::p::pulumi:providers:kubernetes::east-k8s")


def on(provider: ProviderView, resource: ResourceView) -> ResourceView:
    return replace(resource, provider=provider, urn=f"{resource.urn}-{provider.name}")


def check(name: str, controller: str) -> ResourceView:
    return kueue("AdmissionCheck", name, {"controllerName": controller})


def cluster_queue(name: str, *checks: str) -> ResourceView:
    return kueue("ClusterQueue", name, {"admissionChecksStrategy": {"admissionChecks": [{"name": c} for c in checks]}})


def local_queue(namespace: str, name: str) -> ResourceView:
    resource = kueue("LocalQueue", name, {"clusterQueue": name})
    props = {**resource.props, "metadata": {"name": name, "namespace": namespace}}
    return replace(resource, props=props, name=f"{namespace}-{name}")


def manager(*extra: ResourceView) -> list[ResourceView]:
    return [on(MANAGER, r) for r in (check("multikueue", MULTIKUEUE_CONTROLLER), cluster_queue("llm", "multikueue"),
                                     local_queue("llm", "llm"), *extra)]


def test_a_manager_with_its_queues_on_the_worker_passes() -> None:
    worker = [on(WORKER, r) for r in (cluster_queue("llm"), local_queue("llm", "llm"))]
    assert check_multikueue_dispatch(manager() + worker, {}) == []


def test_a_team_queue_missing_on_a_worker_is_reported() -> None:
    worker = [on(WORKER, r) for r in (cluster_queue("vision"), local_queue("vision", "vision"))]
    (found,) = check_multikueue_dispatch(manager() + worker, {})
    assert "LocalQueue llm/llm" in found[1] and "east-k8s" in found[1]


def test_multikueue_and_provisioning_checks_on_one_queue_are_reported() -> None:
    stack = manager(check("dws", PROVISIONING_REQUEST_CONTROLLER), cluster_queue("both", "multikueue", "dws"))
    (found,) = check_multikueue_dispatch(stack, {})
    assert "ClusterQueue 'both'" in found[1] and "MultiKueueWithProvisioningRequest" in found[1]


def test_a_single_cluster_stack_is_not_judged() -> None:
    stack = [check("dws", PROVISIONING_REQUEST_CONTROLLER), cluster_queue("llm", "dws"), local_queue("llm", "llm")]
    assert check_multikueue_dispatch(stack, {}) == []
