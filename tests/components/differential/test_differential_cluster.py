"""Differential property for the cluster (see testkit.differential): the spec and GkeCluster accept and reject
alike, the spec first and at its YAML fields."""

from __future__ import annotations

from typing import Any

import pulumi
from hypothesis import event, given, settings
from hypothesis import strategies as st

from gkecap.components.cluster import GkeCluster
from gkecap.components.spec import SpecError, load_environment
from testkit.differential import (
    REGION,
    SA,
    SHARED_FIXTURES,
    assert_spec_reports,
    chance,
    environment,
    field_of,
    snake,
    spec_issues,
)
from testkit.input_errors import lines
from testkit.spec_data import NOW

# --- 3. cluster ---------------------------------------------------------------------------------------------

CLUSTER_VALUES = {  # key -> (valid values, invalid values); "name" is required, the rest optional
    "name": (["ml-dev", "train-1", "a" * 40], ["ML-Dev", "a" * 41, "-ml", "1ml", "ml_dev", ""]),
    "create": ([True, False], []),
    "location": (["us-east5", "us-east5-a"], ["us-central1", "us-central1-a", ""]),
    "releaseChannel": (["RAPID", "REGULAR", "STABLE", "EXTENDED"], ["UNSPECIFIED", "FAST", "regular"]),
    # dev() has flex-start TPU pools: the spec also holds versions to their floor 1.33.0-gke.1712000.
    "minMasterVersion": (["latest", "LATEST", "1.33", "1.34.1-gke.1000000", "1.33.0-gke.1712000"],
                         ["1.32.2-gke.1652000", "1.32", "1.31.5-gke.1000000", "1.33-gke.5", "v1.33", "garbage"]),
    "systemPool.nodes": ([1, 2, 2.0], [0, -1, 2.5]),
}


@st.composite
def cluster_section(draw: st.DrawFn) -> dict[str, Any]:
    """A `cluster` section: valid values for some keys, then 0 to 2 keys set to invalid ones."""
    values = {key: draw(st.sampled_from(valid)) for key, (valid, _) in CLUSTER_VALUES.items()
              if key == "name" or chance(draw, 50)}
    for _ in range(draw(st.sampled_from([0, 0, 1, 1, 2]))):
        key = draw(st.sampled_from([k for k, (_, invalid) in CLUSTER_VALUES.items() if invalid]))
        values[key] = draw(st.sampled_from(CLUSTER_VALUES[key][1]))
    cluster = {key: value for key, value in values.items() if "." not in key}
    if "systemPool.nodes" in values:
        cluster["systemPool"] = {"nodes": values["systemPool.nodes"]}
    return cluster


CLUSTERS = cluster_section()


def cluster_component_args(cluster: dict[str, Any]) -> dict[str, Any]:
    args: dict[str, Any] = {"location": cluster.get("location", REGION), "service_account": SA}
    for key, arg in (("name", "cluster_name"), ("create", "create"), ("releaseChannel", "release_channel"),
                     ("minMasterVersion", "min_master_version")):
        if key in cluster:
            args[arg] = cluster[key]
    if "systemPool" in cluster:
        args["system_pool"] = {snake(k): v for k, v in cluster["systemPool"].items()}
    return args


def cluster_fields(property_path: str) -> set[str]:
    field = field_of(property_path)
    return {{"clusterName": "name"}.get(field, field)}


@settings(max_examples=80, deadline=None, suppress_health_check=SHARED_FIXTURES)
@given(cluster=CLUSTERS)
def test_a_cluster_the_spec_accepts_is_one_the_cluster_component_accepts(pulumi_run, cluster) -> None:
    try:
        spec = load_environment(environment(cluster=cluster), now=NOW)
    except SpecError:
        event("spec rejects")
        return
    event("spec accepts")
    c = spec.cluster
    args: dict[str, Any] = {  # as Environment builds them
        "location": c.location, "create": c.create, "cluster_name": c.name, "release_channel": c.release_channel,
        "service_account": SA, "system_pool": {"machine_type": c.system_pool.machine_type, "nodes": c.system_pool.nodes},
    }
    if c.min_master_version is not None:
        args["min_master_version"] = c.min_master_version
    registered = pulumi_run(lambda: GkeCluster(c.name, args))
    assert registered.one("gkecap:index:GkeCluster").name == c.name
    created = registered.of_type("gcp:container/cluster:Cluster")
    assert [r.inputs["name"] for r in created] == ([c.name] if c.create else [])


@settings(max_examples=80, deadline=None, suppress_health_check=SHARED_FIXTURES)
@given(cluster=CLUSTERS)
def test_a_cluster_the_cluster_component_rejects_the_spec_rejects_at_its_fields(pulumi_run, cluster) -> None:
    try:
        pulumi_run(lambda: GkeCluster(cluster["name"], cluster_component_args(cluster)))
    except pulumi.InputPropertiesError as err:
        event("component rejects")
        paths = spec_issues(environment(cluster=cluster))
        assert paths is not None, f"GkeCluster rejects {lines(err)} but the spec accepts {cluster}"
        assert_spec_reports("cluster", paths, err, cluster_fields)
    else:
        event("component accepts")
