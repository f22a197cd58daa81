"""MultiKueue objects (issue 24): the manager's objects validate against Kueue's real CRDs, its ClusterQueues
dispatch through the MultiKueue check only, a worker's objects are those of the single-cluster environment with
its pools, and the kubeconfig passes the rules Kueue's MultiKueue controller applies to one."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from gkecap.components.kubernetes_objects.build import kueue_objects, object_key, objects_of_kind
from gkecap.components.kubernetes_objects.kueue_chart import chart_values
from gkecap.components.kubernetes_objects.multikueue import (
    DISPATCHERS, MULTIKUEUE_CHECK, dispatch_issues, manager_settings, worker_access_objects, worker_kubeconfig,
)
from gkecap.components.kubernetes_objects.workloads import KINDS
from gkecap.components.kueue_api.releases import OLDEST_SUPPORTED_RELEASE
from gkecap.components.kueue_api import MULTIKUEUE_CONTROLLER
from gkecap.components.model import derive
from gkecap.components.spec import load_environment
from gkecap.components.spec.workers import worker_environments
from testkit.kueue_crds import requires_crds, validate_against_crds

ROOT = Path(__file__).resolve().parents[3]
GLOBAL = yaml.safe_load((ROOT / "stacks" / "Pulumi.global.yaml").read_text())["config"]["gkecap:environment"]


def _spec(data: dict | None = None, api_version: str = "v1beta2"):
    data = copy.deepcopy(data or GLOBAL)
    data["kueue"]["apiVersion"] = api_version
    return load_environment(data, project="acme-ml-global")


def _manager(api_version: str = "v1beta2") -> list[dict]:
    return kueue_objects(derive(_spec(api_version=api_version)))


@requires_crds
@pytest.mark.parametrize("api_version", ["v1beta2", "v1beta1"])
def test_every_manager_object_validates_against_the_real_crds(api_version: str) -> None:
    objects = _manager(api_version)
    assert {"MultiKueueCluster", "MultiKueueConfig"} <= {o["kind"] for o in objects}
    for obj in objects:
        if obj["apiVersion"].startswith("kueue.x-k8s.io/"):
            assert validate_against_crds(obj) == [], object_key(obj)


def test_the_manager_has_one_multikueue_cluster_per_worker_in_file_order() -> None:
    objects = _manager()
    (config,) = objects_of_kind(objects, "MultiKueueConfig")
    assert config["spec"]["clusters"] == ["east", "central"]
    secrets = [c["spec"]["clusterSource"]["kubeConfig"] for c in objects_of_kind(objects, "MultiKueueCluster")]
    assert secrets == [{"locationType": "Secret", "location": "multikueue-east"},
                       {"locationType": "Secret", "location": "multikueue-central"}]


def test_manager_cluster_queues_carry_only_the_multikueue_check() -> None:
    objects = _manager()
    (check,) = objects_of_kind(objects, "AdmissionCheck")
    assert check["spec"]["controllerName"] == MULTIKUEUE_CONTROLLER
    for queue in objects_of_kind(objects, "ClusterQueue"):
        assert queue["spec"]["admissionChecksStrategy"] == {"admissionChecks": [{"name": MULTIKUEUE_CHECK}]}
    assert objects_of_kind(objects, "ProvisioningRequestConfig") == []  # those run on the queued pool's worker


def test_the_manager_quota_is_the_teams_whole_quota() -> None:
    llm = next(q for q in objects_of_kind(_manager(), "ClusterQueue") if q["metadata"]["name"] == "llm")
    flavors = {f["name"] for group in llm["spec"]["resourceGroups"] for f in group["flavors"]}
    assert flavors == {"h100-dws", "h100-flex"}


def test_a_worker_keeps_its_queued_pools_provisioning_check() -> None:
    east, central = worker_environments(_spec())
    east_objects = kueue_objects(derive(east))
    assert [o["metadata"]["name"] for o in objects_of_kind(east_objects, "AdmissionCheck")] == [
        "h100-dws-provisioning"]
    assert objects_of_kind(kueue_objects(derive(central)), "AdmissionCheck") == []


def test_a_single_cluster_environment_and_the_same_worker_give_the_same_objects() -> None:
    """Differential: the east worker's pools as a plain single-cluster file, planned as today."""
    single = copy.deepcopy(GLOBAL)
    east = single.pop("workers")[0]
    single.pop("kueue")
    single.update(region=east["region"], cluster=east["cluster"], nodePools=east["nodePools"],
                  kueue=copy.deepcopy(GLOBAL["kueue"]))
    for team in single["teams"]:
        team["quota"] = {pool: q for pool, q in team["quota"].items() if pool == "h100-dws"}
        for key in ("borrowingLimit", "lendingLimit"):
            team.pop(key, None)
    alone = kueue_objects(derive(load_environment(single, project="acme-ml-global")))
    as_worker = kueue_objects(derive(worker_environments(_spec())[0]))
    assert as_worker == alone


