"""No rule raises on malformed or half-known input: a crash would hide every other finding of the pack."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from testkit.rule_resources import CLUSTER, FUTURE_RESERVATION, NODE_POOL, RESERVATION, RESOURCE_POLICY

from gkecap.policies.resource_view import UNKNOWN, ResourceView
from gkecap.policies.rules import allow_lists, dws, gpu_pools, kueue_objects, quota_capacity, reservations, team_isolation
from gkecap.policies.rules import tpu_slices

RESOURCE_CHECKS = [
    tpu_slices.check_tpu_slice_topology, gpu_pools.check_gpu_accelerator, dws.check_flex_start_settings,
    dws.check_flex_start_recommended, reservations.check_calendar_reservation_window,
    reservations.check_submitted_reservation_protected, kueue_objects.check_kueue_object_valid,
    team_isolation.check_namespace_selector_present,
    quota_capacity.check_team_accelerator_limit, allow_lists.check_allow_lists,
]
STACK_CHECKS = [
    tpu_slices.check_tpu_workload_policies, dws.check_queued_admission_check,
    reservations.check_reservation_affinity_match, reservations.check_reservation_affinity_reference,
    kueue_objects.check_kueue_references, quota_capacity.check_quota_capacity, quota_capacity.check_quota_capacity_dws,
    team_isolation.check_team_isolation, team_isolation.check_single_open_queue,
]
TYPES = [NODE_POOL, CLUSTER, FUTURE_RESERVATION, RESERVATION, RESOURCE_POLICY,
         "kubernetes:kueue.x-k8s.io/v1beta2:ClusterQueue", "kubernetes:kueue.x-k8s.io/v1beta1:ResourceFlavor",
         "kubernetes:kueue.x-k8s.io/v1beta2:Cohort"]
KEYS = ["nodeConfig", "machineType", "guestAccelerators", "type", "count", "autoscaling", "totalMaxNodeCount",
        "maxNodeCount", "nodeLocations", "location", "placementPolicy", "tpuTopology", "policyName", "nodeCount",
        "reservationAffinity", "consumeReservationType", "values", "flexStart", "queuedProvisioning", "enabled",
        "spec", "metadata", "name", "resourceGroups", "flavors", "resources", "nominalQuota", "nodeLabels",
        "namespaceSelector", "timeWindow", "startTime", "reservationMode", "planningStatus", "nodePools",
        "specificSkuProperties", "totalCount", "aggregateReservation", "gpuSharingConfig", "maxRunDuration"]
LEAVES = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 100), st.floats(allow_nan=True), st.just(UNKNOWN),
    st.sampled_from(["ct6e-standard-4t", "a3-highgpu-8g", "4x4", "CALENDAR", "SUBMITTED", "SPECIFIC_RESERVATION",
                     "2026-01-01T00:00:00Z", "us-east5-a", "x", "", "-1", "8"]),
)
VALUES = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=5),
    max_leaves=25,
)
PROPS = st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=8)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(TYPES), PROPS)
def test_resource_rules_never_raise(type_, props):
    view = ResourceView(type_, "r", props=props)
    for check in RESOURCE_CHECKS:
        assert isinstance(check(view, {"sharedQueues": [], "maxAcceleratorsPerTeam": 4}), list)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(TYPES), PROPS), max_size=5))
def test_stack_rules_never_raise(resources):
    views = [ResourceView(t, f"r{i}", props=p) for i, (t, p) in enumerate(resources)]
    for check in STACK_CHECKS:
        assert isinstance(check(views, {}), list)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, prefix + (index,))


def _replace(value, path, new):
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {k: (_replace(v, rest, new) if k == head else v) for k, v in value.items()}
    return [(_replace(v, rest, new) if i == head else v) for i, v in enumerate(value)]


def _good_resources():
    from testkit.rule_resources import flex_tpu_pool, kueue, on_demand_gpu_pool, queued_gpu_pool

    queue = kueue("ClusterQueue", "a", {"namespaceSelector": {}, "cohortName": "c", "resourceGroups": [
        {"coveredResources": ["nvidia.com/gpu"],
         "flavors": [{"name": "h100", "resources": [{"name": "nvidia.com/gpu", "nominalQuota": 8, "lendingLimit": 2}]}]}]})
    flavor = kueue("ResourceFlavor", "h100", {"nodeLabels": {"cloud.google.com/gke-accelerator": "nvidia-h100-80gb"}})
    reservation = ResourceView(FUTURE_RESERVATION, "fr", props={
        "name": "fr", "zone": "us-east5-a", "reservationMode": "CALENDAR", "planningStatus": "SUBMITTED",
        "timeWindow": {"startTime": "2030-01-01T00:00:00Z", "duration": {"seconds": 86400}},
        "specificSkuProperties": {"totalCount": "2", "instanceProperties": {"machineType": "a3-highgpu-8g"}}})
    pool = queued_gpu_pool(nodeConfig={"machineType": "a3-highgpu-8g", "reservationAffinity": {
        "consumeReservationType": "SPECIFIC_RESERVATION", "key": "compute.googleapis.com/reservation-name",
        "values": ["fr"]}})
    return [flex_tpu_pool(), on_demand_gpu_pool(), queue, flavor, reservation, pool]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_rules_never_raise_on_one_mutated_field(data):
    resources = _good_resources()
    index = data.draw(st.integers(0, len(resources) - 1))
    target = resources[index]
    path = data.draw(st.sampled_from(list(_paths(dict(target.props)))[1:]))
    props = _replace(dict(target.props), path, data.draw(VALUES))
    resources[index] = ResourceView(target.type, target.name, props=props)
    for check in RESOURCE_CHECKS:
        assert isinstance(check(resources[index], {}), list)
    for check in STACK_CHECKS:
        assert isinstance(check(resources, {}), list)
