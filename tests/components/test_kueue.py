"""KueueInstall and KueueObjects on the mocked Pulumi runtime: what they register and in which order."""

from __future__ import annotations

import pulumi
import pytest

from gkecap.components.kueue import KueueInstall, KueueObjects
from testkit.input_errors import lines
from testkit.kueue_specs import objects_of
from testkit.spec_data import dev, prod

CHART = "kubernetes:helm.sh/v4:Chart"
KUBECONFIG = "apiVersion: v1\nkind: Config\nclusters: []\n"


def _install(name: str = "kueue", **args):
    return KueueInstall(name, {"kubeconfig": KUBECONFIG, **args})


def test_install_renders_the_pinned_chart_into_its_namespace(pulumi_run):
    registered = pulumi_run(lambda: _install(version="v0.19.2", topology_aware_scheduling=True))
    chart = registered.one(CHART)
    assert chart.inputs["chart"] == "oci://registry.k8s.io/kueue/charts/kueue"
    assert chart.inputs["version"] == "0.19.2"
    assert chart.inputs["namespace"] == "kueue-system"
    assert chart.inputs["values"]["controllerManager"]["featureGates"] == [
        {"name": "TopologyAwareScheduling", "enabled": True}]
    namespace = registered.one("kubernetes:core/v1:Namespace")
    assert namespace.inputs["metadata"]["name"] == "kueue-system"
    assert namespace.urn in chart.dependencies


def test_install_makes_a_kubernetes_provider_from_the_kubeconfig(pulumi_run):
    registered = pulumi_run(lambda: _install())
    provider = registered.one("pulumi:providers:kubernetes")
    assert provider.inputs["kubeconfig"] == KUBECONFIG
    assert registered.one(CHART).provider.startswith(provider.urn)


def test_a_bad_install_setting_registers_nothing(pulumi_run):
    created = []

    def program():
        try:
            _install(version="latest")
        except pulumi.InputPropertiesError as err:
            created.append(str(err))

    registered = pulumi_run(program)
    assert created and "not a Kueue release" in created[0]
    assert not [r for r in registered.records if r.type != "pulumi:pulumi:Stack"]


def test_objects_wait_for_the_install(pulumi_run):
    def program():
        install = _install()
        KueueObjects("objects", {"objects": objects_of(prod())},
                     opts=pulumi.ResourceOptions(depends_on=[install]))

    registered = pulumi_run(program)
    chart = registered.one(CHART)
    children = [r for r in registered.records if (r.parent or "").endswith("::objects") and r.custom]
    assert len(children) == len(objects_of(prod()))
    assert all(chart.urn in r.dependencies for r in children)


def test_objects_are_registered_as_kubernetes_custom_resources_with_their_inputs(pulumi_run):
    objects = objects_of(prod())
    registered = pulumi_run(lambda: KueueObjects("objects", {"objects": objects}))
    queue = registered.one("kubernetes:kueue.x-k8s.io/v1beta2:ClusterQueue", "objects-team-a")
    expected = next(o for o in objects if o["kind"] == "ClusterQueue" and o["metadata"]["name"] == "team-a")
    assert {k: queue.inputs[k] for k in ("apiVersion", "kind", "metadata", "spec")} == expected
    priority = registered.one("kubernetes:kueue.x-k8s.io/v1beta2:WorkloadPriorityClass", "objects-high")
    assert (priority.inputs["value"], priority.inputs["description"]) == (1000, "deadline work")


def test_namespaced_objects_are_created_after_their_namespace(pulumi_run):
    registered = pulumi_run(lambda: KueueObjects("objects", {"objects": objects_of(dev())}))
    namespace = registered.one("kubernetes:core/v1:Namespace", "objects-vision")
    for type_ in ("kubernetes:kueue.x-k8s.io/v1beta2:LocalQueue", "kubernetes:rbac.authorization.k8s.io/v1:RoleBinding"):
        in_vision = [r for r in registered.of_type(type_) if r.inputs["metadata"]["namespace"] == "vision"]
        assert in_vision and all(namespace.urn in r.dependencies for r in in_vision)


