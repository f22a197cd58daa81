"""Team namespaces and RBAC subjects: principals become GKE RBAC subjects; bad members are refused by name."""

from __future__ import annotations

import pytest

from gkecap.components.kubernetes_objects.team_access import (
    TeamAccessError,
    namespace,
    namespace_selector,
    subject,
    subjects,
    team_role_bindings,
)


@pytest.mark.parametrize(
    ("member", "expected"),
    [
        ("user:ana@acme.example", {"kind": "User", "name": "ana@acme.example"}),
        ("group:ml@acme.example", {"kind": "Group", "name": "ml@acme.example"}),
        # GKE RBAC knows a Google service account as a User named by its email.
        ("serviceAccount:ci@acme-ml.iam.gserviceaccount.com",
         {"kind": "User", "name": "ci@acme-ml.iam.gserviceaccount.com"}),
    ],
)
def test_principals_become_rbac_subjects(member, expected):
    assert subject(member) == {**expected, "apiGroup": "rbac.authorization.k8s.io"}


@pytest.mark.parametrize("member", ["ana@acme.example", "robot:x@acme.example", "user:ana", "", None])
def test_a_member_that_is_not_a_principal_is_refused_with_its_path(member):
    with pytest.raises(TeamAccessError, match=r"teams\[2\]\.members\[0\]: .* allowed: user:EMAIL"):
        subjects([member], "teams[2].members")


def test_duplicate_members_bind_once():
    assert len(subjects(["user:a@x.example", "user:a@x.example", "group:a@x.example"])) == 2


def test_no_members_no_bindings():
    assert team_role_bindings("vision", ["vision"], []) == []


def test_bindings_are_namespaced_and_name_the_kueue_release_role():
    bindings = team_role_bindings("vision", ["vision", "vision-b"], ["user:a@x.example"], kueue_fullname="kq")
    assert [(b["kind"], b["metadata"]["namespace"], b["roleRef"]["name"]) for b in bindings] == [
        ("RoleBinding", "vision", "gkecap-team-member"), ("RoleBinding", "vision", "kq-batch-user-role"),
        ("RoleBinding", "vision-b", "gkecap-team-member"), ("RoleBinding", "vision-b", "kq-batch-user-role")]


def test_namespace_selector_is_never_the_match_everything_selector():
    selector = namespace_selector("vision", ["b", "a", "a"])
    assert selector != {} and selector["matchExpressions"][0]["values"] == ["a", "b"]


def test_namespace_is_labelled_with_its_team():
    assert namespace("vision", "vision-eval")["metadata"] == {
        "name": "vision-eval", "labels": {"app.kubernetes.io/managed-by": "gke-capacity", "gkecap.dev/team": "vision"}}
