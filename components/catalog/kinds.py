"""Which table, GPU or TPU, a machine type is in: lets each table's lookup say "that is a TPU machine type"
without importing the other table.

gpu.py and tpu.py are independent tables (neither imports the other). Each registers its machine types
here as it is imported; the package's __init__ imports both, and importing any catalog module runs that
__init__ first, so both tables are registered before any lookup can run.
"""

from __future__ import annotations

from collections.abc import Iterable

from gkecap.components.catalog.errors import CatalogError

GPU = "GPU"
TPU = "TPU"

_KIND_BY_MACHINE_TYPE: dict[str, str] = {}


def register(kind: str, machine_types: Iterable[str]) -> None:
    """Record the machine types of one table; a name in two tables is a table error."""
    for name in machine_types:
        known = _KIND_BY_MACHINE_TYPE.setdefault(name, kind)
        if known != kind:
            raise CatalogError(f"machine type {name!r} is in both the {known} and the {kind} table")


def kind_of(machine_type: object) -> str | None:
    """GPU or TPU for a machine type of either table, None for any other value."""
    return _KIND_BY_MACHINE_TYPE.get(machine_type) if isinstance(machine_type, str) else None
