"""kueue_objects(): every object of our environments is valid (real CRDs, Kueue's own rules, Kubernetes core
schemas), in apply order, and says what the environment means: flavors select and tolerate exactly their
pool's nodes, queued pools get the DWS admission check, teams get only their own namespaces."""

from __future__ import annotations

import dataclasses

import kubernetes_validate
import pytest

import gkecap.components.gke as gke
from gkecap.components.catalog import GKE_ACCELERATOR_LABEL, GKE_TPU_ACCELERATOR_LABEL, GKE_TPU_TOPOLOGY_LABEL
from gkecap.components.kueue_api import validate_kueue_object
from gkecap.components.kubernetes_objects.kueue_chart import BATCH_USER_ROLE
from gkecap.components.kubernetes_objects.team_access import MEMBER_CLUSTER_ROLE
from gkecap.components.kubernetes_objects.flavors import TOPOLOGY_LEVELS, TOPOLOGY_NAME
from gkecap.components.kubernetes_objects.build import KIND_ORDER, KueueObjectsError, kueue_objects, object_key
from testkit.kueue_specs import find, model_of, objects_of, of_kind, with_kueue
from testkit.spec_data import dev, prod
from testkit.k8s_core import K8S_VERSION, validate_core
from testkit.kueue_crds import requires_crds, validate_against_crds

VARIANTS = {
    "dev": lambda: dev(),
    "prod": lambda: prod(),
    "prod-v1beta1": lambda: with_kueue(prod(), apiVersion="v1beta1", version="v0.14.8"),
    "prod-tas": lambda: with_kueue(prod(), topologyAwareScheduling=True),
    "prod-no-fair-sharing": lambda: with_kueue(prod(), fairSharing=False),
}


def _kueue(objects: list[dict]) -> list[dict]:
    return [o for o in objects if o["apiVersion"].startswith("kueue.x-k8s.io/")]


def _core(objects: list[dict]) -> list[dict]:
    return [o for o in objects if not o["apiVersion"].startswith("kueue.x-k8s.io/")]


@requires_crds
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_kueue_object_is_valid_against_the_real_crds(variant):
    for obj in _kueue(objects_of(VARIANTS[variant]())):
        assert validate_against_crds(obj) == [], object_key(obj)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_kueue_object_passes_kueue_validation(variant):
    for obj in _kueue(objects_of(VARIANTS[variant]())):
        assert validate_kueue_object(obj) == [], object_key(obj)


def _with_resource_quotas(env: dict) -> dict:
    for team in env["teams"]:
        team["resourceQuota"] = True
    return env


@pytest.mark.parametrize("variant", ["dev", "prod"])
def test_core_objects_validate_against_kubernetes_schemas(variant):
    core = _core(objects_of(_with_resource_quotas(VARIANTS[variant]())))
    kinds = {o["kind"] for o in core}
    assert kinds >= {"Namespace", "ResourceQuota", "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding"}
    assert kinds >= {"RoleBinding", "ClusterRole"} or variant == "prod"  # the test prod file lists no members
    for obj in core:
        validate_core(obj)


def test_core_validation_catches_a_broken_admission_policy_binding():
    binding = of_kind(objects_of(dev()), "ValidatingAdmissionPolicyBinding")[0]
    broken = {**binding, "spec": {**binding["spec"], "validationActions": "Deny"}}  # a list is required
    with pytest.raises(kubernetes_validate.ValidationError):
        validate_core(broken)


def test_core_validation_is_kubernetes_validate_and_catches_a_broken_role_binding():
    binding = of_kind(objects_of(dev()), "RoleBinding")[0]
    kubernetes_validate.validate(binding, K8S_VERSION, strict=True)  # the library itself agrees
    broken = {**binding, "roleRef": {"kind": "ClusterRole", "name": "edit"}}  # apiGroup is required
    for check in (validate_core, lambda obj: kubernetes_validate.validate(obj, K8S_VERSION, strict=True)):
        with pytest.raises(kubernetes_validate.ValidationError):
            check(broken)


def test_objects_come_in_apply_order():
    kinds = [o["kind"] for o in objects_of(with_kueue(prod(), topologyAwareScheduling=True))]
    ranks = [KIND_ORDER.index(k) for k in kinds]
    assert ranks == sorted(ranks)
    assert kinds[0] == "Namespace" and "Topology" in kinds


def test_objects_are_deterministic():
    assert objects_of(prod()) == objects_of(prod())


