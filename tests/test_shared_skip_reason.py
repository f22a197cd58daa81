"""In a user's clone (no ../shared), a skipped conformance test says in one line what it needs and that CI runs it."""

from testkit.kueue_crds import requires_crds, shared_skip_reason


def test_the_skip_reason_is_one_line_naming_the_data_and_ci():
    reason = requires_crds.kwargs["reason"]
    assert "\n" not in reason and "kueue-crds" in reason and "../shared" in reason and "CI runs this test" in reason


def test_every_shared_reason_has_the_same_shape():
    assert shared_skip_reason("reference/x.csv").startswith("needs reference/x.csv in ../shared")
