"""Dynamic Workload Scheduler node pools: flex-start and flex-start with queued provisioning (FACTS B).

Google's settings for such a pool (gcloud, Terraform and Cluster Toolkit agree; FACTS B.1, B.2, B.4):
autoscaling from zero, no initial nodes, reservation affinity NO_RESERVATION, auto-repair off (advisory: GKE
accepts it on), not spot, nodes live at most 7 days, location policy ANY. A queued pool gets nodes only through a
ProvisioningRequest, which Kueue creates through a ProvisioningRequest admission check.
"""

from __future__ import annotations

from gkecap.components.catalog import (
    COMPACT_PLACEMENT,
    FLEX_START_COMPACT_PREFIXES,
    is_accelerator_machine_type,
    is_tpu_machine_type,
    supported_capacity_models,
)
from gkecap.components.kueue_api import DWS_PROVISIONING_CLASS, PROVISIONING_REQUEST_CONTROLLER
from gkecap.components.gke import MAX_RUN_DURATION_SECONDS  # 7 days. FACTS B.3 [S16, S17]; B.4
from gkecap.policies.resource_view import ResourceView, is_unknown
from gkecap.policies.rules.known_values import at, duration_seconds, known_bool, known_int, known_str
from gkecap.policies.rules.kueue_props import objects_of
from gkecap.policies.rules.node_pool_props import NO_RESERVATION, NODE_POOL_TYPES, PoolView, node_pools


def _dws_kind(pool: PoolView) -> str | None:
    """'queued' / 'flex-start' for a DWS pool, None otherwise (or when unknown)."""
    if pool.queued:
        return "queued"
    if pool.flex_start:
        return "flex-start"
    return None


def check_flex_start_settings(resource: ResourceView, config: dict) -> list[str]:
    """flex-start-settings: the settings GKE and Google's own tooling require of a DWS pool."""
    messages: list[str] = []
    for pool in node_pools(resource):
        kind = _dws_kind(pool)
        if kind is not None:
            messages += _settings(pool, kind)
    return messages


def _settings(pool: PoolView, kind: str) -> list[str]:
    what = f"{pool.label} ({'flex-start with queued provisioning' if kind == 'queued' else 'flex-start'})"
    messages: list[str] = []
    scaling = pool.get("autoscaling")
    if scaling is None:
        messages.append(
            f"{what}: no autoscaling; DWS nodes are created only by the autoscaler: set "
            f"{pool.field('autoscaling')} {{totalMinNodeCount: 0, totalMaxNodeCount: N, locationPolicy: ANY}}."
        )
    elif not is_unknown(scaling):
        for field in ("totalMinNodeCount", "minNodeCount"):
            minimum = known_int(at(scaling, field))
            if minimum is not None and minimum > 0:
                messages.append(
                    f"{what}: {pool.field('autoscaling.' + field)} is {minimum}; a DWS pool scales from zero: set it to 0."
                )
    for field in ("initialNodeCount", "nodeCount"):
        count = known_int(pool.get(field))
        if count is not None and count > 0:
            messages.append(
                f"{what}: {pool.field(field)} is {count}; a DWS pool starts with no nodes (nodes come with "
                f"requests): set it to 0 or leave it out."
            )
    affinity = pool.get("nodeConfig.reservationAffinity.consumeReservationType")
    if not is_unknown(affinity) and affinity != NO_RESERVATION:
        found = f"is {affinity!r}" if affinity is not None else "is not set"
        messages.append(
            f"{what}: {pool.field('nodeConfig.reservationAffinity.consumeReservationType')} {found}; DWS "
            f"capacity never comes from a reservation: set it to {NO_RESERVATION}."
        )
    for field in ("nodeConfig.spot", "nodeConfig.preemptible"):
        if known_bool(pool.get(field)) is True:
            messages.append(
                f"{what}: {pool.field(field)} is true; flex-start and spot/preemptible are different "
                f"provisioning models: remove {field.split('.')[-1]} (or make a separate spot pool)."
            )
    run = pool.get("nodeConfig.maxRunDuration")
    seconds = duration_seconds(run)
    if seconds is not None and not 0 < seconds <= MAX_RUN_DURATION_SECONDS:
        messages.append(
            f"{what}: {pool.field('nodeConfig.maxRunDuration')} is {run!r} ({seconds / 86400:g} days); flex-start "
            f"nodes run at most 7 days: use at most '{MAX_RUN_DURATION_SECONDS}s'."
        )
    elif run is not None and not is_unknown(run) and seconds is None:
        messages.append(
            f"{what}: {pool.field('nodeConfig.maxRunDuration')} {run!r} is not a duration in seconds; "
            f"write it like '86400s' (at most '{MAX_RUN_DURATION_SECONDS}s')."
        )
    messages += _compact_placement(pool, what, kind)
    messages += _supported(pool, what, kind)
    return messages