def test_v1beta2_by_default_and_v1beta1_on_request():
    assert {o["apiVersion"] for o in _kueue(objects_of(prod()))} == {"kueue.x-k8s.io/v1beta2"}
    old = objects_of(with_kueue(prod(), apiVersion="v1beta1", version="v0.14.8"))
    assert {o["apiVersion"] for o in _kueue(old)} == {"kueue.x-k8s.io/v1beta1"}
    queue = find(old, "ClusterQueue", "team-a")["spec"]
    assert queue["cohort"] == "research" and "cohortName" not in queue
    assert queue["flavorFungibility"] == {"whenCanBorrow": "Borrow", "whenCanPreempt": "TryNextFlavor"}


def test_one_flavor_per_pool_named_like_the_pool_in_capacity_order():
    flavors = [o["metadata"]["name"] for o in of_kind(objects_of(prod()), "ResourceFlavor")]
    # reservation/calendar first, then queued, flex-start, spot
    assert flavors == ["h100-dec", "h100-dws", "v6e-16", "l4-spot"]


def _node_labels(pool) -> dict[str, str]:
    """Labels the pool's nodes carry: what the node pool config sets plus the accelerator labels GKE sets."""
    labels = dict(gke.node_labels(pool.name, pool.capacity, pool.labels))
    if pool.kind == "gpu":
        labels[GKE_ACCELERATOR_LABEL] = pool.accelerator_label
    else:
        labels[GKE_TPU_ACCELERATOR_LABEL] = pool.accelerator_label
        labels[GKE_TPU_TOPOLOGY_LABEL] = pool.tpu_topology
    return labels


@pytest.mark.parametrize("variant", ["dev", "prod"])
def test_each_flavor_selects_its_pools_nodes_and_no_other_pools(variant):
    env = VARIANTS[variant]()
    model, objects = model_of(env), objects_of(env)
    for pool in model.pools:
        selector = find(objects, "ResourceFlavor", pool.name)["spec"]["nodeLabels"]
        assert selector.items() <= _node_labels(pool).items(), pool.name
        assert len(selector) <= 8
        for other in model.pools:
            if other.name != pool.name:
                assert not selector.items() <= _node_labels(other).items(), (pool.name, other.name)


@pytest.mark.parametrize("variant", ["dev", "prod"])
def test_each_flavor_tolerates_or_requires_every_taint_of_its_nodes(variant):
    env = VARIANTS[variant]()
    model, objects = model_of(env), objects_of(env)
    for pool in model.pools:
        spec = find(objects, "ResourceFlavor", pool.name)["spec"]
        for taint in gke.node_taints(pool.machine_type, pool.capacity):
            if taint == gke.CALENDAR_TAINT:  # opt-in: listed, not tolerated (the workload must tolerate it)
                assert taint.k8s() in spec["nodeTaints"] and taint.toleration() not in spec["tolerations"]
            else:
                assert taint.toleration() in spec["tolerations"], (pool.name, taint)


def test_calendar_flavors_admit_only_workloads_that_tolerate_the_reservation():
    # Kueue assigns a flavor with nodeTaints only to podsets tolerating them (ResourceFlavor.spec.nodeTaints):
    # work without the toleration is never admitted to capacity that exists only in a window.
    objects = objects_of(prod())
    assert find(objects, "ResourceFlavor", "h100-dec")["spec"]["nodeTaints"] == [
        {"key": "gkecap.dev/calendar", "value": "true", "effect": "NoSchedule"}]
    assert "nodeTaints" not in find(objects, "ResourceFlavor", "h100-dws")["spec"]


def test_a_flavor_tolerates_the_pools_own_taints():
    env = prod()
    env["nodePools"][3]["taints"] = [{"key": "acme.example/inference", "value": "true", "effect": "NO_EXECUTE"}]
    tolerations = find(objects_of(env), "ResourceFlavor", "l4-spot")["spec"]["tolerations"]
    assert {"key": "acme.example/inference", "operator": "Equal", "value": "true", "effect": "NoExecute"} in tolerations
    assert [t.toleration() for t in model_of(env).pool("l4-spot").node_taints] == tolerations
    other = find(objects_of(env), "ResourceFlavor", "h100-dws")["spec"]["tolerations"]
    assert all(t["key"] != "acme.example/inference" for t in other)


def test_queued_pool_flavor_tolerates_the_queued_taint_and_tpu_flavor_the_tpu_taint():
    objects = objects_of(prod())
    queued = find(objects, "ResourceFlavor", "h100-dws")["spec"]["tolerations"]
    assert {"key": "cloud.google.com/gke-queued", "operator": "Equal", "value": "true",
            "effect": "NoSchedule"} in queued
    tpu = find(objects, "ResourceFlavor", "v6e-16")["spec"]["tolerations"]
    assert {"key": "google.com/tpu", "operator": "Equal", "value": "present", "effect": "NoSchedule"} in tpu


