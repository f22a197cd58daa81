"""A message about a value YAML converted quotes the value as the user wrote it (`0.10`, not 0.1)."""

import pytest

from gkecap.plan import PlanError, plan
from testkit.engine_fixtures import PROGRAMS

STACK = """\
config:
  gcp:project: acme-ml-dev
  gkecap:environment:
    region: us-east5
    cluster: {name: ml-dev}
    kueue: {version: 0.10}
"""


def test_a_kueue_version_written_as_a_number_is_quoted_as_written(tmp_path):
    stack = tmp_path / "Pulumi.dev.yaml"
    stack.write_text(STACK)
    with pytest.raises(PlanError) as failure:
        plan(PROGRAMS / "tiny", config_file=stack, no_policies=True)
    [problem] = failure.value.problems
    assert problem.endswith("gkecap:environment.kueue.version: 0.10 (read as 0.1) is not a string")
    [diagnostic] = failure.value.diagnostics
    assert (diagnostic.path, diagnostic.line) == ("kueue.version", 6)


def test_a_quoted_version_is_shown_as_is(tmp_path):
    stack = tmp_path / "Pulumi.dev.yaml"
    stack.write_text(STACK.replace("0.10", '"0.19.2"'))
    with pytest.raises(PlanError) as failure:
        plan(PROGRAMS / "tiny", config_file=stack, no_policies=True)
    assert failure.value.problems[0].endswith("kueue.version: '0.19.2' is not a Kueue release; write it like v0.19.2")
