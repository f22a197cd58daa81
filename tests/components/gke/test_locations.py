"""Location suggestions name only zones that exist."""

from gkecap.components.gke.locations import REGION_ZONES, zone_issues


def test_a_zone_of_another_region_lists_the_regions_real_zones():
    [issue] = zone_issues("zones[0]", "us-east5-a", "us-east1")
    assert issue.message.endswith("allowed: zones of us-east1: us-east1-b, us-east1-c, us-east1-d")  # no us-east1-a


def test_an_unknown_region_gets_no_made_up_zone():
    [issue] = zone_issues("zones[0]", "us-east5-a", "me-central2")
    assert "me-central2-a" not in issue.message and "gcloud compute zones list" in issue.message


def test_the_example_of_a_malformed_zone_exists():
    [issue] = zone_issues("zone", "east", "europe-west1")
    assert issue.message.endswith("zones look like europe-west1-b")


def test_every_listed_zone_is_in_its_region():
    assert all(zone.startswith(f"{region}-") for region, zones in REGION_ZONES.items() for zone in zones)
