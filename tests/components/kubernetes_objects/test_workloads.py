"""Workload manifests: what a team's Job or JobSet carries comes from the same model as the Kueue objects, core
objects pass kubernetes-validate's strict schemas, JobSets the real JobSet CRD, and shapes a pool cannot run are
refused with the reason."""

from __future__ import annotations

import kubernetes_validate
import pytest
from hypothesis import given, settings, strategies as st

from gkecap.components.kubernetes_objects.build import kueue_objects, objects_of_kind
from gkecap.components.kubernetes_objects.workloads import (
    PREFERRED_TOPOLOGY,
    PRIORITY_LABEL,
    QUEUE_LABEL,
    REQUIRED_TOPOLOGY,
    WorkloadError,
    starter_workloads,
    workload_manifest,
)
from gkecap.components.model import derive
from gkecap.components.spec import load_environment
from testkit.jobset_crd import requires_jobset_crd, validate_jobset
from testkit.k8s_core import validate_core
from testkit.spec_data import NOW, dev, prod


def _model(data: dict):
    return derive(load_environment(data, project="acme-ml-prod", now=NOW))


_PROD = _model(prod())


@pytest.fixture(scope="module")
def prod_model():
    return _PROD


def _tas_model():
    data = prod()
    data["kueue"]["topologyAwareScheduling"] = True
    return _model(data)


def _shared_gpu_model():
    data = dev()
    data["nodePools"][0]["gpuSharing"] = {"strategy": "TIME_SHARING", "maxSharedClientsPerGpu": 2}
    return _model(data)


def _pod_spec(manifest: dict) -> dict:
    if manifest["kind"] == "Job":
        return manifest["spec"]["template"]["spec"]
    return manifest["spec"]["replicatedJobs"][0]["template"]["spec"]["template"]["spec"]


def _validate(manifest: dict) -> None:
    if manifest["kind"] == "JobSet":
        assert validate_jobset(manifest) == []
    else:
        validate_core(manifest)


@pytest.mark.parametrize("data", [dev, prod], ids=["dev", "prod"])
@requires_jobset_crd
def test_every_starter_is_a_valid_object(data):
    starters = starter_workloads(_model(data()))
    assert starters  # every team has a pool
    for manifest in starters.values():
        _validate(manifest)


def test_a_gpu_job_selects_and_tolerates_what_its_pool_flavor_does(prod_model):
    manifest = workload_manifest(prod_model, "team-a", "l4-spot")
    flavor = next(f for f in objects_of_kind(kueue_objects(prod_model), "ResourceFlavor") if f["metadata"]["name"] == "l4-spot")
    pod = _pod_spec(manifest)
    assert pod["nodeSelector"] == flavor["spec"]["nodeLabels"]
    assert pod["tolerations"] == flavor["spec"]["tolerations"]


def test_a_job_goes_to_the_team_queue_in_its_namespace_suspended(prod_model):
    manifest = workload_manifest(prod_model, "team-d", "l4-spot", namespace="team-d-serving")
    local_queues = objects_of_kind(kueue_objects(prod_model), "LocalQueue")
    queue = manifest["metadata"]["labels"][QUEUE_LABEL]
    assert {"name": queue, "namespace": "team-d-serving"} in [
        {"name": q["metadata"]["name"], "namespace": q["metadata"]["namespace"]} for q in local_queues]
    assert manifest["spec"]["suspend"] is True


def test_a_gpu_pod_requests_a_whole_node_by_default(prod_model):
    container = _pod_spec(workload_manifest(prod_model, "team-a", "l4-spot"))["containers"][0]
    assert container["resources"]["limits"] == {"nvidia.com/gpu": 1}  # g2-standard-12: one L4


def test_a_queued_pool_job_carries_the_provisioning_run_time(prod_model):
    manifest = workload_manifest(prod_model, "team-a", "h100-dws")
    config = next(o for o in objects_of_kind(kueue_objects(prod_model), "ProvisioningRequestConfig"))
    assert manifest["metadata"]["annotations"]["provreq.kueue.x-k8s.io/maxRunDurationSeconds"] == \
        config["spec"]["parameters"]["maxRunDurationSeconds"]


def test_a_flex_start_job_has_no_provisioning_annotation():
    manifest = workload_manifest(_model(dev()), "vision", "l4-flex")
    assert "annotations" not in manifest["metadata"]


