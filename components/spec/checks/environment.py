"""The environment's own settings: the cluster (its rule set, `gke.cluster`, under
`cluster.`, plus its location in the region and the version floors of the pools declared) and Kueue
(`kueue_api.releases.check_install` under `kueue.`)."""

from __future__ import annotations

from gkecap.components.gke.cluster import BASE_FLOOR, LOWEST_VERSION, check_cluster_request
from gkecap.components.gke.locations import zone_region, zones_hint
from gkecap.components.gke.versions import (
    GPU_FLEX_MIN_VERSION,
    TPU7X_MIN_VERSION,
    TPU_FLEX_MIN_VERSION,
    version_issues,
)
from gkecap.components.issues import under
from gkecap.components.kueue_api.releases import check_install
from gkecap.components.spec.checks.context import Findings, listing
from gkecap.components.spec.checks.pools import PoolFacts
from gkecap.components.spec.requests import cluster_request


def check_cluster(f: Findings, facts: dict[str, PoolFacts]) -> None:
    cluster = f.view.cluster
    if cluster is None:
        return
    # The version is judged below, against the floors of the pools declared as well as the rule set's own.
    issues = [i for i in check_cluster_request(cluster_request(cluster, None)) if i.path != "minMasterVersion"]
    f.errors.extend(under("cluster", issues))
    region, location = f.valid_region, cluster.location
    if region and location and not (location == region or zone_region(location) == region):
        f.error("cluster.location", f"{location!r} is not the region {region} or one of its zones ({zones_hint(region)})")
    if not cluster.create and "system_pool" in cluster.model_fields_set:
        f.warn("cluster.systemPool", "has no effect on an existing cluster (create: false)")
    version = cluster.min_master_version
    if version is not None:
        floors = _pool_floors(facts)
        if not any(floor == LOWEST_VERSION for floor, _ in floors):
            floors.insert(0, BASE_FLOOR)
        f.errors.extend(under("cluster", version_issues("minMasterVersion", version, floors)))


def _pool_floors(facts: dict[str, PoolFacts]) -> list[tuple[str, str]]:
    """(floor, what needs it) for the pools declared."""
    floors: list[tuple[str, str]] = []
    # Queued provisioning (any accelerator) and GPU flex-start: FACTS B.1 [S14], B.3 [S17].
    dws = [p.pool.name for p in facts.values()
           if p.pool.capacity == "queued" or (p.kind == "gpu" and p.pool.capacity == "flex-start")]
    # Flex-start TPUs: FACTS B.3 [S17]. TPU7x: FACTS A.3 [S34].
    flex_tpu = [p.pool.name for p in facts.values() if p.kind == "tpu" and p.pool.capacity == "flex-start"]
    tpu7x = [p.pool.name for p in facts.values() if p.family == "tpu7x"]
    for floor, what, pools in ((GPU_FLEX_MIN_VERSION, "queued and flex-start GPU pools", dws),
                               (TPU_FLEX_MIN_VERSION, "flex-start TPU pools", flex_tpu),
                               (TPU7X_MIN_VERSION, "TPU7x pools", tpu7x)):
        if pools:
            floors.append((floor, f"{what} ({listing(pools)})"))
    return floors


def check_kueue(f: Findings) -> None:
    kueue = f.view.kueue
    if kueue is not None:
        # Formats are the models'; what is left is the API version the release serves.
        issues = check_install(kueue.version, kueue.api_version)
        f.errors.extend(under("kueue", [i for i in issues if i.path == "apiVersion"]))
