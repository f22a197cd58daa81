"""KueueInstall (Kueue from its Helm chart) and KueueObjects (the generated Kueue, Namespace and RBAC objects).

KueueInstall renders the pinned chart with `kubernetes.helm.v4.Chart` (`helm template` semantics: every
object, CRDs included, becomes a Pulumi resource) into its own namespace, through a Kubernetes provider made
from the cluster's kubeconfig (or the provider given in the options). KueueObjects creates the objects of
`gkecap.components.kubernetes_objects.build`; every child depends on what the component itself depends on, so
`KueueObjects(..., opts=ResourceOptions(depends_on=[install]))` never creates a ClusterQueue before the Kueue
CRDs and webhooks exist (Pulumi waits for a remote component such as the Chart and all its children).

No ``from __future__ import annotations`` here: Pulumi's component analyzer reads the annotations.
"""

from importlib.metadata import version as _package_version
from typing import Any, NotRequired, Optional, TypedDict

import pulumi
import pulumi_kubernetes as k8s

from gkecap.components.kubernetes_objects.jobset_chart import JOBSET_CHART, JOBSET_CHART_VERSION, JOBSET_NAMESPACE
from gkecap.components.kubernetes_objects.kueue_chart import (
    BATCH_USER_ROLE,
    DEFAULT_KUEUE_VERSION,
    KUEUE_CHART,
    KUEUE_FULLNAME,
    KUEUE_NAMESPACE,
    chart_arguments,
    chart_values,
    chart_version,
)
from gkecap.components._support import argument_issues, camel, known, raise_invalid
from gkecap.components.issues import InvalidInput, Issue
from gkecap.components.kueue_api.releases import check_install
from gkecap.components.kubernetes_objects.build import object_key
from gkecap.components.kubernetes_objects.team_access import MANAGED_BY, MANAGED_BY_LABEL

_K8S_VERSION = _package_version("pulumi_kubernetes")


class RequeuingStrategyArgs(TypedDict):
    """waitForPodsReady.requeuingStrategy (Kueue's fields); unset fields keep Kueue's defaults."""

    timestamp: NotRequired[str]
    """Eviction (default) or Creation: which time orders a requeued workload."""
    backoff_limit_count: NotRequired[int]
    """Requeues before the workload is deactivated (default: no limit)."""
    backoff_base_seconds: NotRequired[int]
    """Base of the exponential back-off (default 60)."""
    backoff_max_seconds: NotRequired[int]
    """Longest back-off (default 3600)."""


class WaitForPodsReadyArgs(TypedDict):
    """Kueue's waitForPodsReady (apis/config configuration_types.go)."""

    timeout: str
    """How long an admitted workload's pods may take to be ready, a Go duration (e.g. 2h)."""
    block_admission: NotRequired[bool]
    """Admit nothing else while a workload's pods are not ready (default false)."""
    recovery_timeout: NotRequired[str]
    """How long a running workload's pods may stay not ready before eviction (Go duration)."""
    requeuing_strategy: NotRequired[RequeuingStrategyArgs]
    """How an evicted workload is requeued."""


class KueueInstallArgs(TypedDict):
    """Arguments of KueueInstall."""

    kubeconfig: NotRequired[pulumi.Input[str]]
    """Kubeconfig of the cluster; a Kubernetes provider is made from it. Without it, the `kubernetes`
    provider of the resource options is used."""
    version: NotRequired[str]
    """Kueue release to install, e.g. v0.19.2 (the default); the chart version is the same without the v."""
    fair_sharing: NotRequired[bool]
    """Enable fair sharing in the Kueue configuration (default true)."""
    topology_aware_scheduling: NotRequired[bool]
    """Enable the TopologyAwareScheduling feature gate (default false)."""
    install_jobset: NotRequired[bool]
    """Also install JobSet (pinned chart, namespace jobset-system), which Kueue's JobSet integration needs
    (default false; Environment sets it while the integration is on and `kueue.jobSet` is not false)."""
    wait_for_pods_ready: NotRequired[WaitForPodsReadyArgs]
    """Kueue's cluster-wide waitForPodsReady (its own fields): every admitted workload whose pods are not ready
    within `timeout` is evicted and requeued (default: off)."""
    frameworks: NotRequired[list[str]]
    """Kueue integrations (integrations.frameworks), within what the release knows (default: what the chart of
    the release enables)."""
    managed_namespaces: NotRequired[list[str]]
    """Namespaces in which Kueue manages every job, with or without a queue name (manageJobsWithoutQueueName
    with a managedJobsNamespaceSelector of exactly these); default none."""
    manager_cpu: NotRequired[str]
    """CPU request of the Kueue controller manager, e.g. "1" (chart default when omitted)."""
    manager_memory: NotRequired[str]
    """Memory request of the Kueue controller manager, e.g. 1Gi (chart default when omitted)."""
    namespace: NotRequired[str]
    """Namespace of the install (default kueue-system); created by the component."""


