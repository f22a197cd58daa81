"""Mocked Google Cloud and Kubernetes answers for running a program offline.

`GkeMocks` is a `pulumi.runtime.Mocks`: resources get their inputs back plus what the provider would
compute (ids, a cluster endpoint and CA certificate, a service account email, names the provider would
generate, Kubernetes metadata), and invokes used by our components and common programs get realistic
answers. Values are deterministic (derived from the URN or arguments), so two runs print the same plan.
The recording monitor calls `computed_outputs` directly (outputs = inputs + these fields) to skip
re-serializing every input; `new_resource` gives the same answer through the standard Mocks interface.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable, Mapping
from typing import Any

import pulumi
import yaml

from gkecap.components.gke import locations
from gkecap.components.gke.locations import is_zone, region_of
from gkecap.engine.struct_values import struct_to_plain

# Zones per region: https://cloud.google.com/compute/docs/regions-zones (zone letters differ by region).
_TOKEN_SECRET_TYPE = "kubernetes.io/service-account-token"
REGION_ZONES = locations.REGION_ZONES  # the zones GKE's regions have (gkecap.components.gke.locations)

# Mock GKE versions per release channel: plausible values shaped like GKE's (x.y.z-gke.N), at or above
# the minimums FACTS.md quotes for flex-start TPUs (1.33.0-gke.1712000) and TPU7x (1.34.0-gke.2201000).
CHANNEL_VERSIONS: dict[str, str] = {
    "RAPID": "1.34.1-gke.3084001",
    "REGULAR": "1.33.5-gke.1308000",
    "STABLE": "1.33.4-gke.1350000",
    "EXTENDED": "1.32.9-gke.1130000",
}
VALID_VERSIONS: tuple[str, ...] = (
    "1.34.1-gke.3084001",
    "1.34.0-gke.2201000",
    "1.33.5-gke.1308000",
    "1.33.4-gke.1350000",
    "1.33.0-gke.1712000",
    "1.32.9-gke.1130000",
)
DEFAULT_PROJECT = "offline-project"
DEFAULT_REGION = "us-central1"


def zones_of(region: str) -> list[str]:
    """Zones the mock knows for `region` (a, b, c for a region not in the table)."""
    return list(REGION_ZONES.get(region, tuple(f"{region}-{z}" for z in "abc")))


def _digest(*parts: str) -> str:
    return hashlib.blake2b("\x00".join(parts).encode(), digest_size=8).hexdigest()


def _get(mapping: Any, key: str) -> Any:
    # Works for dicts and protobuf Structs alike (both support `in` and `[]`).
    return mapping[key] if mapping is not None and key in mapping else None


def _plain(value: Any) -> Any:
    return struct_to_plain(value) if hasattr(value, "fields") else value


def _fake_ca_certificate(seed: str) -> str:
    # A PEM-shaped placeholder; base64 as GKE returns `clusterCaCertificate`.
    body = base64.b64encode(hashlib.sha512(seed.encode()).digest() * 4).decode()
    pem = "-----BEGIN CERTIFICATE-----\n" + body + "\n-----END CERTIFICATE-----\n"
    return base64.b64encode(pem.encode()).decode()


class GkeMocks(pulumi.runtime.Mocks):
    """Offline answers for resources and invokes, for project `project` in `region`."""

    def __init__(self, project: str | None = None, region: str | None = None, zone: str | None = None) -> None:
        self.project = project or DEFAULT_PROJECT
        self.region = region or DEFAULT_REGION
        self.zone = zone or zones_of(self.region)[0]
        self._resources: dict[str, Callable[[str, str, Any], tuple[str, dict]]] = {
            "gcp:container/cluster:Cluster": self._cluster,
            "gcp:container/nodePool:NodePool": self._node_pool,
            "gcp:serviceaccount/account:Account": self._service_account,
            "gcp:compute/futureReservation:FutureReservation": self._future_reservation,
            "gcp:compute/reservation:Reservation": self._reservation,
        }
        self._invokes: dict[str, Callable[[dict], dict]] = {
            "gcp:organizations/getProject:getProject": self._get_project,
            "gcp:organizations/getClientConfig:getClientConfig": self._get_client_config,
            "gcp:container/getCluster:getCluster": self._get_cluster,
            "gcp:compute/getZones:getZones": self._get_zones,
            "gcp:container/getEngineVersions:getEngineVersions": self._get_engine_versions,
            "kubernetes:yaml:decode": self._yaml_decode,
        }

    # --- resources -------------------------------------------------------------------------------

    def new_resource(self, args: pulumi.runtime.MockResourceArgs) -> tuple[str, dict]:
        resource_id, extra = self.computed_outputs(args.typ, args.name, args.inputs)
        if args.resource_id:
            resource_id = args.resource_id  # a read or import keeps the id it was given
        return resource_id, {**args.inputs, **extra}

    def computed_outputs(self, type_: str, name: str, inputs: Any) -> tuple[str, dict]:
        """(id, outputs the provider adds to the inputs) for a resource of `type_` named `name`."""
        special = self._resources.get(type_)
        if special is not None:
            return special(type_, name, inputs)
        if type_.startswith("kubernetes:"):
            return self._kubernetes(type_, name, inputs)
        if type_.startswith("pulumi:providers:"):
            return _digest(type_, name), {}
        if type_.startswith("gcp:") and _get(inputs, "name") is None:
            generated = f"{name}-{_digest(type_, name)[:7]}"  # Pulumi autonaming: logical name + 7 hex
            return generated, {"name": generated}
        return f"{name}-id", {}

    @staticmethod
    def fields_of_id(resource_id: str) -> dict[str, str]:
        """What a Google Cloud id says about a resource read with `.get()`:
        `projects/P/locations/L/clusters/C[/nodePools/N]` -> project, location, cluster/name..."""
        parts = resource_id.strip("/").split("/")
        if len(parts) < 2 or parts[0] != "projects":
            return {}
        fields = {"project": parts[1]}
        scope = {"locations": "location", "zones": "zone", "regions": "region"}
        for key, value in zip(parts[2::2], parts[3::2]):
            if key in scope:
                fields[scope[key]] = value
            elif key == "clusters" and len(parts) > 6:
                fields["cluster"] = value  # a node pool's cluster
            else:
                fields["name"] = value
        return fields

    def _autoname(self, type_: str, name: str, inputs: Any) -> str:
        given = _get(inputs, "name")
        return given if isinstance(given, str) and given else f"{name}-{_digest(type_, name)[:7]}"

    def _cluster(self, type_: str, name: str, inputs: Any) -> tuple[str, dict]:
        cluster = self._autoname(type_, name, inputs)
        project = _get(inputs, "project") or self.project
        location = _get(inputs, "location") or self.region
        channel = _get(_get(inputs, "releaseChannel"), "channel") or "REGULAR"
        version = _get(inputs, "minMasterVersion") or CHANNEL_VERSIONS.get(channel, CHANNEL_VERSIONS["REGULAR"])
        cluster_id = f"projects/{project}/locations/{location}/clusters/{cluster}"
        digest = bytes.fromhex(_digest(cluster_id))
        return cluster_id, {
            "name": cluster,
            "project": project,
            "location": location,
            "endpoint": f"34.{digest[0]}.{digest[1]}.{digest[2] or 1}",
            "masterVersion": version,
            "nodeVersion": _get(inputs, "nodeVersion") or version,
            "masterAuth": {
                "clusterCaCertificate": _fake_ca_certificate(cluster_id),
                "clientCertificate": "",
                "clientKey": "",
                "clientCertificateConfig": {"issueClientCertificate": False},
            },
            "selfLink": f"https://container.googleapis.com/v1/{cluster_id}",
            "labelFingerprint": _digest("labels", cluster_id)[:8],
            "operation": "",
        }

    def _node_pool(self, type_: str, name: str, inputs: Any) -> tuple[str, dict]:
        pool = self._autoname(type_, name, inputs)
        project = _get(inputs, "project") or self.project
        location = _get(inputs, "location") or self.region
        cluster = _get(inputs, "cluster") or "cluster"
        cluster = str(cluster).rsplit("/", 1)[-1]
        zones = _plain(_get(inputs, "nodeLocations")) or ([location] if is_zone(location) else zones_of(location))
        groups = [
            f"https://www.googleapis.com/compute/v1/projects/{project}/zones/{zone}/instanceGroupManagers/"
            f"gke-{cluster[:14]}-{pool[:14]}-{_digest(zone, pool)[:8]}-grp"
            for zone in zones
        ]
        outputs = {
            "name": pool,
            "project": project,
            "location": location,
            "instanceGroupUrls": groups,
            "managedInstanceGroupUrls": groups,
            "version": _get(inputs, "version") or CHANNEL_VERSIONS["REGULAR"],
            "operation": "",
        }
        if _get(inputs, "nodeCount") is None:
            outputs["nodeCount"] = _get(inputs, "initialNodeCount") or 0
        return f"projects/{project}/locations/{location}/clusters/{cluster}/nodePools/{pool}", outputs

    def _service_account(self, type_: str, name: str, inputs: Any) -> tuple[str, dict]:
        project = _get(inputs, "project") or self.project
        account = _get(inputs, "accountId") or name
        email = f"{account}@{project}.iam.gserviceaccount.com"
        resource_name = f"projects/{project}/serviceAccounts/{email}"
        unique_id = str(int(_digest(email), 16))[:21]
        return resource_name, {"email": email, "member": f"serviceAccount:{email}", "name": resource_name, "uniqueId": unique_id, "project": project}

    def _future_reservation(self, type_: str, name: str, inputs: Any) -> tuple[str, dict]:
        reservation = self._autoname(type_, name, inputs)
        project = _get(inputs, "project") or self.project
        zone = _get(inputs, "zone") or self.zone
        rid = f"projects/{project}/zones/{zone}/futureReservations/{reservation}"
        planning = _get(inputs, "planningStatus") or "DRAFT"
        return rid, {
            "name": reservation,
            "project": project,
            "zone": zone,
            "selfLink": f"https://www.googleapis.com/compute/beta/{rid}",
            "creationTimestamp": "2026-01-01T00:00:00.000-08:00",
            # What Compute reports right after create: drafting until submitted, then pending approval.
            "statuses": [{"procurementStatus": "PENDING_APPROVAL" if planning == "SUBMITTED" else "DRAFTING"}],
        }

    def _reservation(self, type_: str, name: str, inputs: Any) -> tuple[str, dict]:
        reservation = self._autoname(type_, name, inputs)
        project = _get(inputs, "project") or self.project
        zone = _get(inputs, "zone") or self.zone
        rid = f"projects/{project}/zones/{zone}/reservations/{reservation}"
        return rid, {
            "name": reservation,
            "project": project,
            "zone": zone,
            "selfLink": f"https://www.googleapis.com/compute/v1/{rid}",
            "status": "READY",
            "creationTimestamp": "2026-01-01T00:00:00.000-08:00",
        }

    def _kubernetes(self, type_: str, name: str, inputs: Any) -> tuple[str, dict]:
        metadata = dict(_plain(_get(inputs, "metadata")) or {})
        if not metadata.get("name"):
            metadata["name"] = f"{name}-{_digest(type_, name)[:8]}"  # the provider autonames with a suffix
        uid = _digest("uid", type_, name)
        metadata.setdefault("uid", f"{uid[:8]}-{uid[8:12]}-{uid[12:16]}-0000-000000000000")
        metadata.setdefault("resourceVersion", "1")
        metadata.setdefault("generation", 1)
        metadata.setdefault("creationTimestamp", "2026-01-01T00:00:00Z")
        namespace = metadata.get("namespace")
        resource_id = f"{namespace}/{metadata['name']}" if namespace else metadata["name"]
        outputs: dict[str, Any] = {"metadata": metadata}
        if type_ == "kubernetes:core/v1:Secret" and _plain(_get(inputs, "type")) == _TOKEN_SECRET_TYPE:
            # Kubernetes' token controller fills a service-account token Secret; a stand-in token here (never
            # a real credential), so what is built from it (a MultiKueue kubeconfig) can be checked offline.
            token = base64.b64encode(f"mock-token-{_digest('token', name)[:16]}".encode()).decode()
            outputs["data"] = {"token": token}
        return resource_id, outputs

    # --- invokes ---------------------------------------------------------------------------------

    def call(self, args: pulumi.runtime.MockCallArgs) -> tuple[dict, list]:
        handler = self._invokes.get(args.token)
        if handler is None:
            return dict(args.args), []  # unknown function: echo its arguments
        return handler(dict(args.args)), []

    def _get_project(self, args: dict) -> dict:
        project = args.get("projectId") or self.project
        return {
            "id": f"projects/{project}",
            "projectId": project,
            "name": project,
            "number": str(int(_digest("number", project), 16))[:12],
            "orgId": "",
            "folderId": "",
            "billingAccount": "",
            "labels": {},
            "effectiveLabels": {},
            "pulumiLabels": {},
            "tags": {},
            "autoCreateNetwork": True,
            "deletionPolicy": "PREVENT",
        }

    def _get_client_config(self, _args: dict) -> dict:
        return {
            "id": f"projects/{self.project}/regions/{self.region}/zones/{self.zone}",
            "project": self.project,
            "region": self.region,
            "zone": self.zone,
            "accessToken": "offline-access-token",
            "defaultLabels": {},
        }

    def _get_cluster(self, args: dict) -> dict:
        inputs = {"name": args.get("name") or "cluster", "project": args.get("project") or self.project}
        inputs["location"] = args.get("location") or self.region
        cluster_id, computed = self._cluster("gcp:container/cluster:Cluster", inputs["name"], inputs)
        location = computed["location"]
        project = computed["project"]
        return {
            **computed,
            "id": cluster_id,
            "masterAuths": [
                {
                    "clusterCaCertificate": computed["masterAuth"]["clusterCaCertificate"],
                    "clientCertificate": "",
                    "clientKey": "",
                    "clientCertificateConfigs": [{"issueClientCertificate": False}],
                }
            ],
            "minMasterVersion": "",
            "nodeLocations": [location] if is_zone(location) else zones_of(location),
            "releaseChannels": [{"channel": "REGULAR"}],
            "network": f"projects/{project}/global/networks/default",
            "subnetwork": f"projects/{project}/regions/{region_of(location)}/subnetworks/default",
            "workloadIdentityConfigs": [{"workloadPool": f"{project}.svc.id.goog"}],
            "enableAutopilot": False,
            "enableTpu": False,
            "deletionProtection": True,
            "resourceLabels": {},
            "nodePools": [],
        }

    def _get_zones(self, args: dict) -> dict:
        region = args.get("region") or self.region
        project = args.get("project") or self.project
        return {"id": f"projects/{project}/regions/{region}", "names": zones_of(region), "project": project, "region": region, "status": args.get("status") or "UP"}

    def _get_engine_versions(self, args: dict) -> dict:
        prefix = args.get("versionPrefix") or ""
        valid = [v for v in VALID_VERSIONS if v.startswith(prefix)]
        location = args.get("location") or self.region
        project = args.get("project") or self.project
        latest = valid[0] if valid else ""
        return {
            "id": f"projects/{project}/locations/{location}",
            "location": location,
            "project": project,
            "versionPrefix": prefix,
            "defaultClusterVersion": CHANNEL_VERSIONS["REGULAR"],
            "latestMasterVersion": latest,
            "latestNodeVersion": latest,
            "validMasterVersions": valid,
            "validNodeVersions": valid,
            "releaseChannelDefaultVersion": dict(CHANNEL_VERSIONS),
            "releaseChannelLatestVersion": dict(CHANNEL_VERSIONS),
            "releaseChannelUpgradeTargetVersion": dict(CHANNEL_VERSIONS),
        }

    def _yaml_decode(self, args: dict) -> dict:
        # pulumi_kubernetes' yaml.ConfigFile/ConfigGroup decode manifests through this provider function.
        documents = [doc for doc in yaml.safe_load_all(args.get("text") or "") if doc]
        return {"result": documents}


def mocks_for_config(config: Mapping[str, Any]) -> GkeMocks:
    """Mocks whose project/region follow the stack config (`gcp:project`, `gcp:region`, `gcp:zone`;
    else the region of a `gkecap:environment`)."""
    region = config.get("gcp:region")
    environment = config.get("gkecap:environment")
    if region is None and isinstance(environment, Mapping) and isinstance(environment.get("region"), str):
        region = environment["region"]
    return GkeMocks(project=config.get("gcp:project"), region=region, zone=config.get("gcp:zone"))
