"""Whatever a file holds, loading ends in a spec or a SpecError (never another exception, so never a
traceback from `gkecap plan`)."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gkecap.components.spec import SpecError, load_environment
from testkit.spec_data import NOW, dev, prod

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 300) | st.floats(allow_nan=False, width=32)
    | st.sampled_from(["", "x", "us-east5-a", "a3-highgpu-8g", "4x4", "queued", "v6e-16", "2026-12-07T00:00:00Z"]),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.sampled_from(["name", "quota", "x"]), children,
                                                                      max_size=3),
    max_leaves=6,
)


def paths_of(value: Any, prefix: tuple = ()) -> list[tuple]:
    found = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            found += paths_of(child, prefix + (key,))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += paths_of(child, prefix + (index,))
    return found


def replace(document: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    parent = document
    for part in path[:-1]:
        parent = parent[part]
    parent[path[-1]] = new
    return document


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.sampled_from([dev, prod]), data=st.data())
def test_corrupted_environments_fail_cleanly(base, data):
    document = base()
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths_of(document)))
        document = replace(document, path, data.draw(JSON_VALUES))
    try:
        load_environment(document, now=NOW)
    except SpecError as err:
        assert err.issues
        assert all(issue.message for issue in err.issues)
