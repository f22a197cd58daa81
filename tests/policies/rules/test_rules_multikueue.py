"""multikueue-dispatch: a manager's queues dispatch only through MultiKueue, every worker has their queues and the
job integrations the manager dispatches, and a manager with topology-aware flavors runs Kueue v0.15.0 or later."""

from __future__ import annotations

from dataclasses import replace

import yaml

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


def kueue_chart(version: str, frameworks: list[str] | None) -> ResourceView:
    """A Kueue Helm chart as KueueInstall registers it: its version and the manager Configuration in its values."""
    config = {"apiVersion": "config.kueue.x-k8s.io/v1beta2", "kind": "Configuration"}
    if frameworks is not None:
        config["integrations"] = {"frameworks": frameworks}
    values = {"managerConfig": {"controllerManagerConfigYaml": yaml.safe_dump(config)}}
    return ResourceView("kubernetes:helm.sh/v4:Chart", "kueue", props={
        "chart": "oci://registry.k8s.io/kueue/charts/kueue", "version": version, "values": values})


def worker_with_queues(*extra: ResourceView) -> list[ResourceView]:
    return [on(WORKER, r) for r in (cluster_queue("llm"), local_queue("llm", "llm"), *extra)]


def test_a_worker_without_an_integration_the_manager_dispatches_is_reported() -> None:
    stack = manager(kueue_chart("0.19.2", ["batch/job", "jobset.x-k8s.io/jobset"])) + worker_with_queues(
        kueue_chart("0.19.2", ["batch/job"]))
    (found,) = check_multikueue_dispatch(stack, {})
    assert found[0].endswith("-east-k8s") and "jobset.x-k8s.io/jobset" in found[1] and "batch/job," not in found[1]


def test_a_worker_on_its_charts_default_integrations_passes() -> None:
    # The chart's default of v0.19 (charts/kueue/values.yaml) includes both; no framework list in the values.
    stack = manager(kueue_chart("0.19.2", ["batch/job", "jobset.x-k8s.io/jobset"])) + worker_with_queues(
        kueue_chart("0.19.2", None))
    assert check_multikueue_dispatch(stack, {}) == []


def test_an_integration_without_a_multikueue_adapter_is_not_required_on_workers() -> None:
    stack = manager(kueue_chart("0.19.2", ["batch/job", "deployment", "pod"])) + worker_with_queues(
        kueue_chart("0.19.2", ["batch/job", "pod"]))
    assert check_multikueue_dispatch(stack, {}) == []


def test_a_worker_whose_kueue_is_installed_elsewhere_is_not_judged() -> None:
    stack = manager(kueue_chart("0.19.2", ["batch/job", "jobset.x-k8s.io/jobset"])) + worker_with_queues()
    assert check_multikueue_dispatch(stack, {}) == []


def _tas_manager(version: str) -> list[ResourceView]:
    flavor = kueue("ResourceFlavor", "h100-dws", {"nodeLabels": {"gkecap.dev/pool": "h100-dws"},
                                                  "topologyName": "gke-default"}, version="v1beta1")
    queue = kueue("ClusterQueue", "vision", {"admissionChecks": ["multikueue"], "resourceGroups": [
        {"coveredResources": ["nvidia.com/gpu"], "flavors": [{"name": "h100-dws", "resources": [
            {"name": "nvidia.com/gpu", "nominalQuota": 8}]}]}]}, version="v1beta1")
    return manager(kueue_chart(version, None), flavor, queue)


def test_a_manager_queue_with_a_tas_flavor_before_kueue_0_15_is_reported() -> None:
    (found,) = [f for f in check_multikueue_dispatch(_tas_manager("0.14.8") + worker_with_queues(), {})
                if "topology-aware" in f[1]]
    assert "ClusterQueue 'vision'" in found[1] and "h100-dws" in found[1] and "v0.15.0" in found[1]


def test_a_manager_queue_with_a_tas_flavor_on_kueue_0_15_passes() -> None:
    assert check_multikueue_dispatch(_tas_manager("0.15.0") + worker_with_queues(), {}) == []


