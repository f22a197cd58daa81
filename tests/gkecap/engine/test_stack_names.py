"""Stack and project names follow Pulumi's rule, and never name a path."""

import pytest

from gkecap.engine.stack_names import name_problem


@pytest.mark.parametrize("name", ["dev", "prod-eu.1", "A_b", "x" * 100])
def test_pulumi_names_are_accepted(name):
    assert name_problem(name) is None


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("../../x", "may only contain"),
        ("/abs", "may only contain"),
        ("dev\n", "may only contain"),
        ("org/proj/dev", "may only contain"),
        ("٣", "may only contain"),  # a non-ASCII digit: Pulumi's class is ASCII
        ("..", "is a path component"),
        (".", "is a path component"),
        ("", "is empty"),
        ("x" * 101, "longer than 100"),
    ],
)
def test_other_names_are_refused(name, why):
    assert why in name_problem(name)
