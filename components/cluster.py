"""GkeCluster: a GKE Standard cluster fit for Dynamic Workload Scheduler, or an existing one by name.

`create: true` makes a Standard cluster without its default node pool, with workload identity, a
release channel, a GKE version at or above the flex-start floor (FACTS B.1, B.3), deletion protection,
and a small system node pool without flex-start or queued provisioning (a Standard cluster must keep
one such pool, FACTS B.1 [S14]). Otherwise the cluster is read with the `getCluster` invoke. Either way
the component exposes what the Kubernetes provider needs: endpoint, CA certificate and a kubeconfig
that authenticates with gke-gcloud-auth-plugin (no credential is stored in it).

No ``from __future__ import annotations`` here: Pulumi's component analyzer reads the annotations.
"""

import json
from typing import Any, NotRequired, Optional, TypedDict, cast

import pulumi
import pulumi_gcp as gcp

from gkecap.components._support import argument_issues, raise_invalid, whole
from gkecap.components.gke import CLOUD_PLATFORM_SCOPE, TPU_FLEX_MIN_VERSION, WORKLOAD_METADATA_MODE, gke_version_key
from gkecap.components.gke.cluster import (
    DEFAULT_RELEASE_CHANNEL,
    DEFAULT_SYSTEM_MACHINE_TYPE,
    LOWEST_VERSION,
    MONITORING_COMPONENTS,
    ClusterRequest,
    check_cluster_request,
)

# Without an explicit version the cluster starts at the channel's default, if that is at least this
# floor (flex-start for GPUs and TPUs, FACTS B.1 [S14], B.3 [S17]); a lower explicit version must still
# reach the GPU flex-start floor (gke.cluster.LOWEST_VERSION).
DEFAULT_VERSION_FLOOR = TPU_FLEX_MIN_VERSION


class SystemPoolArgs(TypedDict):
    """The cluster's system node pool (no accelerators, no flex-start or queued provisioning)."""

    machine_type: NotRequired[str]
    """Machine type (default e2-standard-4)."""
    nodes: NotRequired[int]
    """Nodes per zone (default 1)."""


class GkeClusterArgs(TypedDict):
    """Arguments of GkeCluster."""

    location: pulumi.Input[str]
    """Region or zone of the cluster."""
    project: NotRequired[pulumi.Input[str]]
    """Project of the cluster; the provider's project when omitted."""
    create: NotRequired[bool]
    """Create the cluster (true) or use an existing one of this name (false, the default)."""
    cluster_name: NotRequired[str]
    """Name of the GKE cluster; defaults to the component's name."""
    release_channel: NotRequired[str]
    """RAPID, REGULAR (default), STABLE or EXTENDED."""
    min_master_version: NotRequired[str]
    """Initial (minimum) GKE version, at least 1.32.2-gke.1652000; by default the channel's default
    version, provided it reaches the flex-start floor 1.33.0-gke.1712000."""
    system_pool: NotRequired[SystemPoolArgs]
    """The system node pool of a created cluster."""
    service_account: NotRequired[pulumi.Input[str]]
    """Dedicated service account of the system nodes (required with create)."""
    network: NotRequired[pulumi.Input[str]]
    """VPC network of a created cluster (default network when omitted)."""
    subnetwork: NotRequired[pulumi.Input[str]]
    """Subnetwork of a created cluster."""
    deletion_protection: NotRequired[bool]
    """Refuse to delete the created cluster (default true)."""
    security_group: NotRequired[str]
    """Google Groups for RBAC group of a created cluster, gke-security-groups@<your domain>: `kind: Group`
    RoleBindings match Google Groups only with it."""


