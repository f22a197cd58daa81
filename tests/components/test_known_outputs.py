"""known(value): one Output that resolves to what Output.from_input(value) resolves to."""

import pulumi

from gkecap.components._support import known

VALUE = {"team-a": {"clusterQueue": "team-a", "namespaces": ["a", "a-dev"], "cohort": None}, "flavors": ["h100", "v6e"]}


def test_known_resolves_like_from_input(pulumi_run):
    def program() -> None:
        pulumi.export("known", known(VALUE))
        pulumi.export("fromInput", pulumi.Output.from_input(VALUE))

    stack = pulumi_run(program).one("pulumi:pulumi:Stack")
    assert stack.outputs["known"] == stack.outputs["fromInput"] == VALUE

