"""Kueue's Helm chart: where it is, which version, and the values an environment needs. Pure, no Pulumi.

Chart: ``oci://registry.k8s.io/kueue/charts/kueue``, chart version = the Kueue release without the ``v``
(``helm install kueue oci://registry.k8s.io/kueue/charts/kueue --version=0.19.2``, kubernetes-sigs/kueue
charts/kueue/README.md). Values used (charts/kueue/values.yaml):

* ``fullnameOverride``: pins object names (``kueue-controller-manager``, ClusterRole
  ``kueue-batch-user-role`` that team RoleBindings name) whatever the release is called.
* ``controllerManager.featureGates``: ``TopologyAwareScheduling`` when TAS is on (beta and on by default
  since Kueue v0.14; set explicitly so the install says what the environment relies on).
* ``controllerManager.manager.resources``: the manager's requests (limits raised to match).
* ``managerConfig.controllerManagerConfigYaml``: the manager Configuration, always written: the integrations
  of the release (`kueue_api.integrations`: the chart's default list of that release, or `kueue.frameworks`),
  fair sharing, which Kueue enables by the presence of ``fairSharing`` (config v1beta2, Kueue >= v0.15) or
  ``fairSharing.enable: true`` (config v1beta1, older Kueue), ``waitForPodsReady`` only when the environment
  sets it (it is cluster-wide), and ``manageJobsWithoutQueueName`` with a ``managedJobsNamespaceSelector`` of the
  team namespaces (`kueue_api.job_management`).

There is no chart value for the ProvisioningRequest admission check: it is GA since Kueue v0.14 and Kueue
runs its controller when the cluster serves ProvisioningRequests (GKE does); FACTS D [S2 provisioning_request.md].
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import yaml
from pydantic.alias_generators import to_camel, to_snake

from gkecap.components.issues import InvalidInput
from gkecap.components.k8s.quantity import parse_quantity
from gkecap.components.kubernetes_objects.jobset_chart import jobset_integration_on
from gkecap.components.kueue_api.integrations import chart_frameworks, framework_issues
from gkecap.components.kueue_api.job_management import job_management, selector_issues
from gkecap.components.kueue_api.releases import DEFAULT_KUEUE_VERSION, check_install, feature_gates, serves_v1beta2

KUEUE_CHART = "oci://registry.k8s.io/kueue/charts/kueue"
KUEUE_NAMESPACE = "kueue-system"
KUEUE_FULLNAME = "kueue"
BATCH_USER_ROLE = f"{KUEUE_FULLNAME}-batch-user-role"  # charts/kueue/templates/rbac/batch_user_role.yaml

# The chart's default limits (values.yaml): a request above them must raise them, or the pod is invalid.
DEFAULT_LIMITS = {"cpu": "2", "memory": "512Mi"}
# Fair-sharing preemption strategies: Kueue's default list, written out (site docs "Preemption", Fair Sharing).
FAIR_SHARING_STRATEGIES = ["LessThanOrEqualToFinalShare", "LessThanInitialShare"]
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

def chart_version(version: str) -> str:
    """The Helm chart version of a Kueue release: ``v0.19.2`` -> ``0.19.2``; InvalidInput when not a release."""
    issues = check_install(version)
    if issues:
        raise InvalidInput(issues, subject="KueueInstall")
    return version[1:]


def manager_config(
    version: str,
    *,
    fair_sharing: bool,
    wait_for_pods_ready: Mapping[str, Any] | None = None,
    frameworks: Sequence[str] | None = None,
    managed_namespaces: Sequence[str] = (),
    multi_kueue: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The controller manager Configuration: the chart's defaults with the integrations of `frameworks` (default:
    what the chart of `version` enables), fair sharing, `waitForPodsReady` (Kueue's own fields) when given, and
    Kueue managing every job of `managed_namespaces` (and nothing elsewhere). InvalidInput for a framework the
    release does not know or a namespace Kueue refuses to manage."""
    chosen = list(chart_frameworks(version) if frameworks is None else frameworks)
    issues = framework_issues("frameworks", version, chosen)
    issues += selector_issues("managedNamespaces", managed_namespaces, KUEUE_NAMESPACE)
    if issues:
        raise InvalidInput(issues, subject="KueueInstall")
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
        **job_management(version, managed_namespaces),
        "integrations": {"frameworks": chosen},
    }
    if fair_sharing:
        strategies = list(FAIR_SHARING_STRATEGIES)
        config["fairSharing"] = {"preemptionStrategies": strategies} if v1beta2 else {
            "enable": True, "preemptionStrategies": strategies}
    if wait_for_pods_ready is not None:
        # Config v1beta2 enables it by the section's presence; v1beta1 needs `enable: true` (configuration_types.go).
        section = dict(wait_for_pods_ready)
        config["waitForPodsReady"] = section if v1beta2 else {"enable": True, **section}
    if multi_kueue:  # a MultiKueue manager (kubernetes_objects.multikueue.manager_settings); same keys in v1beta1
        config["multiKueue"] = dict(multi_kueue)
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
    wait_for_pods_ready: Mapping[str, Any] | None = None,
    frameworks: Sequence[str] | None = None,
    managed_namespaces: Sequence[str] = (),
    manager_cpu: str | None = None,
    manager_memory: str | None = None,
    multi_kueue: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Helm values for the Kueue chart of `version`; the manager Configuration is always written, so the
    integrations are the ones `version` knows whatever the chart's own default says."""
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
    config = manager_config(version, fair_sharing=fair_sharing, wait_for_pods_ready=wait_for_pods_ready,
                            frameworks=frameworks, managed_namespaces=managed_namespaces, multi_kueue=multi_kueue)
    values["managerConfig"] = {"controllerManagerConfigYaml": yaml.safe_dump(config, sort_keys=False)}
    return values


