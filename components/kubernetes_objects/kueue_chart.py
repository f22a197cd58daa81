"""Kueue's Helm chart: where it is, which version, and the values an environment needs. Pure, no Pulumi.

Chart: ``oci://registry.k8s.io/kueue/charts/kueue``, chart version = the Kueue release without the ``v``
(``helm install kueue oci://registry.k8s.io/kueue/charts/kueue --version=0.19.2``, kubernetes-sigs/kueue
charts/kueue/README.md). Values used (charts/kueue/values.yaml):

* ``fullnameOverride``: pins object names (``kueue-controller-manager``, ClusterRole
  ``kueue-batch-user-role`` that team RoleBindings name) whatever the release is called.
* ``controllerManager.featureGates``: ``TopologyAwareScheduling`` when TAS is on (beta and on by default
  since Kueue v0.14; set explicitly so the install says what the environment relies on).
* ``controllerManager.manager.resources``: the manager's requests (limits raised to match).
* ``managerConfig.controllerManagerConfigYaml``: the manager Configuration; written only with fair sharing,
  which Kueue enables by the presence of ``fairSharing`` (config v1beta2, Kueue >= v0.15) or
  ``fairSharing.enable: true`` (config v1beta1, older Kueue), or with ``waitForPodsReady`` (calendar pools:
  see `WAIT_FOR_PODS_READY`).

There is no chart value for the ProvisioningRequest admission check: it is GA since Kueue v0.14 and Kueue
runs its controller when the cluster serves ProvisioningRequests (GKE does); FACTS D [S2 provisioning_request.md].
"""

from __future__ import annotations

from typing import Any

import yaml

from gkecap.components.issues import InvalidInput
from gkecap.components.k8s.quantity import parse_quantity
from gkecap.components.kueue_api.releases import DEFAULT_KUEUE_VERSION, check_install, feature_gates, serves_v1beta2

KUEUE_CHART = "oci://registry.k8s.io/kueue/charts/kueue"
KUEUE_NAMESPACE = "kueue-system"
KUEUE_FULLNAME = "kueue"
BATCH_USER_ROLE = f"{KUEUE_FULLNAME}-batch-user-role"  # charts/kueue/templates/rbac/batch_user_role.yaml

# The chart's default limits (values.yaml): a request above them must raise them, or the pod is invalid.
DEFAULT_LIMITS = {"cpu": "2", "memory": "512Mi"}
# Fair-sharing preemption strategies: Kueue's default list, written out (site docs "Preemption", Fair Sharing).
FAIR_SHARING_STRATEGIES = ["LessThanOrEqualToFinalShare", "LessThanInitialShare"]
# Integrations of the chart's default configuration (v0.19 charts/kueue/templates/manager/_config.tpl).
FRAMEWORKS = [
    "batch/job",
    "kubeflow.org/mpijob",
    "ray.io/rayjob",
    "ray.io/rayservice",
    "ray.io/raycluster",
    "jobset.x-k8s.io/jobset",
    "workload.codeflare.dev/appwrapper",
    "trainer.kubeflow.org/trainjob",
    "pod",
    "deployment",
    "statefulset",
    "leaderworkerset.x-k8s.io/leaderworkerset",
]

# Controller concurrency and API client limits of the v0.19 defaults (CHANGELOG-0.19: "Increase OOTB QPS and
# concurrency for Kueue: QPS: 300, Burst=500, Workload concurrency: 10, LQ and CQ: 5").
GROUP_KIND_CONCURRENCY = {
    "Job.batch": 5,
    "Pod": 5,
    "Workload.kueue.x-k8s.io": 10,
    "LocalQueue.kueue.x-k8s.io": 5,
    "Cohort.kueue.x-k8s.io": 1,
    "ClusterQueue.kueue.x-k8s.io": 5,
    "ResourceFlavor.kueue.x-k8s.io": 1,
}

# waitForPodsReady with requeuing, written when an environment has calendar pools (docs/design.md "Calendar
# windows"): a workload admitted to reservation capacity before its window opens has Pending pods; after
# `timeout` Kueue evicts it and requeues it with exponential back-off (no limit on the count: it retries until
# the window opens), instead of holding quota forever. Field names of apis/config/v1beta2 (and v1beta1, which
# also needs `enable: true`) configuration_types.go @ v0.19.2: timeout, blockAdmission, requeuingStrategy
# {timestamp, backoffBaseSeconds, backoffMaxSeconds, backoffLimitCount}. 10 minutes: a provisioned node's pods
# start well within it (GKE's ProvisioningRequest booking lasts 10 minutes, FACTS B.3 [S14]).
WAIT_FOR_PODS_READY = {
    "timeout": "10m",
    "blockAdmission": False,
    "requeuingStrategy": {"timestamp": "Eviction", "backoffBaseSeconds": 60, "backoffMaxSeconds": 3600},
}



