"""The formats of the environment file's values, as pydantic `Annotated` types: one place, so `spec.models`
reads as the contract of the file.

Each type validates with the rule of its layer (`k8s.names`, `gke.locations`, `gke.resource_names`,
`gke.versions`, `kueue_api.releases`, `k8s.quantity`); a bad value becomes an issue at its YAML path naming
the value and what is allowed. Whole numbers accept whole-valued doubles (`2.0`, as other Pulumi languages
send every number) but not `2.5`, strings or booleans. Numbers are bounded by what the APIs accept (GKE's
and Kubernetes' fields are 32-bit).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Callable

from pydantic import AfterValidator, BeforeValidator, Field

from gkecap.components.gke import calendar_window
from gkecap.components.gke.api_ranges import INT32_MAX, INT32_MIN  # GKE's 32-bit fields
from gkecap.components.gke.locations import region_issues, zone_issues
from gkecap.components.gke.resource_names import (
    EMAIL_PATTERN,
    gce_name_issues,
    member_issues,
    project_issues,
    service_account_issues,
)
from gkecap.components.gke.versions import version_issues
from gkecap.components.issues import Issue
from gkecap.components.k8s.duration import DurationError, parse_duration
from gkecap.components.k8s.names import dns1123_label_errors, dns1123_subdomain_errors
from gkecap.components.kueue_api.releases import positive_quantity_issues, release_issues


def _checked(problem: Callable[[Any], str | None]) -> AfterValidator:
    def validate(value: Any) -> Any:
        message = problem(value)
        if message:
            raise ValueError(message)
        return value

    return AfterValidator(validate)


def whole_number(value: Any) -> Any:
    """A whole-valued double as the integer it spells (other languages send every number as a double); any
    other value unchanged, for the checks to judge."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _window_start(value: Any) -> Any:
    # The component's parser: a date means 00:00 UTC, a time carries its zone; never a number (pydantic would
    # read Unix seconds into a window that cannot be cancelled).
    return calendar_window.parse_start(value)


def _follows(check: Callable[[str, Any], list[Issue]]) -> AfterValidator:
    """Validate with the rule of the layer that owns the format: `check(path, value) -> issues`, the same
    function the components and the policy pack call."""
    return _checked(lambda value: "; ".join(issue.message for issue in check("", value)) or None)


def _errors(errors: list[str], value: Any, what: str) -> str | None:
    return f"{value!r} is not {what}: {'; '.join(errors)}" if errors else None


# --- numbers ----------------------------------------------------------------------------------------------

WholeNumber = Annotated[int, BeforeValidator(whole_number), Field(strict=True, ge=INT32_MIN, le=INT32_MAX)]
PositiveInt = Annotated[int, BeforeValidator(whole_number), Field(strict=True, ge=1, le=INT32_MAX)]
NonNegativeInt = Annotated[int, BeforeValidator(whole_number), Field(strict=True, ge=0, le=INT32_MAX)]
StrictBool = Annotated[bool, Field(strict=True)]
def _weight(value: float) -> float:
    # Kueue's webhook: fairSharing.weight >= 0 and, when not 0, more than 1n (KUEUE_VALIDATION R-CQ-12, R-CO-1);
    # 0 makes a queue the last to borrow and the first to be reclaimed from.
    if 0 < value <= 1e-9:
        raise ValueError(f"{value!r} is too small; a weight is 0 or more than 0.000000001 (1n)")
    return value


Weight = Annotated[float, Field(ge=0, le=INT32_MAX), AfterValidator(_weight)]
Timestamp = Annotated[datetime, BeforeValidator(_window_start)]

# --- Kubernetes -------------------------------------------------------------------------------------------

DnsLabel = Annotated[str, _checked(lambda v: _errors(dns1123_label_errors(v), v, "a DNS-1123 label"))]
DnsSubdomain = Annotated[str, _checked(lambda v: _errors(dns1123_subdomain_errors(v), v, "a DNS-1123 subdomain"))]


PositiveQuantity = Annotated[str, _follows(positive_quantity_issues)]


def _duration_problem(value: Any, *, positive: bool) -> str | None:
    try:
        seconds = parse_duration(value)
    except DurationError as err:
        return str(err)
    if seconds < 0 or (positive and seconds == 0):
        return f"{value!r} must be {'greater than 0' if positive else 'at least 0'}, e.g. 10m"
    return None


# Go durations as Kueue's Configuration reads them (metav1.Duration); Kueue refuses a negative one and requires a
# non-zero waitForPodsReady.timeout (pkg/config/validation.go validateWaitForPodsReady @ v0.19.2).
PositiveDuration = Annotated[str, _checked(lambda v: _duration_problem(v, positive=True))]
NonNegativeDuration = Annotated[str, _checked(lambda v: _duration_problem(v, positive=False))]

# --- Google Cloud -----------------------------------------------------------------------------------------

ProjectId = Annotated[str, _follows(project_issues)]
Region = Annotated[str, _follows(region_issues)]
Zone = Annotated[str, _follows(zone_issues)]
GceName = Annotated[str, _follows(lambda path, value: gce_name_issues(path, value, "Compute Engine name"))]
ServiceAccount = Annotated[str, _follows(service_account_issues)]
# An email address to contact (a Cloud Quotas preference's contactEmail): the same pattern as service accounts'.
Email = Annotated[str, _checked(lambda v: None if EMAIL_PATTERN.fullmatch(v) else f"{v!r} is not an email address such as ml-platform@acme.example")]
Principal = Annotated[str, _follows(member_issues)]
GkeVersion = Annotated[str, _follows(version_issues)]
KueueVersion = Annotated[str, _follows(release_issues)]
