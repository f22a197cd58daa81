"""Environment: one environment file's worth of infrastructure, from an EnvironmentSpec.

Children (stable names, all parented to the component):
* ``<cluster>`` GkeCluster (created with ``cluster.create: true``, else the existing cluster looked up);
* ``<cluster>-nodes`` node service account (+ its one IAM role) unless ``nodeServiceAccount`` is given;
* one CalendarReservation per ``reservations`` entry, named like it;
* one AcceleratorNodePool per ``nodePools`` entry, named like the pool (the pool name is also the node label
  and the Kueue flavor name, so the two always match);
* ``<name>-k8s`` Kubernetes provider from the cluster's kubeconfig;
* ``kueue`` KueueInstall (unless ``kueue.install: false``) and ``kueue-objects`` KueueObjects, which waits for
  the install;
* ``vertex`` VertexTrainingQuota when the file has Vertex AI training profiles (``vertex.profiles``).

With MultiKueue ``workers`` (spec.workers), ``cluster`` is the manager: it gets no node pools or reservations;
each worker is a child Environment ``<name>-<worker>`` of its own single-cluster environment (its children named
``<worker>-kueue``, ``<worker>-kueue-objects``), with its own Kubernetes provider. On each worker the manager's
identity (``<worker>-multikueue-*``: ServiceAccount, ClusterRole, binding, token Secret, after the worker's Kueue);
on the manager, per worker, the kubeconfig Secret ``<worker>-multikueue-kubeconfig`` (a Pulumi secret: endpoint,
CA, token), and the manager's KueueObjects wait for every worker's Kueue objects and those Secrets.

Everything that can be wrong with the spec is found before anything is registered: the spec is validated,
the capacity model derived and every Kubernetes object built (and checked) first.

No ``from __future__ import annotations`` here: Pulumi's component analyzer reads the annotations.
"""

import base64
import re
from dataclasses import replace
from datetime import timezone
from typing import Any, NotRequired, Optional, TypedDict

import pulumi
import pulumi_gcp as gcp
import pulumi_kubernetes as k8s
from pydantic.alias_generators import to_snake

from gkecap.components.cluster import GkeCluster
from gkecap.components._schema_types import PoolExport, QueueExport, WorkerExport
from gkecap.components._support import arguments, known, raise_invalid
from gkecap.components.kueue import KueueInstall, KueueObjects
from gkecap.components.kubernetes_objects.build import objects_of_kind
from gkecap.components.kubernetes_objects.derived import DerivedEnvironment, offered, taken
from gkecap.components.model import CapacityModel, PoolPlan
from gkecap.components.node_pool import AcceleratorNodePool
from gkecap.components.reservation import CalendarReservation
from gkecap.components.issues import InvalidInput, under
from gkecap.components.spec import EnvironmentSpec, SpecError, load_environment
from gkecap.components.vertex import VertexTrainingQuota
from gkecap.components.kubernetes_objects.kueue_chart import KUEUE_NAMESPACE
from gkecap.components.kubernetes_objects.multikueue import (
    kubeconfig_secret_name, manager_settings, worker_access_objects, worker_kubeconfig,
)
from gkecap.components.kubernetes_objects.team_access import MANAGED_BY, MANAGED_BY_LABEL
from gkecap.components.kueue_api.multikueue import KUBECONFIG_SECRET_KEY

# The least-privilege role GKE documents for node service accounts (logging, monitoring, metadata):
# https://cloud.google.com/kubernetes-engine/docs/how-to/service-accounts#node-service-accounts
NODE_SERVICE_ACCOUNT_ROLES = ("roles/container.defaultNodeServiceAccount",)
_ACCOUNT_ID_MAX = 30  # IAM service account IDs: 6-30 characters [a-z][-a-z0-9]*[a-z0-9]


class EnvironmentArgs(TypedDict):
    """Arguments of Environment."""

    environment: dict[str, Any]
    """The environment: what `gkecap:environment` holds in a Pulumi.<env>.yaml (camelCase keys), or an
    already loaded `gkecap.components.spec.EnvironmentSpec`."""
    project: NotRequired[str]
    """Google Cloud project (default: the environment's `project`, else the gcp:project config)."""
    worker: NotRequired[str]
    """Set by a MultiKueue manager's Environment on each worker it creates: the worker's name, which prefixes
    the child names that would otherwise repeat across clusters (`<worker>-kueue`, `<worker>-kueue-objects`)."""