def _state(tmp_path, worker_frameworks: list[str]):
    """A `pulumi stack export` of a manager and a worker cluster (one Kubernetes provider each), each with Kueue's
    Helm release; the manager dispatches Job and JobSet."""
    import json

    stack = "urn:pulumi:global::mk"

    def provider(name: str) -> dict:
        return {"urn": f"{stack}::pulumi:providers:kubernetes::{name}", "custom": True, "id": f"{name}-id",
                "type": "pulumi:providers:kubernetes", "inputs": {}, "outputs": {}}

    def on(provider_name: str, kind: str, name: str, body: dict, namespace: str | None = None) -> dict:
        metadata = {"name": name, **({"namespace": namespace} if namespace else {})}
        props = {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": kind, "metadata": metadata, **body}
        return {"urn": f"{stack}::kubernetes:kueue.x-k8s.io/v1beta2:{kind}::{provider_name}-{name}", "custom": True,
                "id": name, "type": f"kubernetes:kueue.x-k8s.io/v1beta2:{kind}", "inputs": props, "outputs": props,
                "provider": f"{stack}::pulumi:providers:kubernetes::{provider_name}::{provider_name}-id"}

    def release(provider_name: str, frameworks: list[str]) -> dict:
        config = yaml.safe_dump({"apiVersion": "config.kueue.x-k8s.io/v1beta2", "kind": "Configuration",
                                 "integrations": {"frameworks": frameworks}})
        props = {"chart": "oci://registry.k8s.io/kueue/charts/kueue", "version": "0.19.2", "namespace": "kueue-system",
                 "values": {"managerConfig": {"controllerManagerConfigYaml": config}}}
        return {"urn": f"{stack}::kubernetes:helm.sh/v3:Release::{provider_name}-kueue", "custom": True,
                "id": "kueue-system/kueue", "type": "kubernetes:helm.sh/v3:Release", "inputs": props,
                "outputs": props, "provider": f"{stack}::pulumi:providers:kubernetes::{provider_name}::{provider_name}-id"}

    queue = {"spec": {"namespaceSelector": {}, "resourceGroups": []}}
    resources = [
        {"urn": f"{stack}::pulumi:pulumi:Stack::mk-global", "custom": False, "type": "pulumi:pulumi:Stack"},
        provider("manager"), provider("east"),
        release("manager", ["batch/job", "jobset.x-k8s.io/jobset"]), release("east", worker_frameworks),
        on("manager", "AdmissionCheck", "multikueue", {"spec": {"controllerName": MULTIKUEUE_CONTROLLER, "parameters": {
            "apiGroup": "kueue.x-k8s.io", "kind": "MultiKueueConfig", "name": "multikueue"}}}),
        on("manager", "ClusterQueue", "llm", {"spec": {**queue["spec"], "admissionChecksStrategy": {
            "admissionChecks": [{"name": "multikueue"}]}}}),
        on("manager", "LocalQueue", "llm", {"spec": {"clusterQueue": "llm"}}, namespace="llm"),
        on("east", "ClusterQueue", "llm", queue),
        on("east", "LocalQueue", "llm", {"spec": {"clusterQueue": "llm"}}, namespace="llm"),
    ]
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"version": 3, "deployment": {"manifest": {"version": "v3.200.0"},
                                                            "resources": resources}}))
    return path


def test_the_pack_refuses_a_worker_without_the_integrations_the_manager_dispatches(tmp_path) -> None:
    from gkecap.plan import check_state

    result = check_state(_state(tmp_path, ["batch/job"]))  # the real pack process, over the Analyzer protocol
    found = [v for v in result.violations if v.policy == "multikueue-dispatch"]
    assert [v.enforcement_level for v in found] == ["mandatory"]
    assert found[0].urn.endswith("east-kueue") and "jobset.x-k8s.io/jobset" in found[0].message


def test_the_pack_passes_a_worker_with_the_integrations(tmp_path) -> None:
    from gkecap.plan import check_state

    result = check_state(_state(tmp_path, ["batch/job", "jobset.x-k8s.io/jobset", "pod"]))
    assert [v for v in result.violations if v.policy == "multikueue-dispatch"] == []