def test_a_priority_class_is_a_label_naming_a_workload_priority_class(prod_model):
    manifest = workload_manifest(prod_model, "team-a", "l4-spot", priority_class="low")
    classes = [o["metadata"]["name"] for o in objects_of_kind(kueue_objects(prod_model), "WorkloadPriorityClass")]
    assert manifest["metadata"]["labels"][PRIORITY_LABEL] in classes


def test_a_priority_class_the_team_may_not_use_is_refused_as_its_admission_policy_would(prod_model):
    # testkit prod: low 100, high 1000; by default a team gets the classes below the highest.
    with pytest.raises(WorkloadError, match="priorityClass: 'high' is not allowed to team 'team-a'; allowed: low"):
        workload_manifest(prod_model, "team-a", "l4-spot", priority_class="high")


def test_a_tas_flavor_gets_a_topology_level_of_its_topology():
    model = _tas_model()
    topology = objects_of_kind(kueue_objects(model), "Topology")[0]
    levels = [level["nodeLabel"] for level in topology["spec"]["levels"]]
    preferred = workload_manifest(model, "team-a", "h100-dws", pods=2)
    required = workload_manifest(model, "team-a", "h100-dws", pods=2, topology="required")
    assert preferred["spec"]["template"]["metadata"]["annotations"][PREFERRED_TOPOLOGY] in levels
    assert required["spec"]["template"]["metadata"]["annotations"][REQUIRED_TOPOLOGY] in levels
    validate_core(required)


def test_a_pool_without_tas_gets_no_topology_annotation(prod_model):
    assert "metadata" not in workload_manifest(prod_model, "team-a", "h100-dws")["spec"]["template"]


@requires_jobset_crd
def test_multi_host_tpu_slices_are_a_jobset_of_whole_slices(prod_model):
    pool = prod_model.pool("v6e-16")  # 4x4 on 4-chip VMs: 4 VMs per slice, 2 slices
    manifest = workload_manifest(prod_model, "team-b", "v6e-16", pods=8)
    replicated = manifest["spec"]["replicatedJobs"][0]
    job = replicated["template"]["spec"]
    assert manifest["kind"] == "JobSet"
    assert replicated["replicas"] == 2
    assert job["parallelism"] == job["completions"] == pool.vms_per_slice
    assert job["template"]["spec"]["containers"][0]["resources"]["limits"] == {"google.com/tpu": pool.tpu.chips_per_vm}
    assert job["template"]["spec"]["nodeSelector"]["cloud.google.com/gke-tpu-topology"] == "4x4"
    assert manifest["metadata"]["annotations"]["alpha.jobset.sigs.k8s.io/exclusive-topology"] == "cloud.google.com/gke-nodepool"
    assert validate_jobset(manifest) == []


@requires_jobset_crd
def test_the_jobset_crd_oracle_rejects_a_misspelled_field(prod_model):
    # The oracle itself must be able to fail: a typo in the replicated job is an unknown field.
    manifest = workload_manifest(prod_model, "team-b", "v6e-16")
    manifest["spec"]["replicatedJobs"][0]["replica"] = manifest["spec"]["replicatedJobs"][0].pop("replicas")
    assert validate_jobset(manifest)


def test_kubernetes_validate_rejects_a_misspelled_job_field(prod_model):
    manifest = workload_manifest(prod_model, "team-a", "l4-spot")
    manifest["spec"]["completion"] = 1
    with pytest.raises(kubernetes_validate.ValidationError):
        validate_core(manifest)


def _issues(model, *args, **kwargs) -> list[tuple[str, str]]:
    with pytest.raises(WorkloadError) as err:
        workload_manifest(model, *args, **kwargs)
    return [(i.path, i.message) for i in err.value.issues]


def test_tpu_pods_that_are_not_whole_slices_are_refused(prod_model):
    [(path, message)] = _issues(prod_model, "team-b", "v6e-16", pods=6)
    assert path == "pods" and "multiple of 4" in message


def test_more_slices_than_the_pool_has_are_refused(prod_model):
    [(path, message)] = _issues(prod_model, "team-b", "v6e-16", pods=12)
    assert path == "pods" and "3 slices" in message


def test_a_tpu_pod_must_request_its_whole_vm(prod_model):
    [(path, message)] = _issues(prod_model, "team-b", "v6e-16", accelerators=2)
    assert path == "accelerators" and "all 4 chips" in message


def test_more_gpus_per_pod_than_a_node_has_are_refused(prod_model):
    [(path, message)] = _issues(prod_model, "team-a", "h100-dws", accelerators=16)
    assert path == "accelerators" and "8 per a3-highgpu-8g node" in message


