"""Google Cloud locations: regions (`us-east5`) and zones (`us-east5-a`), and the region of a zone.

The one place that knows the shape of a location; the spec, the components and the policy pack use it.
Patterns are ASCII-only: a look-alike digit must not pass for a location.
"""

from __future__ import annotations

import re

from gkecap.components.issues import Issue

REGION_PATTERN = re.compile(r"[a-z]+-[a-z]+[0-9]+", re.ASCII)
ZONE_PATTERN = re.compile(r"([a-z]+-[a-z]+[0-9]+)-[a-z]", re.ASCII)

# Zones of the regions this project's environments and examples use; a suggestion names only zones listed here
# (us-east1 and europe-west1 have no zone `-a`). https://cloud.google.com/compute/docs/regions-zones
REGION_ZONES: dict[str, tuple[str, ...]] = {
    "us-central1": ("us-central1-a", "us-central1-b", "us-central1-c", "us-central1-f"),
    "us-east1": ("us-east1-b", "us-east1-c", "us-east1-d"),
    "us-east4": ("us-east4-a", "us-east4-b", "us-east4-c"),
    "us-east5": ("us-east5-a", "us-east5-b", "us-east5-c"),
    "us-south1": ("us-south1-a", "us-south1-b", "us-south1-c"),
    "us-west1": ("us-west1-a", "us-west1-b", "us-west1-c"),
    "us-west4": ("us-west4-a", "us-west4-b", "us-west4-c"),
    "europe-west1": ("europe-west1-b", "europe-west1-c", "europe-west1-d"),
    "europe-west4": ("europe-west4-a", "europe-west4-b", "europe-west4-c"),
    "asia-northeast1": ("asia-northeast1-a", "asia-northeast1-b", "asia-northeast1-c"),
    "asia-southeast1": ("asia-southeast1-a", "asia-southeast1-b", "asia-southeast1-c"),
}


def zones_hint(region: str) -> str:
    """What to write instead: the region's zones when known, else how to list them (never a made-up zone)."""
    zones = REGION_ZONES.get(region)
    if zones:
        return f"zones of {region}: {', '.join(zones)}"
    return f"a zone of {region} (`gcloud compute zones list --filter=region:{region}` lists them)"


def is_region(location: object) -> bool:
    return isinstance(location, str) and REGION_PATTERN.fullmatch(location) is not None


def is_zone(location: object) -> bool:
    return isinstance(location, str) and ZONE_PATTERN.fullmatch(location) is not None


def zone_region(zone: str) -> str | None:
    """`us-east5-a` -> `us-east5`; None when `zone` is not a zone."""
    match = ZONE_PATTERN.fullmatch(zone) if isinstance(zone, str) else None
    return match.group(1) if match else None


def region_of(location: str) -> str:
    """The region of a location: a zone's region, or the region itself."""
    return zone_region(location) or location


def region_issues(path: str, region: str) -> list[Issue]:
    if is_region(region):
        return []
    return [Issue(path, f"{region!r} is not a Google Cloud region; regions look like us-east5 or europe-west4")]


def zone_issues(path: str, zone: str, region: str | None = None) -> list[Issue]:
    """A zone, and (when `region` is known) one of that region's."""
    if not is_zone(zone):
        example = REGION_ZONES.get(region or "", ("us-east5-a",))[0]
        return [Issue(path, f"{zone!r} is not a zone; zones look like {example}")]
    if region is not None and zone_region(zone) != region:
        return [Issue(path, f"{zone!r} is not in the region {region}; allowed: {zones_hint(region)}")]
    return []


def zones_issues(path: str, zones: list[str] | tuple[str, ...], region: str | None = None) -> list[Issue]:
    """A pool's zone list: not empty when given, each a zone (of `region` when known), none twice."""
    if not zones:
        return [Issue(path, "must list at least one zone, or be left out")]
    issues: list[Issue] = []
    seen: set[str] = set()
    for index, zone in enumerate(zones):
        issues += zone_issues(f"{path}[{index}]", zone, region)
        if zone in seen:
            issues.append(Issue(f"{path}[{index}]", f"{zone!r} is listed twice"))
        seen.add(zone)
    return issues