def test_queued_pool_gets_a_provisioning_request_config_and_admission_check():
    objects = objects_of(prod())
    config = find(objects, "ProvisioningRequestConfig", "h100-dws-provisioning")["spec"]
    assert config["provisioningClassName"] == "queued-provisioning.gke.io"
    assert config["managedResources"] == ["nvidia.com/gpu"]
    assert config["podSetUpdates"] == {"nodeSelector": [
        {"key": "autoscaling.gke.io/provisioning-request", "valueFromProvisioningClassDetail": "ResizeRequestName"}]}
    assert config["retryStrategy"] == {"backoffLimitCount": 3, "backoffBaseSeconds": 60, "backoffMaxSeconds": 1800}
    assert config["parameters"] == {"maxRunDurationSeconds": "604800"}  # the pool's maxRunDuration
    check = find(objects, "AdmissionCheck", "h100-dws-provisioning")["spec"]
    assert check == {"controllerName": "kueue.x-k8s.io/provisioning-request",
                     "parameters": {"apiGroup": "kueue.x-k8s.io", "kind": "ProvisioningRequestConfig",
                                    "name": "h100-dws-provisioning"}}


def test_admission_check_applies_only_to_the_queued_flavor():
    for queue in of_kind(objects_of(prod()), "ClusterQueue"):
        assert queue["spec"]["admissionChecksStrategy"] == {
            "admissionChecks": [{"name": "h100-dws-provisioning", "onFlavors": ["h100-dws"]}]}


def test_no_queued_pool_means_no_admission_checks():
    objects = objects_of(dev())
    assert not of_kind(objects, "AdmissionCheck") and not of_kind(objects, "ProvisioningRequestConfig")
    assert all("admissionChecksStrategy" not in q["spec"] for q in of_kind(objects, "ClusterQueue"))


def test_topology_aware_scheduling_adds_the_topology_to_gpu_flavors():
    objects = objects_of(with_kueue(prod(), topologyAwareScheduling=True))
    topology = find(objects, "Topology", TOPOLOGY_NAME)
    assert [level["nodeLabel"] for level in topology["spec"]["levels"]] == list(TOPOLOGY_LEVELS)
    assert find(objects, "ResourceFlavor", "h100-dws")["spec"]["topologyName"] == TOPOLOGY_NAME
    assert "topologyName" not in find(objects, "ResourceFlavor", "v6e-16")["spec"]  # TPU slice topology rules


def test_topology_aware_scheduling_skips_pools_that_scale_on_pending_pods():
    objects = objects_of(with_kueue(prod(), topologyAwareScheduling=True))
    assert find(objects, "ResourceFlavor", "h100-dec")["spec"]["topologyName"] == TOPOLOGY_NAME  # calendar
    assert "topologyName" not in find(objects, "ResourceFlavor", "l4-spot")["spec"]


def test_without_topology_aware_scheduling_no_flavor_names_a_topology():
    objects = objects_of(prod())
    assert not of_kind(objects, "Topology")
    assert all("topologyName" not in f["spec"] for f in of_kind(objects, "ResourceFlavor"))


def test_queue_admits_exactly_the_team_namespaces():
    selector = find(objects_of(prod()), "ClusterQueue", "team-d")["spec"]["namespaceSelector"]
    assert selector == {
        "matchLabels": {"gkecap.dev/team": "team-d"},
        "matchExpressions": [{"key": "kubernetes.io/metadata.name", "operator": "In",
                              "values": ["team-d", "team-d-serving"]}],
    }


def test_team_namespaces_carry_the_label_the_queue_selects():
    objects = objects_of(prod())
    for name in ("team-d", "team-d-serving"):
        assert find(objects, "Namespace", name)["metadata"]["labels"]["gkecap.dev/team"] == "team-d"


def test_a_local_queue_in_every_team_namespace_feeds_the_team_queue():
    queues = of_kind(objects_of(prod()), "LocalQueue")
    named = [q for q in queues if q["metadata"]["name"] != "default"]
    assert sorted((q["metadata"]["namespace"], q["spec"]["clusterQueue"]) for q in named) == [
        ("team-a", "team-a"), ("team-b", "team-b"), ("team-c", "team-c"), ("team-d", "team-d"),
        ("team-d-serving", "team-d")]


def test_every_team_namespace_has_a_default_local_queue_to_the_team_queue():
    # Kueue labels an unlabelled job with its namespace's `default` LocalQueue (pkg/controller/constants
    # DefaultLocalQueueName, jobframework/defaults.go ApplyDefaultLocalQueue @ v0.19.2).
    queues = of_kind(objects_of(prod()), "LocalQueue")
    defaults = [q for q in queues if q["metadata"]["name"] == "default"]
    assert sorted((q["metadata"]["namespace"], q["spec"]["clusterQueue"]) for q in defaults) == [
        ("team-a", "team-a"), ("team-b", "team-b"), ("team-c", "team-c"), ("team-d", "team-d"),
        ("team-d-serving", "team-d")]