class GkeCluster(pulumi.ComponentResource):
    """A GKE Standard cluster ready for Dynamic Workload Scheduler node pools (created, or an existing
    cluster looked up by name), with what the Kubernetes provider needs to reach it."""

    name: pulumi.Output[str]
    """Cluster name."""
    location: pulumi.Output[str]
    """Cluster location (region or zone)."""
    project: pulumi.Output[str]
    """Cluster project."""
    endpoint: pulumi.Output[str]
    """IP address of the control plane."""
    cluster_ca_certificate: pulumi.Output[str]
    """Base64 PEM CA certificate of the control plane."""
    kubeconfig: pulumi.Output[str]
    """Kubeconfig for the Kubernetes provider (authenticates with gke-gcloud-auth-plugin)."""

    def __init__(self, name: str, args: GkeClusterArgs, opts: Optional[pulumi.ResourceOptions] = None):
        args, key_issues = argument_issues(args, GkeClusterArgs)  # type: ignore[assignment]
        cluster_name = args.get("cluster_name") or name
        create = bool(args.get("create", False))
        # Check everything before registering anything: bad input leaves nothing half-made.
        issues = key_issues + check_cluster_request(cluster_request_from_args(cluster_name, args))
        if issues:
            raise_invalid(f"GkeCluster {name!r}", issues, {"name": "clusterName"})
        super().__init__("gkecap:index:GkeCluster", name, None, opts)
        project = args.get("project") or gcp.config.project
        if project is None:
            project = gcp.organizations.get_client_config_output(opts=pulumi.InvokeOutputOptions(parent=self)).project
        location = args["location"]

        if create:
            endpoint, ca, created_name, created_location = self._create(cluster_name, args, project, location)
            self.name, self.location = created_name, created_location
            self.endpoint, self.cluster_ca_certificate = endpoint, ca
        else:
            found = gcp.container.get_cluster_output(
                name=cluster_name, location=location, project=project,
                opts=pulumi.InvokeOutputOptions(parent=self),
            )
            self.cluster: Optional[gcp.container.Cluster] = None
            self.system_pool: Optional[gcp.container.NodePool] = None
            self.name = found.name
            self.location = found.location
            self.endpoint = found.endpoint
            self.cluster_ca_certificate = found.master_auths.apply(lambda auths: auths[0].cluster_ca_certificate)
            found.master_version.apply(lambda v: _warn_if_below_floor(self, cluster_name, v))
        self.project = pulumi.Output.from_input(project)
        self.kubeconfig = pulumi.Output.all(self.project, self.location, self.name, self.endpoint, self.cluster_ca_certificate).apply(
            lambda a: kubeconfig(*a)
        )
        self.register_outputs(
            {
                "name": self.name,
                "location": self.location,
                "project": self.project,
                "endpoint": self.endpoint,
                "clusterCaCertificate": self.cluster_ca_certificate,
                "kubeconfig": self.kubeconfig,
            }
        )

    def _create(self, cluster_name: str, args: GkeClusterArgs, project: pulumi.Input[str], location: pulumi.Input[str]):
        channel = args.get("release_channel") or DEFAULT_RELEASE_CHANNEL
        version: Optional[pulumi.Input[str]] = args.get("min_master_version")
        if version is None:
            versions = gcp.container.get_engine_versions_output(
                location=location, project=project, opts=pulumi.InvokeOutputOptions(parent=self)
            )
            version = pulumi.Output.all(versions.release_channel_default_version, versions.valid_master_versions).apply(
                lambda v: initial_version(channel, v[0] or {}, v[1] or [])
            )
        cluster = self.cluster = gcp.container.Cluster(
            cluster_name,
            name=cluster_name,
            project=project,
            location=location,
            network=args.get("network"),
            subnetwork=args.get("subnetwork"),
            # Node pools are separate resources: drop the default pool right after creation.
            remove_default_node_pool=True,
            initial_node_count=1,
            release_channel=gcp.container.ClusterReleaseChannelArgs(channel=channel),
            min_master_version=version,
            workload_identity_config=gcp.container.ClusterWorkloadIdentityConfigArgs(
                workload_pool=pulumi.Output.concat(project, ".svc.id.goog")
            ),
            deletion_protection=args.get("deletion_protection", True),
            authenticator_groups_config=gcp.container.ClusterAuthenticatorGroupsConfigArgs(
                security_group=args["security_group"]) if args.get("security_group") else None,
            # DCGM GPU metrics through Managed Service for Prometheus (gke.cluster.MONITORING_COMPONENTS).
            monitoring_config=gcp.container.ClusterMonitoringConfigArgs(
                enable_components=list(MONITORING_COMPONENTS),
                managed_prometheus=gcp.container.ClusterMonitoringConfigManagedPrometheusArgs(enabled=True),
            ),
            # The version is the creation floor; the release channel upgrades the cluster afterwards.
            opts=pulumi.ResourceOptions(parent=self, ignore_changes=["minMasterVersion"]),
        )
        system = args.get("system_pool") or {}
        self.system_pool = gcp.container.NodePool(
            f"{cluster_name}-system",
            name="system",
            project=project,
            cluster=cluster.name,
            location=cluster.location,
            node_count=whole(system.get("nodes", 1)),
            management=gcp.container.NodePoolManagementArgs(auto_repair=True, auto_upgrade=True),
            node_config=gcp.container.NodePoolNodeConfigArgs(
                machine_type=system.get("machine_type") or DEFAULT_SYSTEM_MACHINE_TYPE,
                service_account=args["service_account"],
                oauth_scopes=[CLOUD_PLATFORM_SCOPE],
                workload_metadata_config=gcp.container.NodePoolNodeConfigWorkloadMetadataConfigArgs(
                    mode=WORKLOAD_METADATA_MODE
                ),
                shielded_instance_config=gcp.container.NodePoolNodeConfigShieldedInstanceConfigArgs(
                    enable_secure_boot=True, enable_integrity_monitoring=True
                ),
            ),
            opts=pulumi.ResourceOptions(parent=self),
        )
        ca = cluster.master_auth.apply(lambda auth: auth.cluster_ca_certificate if auth else None)
        return cluster.endpoint, ca, cluster.name, cluster.location