def test_worker_access_is_a_service_account_token_bound_to_the_dispatched_kinds() -> None:
    kinds = [o["kind"] for o in worker_access_objects()]
    assert kinds == ["ServiceAccount", "ClusterRole", "ClusterRoleBinding", "Secret"]
    role = worker_access_objects()[1]
    resources = {r for rule in role["rules"] for r in rule["resources"]}
    assert {"jobs", "jobsets", "workloads", "workloads/status"} <= resources
    assert worker_access_objects()[3]["type"] == "kubernetes.io/service-account-token"


def test_the_kubeconfig_passes_kueues_kubeconfig_rules() -> None:
    # pkg/controller/admissionchecks/multikueue/multikueuecluster.go validateKubeconfig (v0.19.2): no exec plugin,
    # auth provider, token file, CA file path or insecure TLS; an https server and CA data.
    config = yaml.safe_load(worker_kubeconfig("east", "34.1.2.3", "Q0EtREFUQQ==", "tok"))
    (cluster,) = config["clusters"]
    (user,) = config["users"]
    assert cluster["cluster"] == {"server": "https://34.1.2.3", "certificate-authority-data": "Q0EtREFUQQ=="}
    assert user["user"] == {"token": "tok"}
    assert config["current-context"] == "east"


def test_the_manager_configuration_gets_its_multikueue_settings() -> None:
    settings = manager_settings(_spec().kueue.multi_kueue)
    assert settings == {"gcInterval": "1m0s", "workerLostTimeout": "15m", "dispatcherName": DISPATCHERS["AllAtOnce"]}
    values = chart_values("v0.19.2", fair_sharing=True, multi_kueue=settings)
    config = yaml.safe_load(values["managerConfig"]["controllerManagerConfigYaml"])
    assert config["multiKueue"] == settings


def test_multikueue_dispatches_every_job_kind_the_project_emits_from_the_oldest_supported_release() -> None:
    # MultiKueueAdapter per integration (pkg/controller/jobs, v0.14.8 .. v0.19.2): Job and JobSet from v0.6.
    assert dispatch_issues(KINDS, OLDEST_SUPPORTED_RELEASE) == []
    assert dispatch_issues(["job", "rayjob"], OLDEST_SUPPORTED_RELEASE) == ["rayjob"]  # not in the table: refused


def _tas_spec():
    data = copy.deepcopy(GLOBAL)
    data["kueue"]["topologyAwareScheduling"] = True
    data["workers"][0]["nodePools"][0].update(machineType="a3-highgpu-8g", maxNodes=2)  # GKE's topology labels
    return load_environment(data, project="acme-ml-global")


def _topology_of_flavors(objects: list[dict]) -> dict[str, str | None]:
    return {f["metadata"]["name"]: f["spec"].get("topologyName") for f in objects_of_kind(objects, "ResourceFlavor")}


def test_a_worker_pool_with_tas_gets_its_topology_and_tas_flavor_on_that_worker() -> None:
    east, central = (kueue_objects(derive(env)) for env in worker_environments(_tas_spec()))
    assert [t["metadata"]["name"] for t in objects_of_kind(east, "Topology")] == ["gke-default"]
    assert _topology_of_flavors(east) == {"h100-dws": "gke-default"}
    assert objects_of_kind(central, "Topology") == []  # flex-start and TPU pools: no TAS flavor there
    assert set(_topology_of_flavors(central).values()) == {None}


def test_the_managers_flavors_mirror_the_workers_tas_flavors() -> None:
    # Kueue's MultiKueue TAS setup (site/static/examples/multikueue/tas/manager-setup.yaml at v0.19.2): the manager
    # has the same Topology and the flavor with the same topologyName as the worker.
    spec = _tas_spec()
    manager = kueue_objects(derive(spec))
    east = kueue_objects(derive(worker_environments(spec)[0]))
    assert objects_of_kind(manager, "Topology") == objects_of_kind(east, "Topology")
    flavors = {f["metadata"]["name"]: f for f in objects_of_kind(manager, "ResourceFlavor")}
    assert flavors["h100-dws"] == objects_of_kind(east, "ResourceFlavor")[0]
    assert _topology_of_flavors(manager) == {"h100-dws": "gke-default", "v6e-4x4": None, "h100-flex": None}


@requires_crds
def test_every_object_of_every_cluster_with_tas_validates_against_the_real_crds() -> None:
    spec = _tas_spec()
    clusters = [derive(spec)] + [derive(env) for env in worker_environments(spec)]
    for objects in (kueue_objects(model) for model in clusters):
        for obj in objects:
            if obj["apiVersion"].startswith("kueue.x-k8s.io/"):
                assert validate_against_crds(obj) == [], object_key(obj)
