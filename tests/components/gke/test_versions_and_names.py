"""GKE versions, locations and Google Cloud names: one parser each."""

from __future__ import annotations

import pytest

from gkecap.components.gke import gke_version_key, parse_gke_version, region_of, service_account_issues, zone_region
from gkecap.components.gke.versions import version_issues


def test_gke_version_order():
    assert gke_version_key("1.33.0-gke.1712000") > gke_version_key("1.32.2-gke.1652000")
    assert gke_version_key("1.34") > gke_version_key("1.33.5-gke.1308000")
    with pytest.raises(ValueError, match="not a GKE version"):
        gke_version_key("latest")


@pytest.mark.parametrize("text", ["1.33-gke.5", "1.33.", "v1.33.2", "１.３３", "1.3٣", ""])
def test_malformed_gke_versions_are_not_versions(text):
    assert parse_gke_version(text) is None


def test_partial_version_compares_only_the_parts_given():
    assert version_issues("v", "1.33", [("1.33.0-gke.1712000", "flex-start TPU pools")]) == []
    [issue] = version_issues("v", "1.32", [("1.33.0-gke.1712000", "flex-start TPU pools")])
    assert "older than 1.33.0-gke.1712000, the minimum for flex-start TPU pools" in issue.message
    assert version_issues("v", "latest", [("1.33.0-gke.1712000", "x")]) == []


def test_zone_to_region():
    assert zone_region("us-east5-a") == "us-east5" and zone_region("us-east5") is None
    assert region_of("europe-west4-b") == "europe-west4" and region_of("europe-west4") == "europe-west4"


def test_service_account_checks():
    assert service_account_issues("sa", "gke-nodes@p.iam.gserviceaccount.com") == []
    assert [i.path for i in service_account_issues("sa", "42-compute@developer.gserviceaccount.com")] == ["sa"]
    assert [i.path for i in service_account_issues("sa", "")] == ["sa"]
