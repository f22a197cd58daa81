"""Reading a component's `pulumi.InputPropertiesError` the way the Pulumi engine shows it: one (path, reason)
per bad input."""

from __future__ import annotations

import pulumi


def lines(error: pulumi.InputPropertiesError) -> list[str]:
    """`path: reason` for each error detail (the reason alone when the input as a whole is bad)."""
    return [f"{d['property_path']}: {d['reason']}" if d["property_path"] else d["reason"] for d in error.errors or []]