def test_role_bindings_keep_their_subjects(pulumi_run):
    registered = pulumi_run(lambda: KueueObjects("objects", {"objects": objects_of(dev())}))
    binding = registered.one("kubernetes:rbac.authorization.k8s.io/v1:RoleBinding", "objects-nlp-gkecap-nlp-member")
    assert binding.inputs["roleRef"] == {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole",
                                         "name": "gkecap-team-member"}
    assert binding.inputs["subjects"] == [{"apiGroup": "rbac.authorization.k8s.io", "kind": "User",
                                           "name": "ana@acme.example"}]


def test_an_object_without_a_name_is_refused_before_anything_is_registered():
    with pytest.raises(pulumi.InputPropertiesError) as raised:
        KueueObjects("objects", {"objects": [{"apiVersion": "v1", "kind": "Namespace", "metadata": {}}]})
    assert lines(raised.value) == ["objects[0]: needs apiVersion, kind and metadata.name"]


def test_bad_install_settings_are_reported_at_the_arguments_that_carry_them():
    # The shared rules name environment-file fields (managerResources.cpu); the component names its own arguments.
    with pytest.raises(pulumi.InputPropertiesError) as raised:
        _install(version="v0.19", manager_cpu="0", manager_memory="lots")
    assert [line.split(":")[0] for line in lines(raised.value)] == ["version", "managerCpu", "managerMemory"]


def test_install_jobset_adds_the_pinned_jobset_chart_in_its_namespace(pulumi_run):
    registered = pulumi_run(lambda: _install(install_jobset=True))
    jobset = registered.one(CHART, "kueue-jobset")
    assert jobset.inputs["version"] == "0.12.0" and jobset.inputs["namespace"] == "jobset-system"
    namespace = registered.one("kubernetes:core/v1:Namespace", "kueue-jobset-namespace")
    assert namespace.urn in jobset.dependencies


def test_a_framework_the_release_lacks_is_refused_at_its_argument():
    with pytest.raises(pulumi.InputPropertiesError) as raised:
        _install(version="v0.16.2", frameworks=["batch/job", "ray.io/rayservice"])
    assert lines(raised.value) == [
        "frameworks[1]: 'ray.io/rayservice' needs Kueue v0.17.0 or later (kueue.version is v0.16.2); remove it or "
        "use a newer Kueue"]


def test_a_bad_wait_for_pods_ready_is_refused_at_its_field():
    with pytest.raises(pulumi.InputPropertiesError) as raised:
        _install(wait_for_pods_ready={"timeout": "ten minutes", "requeuing_strategy": {"timestamp": "Later"}})
    assert [line.split(":")[0] for line in lines(raised.value)] == [
        "waitForPodsReady.timeout", "waitForPodsReady.requeuingStrategy.timestamp"]


def test_wait_for_pods_ready_reaches_the_manager_configuration_in_kueues_spelling(pulumi_run):
    import yaml

    registered = pulumi_run(lambda: _install(wait_for_pods_ready={"timeout": "2h", "block_admission": True}))
    values = registered.one(CHART).inputs["values"]
    config = yaml.safe_load(values["managerConfig"]["controllerManagerConfigYaml"])
    assert config["waitForPodsReady"] == {"timeout": "2h", "blockAdmission": True}


def test_team_guards_are_registered_under_the_kubernetes_provider_tokens(pulumi_run):
    env = dev()
    env["teams"][0]["resourceQuota"] = True
    objects = objects_of(env)
    registered = pulumi_run(lambda: KueueObjects("objects", {"objects": objects}))
    policy = registered.one("kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicy",
                            "objects-gkecap-queue-vision")
    expected = next(o for o in objects if o["kind"] == "ValidatingAdmissionPolicy"
                    and o["metadata"]["name"] == "gkecap-queue-vision")
    assert policy.inputs["spec"] == expected["spec"]
    assert registered.one("kubernetes:admissionregistration.k8s.io/v1:ValidatingAdmissionPolicyBinding",
                          "objects-gkecap-queue-vision").inputs["spec"]["policyName"] == "gkecap-queue-vision"
    quota = registered.one("kubernetes:core/v1:ResourceQuota", "objects-vision-gkecap-vision-accelerators")
    assert quota.inputs["spec"]["hard"] == next(o for o in objects if o["kind"] == "ResourceQuota")["spec"]["hard"]
    role = registered.one("kubernetes:rbac.authorization.k8s.io/v1:ClusterRole", "objects-gkecap-team-member")
    assert {"apiGroups": ["apps"], "resources": ["deployments", "statefulsets"]} == {
        k: role.inputs["rules"][4][k] for k in ("apiGroups", "resources")}