def install_args(model: Any) -> dict[str, Any]:
    """`KueueInstall`'s arguments for an environment (its `kueue` settings and team namespaces): the one place the
    environment's Kueue install is decided, for the Pulumi path (`Environment`) and the GitOps folder
    (`gkecap manifests`) alike. `chart_values(**chart_arguments(install_args(model)))` are the Helm values."""
    kueue = model.kueue
    args: dict[str, Any] = {
        "version": kueue.version,
        "fair_sharing": kueue.fair_sharing,
        "topology_aware_scheduling": kueue.topology_aware_scheduling,
        "frameworks": list(kueue.frameworks if kueue.frameworks is not None else chart_frameworks(kueue.version)),
    }
    if kueue.wait_for_pods_ready is not None:
        args["wait_for_pods_ready"] = kueue.wait_for_pods_ready.config()
    if kueue.manage_jobs_without_queue_name:
        namespaces = sorted({ns for team in model.teams for ns in team.namespaces})
        if namespaces:
            args["managed_namespaces"] = namespaces
    args["install_jobset"] = kueue.job_set and jobset_integration_on(args["frameworks"])
    if getattr(model, "workers", None):  # a MultiKueue manager: its `multiKueue` settings, as KueueInstall takes them
        args["multi_kueue"] = {to_snake(key): value for key, value in manager_settings(kueue.multi_kueue).items()}
    resources = kueue.manager_resources
    if resources is not None and resources.cpu is not None:
        args["manager_cpu"] = resources.cpu
    if resources is not None and resources.memory is not None:
        args["manager_memory"] = resources.memory
    return args


# configuration_types.go MultiKueueDispatcherModeAllAtOnce / MultiKueueDispatcherModeIncremental (v0.19.2)
DISPATCHERS = {
    "AllAtOnce": "kueue.x-k8s.io/multikueue-dispatcher-all-at-once",
    "Incremental": "kueue.x-k8s.io/multikueue-dispatcher-incremental",
}


def manager_settings(settings: Any) -> dict[str, Any]:
    """The manager Configuration's `multiKueue` from the spec's `kueue.multiKueue` (every value written, Kueue's
    defaults where the file gives none: apis/config/v1beta2/defaults.go)."""
    return {"gcInterval": settings.gc_interval, "workerLostTimeout": settings.worker_lost_timeout,
            "dispatcherName": DISPATCHERS[settings.dispatcher]}


CHART_ARGUMENTS = ("fair_sharing", "topology_aware_scheduling", "wait_for_pods_ready", "frameworks",
                   "managed_namespaces", "manager_cpu", "manager_memory", "multi_kueue")


def chart_arguments(args: Mapping[str, Any]) -> dict[str, Any]:
    """The `chart_values` keyword arguments among `KueueInstall`'s arguments (`version` first)."""
    chosen = {key: args[key] for key in CHART_ARGUMENTS if args.get(key) is not None}
    if chosen.get("multi_kueue"):  # KueueInstall's snake_case keys, the Configuration's camelCase ones
        chosen["multi_kueue"] = {to_camel(key): value for key, value in chosen["multi_kueue"].items()}
    return {"version": args.get("version") or DEFAULT_KUEUE_VERSION, **chosen}
