"""Names Google Cloud accepts: projects, Compute Engine resources (reservations, blocks), GKE clusters and
node pools, service accounts, IAM principals. Each check returns issues naming the value and what is allowed."""

from __future__ import annotations

import re

from gkecap.components.issues import Issue

# Compute Engine resource names (RFC 1035): lowercase letters, digits, hyphens; a letter first; at most 63
# [S4 FutureReservation.name].
GCE_NAME_MAX = 63
GCE_NAME_PATTERN = re.compile(r"[a-z]([-a-z0-9]*[a-z0-9])?", re.ASCII)
GCE_NAME_RULE = (
    "allowed: lowercase letters, digits and hyphens, starting with a letter and ending with a letter or digit, "
    f"at most {GCE_NAME_MAX} characters"
)
# GKE cluster names: lowercase, a letter first, at most 40 characters (gcloud container clusters create).
CLUSTER_NAME_MAX = 40
# GKE node pool names: "(?:[a-z](?:[-a-z0-9]{0,38}[a-z0-9])?)", at most 40 characters (GKE API error quoted
# in pulumi/pulumi-gcp#1510).
NODE_POOL_NAME_MAX = 40
# Project IDs: 6-30 lowercase letters, digits and hyphens, a letter first, not ending with a hyphen; legacy
# domain-scoped IDs carry a `domain:` prefix.
PROJECT_PATTERN = re.compile(r"([a-z][-a-z0-9.]*[a-z0-9]:)?[a-z][-a-z0-9]{4,28}[a-z0-9]", re.ASCII)
# Email addresses: the WHATWG HTML "valid e-mail address" (https://html.spec.whatwg.org/multipage/input.html
# #valid-e-mail-address), ASCII only, with a dotted domain: no `<`, `>`, quotes, spaces or control characters,
# which have no place in an IAM principal or an RBAC subject.
_EMAIL_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
EMAIL_PATTERN = re.compile(rf"[A-Za-z0-9.!#$%&'*+/=?^_`{{|}}~-]+@{_EMAIL_LABEL}(?:\.{_EMAIL_LABEL})+", re.ASCII)
# The default Compute Engine service account: <project number>-compute@developer.gserviceaccount.com.
DEFAULT_COMPUTE_SA_PATTERN = re.compile(r"[0-9]+-compute@developer\.gserviceaccount\.com", re.ASCII)
# IAM principal prefixes a team member may use (GKE RBAC binds Google users, groups and service accounts).
MEMBER_KINDS = ("user", "group", "serviceAccount")


def is_gce_name(value: object, max_length: int = GCE_NAME_MAX) -> bool:
    return isinstance(value, str) and len(value) <= max_length and GCE_NAME_PATTERN.fullmatch(value) is not None


def gce_name_issues(path: str, value: str, what: str) -> list[Issue]:
    if is_gce_name(value):
        return []
    return [Issue(path, f"{value!r} is not a {what}; {GCE_NAME_RULE}")]


def project_issues(path: str, project: str) -> list[Issue]:
    if isinstance(project, str) and PROJECT_PATTERN.fullmatch(project):
        return []
    return [
        Issue(
            path,
            f"{project!r} is not a Google Cloud project ID; IDs are 6-30 lowercase letters, digits and hyphens,"
            " starting with a letter",
        )
    ]


def cluster_name_issues(path: str, name: str) -> list[Issue]:
    if is_gce_name(name, CLUSTER_NAME_MAX):
        return []
    return [
        Issue(
            path,
            f"{name!r} is not a valid GKE cluster name; allowed: lowercase letters, digits and hyphens, starting "
            f"with a letter, at most {CLUSTER_NAME_MAX} characters",
        )
    ]


def is_default_compute_service_account(email: str) -> bool:
    """True for the project's default Compute Engine service account (or the literal "default")."""
    return email == "default" or DEFAULT_COMPUTE_SA_PATTERN.fullmatch(email) is not None


def service_account_issues(path: str, email: object) -> list[Issue]:
    """Nodes run as a dedicated, least-privilege service account, never the default compute one."""
    if not isinstance(email, str) or not email:
        return [Issue(path, "is required: the email of a dedicated node service account")]
    if is_default_compute_service_account(email):
        return [
            Issue(
                path,
                f"{email!r} is the Compute Engine default service account (Editor on the project); use a dedicated"
                " least-privilege account such as gke-nodes@PROJECT.iam.gserviceaccount.com",
            )
        ]
    if not EMAIL_PATTERN.fullmatch(email):
        return [Issue(path, f"{email!r} is not a service account email (name@project.iam.gserviceaccount.com)")]
    return []


def member_issues(path: str, member: str) -> list[Issue]:
    kind, _, email = member.partition(":")
    if kind in MEMBER_KINDS and EMAIL_PATTERN.fullmatch(email):
        return []
    return [Issue(path, f"{member!r} is not a principal; allowed: user:EMAIL, group:EMAIL or serviceAccount:EMAIL")]
