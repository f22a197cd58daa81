"""Vertex AI training with Dynamic Workload Scheduler (FLEX_START): the profiles and the quota they need.

* `check_vertex_flex_start` (per resource): a `VertexTrainingQuota`'s profiles pass the FLEX_START rules
  (`vertex_api.flex_start_job_issues`: a supported GPU on a matching machine, one machine configuration in every
  worker pool, a timeout of at most 7 days), and any Cloud Quotas preference for a Vertex training GPU quota names
  a region and a whole number of GPUs.
* `check_vertex_quota_covers` (per stack): the preemptible training quota preferences of the stack cover what its
  profiles need per region and GPU (replicas x GPUs x concurrent jobs): a FLEX_START job consumes the preemptible
  quota (FACTS F [S26]; quota ids [S35]), and without it the job fails at submission.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gkecap.components.catalog.vertex import VERTEX_FLEX_START_GPUS, VERTEX_SERVICE, vertex_gpu, vertex_gpu_of_quota
from gkecap.components.catalog import CatalogError
from gkecap.components.gke.locations import is_region
from gkecap.components.vertex_api import flex_start_job_issues
from gkecap.policies.resource_view import ResourceView
from gkecap.policies.rules.known_values import at, has_unknown, known_int, known_list, known_mapping, known_str

QUOTA_PREFERENCE_TYPE = "gcp:cloudquota/sQuotaPreference:SQuotaPreference"
VERTEX_TRAINING_TYPE = "gkecap:index:VertexTrainingQuota"
VERTEX_TYPES = (QUOTA_PREFERENCE_TYPE, VERTEX_TRAINING_TYPE)
_TRAINING_QUOTA_PREFIX = "CustomModelTraining"


def check_vertex_flex_start(resource: ResourceView, config: dict) -> list[str]:
    """vertex-flex-start: profiles follow the FLEX_START rules; Vertex training GPU quota preferences are sane."""
    if resource.type == VERTEX_TRAINING_TYPE:
        return _profile_messages(resource)
    if resource.type == QUOTA_PREFERENCE_TYPE:
        return _preference_messages(resource)
    return []


def _profiles(resource: ResourceView) -> list[Mapping[str, Any]]:
    return [p for p in known_list(resource.props.get("profiles")) or [] if isinstance(p, Mapping) and not has_unknown(p)]


def _profile_messages(resource: ResourceView) -> list[str]:
    messages = []
    for profile in _profiles(resource):
        body = known_mapping(profile.get("requestBody"))
        if body is None:
            continue
        name = profile.get("name") or body.get("displayName")
        messages += [f"Vertex training profile {name!r}: {issue}" for issue in flex_start_job_issues(body)]
    return messages


def _preference_messages(resource: ResourceView) -> list[str]:
    service = known_str(resource.props.get("service"))
    quota_id = known_str(resource.props.get("quotaId"))
    if service != VERTEX_SERVICE or quota_id is None or not quota_id.startswith(_TRAINING_QUOTA_PREFIX) \
            or "GPUs" not in quota_id:
        return []
    label = f"quota preference {resource.name!r} ({quota_id})"
    messages = []
    raw = resource.props.get("dimensions")
    dimensions = known_mapping(raw) if raw is not None else {}
    region = known_str(dimensions.get("region")) if dimensions is not None else None
    if dimensions is not None and not has_unknown(dimensions) and region is None:
        messages.append(f"{label} names no region: Vertex training GPU quota is per project and region; set "
                        "dimensions.region to the region the jobs run in")
    elif region is not None and not is_region(region):
        messages.append(f"{label}: {region!r} is not a Google Cloud region")
    preferred = at(resource.props, "quotaConfig.preferredValue")
    if not has_unknown(preferred) and preferred is not None:
        value = known_int(preferred)
        if value is None or value < 0:
            messages.append(f"{label}: preferredValue {preferred!r} is not a whole number of GPUs (0 or more)")
    if quota_id.startswith(_TRAINING_QUOTA_PREFIX + "Preemptible") and vertex_gpu_of_quota(quota_id) is None:
        known = ", ".join(g.preemptible_quota_id for g in VERTEX_FLEX_START_GPUS.values())
        messages.append(f"{label} is not the preemptible quota of a GPU FLEX_START serves; known: {known}")
    return messages


def check_vertex_quota_covers(resources: list[ResourceView], config: dict) -> list[tuple[str | None, str]]:
    """vertex-quota-preference: per region and GPU, the stack's preemptible training quota preferences hold what
    its FLEX_START profiles need."""
    needed: dict[tuple[str, str], tuple[int, list[str], str | None]] = {}
    for resource in resources:
        if resource.type != VERTEX_TRAINING_TYPE:
            continue
        region = known_str(resource.props.get("region"))
        for profile in _profiles(resource):
            pool_specs = at(profile, "requestBody.jobSpec.workerPoolSpecs")
            pools = [p for p in pool_specs or [] if isinstance(p, Mapping) and p.get("machineSpec")]
            gpus = known_int(profile.get("quotaGpus"))
            if region is None or not pools or gpus is None:
                continue
            try:
                gpu = vertex_gpu(at(pools[0], "machineSpec.acceleratorType"))
            except CatalogError:
                continue  # reported by vertex-flex-start
            total, names, urn = needed.get((region, gpu.preemptible_quota_id), (0, [], resource.urn))
            needed[(region, gpu.preemptible_quota_id)] = (total + gpus, names + [str(profile.get("name"))], urn)
    if not needed:
        return []
    granted: dict[tuple[str, str], int] = {}
    for resource in resources:
        if resource.type != QUOTA_PREFERENCE_TYPE or known_str(resource.props.get("service")) != VERTEX_SERVICE:
            continue
        quota_id = known_str(resource.props.get("quotaId"))
        region = known_str(at(resource.props, "dimensions.region"))
        preferred = at(resource.props, "quotaConfig.preferredValue")
        if has_unknown(preferred):
            return []  # not judged during preview
        value = known_int(preferred)
        if quota_id is not None and region is not None and value is not None:
            granted[(region, quota_id)] = granted.get((region, quota_id), 0) + value
    messages = []
    for (region, quota_id), (gpus, names, urn) in needed.items():
        have = granted.get((region, quota_id))
        if have is None:
            messages.append((urn, f"Vertex training profiles {', '.join(names)} need {gpus} GPUs of the preemptible quota "
                                  f"{quota_id} in {region} (FLEX_START consumes it), and no quota preference in this "
                                  "stack asks for it: add a cloudquota.SQuotaPreference (VertexTrainingQuota makes one)"))
        elif have < gpus:
            messages.append((urn, f"Vertex training profiles {', '.join(names)} need {gpus} GPUs of {quota_id} in {region}; "
                                  f"the stack's quota preferences ask for {have}: raise preferredValue to {gpus}"))
    return messages
