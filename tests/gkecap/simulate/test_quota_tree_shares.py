"""`quota_tree.share_order` orders dominant resource shares exactly as `compare_shares` (Kueue's fair_sharing.go
comparison) does: the fair-sharing preemption walk compares keys instead of calling it per pair."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from gkecap.simulate.quota_tree import NEGATIVE_SHARE, Share, compare_shares, share_order

SHARES = st.one_of(
    st.just(NEGATIVE_SHARE),
    st.builds(Share, weight=st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.0]),
              ratio=st.sampled_from([0.0, 1.0, 125.0, 250.0, 333.0, 500.0, 1000.0]), borrowing=st.booleans()))


@given(SHARES, SHARES)
def test_share_order_compares_as_compare_shares(a, b):
    x, y = share_order(a), share_order(b)
    assert compare_shares(a, b) == (x > y) - (x < y)
