"""Kueue releases: the apiVersions each kind is served in per release, the supported floor, feature gates
(issue 11 item 6). The table's facts come from Kueue's CRDs per tag (config/components/crd/bases)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from gkecap.components.kubernetes_objects.kueue_chart import chart_values
from gkecap.components.kueue_api import OLDEST_SUPPORTED_RELEASE, served_api_versions
from gkecap.components.kueue_api.releases import check_install, feature_gates
from gkecap.components.spec import SpecError, load_environment
from testkit.kueue_specs import objects_of, with_kueue
from testkit.spec_data import NOW, prod


@pytest.mark.parametrize("version, cohort, topology", [
    ("v0.9.5", ("v1alpha1",), ("v1alpha1",)),
    ("v0.12.10", ("v1alpha1",), ("v1alpha1",)),
    ("v0.13.10", ("v1beta1",), ("v1alpha1",)),
    ("v0.14.8", ("v1beta1",), ("v1beta1",)),
    ("v0.15.0", ("v1beta1", "v1beta2"), ("v1beta1", "v1beta2")),
    ("v0.19.2", ("v1beta1", "v1beta2"), ("v1beta1", "v1beta2")),
])
def test_cohort_and_topology_are_served_as_kueues_crds_say(version, cohort, topology):
    assert served_api_versions("Cohort", version) == cohort
    assert served_api_versions("Topology", version) == topology


def test_cluster_queue_gains_v1beta2_with_v0_15():
    assert served_api_versions("ClusterQueue", "v0.14.8") == ("v1beta1",)
    assert "v1beta2" in served_api_versions("ClusterQueue", "v0.15.0")


def test_a_release_below_the_floor_is_an_error_naming_it():
    env = with_kueue(prod(), version="v0.13.10", apiVersion="v1beta1")
    with pytest.raises(SpecError) as err:
        load_environment(env, now=NOW)
    assert [str(i) for i in err.value.issues] == [
        "kueue.version: 'v0.13.10' is older than v0.14.0, the oldest Kueue release gke-capacity supports; use v0.14.0 "
        "or later, e.g. v0.19.2"
    ]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(minor=st.integers(OLDEST_SUPPORTED_RELEASE[1], 19), patch=st.integers(0, 9),
       api_version=st.sampled_from(["v1beta1", "v1beta2"]))
def test_every_object_is_emitted_in_a_version_its_release_serves(minor, patch, api_version):
    version = f"v0.{minor}.{patch}"
    if check_install(version, api_version):
        return  # v1beta2 before v0.15 is refused by the spec
    env = with_kueue(prod(), version=version, apiVersion=api_version, topologyAwareScheduling=True)
    for obj in objects_of(env):
        group, _, served_as = obj["apiVersion"].partition("/")
        if group == "kueue.x-k8s.io":
            assert served_as in served_api_versions(obj["kind"], version), (obj["kind"], version)


def test_feature_gates_are_written_only_for_releases_that_declare_them():
    gates = chart_values("v0.19.2", topology_aware_scheduling=True)["controllerManager"]["featureGates"]
    assert gates == [{"name": "TopologyAwareScheduling", "enabled": True}]
    # v0.8 declared no TopologyAwareScheduling gate (pkg/features/kube_features.go @ v0.8.0).
    assert feature_gates("v0.8.0", {"TopologyAwareScheduling": True}) == []