def test_more_nodes_than_the_pool_grows_to_are_refused(prod_model):
    [(path, message)] = _issues(prod_model, "team-a", "h100-dws", pods=3)  # 3 whole nodes of a 2-node pool
    assert path == "pods" and "need 3 nodes" in message


def test_a_time_shared_gpu_takes_one_gpu_per_container():
    [(path, message)] = _issues(_shared_gpu_model(), "vision", "l4-flex", accelerators=2)
    assert path == "accelerators" and "at most 1" in message


def test_a_pool_outside_the_team_queue_is_refused():
    [(path, message)] = _issues(_model(dev()), "vision", "nope")
    assert path == "pool" and "l4-flex" in message


def test_every_problem_is_reported_at_once(prod_model):
    issues = _issues(prod_model, "team-a", "h100-dws", accelerators=9, priority_class="urgent", name="Bad_Name")
    assert {path for path, _ in issues} == {"accelerators", "priorityClass", "name"}


@settings(max_examples=40, deadline=None)
@given(pods=st.integers(1, 6), accelerators=st.integers(1, 10))
def test_a_gpu_shape_runs_exactly_when_the_pool_can_hold_it(pods, accelerators):
    model = _PROD
    pool = model.pool("h100-dws")  # 2 nodes of 8 GPUs
    fits = accelerators <= 8 and -(-pods // (8 // accelerators)) <= pool.max_nodes
    try:
        manifest = workload_manifest(model, "team-a", "h100-dws", pods=pods, accelerators=accelerators)
    except WorkloadError:
        assert not fits
    else:
        assert fits and manifest["spec"]["parallelism"] == pods


@requires_jobset_crd
def test_a_gpu_jobset_holds_all_pods_in_one_replicated_job(prod_model):
    manifest = workload_manifest(prod_model, "team-a", "l4-spot", kind="jobset", pods=4)
    [replicated] = manifest["spec"]["replicatedJobs"]
    assert (replicated["replicas"], replicated["template"]["spec"]["parallelism"]) == (1, 4)
    assert "annotations" not in manifest["metadata"]  # exclusive placement is for TPU slices
    assert validate_jobset(manifest) == []


def test_one_slice_can_be_an_indexed_job(prod_model):
    manifest = workload_manifest(prod_model, "team-b", "v6e-16", kind="job")
    assert (manifest["kind"], manifest["spec"]["completionMode"], manifest["spec"]["parallelism"]) == ("Job", "Indexed", 4)
    validate_core(manifest)


def test_several_slices_need_a_jobset(prod_model):
    [(path, message)] = _issues(prod_model, "team-b", "v6e-16", kind="job", pods=8)
    assert path == "kind" and "jobset" in message


@pytest.mark.parametrize("change", [
    {"gpuSharing": {"strategy": "TIME_SHARING", "maxSharedClientsPerGpu": 2}},
    {"machineType": "a2-ultragpu-1g", "gpuPartitionSize": "1g.10gb"},
], ids=["time-sharing", "mig"])
def test_a_partitioned_or_shared_pool_starter_asks_for_one_unit(change):
    data = dev()
    data["nodePools"][0].update(change)
    manifest = starter_workloads(_model(data))[("vision", "l4-flex")]
    assert _pod_spec(manifest)["containers"][0]["resources"]["limits"] == {"nvidia.com/gpu": 1}
    validate_core(manifest)


def test_a_long_default_name_is_shortened_to_a_stable_dns_label():
    data = dev()
    data["teams"][0]["name"] = "computer-vision-research-and-development"
    model = _model(data)
    first = workload_manifest(model, data["teams"][0]["name"], "l4-flex")["metadata"]["name"]
    again = workload_manifest(model, data["teams"][0]["name"], "l4-flex")["metadata"]["name"]
    assert first == again and len(first) <= 40 and first.startswith("computer-vision")


def test_a_mig_pool_fits_as_many_one_unit_pods_as_its_nodes_advertise():
    # a2-ultragpu-1g with 1g.10gb: 7 partitions per node (catalog.gpu_units_per_vm), 2 nodes: 14 one-unit pods.
    data = dev()
    data["nodePools"][0].update({"machineType": "a2-ultragpu-1g", "gpuPartitionSize": "1g.10gb"})
    data["teams"][0]["quota"]["l4-flex"] = 14
    model = _model(data)
    manifest = workload_manifest(model, "vision", "l4-flex", pods=14, accelerators=1)
    assert manifest["spec"]["parallelism"] == 14
    [(path, _)] = _issues(model, "vision", "l4-flex", pods=15, accelerators=1)
    assert path == "pods"