class Environment(pulumi.ComponentResource):
    """A GKE accelerator environment: the cluster, calendar reservations, accelerator node pools for every
    capacity model, Kueue and the team queues that share the capacity."""

    cluster_name: pulumi.Output[str]
    """Name of the GKE cluster."""
    cluster_location: pulumi.Output[str]
    """Location of the GKE cluster."""
    node_service_account: pulumi.Output[str]
    """Email of the node service account."""
    pools: pulumi.Output[dict[str, Any]]
    """Per pool: GKE node pool names, capacity model, accelerator resource, max accelerators, node selector
    (a `PoolExport` each; the served schema types it)."""
    queues: pulumi.Output[dict[str, Any]]
    """Per team: ClusterQueue, LocalQueue name, namespaces, cohort (a `QueueExport` each)."""
    flavors: pulumi.Output[list[str]]
    """ResourceFlavor names in flavor order."""
    kubernetes_objects: pulumi.Output[list[str]]
    """`Kind/name` of every generated Kubernetes object, in apply order."""
    workers: pulumi.Output[dict[str, Any]]
    """MultiKueue workers (empty without): per worker its cluster, location, region and pools (a `WorkerExport`
    each)."""

    def __init__(self, name: str, args: EnvironmentArgs, opts: Optional[pulumi.ResourceOptions] = None):
        derived = _derived(args)  # the one a plan offers (validated and derived once), else loaded here
        spec = derived.spec
        prefix = f"{args['worker']}-" if args.get("worker") else ""  # a worker's children, unique in the stack
        model = derived.model
        try:
            objects = derived.objects  # raises on anything Kueue would reject: nothing registered yet
        except InvalidInput as err:
            raise_invalid("Environment", under("environment", err.issues))
        super().__init__("gkecap:index:Environment", name, None, opts)
        self.spec: EnvironmentSpec = spec
        self.model: CapacityModel = model
        self.objects: list[dict[str, Any]] = objects
        for warning in spec.warnings:
            pulumi.log.warn(warning, resource=self)

        project = spec.project or gcp.config.project
        child = pulumi.ResourceOptions(parent=self)
        cluster_spec = spec.cluster
        service_account = spec.node_service_account or self._node_service_account(cluster_spec.name, project)

        cluster_args: dict[str, Any] = {
            "location": cluster_spec.location,
            "create": cluster_spec.create,
            "cluster_name": cluster_spec.name,
            "release_channel": cluster_spec.release_channel,
            "service_account": service_account,
            "system_pool": {
                "machine_type": cluster_spec.system_pool.machine_type,
                "nodes": cluster_spec.system_pool.nodes,
            },
        }
        if project is not None:
            cluster_args["project"] = project
        if cluster_spec.min_master_version is not None:
            cluster_args["min_master_version"] = cluster_spec.min_master_version
        if cluster_spec.security_group is not None:
            cluster_args["security_group"] = cluster_spec.security_group
        self.cluster = GkeCluster(cluster_spec.name, cluster_args, opts=child)  # type: ignore[arg-type]

        self.reservations: dict[str, CalendarReservation] = {}
        for res in spec.reservations:
            res_args: dict[str, Any] = {
                "machine_type": res.machine_type,
                "count": res.count,
                "zone": res.zone,
                "start": res.start.astimezone(timezone.utc).isoformat().replace("+00:00", "Z"),
                "days": res.days,
                "share_with": list(res.share_with),
                "submit": res.submit,
            }
            for key, value in (("project", project), ("workload_type", res.workload_type),
                               ("description", res.description)):
                if value is not None:
                    res_args[key] = value
            self.reservations[res.name] = CalendarReservation(res.name, res_args, opts=child)  # type: ignore[arg-type]

        # With workers the pools run on the workers (each its own Environment, below); the manager has none.
        self.node_pools: dict[str, AcceleratorNodePool] = {
            pool.name: self._node_pool(pool, project, service_account, child) for pool in model.pools if not model.workers
        }
        self.worker_environments: dict[str, "Environment"] = {}
        for worker_name, worker in derived.workers.items():
            worker_args: dict[str, Any] = {"environment": worker.spec, "worker": worker_name}
            if project is not None:
                worker_args["project"] = project
            with offered(worker):  # the worker's model and objects, derived once for the report's manifests too
                environment = Environment(f"{name}-{worker_name}", worker_args, opts=child)  # type: ignore[arg-type]
            self.worker_environments[worker_name] = environment
            self.node_pools.update(environment.node_pools)

        self.provider = k8s.Provider(f"{name}-k8s", kubeconfig=self.cluster.kubeconfig, opts=child)
        k8s_child = pulumi.ResourceOptions(parent=self, provider=self.provider)
        kueue = spec.kueue
        self.kueue_install: Optional[KueueInstall] = None
        depends: list[pulumi.Resource] = []
        if kueue.install:
            install_args = derived.install  # the GitOps folder's values come from the same function
            self.kueue_install = KueueInstall(f"{prefix}kueue", install_args, opts=k8s_child)  # type: ignore[arg-type]
            depends.append(self.kueue_install)
        self.kubeconfig_secrets: dict[str, k8s.core.v1.Secret] = {}
        for worker_name, environment in self.worker_environments.items():
            self.kubeconfig_secrets[worker_name] = self._worker_kubeconfig_secret(worker_name, environment, depends)
            depends.append(environment.kueue_objects)
        depends += list(self.kubeconfig_secrets.values())
        self.kueue_objects: KueueObjects = KueueObjects(
            f"{prefix}kueue-objects",
            {"objects": objects},
            opts=pulumi.ResourceOptions.merge(k8s_child, pulumi.ResourceOptions(depends_on=depends)),
        )

        # Vertex AI FLEX_START training: the preemptible quota its profiles need (components/vertex.py).
        self.vertex: Optional[VertexTrainingQuota] = None
        if spec.vertex is not None and spec.vertex.profiles:
            vertex_args: dict[str, Any] = {"vertex": spec.vertex, "region": spec.region}
            if project is not None:
                vertex_args["project"] = project
            self.vertex = VertexTrainingQuota("vertex", vertex_args, opts=child)  # type: ignore[arg-type]

        self.cluster_name = self.cluster.name
        self.cluster_location = self.cluster.location
        self.node_service_account = pulumi.Output.from_input(service_account)
        names = {pool_name: pool.node_pool_names for pool_name, pool in self.node_pools.items()}
        self.pools = (pulumi.Output.all(**names) if names else pulumi.Output.from_input({})).apply(
            lambda node_pool_names: _pool_exports(model, node_pool_names)
        )
        self.queues = known(_queue_exports(model))
        self.flavors = known([o["metadata"]["name"] for o in objects_of_kind(objects, "ResourceFlavor")])
        self.kubernetes_objects = self.kueue_objects.names
        self.workers = known({w.name: WorkerExport(cluster=w.cluster, location=w.location, region=w.region,
                                                   pools=list(w.pools)) for w in model.workers})
        self.register_outputs(
            {
                "clusterName": self.cluster_name,
                "clusterLocation": self.cluster_location,
                "nodeServiceAccount": self.node_service_account,
                "pools": self.pools,
                "queues": self.queues,
                "flavors": self.flavors,
                "kubernetesObjects": self.kubernetes_objects,
                "workers": self.workers,
            }
        )

    def _worker_kubeconfig_secret(self, worker: str, environment: "Environment",
                                  manager_depends: list[pulumi.Resource]) -> k8s.core.v1.Secret:
        """The manager's identity on a worker (after the worker's Kueue, whose namespace it uses) and, on the
        manager, the Secret holding the kubeconfig MultiKueue reads (kubernetes_objects.multikueue)."""
        on_worker = pulumi.ResourceOptions(parent=self, provider=environment.provider,
                                           depends_on=[environment.kueue_install] if environment.kueue_install else [])
        token_secret = None
        for obj in worker_access_objects():
            kind, meta = obj["kind"], obj["metadata"]
            metadata = k8s.meta.v1.ObjectMetaArgs(name=meta["name"], namespace=meta.get("namespace"),
                                                  labels=meta.get("labels"), annotations=meta.get("annotations"))
            resource_name = f"{worker}-multikueue-{kind.lower()}"
            if kind == "ServiceAccount":
                k8s.core.v1.ServiceAccount(resource_name, metadata=metadata, opts=on_worker)
            elif kind == "ClusterRole":
                k8s.rbac.v1.ClusterRole(resource_name, metadata=metadata, rules=obj["rules"], opts=on_worker)
            elif kind == "ClusterRoleBinding":
                k8s.rbac.v1.ClusterRoleBinding(resource_name, metadata=metadata, role_ref=obj["roleRef"],
                                               subjects=obj["subjects"], opts=on_worker)
            else:  # the service-account token Secret: Kubernetes writes data.token into it
                token_secret = k8s.core.v1.Secret(
                    resource_name, metadata=metadata, type=obj["type"],
                    opts=pulumi.ResourceOptions.merge(on_worker, pulumi.ResourceOptions(
                        additional_secret_outputs=["data"])))
        assert token_secret is not None
        token = token_secret.data.apply(_token_of)
        cluster = environment.cluster
        kubeconfig: pulumi.Output[str] = pulumi.Output.secret(pulumi.Output.all(cluster.endpoint, cluster.cluster_ca_certificate, token)
                                          .apply(lambda v: worker_kubeconfig(worker, *v)))
        namespace = self.kueue_install.namespace if self.kueue_install is not None else KUEUE_NAMESPACE
        return k8s.core.v1.Secret(
            f"{worker}-multikueue-kubeconfig",
            metadata=k8s.meta.v1.ObjectMetaArgs(name=kubeconfig_secret_name(worker), namespace=namespace,
                                                labels={MANAGED_BY_LABEL: MANAGED_BY}),
            string_data={KUBECONFIG_SECRET_KEY: kubeconfig},
            opts=pulumi.ResourceOptions(parent=self, provider=self.provider, depends_on=list(manager_depends),
                                        additional_secret_outputs=["data", "stringData"]),
        )

    def _node_service_account(self, cluster: str, project: Optional[str]) -> pulumi.Output[str]:
        account = gcp.serviceaccount.Account(
            f"{cluster}-nodes",
            account_id=node_account_id(cluster),
            display_name=f"GKE nodes of {cluster} (gke-capacity)",
            project=project,
            opts=pulumi.ResourceOptions(parent=self),
        )
        for role in NODE_SERVICE_ACCOUNT_ROLES:
            gcp.projects.IAMMember(
                f"{cluster}-nodes-{role.split('/')[-1]}",
                project=project if project is not None else account.project,
                role=role,
                member=account.email.apply(lambda email: f"serviceAccount:{email}"),
                opts=pulumi.ResourceOptions(parent=self),
            )
        return account.email

    def _node_pool(self, pool: PoolPlan, project: Optional[str], service_account: pulumi.Input[str],
                   opts: pulumi.ResourceOptions) -> AcceleratorNodePool:
        """The pool's AcceleratorNodePool from its plan (request and node pools as checked and derived); a calendar
        pool names its CalendarReservation's output, so the node pool waits for the reservation."""
        request = pool.request
        if pool.capacity == "calendar" and pool.reservation_name in self.reservations and request.reservation:
            waited = self.reservations[pool.reservation_name].reservation_name
            request = replace(request, reservation=replace(request.reservation, name=waited))  # type: ignore[arg-type]
        return AcceleratorNodePool.of_plan(request, pool.node_pools, cluster=self.cluster.name,
                                           location=self.cluster.location, service_account=service_account,
                                           project=project, opts=opts)


