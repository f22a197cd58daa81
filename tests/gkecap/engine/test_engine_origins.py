"""The program line that created each resource (what SARIF annotates for `--program`)."""

from gkecap.plan import plan
from testkit.engine_fixtures import PROGRAMS

RAW = PROGRAMS / "raw_resources"


def _line_of(text: str) -> int:
    lines = (RAW / "__main__.py").read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.startswith(text))


def test_each_resource_is_placed_at_its_constructor_call():
    result = plan(RAW, no_policies=True)
    file, line = result.origins.of("gcp:container/nodePool:NodePool", "v6e-16")
    assert (file, line) == (str(RAW / "__main__.py"), _line_of("pool = gcp.container.NodePool("))


def test_the_constructor_is_restored_after_the_run():
    import pulumi

    before = pulumi.Resource.__init__
    plan(RAW, no_policies=True)
    assert pulumi.Resource.__init__ is before