def test_without_managing_unlabelled_jobs_there_is_no_default_local_queue():
    env = prod()
    env["kueue"] = {**env.get("kueue", {}), "manageJobsWithoutQueueName": False}
    assert not [q for q in of_kind(objects_of(env), "LocalQueue") if q["metadata"]["name"] == "default"]


def test_members_are_bound_to_the_member_role_and_batch_user_in_their_namespaces_only():
    env = dev()
    env["teams"][0]["namespaces"] = ["vision", "vision-eval"]
    objects = objects_of(env)
    bindings = of_kind(objects, "RoleBinding")
    vision = [b for b in bindings if b["metadata"]["labels"]["gkecap.dev/team"] == "vision"]
    assert sorted((b["metadata"]["namespace"], b["roleRef"]["name"]) for b in vision) == sorted([
        ("vision", BATCH_USER_ROLE), ("vision", MEMBER_CLUSTER_ROLE), ("vision-eval", BATCH_USER_ROLE),
        ("vision-eval", MEMBER_CLUSTER_ROLE)])
    assert all(b["roleRef"]["kind"] == "ClusterRole" for b in bindings)
    assert all(b["subjects"] == [{"kind": "Group", "apiGroup": "rbac.authorization.k8s.io",
                                  "name": "vision@acme.example"}] for b in vision)
    assert {b["metadata"]["namespace"] for b in bindings if b["metadata"]["labels"]["gkecap.dev/team"] == "nlp"} \
        == {"nlp"}


def test_nothing_cluster_wide_is_granted():
    objects = objects_of(dev())
    assert not {o["kind"] for o in objects} & {"ClusterRoleBinding", "Role"}
    # The one ClusterRole is bound only by namespaced RoleBindings.
    assert [o["metadata"]["name"] for o in of_kind(objects, "ClusterRole")] == [MEMBER_CLUSTER_ROLE]


def test_a_team_without_members_gets_no_role_bindings():
    assert not of_kind(objects_of(prod()), "RoleBinding")  # prod teams list no members


def test_priority_classes_become_workload_priority_classes():
    classes = of_kind(objects_of(prod()), "WorkloadPriorityClass")
    assert [(c["metadata"]["name"], c["value"], c.get("description")) for c in classes] == [
        ("low", 100, None), ("high", 1000, "deadline work")]


def test_cohorts_come_parents_first():
    env = prod()
    env["cohorts"] = [{"name": "research", "parent": "org"}, {"name": "org"}]
    names = [c["metadata"]["name"] for c in of_kind(objects_of(env), "Cohort")]
    assert names == ["org", "research"]
    assert find(objects_of(env), "Cohort", "research")["spec"]["parentName"] == "org"


def test_objects_that_would_collide_are_refused_with_their_names():
    model = model_of(prod())
    twice = dataclasses.replace(model, teams=model.teams + model.teams[:1])
    with pytest.raises(KueueObjectsError, match="ClusterQueue/team-a"):
        kueue_objects(twice)


def test_gke_default_topology_has_the_four_levels_gke_documents():
    # GKE's TAS guide and xpk: block, subblock, host, hostname; a podset-required-topology of
    # cloud.google.com/gce-topology-host is refused by Kueue when the Topology lacks that level.
    objects = objects_of(with_kueue(prod(), topologyAwareScheduling=True))
    topology = find(objects, "Topology", TOPOLOGY_NAME)
    assert [level["nodeLabel"] for level in topology["spec"]["levels"]] == [
        "cloud.google.com/gce-topology-block",
        "cloud.google.com/gce-topology-subblock",
        "cloud.google.com/gce-topology-host",
        "kubernetes.io/hostname",
    ]


def test_a_team_in_an_existing_namespace_gets_no_namespace_but_its_queue_and_rbac():
    # `namespace: default` (issue 11 item 9): nothing created, selected by name, RoleBindings still namespaced.
    env = dev()
    env["teams"][0]["namespace"] = "default"
    objects = objects_of(env)
    assert not [o for o in of_kind(objects, "Namespace") if o["metadata"]["name"] == "default"]
    queue = find(objects, "ClusterQueue", "vision")
    assert queue["spec"]["namespaceSelector"] == {"matchExpressions": [
        {"key": "kubernetes.io/metadata.name", "operator": "In", "values": ["default"]}]}
    bindings = [o for o in of_kind(objects, "RoleBinding") if o["metadata"]["namespace"] == "default"]
    assert {b["roleRef"]["name"] for b in bindings} == {MEMBER_CLUSTER_ROLE, "kueue-batch-user-role"}
    assert find(objects, "LocalQueue", "vision", namespace="default")