class KueueInstall(pulumi.ComponentResource):
    """Kueue installed from its pinned Helm chart, configured for the environment (fair sharing,
    topology-aware scheduling, manager resources)."""

    namespace: pulumi.Output[str]
    """Namespace Kueue runs in."""
    version: pulumi.Output[str]
    """Installed Kueue release."""
    batch_user_role: pulumi.Output[str]
    """ClusterRole that lets a subject submit jobs to LocalQueues (bind it in a namespace)."""

    def __init__(self, name: str, args: KueueInstallArgs, opts: Optional[pulumi.ResourceOptions] = None):
        args, key_issues = argument_issues(args, KueueInstallArgs)  # type: ignore[assignment]
        release = args.get("version") or DEFAULT_KUEUE_VERSION
        # Pure checks first: a bad version or quantity raises before anything is registered.
        issues = key_issues + check_install(release, cpu=args.get("manager_cpu"), memory=args.get("manager_memory"))
        if issues:
            raise_invalid(f"KueueInstall {name!r}", issues, {"managerResources.cpu": "managerCpu", "managerResources.memory": "managerMemory"})
        pods_ready, ready_issues = _wait_for_pods_ready(args.get("wait_for_pods_ready"))
        if ready_issues:
            raise_invalid(f"KueueInstall {name!r}", ready_issues)
        try:
            values = chart_values(**chart_arguments({**args, "version": release, "wait_for_pods_ready": pods_ready}))
        except InvalidInput as err:
            raise_invalid(f"KueueInstall {name!r}", err.issues)
        version = chart_version(release)
        namespace_name = args.get("namespace") or KUEUE_NAMESPACE
        super().__init__("gkecap:index:KueueInstall", name, None, opts)

        child = pulumi.ResourceOptions(parent=self)
        self.provider: Optional[k8s.Provider] = None
        if args.get("kubeconfig") is not None:
            self.provider = k8s.Provider(f"{name}-k8s", kubeconfig=args["kubeconfig"], opts=child)
            child = pulumi.ResourceOptions(parent=self, provider=self.provider)

        self.kueue_namespace = k8s.core.v1.Namespace(
            f"{name}-namespace",
            metadata=k8s.meta.v1.ObjectMetaArgs(name=namespace_name, labels={MANAGED_BY_LABEL: MANAGED_BY}),
            opts=child,
        )
        self.chart = k8s.helm.v4.Chart(
            name,
            chart=KUEUE_CHART,
            version=version,
            name=KUEUE_FULLNAME,  # release name; fullnameOverride pins object names too
            namespace=self.kueue_namespace.metadata.name,
            values=values,
            opts=pulumi.ResourceOptions.merge(child, pulumi.ResourceOptions(depends_on=[self.kueue_namespace])),
        )
        self.jobset: Optional[k8s.helm.v4.Chart] = None
        if args.get("install_jobset", False):
            # JobSet, for Kueue's jobset.x-k8s.io/jobset integration (kubernetes_objects.jobset_chart).
            jobset_namespace = k8s.core.v1.Namespace(
                f"{name}-jobset-namespace",
                metadata=k8s.meta.v1.ObjectMetaArgs(name=JOBSET_NAMESPACE, labels={MANAGED_BY_LABEL: MANAGED_BY}),
                opts=child,
            )
            self.jobset = k8s.helm.v4.Chart(
                f"{name}-jobset",
                chart=JOBSET_CHART,
                version=JOBSET_CHART_VERSION,
                name="jobset",
                namespace=jobset_namespace.metadata.name,
                opts=pulumi.ResourceOptions.merge(child, pulumi.ResourceOptions(depends_on=[jobset_namespace])),
            )
        self.namespace = self.kueue_namespace.metadata.name
        self.version = pulumi.Output.from_input(release)
        self.batch_user_role = pulumi.Output.from_input(BATCH_USER_ROLE)
        self.register_outputs(
            {"namespace": self.namespace, "version": self.version, "batchUserRole": self.batch_user_role}
        )


def _wait_for_pods_ready(value: Any) -> tuple[Optional[dict[str, Any]], list[Issue]]:
    """The section as Kueue spells it, checked by the environment file's own model (one rule set)."""
    if value is None:
        return None, []
    from pydantic import ValidationError

    from gkecap.components.spec.errors import translate_validation_error
    from gkecap.components.spec.models import WaitForPodsReadySpec

    def camel_keys(item: Any) -> Any:  # snake_case or camelCase in, Kueue's camelCase paths in every message
        return {camel(k) if isinstance(k, str) else k: camel_keys(v) for k, v in item.items()} \
            if isinstance(item, dict) else item

    try:
        return WaitForPodsReadySpec.model_validate(camel_keys(value)).config(), []
    except ValidationError as err:
        return None, translate_validation_error(err, WaitForPodsReadySpec, ("waitForPodsReady",))


class KueueObjectsArgs(TypedDict):
    """Arguments of KueueObjects."""

    objects: list[dict[str, Any]]
    """Kubernetes objects as plain dicts ({apiVersion, kind, metadata, spec...}), in apply order, e.g.
    `gkecap.components.kubernetes_objects.build.kueue_objects(model)`: Kueue kinds, Namespaces, RBAC, ResourceQuotas
    and the admission policies."""


