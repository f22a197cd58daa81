"""What a GKE cluster for accelerator pools must satisfy: `check_cluster_request(request) -> list[Issue]`.

Shared by the environment spec (`cluster.*`) and `GkeCluster` (its arguments), so a setting the spec accepts
is one the component accepts. Paths name fields as the environment file does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gkecap.components.gke.resource_names import cluster_name_issues, service_account_issues
from gkecap.components.gke.versions import GPU_FLEX_MIN_VERSION, version_issues
from gkecap.components.issues import Issue

RELEASE_CHANNELS = ("RAPID", "REGULAR", "STABLE", "EXTENDED")  # GKE ReleaseChannel.Channel [S6]
DEFAULT_RELEASE_CHANNEL = "REGULAR"
DEFAULT_SYSTEM_MACHINE_TYPE = "e2-standard-4"
# Every cluster gke-capacity makes or uses holds DWS pools: its version reaches GPU flex-start's floor.
LOWEST_VERSION = GPU_FLEX_MIN_VERSION
BASE_FLOOR = (LOWEST_VERSION, "flex-start GPU pools, the earliest DWS capacity model")
# Google Groups for RBAC: `kind: Group` RoleBindings match Google Groups only when the cluster names the
# `gke-security-groups@<domain>` group in authenticatorGroupsConfig (FACTS corrections 2026-11-23; pulumi-gcp
# ClusterAuthenticatorGroupsConfig.security_group: "must be in format gke-security-groups@yourdomain.com").
SECURITY_GROUP = re.compile(r"gke-security-groups@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}", re.IGNORECASE)
# Metrics of created clusters: GKE's system components plus the managed NVIDIA DCGM exporter, so GPU utilization
# can be watched (GKE "Collect and view DCGM metrics", needs Managed Service for Prometheus; pulumi-gcp 10.2
# ClusterMonitoringConfig.enable_components lists DCGM).
MONITORING_COMPONENTS = ("SYSTEM_COMPONENTS", "DCGM")


@dataclass(frozen=True)
class ClusterRequest:
    """A GKE cluster as declared; with `create` false only the name and location are used."""

    name: str
    location: str | None
    create: bool = False
    release_channel: str = DEFAULT_RELEASE_CHANNEL
    min_master_version: str | None = None
    system_pool_nodes: int = 1
    service_account: str | None = None  # the system nodes' account; None when not known yet (an Output)
    service_account_known: bool = True  # False: given as an Output, judged when it resolves
    security_group: str | None = None  # Google Groups for RBAC (authenticatorGroupsConfig.securityGroup)


def security_group_issues(path: str, group: object) -> list[Issue]:
    if isinstance(group, str) and SECURITY_GROUP.fullmatch(group):
        return []
    return [Issue(path, f"{group!r} is not a Google Groups for RBAC group; GKE needs gke-security-groups@<your "
                  "domain>, e.g. gke-security-groups@acme.example")]


def check_cluster_request(req: ClusterRequest) -> list[Issue]:
    issues: list[Issue] = []
    if not isinstance(req.name, str) or not req.name:
        issues.append(Issue("name", "is required: the name of the GKE cluster"))
    else:
        issues += cluster_name_issues("name", req.name)
    if not req.location:
        issues.append(Issue("location", "is required: the region or zone of the cluster"))
    if req.release_channel not in RELEASE_CHANNELS:
        issues.append(
            Issue("releaseChannel", f"{req.release_channel!r} is not allowed; allowed: {', '.join(RELEASE_CHANNELS)}")
        )
    if req.min_master_version is not None:
        issues += version_issues("minMasterVersion", req.min_master_version, [BASE_FLOOR])
    if req.security_group is not None:
        issues += security_group_issues("securityGroup", req.security_group)
    if req.create:
        if req.service_account_known:
            issues += service_account_issues("serviceAccount", req.service_account)
        nodes = req.system_pool_nodes
        if not isinstance(nodes, int) or isinstance(nodes, bool) or nodes < 1:
            issues.append(
                Issue("systemPool.nodes", f"{nodes!r} must be at least 1 (a Standard cluster needs a node pool "
                      "without flex-start or queued provisioning)")
            )
    return issues
