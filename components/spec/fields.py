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
from gkecap.components.gke.locations import is_region, is_zone
from gkecap.components.gke.resource_names import (
    EMAIL_PATTERN,
    GCE_NAME_RULE,
    PROJECT_PATTERN,
    is_gce_name,
    member_issues,
)
from gkecap.components.gke.versions import LATEST, parse_gke_version
from gkecap.components.k8s.names import dns1123_label_errors, dns1123_subdomain_errors
from gkecap.components.k8s.quantity import QuantityError, parse_quantity
from gkecap.components.kueue_api.releases import DEFAULT_KUEUE_VERSION, parse_kueue_release

INT32_MAX = 2**31 - 1
INT32_MIN = -(2**31)


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


def _errors(errors: list[str], value: Any, what: str) -> str | None:
    return f"{value!r} is not {what}: {'; '.join(errors)}" if errors else None


# --- numbers ----------------------------------------------------------------------------------------------

WholeNumber = Annotated[int, BeforeValidator(whole_number), Field(strict=True, ge=INT32_MIN, le=INT32_MAX)]
PositiveInt = Annotated[int, BeforeValidator(whole_number), Field(strict=True, ge=1, le=INT32_MAX)]
NonNegativeInt = Annotated[int, BeforeValidator(whole_number), Field(strict=True, ge=0, le=INT32_MAX)]
StrictBool = Annotated[bool, Field(strict=True)]
Weight = Annotated[float, Field(gt=0, le=INT32_MAX)]
Timestamp = Annotated[datetime, BeforeValidator(_window_start)]

# --- Kubernetes -------------------------------------------------------------------------------------------

DnsLabel = Annotated[str, _checked(lambda v: _errors(dns1123_label_errors(v), v, "a DNS-1123 label"))]
DnsSubdomain = Annotated[str, _checked(lambda v: _errors(dns1123_subdomain_errors(v), v, "a DNS-1123 subdomain"))]


def _quantity_problem(value: str) -> str | None:
    try:
        positive = parse_quantity(value).value > 0
    except QuantityError:
        positive = False
    return None if positive else f"{value!r} is not a positive Kubernetes quantity; e.g. 500m, 1, 512Mi or 1Gi"


PositiveQuantity = Annotated[str, _checked(_quantity_problem)]

# --- Google Cloud -----------------------------------------------------------------------------------------

ProjectId = Annotated[
    str,
    _checked(
        lambda v: None
        if PROJECT_PATTERN.fullmatch(v)
        else f"{v!r} is not a Google Cloud project ID; IDs are 6-30 lowercase letters, digits and hyphens, "
        "starting with a letter"
    ),
]
Region = Annotated[
    str,
    _checked(lambda v: None if is_region(v) else f"{v!r} is not a Google Cloud region; regions look like us-east5 or europe-west4"),
]
Zone = Annotated[str, _checked(lambda v: None if is_zone(v) else f"{v!r} is not a zone; zones look like us-east5-a")]
GceName = Annotated[str, _checked(lambda v: None if is_gce_name(v) else f"{v!r} is not a Compute Engine name; {GCE_NAME_RULE}")]
Email = Annotated[
    str,
    _checked(lambda v: None if EMAIL_PATTERN.fullmatch(v) else f"{v!r} is not a service account email (name@project.iam.gserviceaccount.com)"),
]
Principal = Annotated[str, _checked(lambda v: "; ".join(i.message for i in member_issues("", v)) or None)]
GkeVersion = Annotated[
    str,
    _checked(
        lambda v: None
        if v.strip().lower() == LATEST or parse_gke_version(v) is not None
        else f"{v!r} is not a GKE version; write it like 1.33.2-gke.1240000, 1.33 or latest"
    ),
]
KueueVersion = Annotated[
    str,
    _checked(
        lambda v: None
        if parse_kueue_release(v) is not None
        else f"{v!r} is not a Kueue release; write it like {DEFAULT_KUEUE_VERSION}"
    ),
]
