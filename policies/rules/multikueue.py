"""multikueue-dispatch: what a MultiKueue manager needs to dispatch, in a stack holding the manager and its workers.

- A ClusterQueue may not carry both a MultiKueue check and a ProvisioningRequest check: Kueue marks it inactive
  (reason MultiKueueWithProvisioningRequest, FACTS D [S2]); the ProvisioningRequest check belongs on the worker.
- A worker needs every LocalQueue of the manager, in the same namespace: MultiKueue creates the workload (and
  then the job) there under the same queue name (setup_multikueue.md at v0.19.2: "the worker cluster
  configuration mirrors the one of the manager cluster in terms of namespaces and LocalQueues"). Clusters are told
  apart by their Kubernetes provider; the check runs only when the stack has a manager and other clusters.
- A worker needs the integrations the manager dispatches: MultiKueue creates the job on the worker with a prebuilt
  Workload, which only the worker's integration of that kind admits and starts (pkg/controller/jobs/job/
  job_multikueue_adapter.go SyncJob at v0.19.2). The frameworks are read from each cluster's Kueue Helm chart or
  `kueue-manager-config` ConfigMap (`integrations.frameworks`, else the chart's default for its version); those the
  manager dispatches are the ones with a MultiKueue adapter in its release (`kueue_api.integrations`).
- A manager ClusterQueue with the MultiKueue check and a topology-aware flavor needs Kueue v0.15.0 or later: v0.14
  keeps it inactive ("TAS is not supported with MultiKueue admission check", pkg/cache/scheduler/clusterqueue.go at
  v0.14.0). Judged when the manager's Kueue chart names its version.
"""

from __future__ import annotations

from typing import Any

from gkecap.components.kueue_api import MULTIKUEUE_CONTROLLER, PROVISIONING_REQUEST_CONTROLLER
from gkecap.components.kueue_api.integrations import configured_frameworks, multikueue_dispatched
from gkecap.components.kueue_api.multikueue import MULTIKUEUE_TAS_SINCE
from gkecap.components.kueue_api.releases import parse_kueue_release
from gkecap.policies.resource_view import ResourceView
from gkecap.policies.rules.known_values import at, known_str
from gkecap.policies.rules.kueue_props import display_name, is_kueue_token, kueue_kind, object_name
from gkecap.policies.rules.quota_enforcement import CHART_TYPES, CONFIG_MAP_TYPE, kueue_config


def is_multikueue_token(token: str) -> bool:
    """The resources the rule reads: Kueue objects and each cluster's Kueue configuration."""
    return is_kueue_token(token) or token in CHART_TYPES or token == CONFIG_MAP_TYPE


def _scope(resource: ResourceView) -> str:
    return resource.provider.urn if resource.provider is not None else ""


def _check_names(queue: ResourceView) -> list[str]:
    spec = queue.props.get("spec")
    names = [known_str(at(rule, "name")) for rule in at(spec, "admissionChecksStrategy.admissionChecks") or []
             if isinstance(rule, dict)]
    names += [known_str(name) for name in at(spec, "admissionChecks") or []]  # v1beta1
    return [name for name in names if name]


def check_multikueue_dispatch(resources: list[ResourceView], config: dict) -> list[tuple[str | None, str]]:
    """multikueue-dispatch: manager queues dispatch only through MultiKueue, and every worker has their queues."""
    kueue = [r for r in resources if kueue_kind(r) is not None]
    controllers: dict[tuple[str, str], str] = {}
    for check in (r for r in kueue if kueue_kind(r) == "AdmissionCheck"):
        name, controller = object_name(check), known_str(at(check.props, "spec.controllerName"))
        if name and controller:
            controllers[(_scope(check), name)] = controller
    managers = {scope for (scope, _), controller in controllers.items() if controller == MULTIKUEUE_CONTROLLER}
    found: list[tuple[str | None, str]] = []
    for queue in (r for r in kueue if kueue_kind(r) == "ClusterQueue"):
        used = {controllers.get((_scope(queue), name)) for name in _check_names(queue)}
        if MULTIKUEUE_CONTROLLER in used and PROVISIONING_REQUEST_CONTROLLER in used:
            found.append((queue.urn, (
                f"ClusterQueue {display_name(queue)!r} has both a MultiKueue and a ProvisioningRequest admission "
                "check: Kueue keeps it inactive (MultiKueueWithProvisioningRequest). Keep only the MultiKueue check "
                "on the manager; the ProvisioningRequest check belongs to the worker's ClusterQueue.")))
    if not managers:
        return found
    queues_by_scope: dict[str, set[tuple[str, str]]] = {}
    for queue in (r for r in kueue if kueue_kind(r) in ("LocalQueue", "ClusterQueue")):
        queues_by_scope.setdefault(_scope(queue), set())
    for local in (r for r in kueue if kueue_kind(r) == "LocalQueue"):
        name, namespace = object_name(local), known_str(at(local.props, "metadata.namespace"))
        if name and namespace:
            queues_by_scope[_scope(local)].add((namespace, name))
    workers = [scope for scope in queues_by_scope if scope not in managers]
    providers = {_scope(r): r.provider.name for r in resources if r.provider is not None}
    installs = _kueue_installs(resources)
    found += _missing_integrations(managers, workers, installs, providers)
    found += _tas_before_floor(kueue, managers, controllers, installs)
    for local in (r for r in kueue if kueue_kind(r) == "LocalQueue" and _scope(r) in managers):
        name, namespace = object_name(local), known_str(at(local.props, "metadata.namespace"))
        if not name or not namespace:
            continue
        missing = [scope for scope in workers if (namespace, name) not in queues_by_scope[scope]]
        for scope in missing:
            provider = providers.get(scope, "the default provider")
            found.append((local.urn, (
                f"LocalQueue {namespace}/{name} of the MultiKueue manager has no LocalQueue {namespace}/{name} on the "
                f"cluster of provider {provider!r}: MultiKueue creates the team's workloads there under the same "
                "namespace and queue, so they cannot run on that worker. Give the worker the team's queues.")))
    return found