class KueueResource(pulumi.CustomResource):
    """Any Kueue object, registered as pulumi-kubernetes registers a CustomResource
    (type `kubernetes:<apiVersion>:<kind>`, inputs apiVersion, kind, metadata, spec) and also carrying
    top-level fields such as a WorkloadPriorityClass's `value` and `description`."""

    def __init__(self, resource_name: str, obj: dict[str, Any], opts: Optional[pulumi.ResourceOptions] = None):
        opts = pulumi.ResourceOptions.merge(opts, pulumi.ResourceOptions(version=_K8S_VERSION))
        super().__init__(f"kubernetes:{obj['apiVersion']}:{obj['kind']}", resource_name, dict(obj), opts)


class KueueObjects(pulumi.ComponentResource):
    """The generated Kubernetes objects of an environment (Kueue flavors, queues, cohorts, admission checks,
    priority classes, team Namespaces and RoleBindings), created after what the component depends on."""

    names: pulumi.Output[list[str]]
    """`Kind/name` (`Kind/namespace/name` for namespaced objects) of every object, in apply order."""

    def __init__(self, name: str, args: KueueObjectsArgs, opts: Optional[pulumi.ResourceOptions] = None):
        args, key_issues = argument_issues(args, KueueObjectsArgs)  # type: ignore[assignment]
        objects = [dict(o) for o in args.get("objects") or []]
        issues = key_issues + [
            Issue(f"objects[{index}]", "needs apiVersion, kind and metadata.name")
            for index, obj in enumerate(objects)
            if not {"apiVersion", "kind", "metadata"} <= obj.keys() or "name" not in (obj.get("metadata") or {})
        ]
        if issues:
            raise_invalid(f"KueueObjects {name!r}", issues)
        super().__init__("gkecap:index:KueueObjects", name, None, opts)
        # Children do not inherit depends_on from their parent: hand it down explicitly.
        child = pulumi.ResourceOptions(parent=self, depends_on=opts.depends_on if opts is not None else None)
        namespaces: dict[str, k8s.core.v1.Namespace] = {}
        self.resources: dict[str, pulumi.Resource] = {}
        for obj in objects:
            resource = self._resource(name, obj, child, namespaces)
            if isinstance(resource, k8s.core.v1.Namespace):
                namespaces[obj["metadata"]["name"]] = resource
            self.resources[object_key(obj)] = resource
        self.names = known(list(self.resources))
        self.register_outputs({"names": self.names})

    @staticmethod
    def _resource(
        prefix: str, obj: dict[str, Any], opts: pulumi.ResourceOptions, namespaces: dict[str, k8s.core.v1.Namespace]
    ) -> pulumi.Resource:
        meta = obj["metadata"]
        ns = meta.get("namespace")
        resource_name = f"{prefix}-{ns}-{meta['name']}" if ns else f"{prefix}-{meta['name']}"
        # A namespaced object in a Namespace created here takes its name from that resource: created after it.
        namespace = namespaces[ns].metadata.name if ns in namespaces else ns
        metadata = k8s.meta.v1.ObjectMetaArgs(name=meta["name"], namespace=namespace, labels=meta.get("labels"))
        if obj["kind"] == "Namespace" and obj["apiVersion"] == "v1":
            return k8s.core.v1.Namespace(resource_name, metadata=metadata, opts=opts)
        if obj["kind"] == "RoleBinding" and obj["apiVersion"] == "rbac.authorization.k8s.io/v1":
            ref = obj["roleRef"]
            return k8s.rbac.v1.RoleBinding(
                resource_name,
                metadata=metadata,
                role_ref=k8s.rbac.v1.RoleRefArgs(api_group=ref["apiGroup"], kind=ref["kind"], name=ref["name"]),
                subjects=[
                    k8s.rbac.v1.SubjectArgs(kind=s["kind"], name=s["name"], api_group=s.get("apiGroup"),
                                            namespace=s.get("namespace"))
                    for s in obj.get("subjects") or []
                ],
                opts=opts,
            )
        if obj["kind"] == "ResourceQuota" and obj["apiVersion"] == "v1":
            return k8s.core.v1.ResourceQuota(
                resource_name, metadata=metadata, spec=k8s.core.v1.ResourceQuotaSpecArgs(hard=obj["spec"]["hard"]),
                opts=opts,
            )
        if obj["kind"] == "ClusterRole" and obj["apiVersion"] == "rbac.authorization.k8s.io/v1":
            return k8s.rbac.v1.ClusterRole(
                resource_name,
                metadata=metadata,
                rules=[
                    k8s.rbac.v1.PolicyRuleArgs(api_groups=r.get("apiGroups"), resources=r.get("resources"),
                                               verbs=r["verbs"])
                    for r in obj.get("rules") or []
                ],
                opts=opts,
            )
        if namespace is not ns:
            obj = {**obj, "metadata": {**meta, "namespace": namespace}}
        # Kueue kinds and the admission policies: `kubernetes:<group>/<version>:<Kind>`, the token
        # pulumi-kubernetes registers them under too.
        return KueueResource(resource_name, obj, opts)