def _supported(pool: PoolView, what: str, kind: str) -> list[str]:
    """The machine family offers flex-start at all (catalog: FACTS B.3 [S16, S17])."""
    machine_type = pool.machine_type
    if machine_type is None or not is_accelerator_machine_type(machine_type):
        return []
    models = supported_capacity_models(machine_type)
    if kind in models:
        return []
    return [
        f"{what}: {machine_type} is not offered with {kind} capacity (its family supports: "
        f"{', '.join(sorted(models))}): use a machine type that supports flex-start, or another capacity model."
    ]


def _compact_placement(pool: PoolView, what: str, kind: str) -> list[str]:
    machine_type = pool.machine_type
    if machine_type is None or is_tpu_machine_type(machine_type):
        return []
    if known_str(pool.get("placementPolicy.type")) != COMPACT_PLACEMENT:
        return []
    if kind == "queued":
        return [
            f"{what}: {pool.field('placementPolicy.type')} {COMPACT_PLACEMENT} on {machine_type}; queued "
            f"provisioning allows compact placement only for TPUs: remove placementPolicy."
        ]
    if machine_type.startswith(FLEX_START_COMPACT_PREFIXES):
        return []
    return [
        f"{what}: {pool.field('placementPolicy.type')} {COMPACT_PLACEMENT} on {machine_type}; flex-start supports "
        f"compact placement only on {', '.join(p + '*' for p in FLEX_START_COMPACT_PREFIXES)} machines (or TPUs): "
        "remove placementPolicy."
    ]


def check_flex_start_recommended(resource: ResourceView, config: dict) -> list[str]:
    """flex-start-recommended: settings Google's guides use that GKE does not enforce on every pool.

    Auto-repair on (GKE's default, or `autoRepair: true`): the queued-provisioning and multi-host guides and
    Cluster Toolkit turn it off (FACTS B.1, B.2), but GKE accepts it on a flex-start pool (its single-host
    TPU flex-start guide leaves it on; SEED_NOTES), and it neither wastes capacity nor crosses teams, so it
    is advisory, never mandatory. Location policy ANY for a multi-zone pool (FACTS B.1 [S14, S15]).
    """
    messages: list[str] = []
    for pool in node_pools(resource):
        kind = _dws_kind(pool)
        if kind is None:
            continue
        repair = pool.get("management.autoRepair")
        if repair is None or repair is True:
            found = "is true" if repair is True else "is not set, so GKE enables auto-repair"
            messages.append(
                f"{pool.label}: {pool.field('management.autoRepair')} {found}; a repair recreates a node that DWS "
                "capacity may not give back: set management {autoRepair: false}. Advisory: GKE accepts auto-repair "
                "on flex-start pools (its single-host TPU flex-start guide leaves it on)."
            )
        scaling = pool.autoscaling
        if scaling is None:
            continue
        policy = scaling.get("locationPolicy")
        if is_unknown(policy) or policy == "ANY" or pool.zone_count() == 1:
            continue
        found = f"is {policy!r}" if policy is not None else "is not set (GKE defaults to BALANCED)"
        messages.append(
            f"{pool.label}: {pool.field('autoscaling.locationPolicy')} {found}; DWS capacity is found zone by "
            "zone, and ANY lets the autoscaler take it in whichever zone has it: set locationPolicy ANY."
        )
    return messages


def check_queued_admission_check(resources: list[ResourceView], config: dict) -> list[tuple[str | None, str]]:
    """queued-provisioning-admission-check: queued pools need a ProvisioningRequest admission check."""
    queued = [
        (resource, pool)
        for resource in resources
        if resource.type in NODE_POOL_TYPES
        for pool in node_pools(resource)
        if pool.queued
    ]
    if not queued:
        return []
    for check in objects_of(resources, "AdmissionCheck"):
        controller = at(check.props, "spec.controllerName")
        if is_unknown(controller) or controller == PROVISIONING_REQUEST_CONTROLLER:
            return []
    return [
        (
            resource.urn,
            f"{pool.label} uses queued provisioning, but the stack has no Kueue AdmissionCheck with controllerName "
            f"{PROVISIONING_REQUEST_CONTROLLER}: its nodes come only through ProvisioningRequests. Add a "
            f"ProvisioningRequestConfig (provisioningClassName {DWS_PROVISIONING_CLASS}), an AdmissionCheck "
            "that points at it, and list the check in the ClusterQueue's admissionChecksStrategy "
            "(ignore this if they live in another stack).",
        )
        for resource, pool in queued
    ]

