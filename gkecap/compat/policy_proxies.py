"""The contents of pulumi_policy's unknown-checking proxies (`pulumi_policy.proxy`, 1.21), without reading through
them: the pack's adapter turns a resource's properties into plain data, unknown values included, for its rules.

Shortcut: a proxy hands out the container it wraps under the key `"__target"` (its private protocol). Fallback:
read the proxy entry by entry, each unknown value (which the proxy raises as `UnknownValueError`) put back as its
sentinel, as the container holds it.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from gkecap.compat.versions import uses_internals

_TARGET = "__target"


@cache
def proxy_types() -> tuple[type, ...]:
    """The classes of pulumi_policy's proxies (of a mapping and of a list), from its public `unknown_checking_proxy`."""
    from pulumi_policy.proxy import unknown_checking_proxy

    mapping = unknown_checking_proxy({"list": []})
    return type(mapping), type(mapping["list"])


def _hands_out_target() -> bool:
    if not uses_internals("pulumi_policy"):
        return False
    from pulumi_policy.proxy import unknown_checking_proxy

    try:
        return unknown_checking_proxy({"a": 1})[_TARGET] == {"a": 1}
    except (KeyError, TypeError):
        return False


@cache
def _shortcut() -> bool:
    return _hands_out_target()


def contents(proxy: Any) -> Any:
    """The dict or list a proxy of `proxy_types()` wraps (nested values may still be proxies)."""
    if _shortcut():
        return proxy[_TARGET]
    from pulumi_policy.proxy import UnknownValueError

    def entry(key: Any) -> Any:
        try:
            return proxy[key]
        except UnknownValueError as unknown:
            return unknown.unknown_type_sentinel

    if isinstance(proxy, Mapping):
        return {key: entry(key) for key in proxy}
    return [entry(index) for index in range(len(proxy))]