def cluster_request_from_args(cluster_name: str, args: GkeClusterArgs) -> ClusterRequest:
    """The pure request of the arguments (what `check_cluster_request` judges)."""
    service_account = args.get("service_account")
    return ClusterRequest(
        name=cluster_name,
        location=args.get("location"),  # type: ignore[arg-type]  # an Output is known to be given
        create=bool(args.get("create", False)),
        release_channel=args.get("release_channel") or DEFAULT_RELEASE_CHANNEL,
        min_master_version=args.get("min_master_version"),
        system_pool_nodes=whole((args.get("system_pool") or {}).get("nodes", 1)),
        # Plain here (an Output waits for service_account_known); a wrong type is the check's to name.
        service_account=None if isinstance(service_account, pulumi.Output) else cast(Optional[str], service_account),
        service_account_known=not isinstance(service_account, pulumi.Output),
        security_group=args.get("security_group"),
    )


def initial_version(channel: str, channel_defaults: dict[str, str], valid: list[str]) -> str:
    """The channel's default version if it reaches the flex-start floor, else the newest valid one."""
    floor = gke_version_key(DEFAULT_VERSION_FLOOR)
    default = channel_defaults.get(channel)
    if default and gke_version_key(default) >= floor:
        return default
    newer = sorted((v for v in valid if gke_version_key(v) >= floor), key=gke_version_key)
    if not newer:
        raise ValueError(f"no GKE version at or above {DEFAULT_VERSION_FLOOR} is offered here; "
                         f"offered: {', '.join(valid) or 'none'}")
    return newer[-1]


def _warn_if_below_floor(resource: pulumi.Resource, name: str, version: Optional[str]) -> None:
    if version and gke_version_key(version) < gke_version_key(LOWEST_VERSION):
        pulumi.log.warn(f"GkeCluster {name!r}: version {version} is older than {LOWEST_VERSION}; "
                        "flex-start and queued provisioning node pools need a newer cluster", resource=resource)


def kubeconfig(project: str, location: str, name: str, endpoint: str, ca_certificate: str) -> str:
    """A kubeconfig for one cluster that authenticates with gke-gcloud-auth-plugin (as gcloud writes it)."""
    context = f"gke_{project}_{location}_{name}"
    config: dict[str, Any] = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": context, "cluster": {"server": f"https://{endpoint}",
                                                   "certificate-authority-data": ca_certificate}}],
        "contexts": [{"name": context, "context": {"cluster": context, "user": context}}],
        "current-context": context,
        "users": [
            {
                "name": context,
                "user": {
                    "exec": {
                        "apiVersion": "client.authentication.k8s.io/v1beta1",
                        "command": "gke-gcloud-auth-plugin",
                        "installHint": "Install gke-gcloud-auth-plugin: https://cloud.google.com/kubernetes-engine/docs/how-to/cluster-access-for-kubectl#install_plugin",
                        "provideClusterInfo": True,
                    }
                },
            }
        ],
    }
    return json.dumps(config, indent=2)  # JSON is YAML: the Kubernetes provider reads either
