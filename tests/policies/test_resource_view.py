"""gkecap.policies.resource_view: the plain view rules are written against."""

from gkecap.policies.resource_view import UNKNOWN, ResourceView, is_unknown


def test_default_urn_has_the_engine_shape():
    assert ResourceView("gcp:container/nodePool:NodePool", "pool").urn == "urn:pulumi:stack::project::gcp:container/nodePool:NodePool::pool"


def test_get_reads_dotted_paths_and_list_indexes():
    view = ResourceView("t", "n", props={"nodeConfig": {"guestAccelerators": [{"count": 8}]}})
    assert view.get("nodeConfig.guestAccelerators.0.count") == 8
    assert view.get("nodeConfig.guestAccelerators.1.count", "none") == "none"
    assert view.get("nodeConfig.machineType") is None


def test_unknown_is_one_marker():
    assert is_unknown(ResourceView("t", "n", props={"x": UNKNOWN}).get("x"))
    assert not is_unknown("04da6b54-80e4-46f7-96ec-b56ff0331ba9")
