"""Property-based: for random valid environments (every Kueue feature, both API versions), every generated
object is one the API server and Kueue accept, and the structure holds (one queue per team, one flavor per pool,
unique object keys)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from gkecap.components.kueue_api import validate_kueue_object
from gkecap.components.kubernetes_objects.build import kueue_objects, object_key
from testkit.kueue_specs import environments, model_of, of_kind
from testkit.k8s_core import validate_core
from testkit.kueue_crds import crds_available, validate_against_crds

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(env=environments())
def test_every_generated_object_is_accepted(env):
    for obj in kueue_objects(model_of(env)):
        if obj["apiVersion"].startswith("kueue.x-k8s.io/"):
            assert validate_kueue_object(obj) == [], object_key(obj)
            if crds_available():
                assert validate_against_crds(obj) == [], object_key(obj)
        else:
            validate_core(obj)


@SETTINGS
@given(env=environments())
def test_one_queue_per_team_one_flavor_per_pool_and_unique_keys(env):
    model = model_of(env)
    objects = kueue_objects(model)
    assert [q["metadata"]["name"] for q in of_kind(objects, "ClusterQueue")] == [t.name for t in model.teams]
    assert sorted(f["metadata"]["name"] for f in of_kind(objects, "ResourceFlavor")) == sorted(
        p.name for p in model.pools)
    keys = [object_key(o) for o in objects]
    assert len(keys) == len(set(keys))


@SETTINGS
@given(env=environments())
def test_every_queue_names_only_flavors_that_exist_and_checks_only_queued_ones(env):
    model = model_of(env)
    objects = kueue_objects(model)
    flavors = {f["metadata"]["name"] for f in of_kind(objects, "ResourceFlavor")}
    checks = {c["metadata"]["name"] for c in of_kind(objects, "AdmissionCheck")}
    for queue in of_kind(objects, "ClusterQueue"):
        listed = [f["name"] for g in queue["spec"].get("resourceGroups", []) for f in g["flavors"]]
        assert set(listed) <= flavors
        for rule in queue["spec"].get("admissionChecksStrategy", {}).get("admissionChecks", []):
            assert rule["name"] in checks
            assert all(model.pool(f).queued and f in listed for f in rule["onFlavors"])
