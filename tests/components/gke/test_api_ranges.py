"""GKE's 32-bit node pool fields: values beyond them are issues naming the field."""

import pytest

from gkecap.components.gke.api_ranges import INT32_MAX, node_pool_range_issues


def test_values_within_int32_pass():
    assert node_pool_range_issues({"initialNodeCount": 0, "autoscaling": {"totalMaxNodeCount": INT32_MAX}}) == []


@pytest.mark.parametrize("value", [INT32_MAX + 1, -(2**31) - 1, 10**30, float("inf"), float("nan")])
def test_values_beyond_int32_name_the_field(value):
    [issue] = node_pool_range_issues({"nodeConfig": {"diskSizeGb": value}}, "nodePools[2].")
    assert issue.path == "nodePools[2].nodeConfig.diskSizeGb" and "32-bit" in issue.message


def test_fields_outside_the_int32_list_are_not_judged():
    assert node_pool_range_issues({"maxPodsPerNode": 10**12, "name": "x"}) == []
