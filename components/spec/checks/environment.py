"""The environment's own settings: the cluster (its rule set, `gke.cluster`, under
`cluster.`, plus its location in the region and the version floors of the pools declared) and Kueue
(`kueue_api.releases.check_install` under `kueue.`)."""

from __future__ import annotations

from gkecap.components.gke.cluster import BASE_FLOOR, LOWEST_VERSION, check_cluster_request
from gkecap.components.gke.locations import zone_region, zones_hint
from gkecap.components.gke.pool_request import TAS_CAPACITY_MODELS, topology_aware_refusal
from gkecap.components.gke.versions import (
    GPU_FLEX_MIN_VERSION,
    TPU7X_MIN_VERSION,
    TPU_FLEX_MIN_VERSION,
    version_issues,
)
from gkecap.components.issues import under
from gkecap.components.catalog.capacity import ADMITTED_WAIT_SECONDS
from gkecap.components.k8s.duration import format_seconds, parse_duration
from gkecap.components.kueue_api.integrations import framework_issues
from gkecap.components.kueue_api.releases import check_install
from gkecap.components.spec.models import KueueSpec
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
    _check_group_rbac(f)
    version = cluster.min_master_version
    if version is not None:
        floors = _pool_floors(facts)
        if not any(floor == LOWEST_VERSION for floor, _ in floors):
            floors.insert(0, BASE_FLOOR)
        f.errors.extend(under("cluster", version_issues("minMasterVersion", version, floors)))


def _check_group_rbac(f: Findings) -> None:
    """Team members `group:...` become `kind: Group` RoleBindings, which GKE matches only on a cluster with
    Google Groups for RBAC (gke.cluster.SECURITY_GROUP)."""
    cluster = f.view.cluster
    if cluster is None or cluster.security_group is not None:
        return
    groups = [(index, team.name) for index, team in f.view.teams
              if any(isinstance(m, str) and m.startswith("group:") for m in team.members)]
    if not groups:
        return
    names = listing([repr(name) for _, name in groups])
    teams = f"teams {names} have" if len(groups) > 1 else f"team {names} has"
    if cluster.create:
        f.error("cluster.securityGroup", f"is required: {teams} group: members, and GKE passes Google "
                "Group membership to RBAC only when the cluster names gke-security-groups@<your domain>")
    else:
        f.warn("cluster.securityGroup", f"{teams} group: members; their RoleBindings match nobody unless "
               "the existing cluster has Google Groups for RBAC (gke-security-groups@<your domain>): set "
               "securityGroup to record it, or check the cluster")


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
        # Formats are the models'; what is left is the API version the release serves, the integrations it
        # knows, and whether waitForPodsReady evicts work still waiting for capacity.
        issues = check_install(kueue.version, kueue.api_version)
        f.errors.extend(under("kueue", [i for i in issues if i.path == "apiVersion"]))
        if kueue.frameworks is not None:
            f.errors.extend(under("kueue", framework_issues("frameworks", kueue.version, kueue.frameworks)))
        _check_wait_for_pods_ready(f, kueue)


def _check_wait_for_pods_ready(f: Findings, kueue: KueueSpec) -> None:
    """waitForPodsReady is cluster-wide: a timeout shorter than capacity may take to arrive after admission
    (catalog.ADMITTED_WAIT_SECONDS) evicts and requeues work that is legitimately waiting for VMs."""
    ready = kueue.wait_for_pods_ready
    if ready is None:
        return
    timeout = parse_duration(ready.timeout)
    for capacity, wait in ADMITTED_WAIT_SECONDS.items():
        pools = [pool.name for _, pool in f.view.pools if pool.capacity == capacity]
        if pools and timeout < wait:
            f.warn("kueue.waitForPodsReady.timeout",
                   f"{ready.timeout} is shorter than {capacity} capacity may take after admission (up to "
                   f"{format_seconds(wait)}): Kueue would evict and requeue workloads on {listing(pools)} while "
                   f"their VMs are still coming; use {format_seconds(wait)} or more")


TAS_PATH = "kueue.topologyAwareScheduling"
# The error's opening: with MultiKueue workers it applies to the pools of all workers together (spec.workers).
TAS_UNUSED = "no pool can use topology-aware scheduling: "
TAS_ADVICE = (". Use a machine type with topology labels on reservation, calendar or queued capacity (or "
              "compactPlacement), or remove topologyAwareScheduling")


def check_topology_aware_scheduling(f: Findings, facts: dict[str, PoolFacts]) -> None:
    """`kueue.topologyAwareScheduling: true` gives a topology to the flavors of the pools whose nodes carry GKE's
    topology labels (`gke.topology_aware_refusal`); when no valid pool can have it, the request would silently do
    nothing, so it is an error naming why each pool cannot. A GPU pool on reserved or queued capacity left out for
    want of the labels is a warning."""
    kueue = f.view.kueue
    if kueue is None or kueue.topology_aware_scheduling is not True or not facts:
        return
    refusals = {name: topology_aware_refusal(p.request) for name, p in facts.items()}
    if any(reason is None for reason in refusals.values()):
        for name, pool in facts.items():
            if pool.kind == "gpu" and pool.request.capacity in TAS_CAPACITY_MODELS and refusals[name] is not None:
                # Reserved or queued capacity, where TAS would apply, but its nodes carry no topology labels.
                f.warn(f"nodePools[{pool.index}].machineType", f"gets no topology-aware scheduling: {refusals[name]}")
        return
    f.error(TAS_PATH, tas_unused_message([f"{name}: {reason}" for name, reason in refusals.items()]))


def tas_unused_message(refusals: list[str]) -> str:
    """The error when no pool can be topology-aware, from each pool's `name: reason`."""
    return TAS_UNUSED + "; ".join(refusals) + TAS_ADVICE


def tas_refusals(message: str) -> str | None:
    """The pools' `name: reason; ...` of a `tas_unused_message`, None for any other message."""
    if not (message.startswith(TAS_UNUSED) and message.endswith(TAS_ADVICE)):
        return None
    return message[len(TAS_UNUSED):-len(TAS_ADVICE)]