def _kueue_installs(resources: list[ResourceView]) -> dict[str, tuple[ResourceView, str | None, dict]]:
    """Per cluster (provider scope): its Kueue chart or ConfigMap, the release (chart version, None when not
    named) and the Configuration."""
    installs: dict[str, tuple[ResourceView, str | None, dict]] = {}
    for resource in resources:
        config = kueue_config(resource)
        if config is None:
            continue
        version = known_str(at(resource.props, "version")) if resource.type in CHART_TYPES else None
        if version is not None and not version.startswith("v"):
            version = f"v{version}"  # the chart's version is the release's without the `v`
        installs.setdefault(_scope(resource), (resource, version, config))
    return installs


def _frameworks(version: str | None, config: dict) -> tuple[str, ...] | None:
    """The integrations a Kueue Configuration runs (None when neither it nor its release says)."""
    frameworks = at(config, "integrations.frameworks")
    if isinstance(frameworks, list) and all(isinstance(f, str) for f in frameworks):
        return tuple(frameworks)
    return configured_frameworks(version, None) if version is not None else None


def _missing_integrations(managers: set[str], workers: list[str], installs: dict[str, Any],
                          providers: dict[str, str]) -> list[tuple[str | None, str]]:
    found: list[tuple[str | None, str]] = []
    for manager in sorted(managers):
        if manager not in installs:
            continue
        _, version, config = installs[manager]
        runs = _frameworks(version, config)
        if runs is None or version is None:
            continue
        dispatched = multikueue_dispatched(version, runs)
        for worker in workers:
            if worker not in installs:
                continue  # the worker's Kueue is installed elsewhere: not judged
            resource, worker_version, worker_config = installs[worker]
            has = _frameworks(worker_version, worker_config)
            missing = [f for f in dispatched if has is not None and f not in has]
            if missing:
                provider = providers.get(worker, "the default provider")
                found.append((resource.urn, (
                    f"the Kueue of the cluster of provider {provider!r} lacks the integrations {', '.join(missing)} "
                    "that its MultiKueue manager dispatches: MultiKueue creates those jobs there with a prebuilt "
                    "Workload, which only the worker's integration of that kind admits and starts. Add them to "
                    "the worker's integrations.frameworks.")))
    return found


def _tas_before_floor(kueue: list[ResourceView], managers: set[str], controllers: dict[tuple[str, str], str],
                      installs: dict[str, Any]) -> list[tuple[str | None, str]]:
    found: list[tuple[str | None, str]] = []
    tas_flavors = {(_scope(r), object_name(r)) for r in kueue if kueue_kind(r) == "ResourceFlavor"
                   and known_str(at(r.props, "spec.topologyName"))}
    for queue in (r for r in kueue if kueue_kind(r) == "ClusterQueue" and _scope(r) in managers):
        scope = _scope(queue)
        version = installs[scope][1] if scope in installs else None
        release = parse_kueue_release(version) if version is not None else None
        if release is None or release >= MULTIKUEUE_TAS_SINCE:
            continue
        if MULTIKUEUE_CONTROLLER not in {controllers.get((scope, name)) for name in _check_names(queue)}:
            continue
        flavors = [known_str(at(f, "name")) for group in at(queue.props, "spec.resourceGroups") or []
                   if isinstance(group, dict) for f in group.get("flavors") or [] if isinstance(f, dict)]
        tas = sorted(f for f in flavors if f and (scope, f) in tas_flavors)
        if tas:
            found.append((queue.urn, (
                f"ClusterQueue {display_name(queue)!r} has the MultiKueue check and the topology-aware flavors "
                f"{', '.join(tas)}, which Kueue {version} keeps inactive (TAS is not supported with MultiKueue before "
                "v0.15.0). Use Kueue v0.15.0 or later on the manager, or flavors without topologyName.")))
    return found