def wait_for_pods_ready_on(capacity_models) -> bool:
    """Whether an environment whose pools have these capacity models runs Kueue with `WAIT_FOR_PODS_READY`."""
    return "calendar" in set(capacity_models)


RECENT_FRAMEWORKS = frozenset({"ray.io/rayservice", "trainer.kubeflow.org/trainjob"})

def chart_version(version: str) -> str:
    """The Helm chart version of a Kueue release: ``v0.19.2`` -> ``0.19.2``; InvalidInput when not a release."""
    issues = check_install(version)
    if issues:
        raise InvalidInput(issues, subject="KueueInstall")
    return version[1:]


def manager_config(version: str, *, fair_sharing: bool, wait_for_pods_ready: bool = False) -> dict[str, Any]:
    """The controller manager Configuration (the chart's defaults plus fair sharing and waitForPodsReady when
    asked)."""
    v1beta2 = serves_v1beta2(version)  # config.kueue.x-k8s.io/v1beta2 ships with the v1beta2 APIs (FACTS D [S2])
    config: dict[str, Any] = {
        "apiVersion": "config.kueue.x-k8s.io/v1beta2" if v1beta2 else "config.kueue.x-k8s.io/v1beta1",
        "kind": "Configuration",
        "health": {"healthProbeBindAddress": ":8081"},
        "metrics": {"bindAddress": ":8443"},
        "webhook": {"port": 9443},
        "leaderElection": {"leaderElect": True, "resourceName": "c1f6bfd2.kueue.x-k8s.io"},
        "controller": {"groupKindConcurrency": dict(GROUP_KIND_CONCURRENCY)},
        "clientConnection": {"qps": 300, "burst": 500},
        # Older releases reject frameworks they do not know; keep to the long-standing ones there.
        "integrations": {"frameworks": [f for f in FRAMEWORKS if v1beta2 or f not in RECENT_FRAMEWORKS]},
    }
    if fair_sharing:
        strategies = list(FAIR_SHARING_STRATEGIES)
        config["fairSharing"] = {"preemptionStrategies": strategies} if v1beta2 else {
            "enable": True, "preemptionStrategies": strategies}
    if wait_for_pods_ready:
        config["waitForPodsReady"] = dict(WAIT_FOR_PODS_READY) if v1beta2 else {"enable": True, **WAIT_FOR_PODS_READY}
    return config


def _resources(cpu: str | None, memory: str | None) -> dict[str, Any]:
    issues = check_install(DEFAULT_KUEUE_VERSION, cpu=cpu, memory=memory)
    if issues:
        raise InvalidInput(issues, subject="KueueInstall")
    requests = {key: str(value) for key, value in (("cpu", cpu), ("memory", memory)) if value is not None}
    # A request above the chart's default limit raises the limit with it (a limit below the request is invalid).
    limits = {key: value for key, value in requests.items() if parse_quantity(value) > parse_quantity(DEFAULT_LIMITS[key])}
    return {"requests": requests, **({"limits": limits} if limits else {})}


def chart_values(
    version: str = DEFAULT_KUEUE_VERSION,
    *,
    fair_sharing: bool = True,
    topology_aware_scheduling: bool = False,
    wait_for_pods_ready: bool = False,
    manager_cpu: str | None = None,
    manager_memory: str | None = None,
) -> dict[str, Any]:
    """Helm values for the Kueue chart of `version`."""
    manager: dict[str, Any] = {}
    if manager_cpu is not None or manager_memory is not None:
        manager["resources"] = _resources(manager_cpu, manager_memory)
    controller: dict[str, Any] = {}
    gates = feature_gates(version, {"TopologyAwareScheduling": True} if topology_aware_scheduling else {})
    if gates:
        controller["featureGates"] = gates
    if manager:
        controller["manager"] = manager
    values: dict[str, Any] = {"fullnameOverride": KUEUE_FULLNAME}
    if controller:
        values["controllerManager"] = controller
    if fair_sharing or wait_for_pods_ready:
        config = manager_config(version, fair_sharing=fair_sharing, wait_for_pods_ready=wait_for_pods_ready)
        values["managerConfig"] = {"controllerManagerConfigYaml": yaml.safe_dump(config, sort_keys=False)}
    return values
