"""Google Cloud locations: regions (`us-east5`) and zones (`us-east5-a`), and the region of a zone.

The one place that knows the shape of a location; the spec, the components and the policy pack use it.
Patterns are ASCII-only: a look-alike digit must not pass for a location.
"""

from __future__ import annotations

import re

from gkecap.components.issues import Issue

REGION_PATTERN = re.compile(r"[a-z]+-[a-z]+[0-9]+", re.ASCII)
ZONE_PATTERN = re.compile(r"([a-z]+-[a-z]+[0-9]+)-[a-z]", re.ASCII)


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
        example = f"{region}-a" if region else "us-east5-a"
        return [Issue(path, f"{zone!r} is not a zone; zones look like {example}")]
    if region is not None and zone_region(zone) != region:
        return [Issue(path, f"{zone!r} is not in the region {region}; allowed: zones {region}-a, {region}-b, ...")]
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