def _derived(args: EnvironmentArgs) -> DerivedEnvironment:
    """The environment of `args`: the one offered for it (`derived.offered`: `gkecap plan` validated it already),
    else loaded and derived here."""
    args = arguments("Environment", args, EnvironmentArgs)  # type: ignore[assignment]
    environment = args.get("environment")
    given = environment.get("project") if isinstance(environment, dict) else None
    project = args.get("project") or given or gcp.config.project
    if (offer := taken(environment, project)) is not None:
        return offer
    if isinstance(environment, EnvironmentSpec):
        return DerivedEnvironment(environment)
    try:
        return DerivedEnvironment(load_environment(environment, project=project))
    except SpecError as err:
        raise_invalid("Environment", under("environment", err.issues))


def _token_of(data: Any) -> Optional[str]:
    """The service-account token from a token Secret's `data` (base64), None until Kubernetes has written it."""
    token = (data or {}).get("token")
    return base64.b64decode(token).decode() if token else None


def node_account_id(cluster: str) -> str:
    """IAM account id of the node service account: ``<cluster>-nodes``, cut to 30 characters."""
    account_id = f"{cluster}-nodes"
    if len(account_id) > _ACCOUNT_ID_MAX:
        account_id = re.sub(r"-+$", "", f"{cluster[: _ACCOUNT_ID_MAX - 3]}")  # keep room for "-np"
        account_id = f"{account_id}-np"
    return account_id


def _pool_exports(model: CapacityModel, node_pool_names: dict[str, list[str]]) -> dict[str, PoolExport]:
    return {
        pool.name: PoolExport(
            nodePools=list(node_pool_names.get(pool.name) or []),
            machineType=pool.machine_type,
            capacity=pool.capacity,
            resource=pool.resource_name,
            maxAccelerators=pool.capacity_accelerators,
            nodeSelector=dict(pool.node_selector),
        )
        for pool in model.pools
    }


def _queue_exports(model: CapacityModel) -> dict[str, QueueExport]:
    return {
        team.name: QueueExport(
            clusterQueue=team.name,
            localQueue=team.name,
            namespaces=list(team.namespaces),
            cohort=team.cohort,
        )
        for team in model.teams
    }
