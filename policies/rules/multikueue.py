"""multikueue-dispatch: what a MultiKueue manager needs to dispatch, in a stack holding the manager and its workers.

- A ClusterQueue may not carry both a MultiKueue check and a ProvisioningRequest check: Kueue marks it inactive
  (reason MultiKueueWithProvisioningRequest, FACTS D [S2]); the ProvisioningRequest check belongs on the worker.
- A worker needs every LocalQueue of the manager, in the same namespace: MultiKueue creates the workload (and
  then the job) there under the same queue name (setup_multikueue.md at v0.19.2: "the worker cluster
  configuration mirrors the one of the manager cluster in terms of namespaces and LocalQueues"). Clusters are told
  apart by their Kubernetes provider; the check runs only when the stack has a manager and other clusters.
"""

from __future__ import annotations

from gkecap.components.kueue_api import MULTIKUEUE_CONTROLLER, PROVISIONING_REQUEST_CONTROLLER
from gkecap.policies.resource_view import ResourceView
from gkecap.policies.rules.known_values import at, known_str
from gkecap.policies.rules.kueue_props import display_name, kueue_kind, object_name


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
    providers = {_scope(r): r.provider.name for r in kueue if r.provider is not None}
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
