"""Property-based checks of the slice math and of invalid input (hypothesis; modest example counts)."""

import string

from hypothesis import given, settings
from hypothesis import strategies as st

from gkecap.components.catalog import TPU_FAMILIES, CatalogError, tpu_slice

MACHINE_TYPES = [(f, mt) for f in TPU_FAMILIES for mt in f.machine_types]


@st.composite
def valid_pairs(draw):
    family, mt = draw(st.sampled_from(MACHINE_TYPES))
    return mt.name, draw(st.sampled_from(mt.valid_topologies()))


@st.composite
def arbitrary_pairs(draw):
    family, mt = draw(st.sampled_from(MACHINE_TYPES))
    sizes = draw(st.lists(st.integers(min_value=1, max_value=40), min_size=family.dims, max_size=family.dims))
    return family, mt, "x".join(str(s) for s in sizes)


@settings(max_examples=150, deadline=None)
@given(valid_pairs())
def test_valid_topology_chips_equal_vms_times_chips_per_vm(pair):
    s = tpu_slice(*pair)
    assert s.chips == s.vms * s.chips_per_vm


@settings(max_examples=150, deadline=None)
@given(valid_pairs())
def test_multi_host_exactly_when_more_than_one_vm(pair):
    s = tpu_slice(*pair)
    assert s.multi_host == (s.vms > 1) and s.max_nodes == s.vms


@settings(max_examples=150, deadline=None)
@given(valid_pairs())
def test_multi_host_slice_carries_topology_in_exactly_one_place(pair):
    s = tpu_slice(*pair)
    places = [p for p in (s.tpu_topology, s.workload_policy) if p is not None]
    assert len(places) == (1 if s.multi_host else 0)


@settings(max_examples=200, deadline=None)
@given(arbitrary_pairs())
def test_topology_is_accepted_iff_listed_and_otherwise_explained(triple):
    family, mt, topology = triple
    if topology in mt.valid_topologies():
        assert tpu_slice(mt.name, topology).topology == topology
        return
    try:
        tpu_slice(mt.name, topology)
    except CatalogError as err:
        message = str(err)
        assert topology in message and mt.name in message and family.name in message and "valid: " in message
    else:
        raise AssertionError(f"{topology} accepted on {mt.name}")


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(MACHINE_TYPES), st.text(alphabet=string.printable, max_size=12))
def test_garbage_topology_raises_catalog_error_only(machine, text):
    family, mt = machine
    try:
        s = tpu_slice(mt.name, text)
    except CatalogError as err:
        assert "valid: " in str(err)
    else:
        assert s.topology in mt.valid_topologies()


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=string.ascii_lowercase + string.digits + "-", min_size=1, max_size=24))
def test_unknown_machine_type_lists_known_types(name):
    if name in {mt.name for _, mt in MACHINE_TYPES}:
        return
    try:
        tpu_slice(name, "2x2")
    except CatalogError as err:
        listed = [mt.name for _, mt in MACHINE_TYPES if mt.name in str(err)]
        assert "known" in str(err) and listed
    else:
        raise AssertionError(f"{name} accepted as a TPU machine type")
