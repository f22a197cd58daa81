"""Load one class of a large generated Pulumi package without the package's `__init__`, until more is asked for.

A provider SDK's package `__init__` imports every resource module of the package. `pulumi_gcp.compute` has about
280: reading `gcp.compute.FutureReservation` (a calendar reservation) costs 0.62 CPU-s and 62 MB, of which its own
module with the input and output types it needs is 0.29 CPU-s and 35 MB (measured, benchmarks/RESULTS.md, issue 14).

`defer_package_init(name)` changes a package that pulumi's `lazy_import` left unloaded (pulumi/_utils.py: a module
of class `_LazyModule` that runs the package's `__init__` on the first attribute read) into one whose missing
attributes resolve cheaply where the generated layout says where they are (pulumi's codegen: one module per
resource, named in snake_case, e.g. `future_reservation.py`; input types in `_inputs.py`), and otherwise by running
the package's `__init__` as the lazy module would have: so every name the package exports is still there, as the
same object. Only gkecap's offline engine does this, for the packages in `DEFERRED`.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import re
import sys
import types
from typing import Any

from gkecap.compat import pulumi_runtime

DEFERRED = ("pulumi_gcp.compute",)

_WORD_START = re.compile(r"(?<!^)(?=[A-Z])")


class _DeferredPackage(types.ModuleType):
    """A package whose `__init__` has not run; `__getattr__` runs only for attributes not set yet."""

    def __getattr__(self, attr: str) -> Any:
        found = _cheap(self, attr)
        if found is not None:
            setattr(self, attr, found)
            return found
        # Anything else: the package's own __init__, as pulumi's lazy module runs it, then the attribute.
        setattr(self, "__class__", types.ModuleType)  # back to a plain module (a typed assignment would narrow self)
        self.__spec__.loader.exec_module(self)  # type: ignore[union-attr]
        return getattr(self, attr)


def _cheap(package: types.ModuleType, attr: str) -> Any:
    """`attr` from the one module that defines it, or None when the layout does not say which module that is."""
    if attr.startswith("__"):
        return None
    name = package.__name__
    if _submodule_exists(name, attr):
        # A function module (`get_instance.py`) exports its function under the module's name, which `__init__`'s
        # `from .get_instance import *` binds over the module; any other (`outputs`, `future_reservation`) is the module.
        module = importlib.import_module(f"{name}.{attr}")
        return getattr(module, attr) if attr in getattr(module, "__all__", ()) else module
    candidates = [_WORD_START.sub("_", attr).lower()] if attr[:1].isupper() else []  # FutureReservation
    if attr.endswith("_output"):  # get_instance_output, beside get_instance in get_instance.py
        candidates.append(attr.removesuffix("_output"))
    if attr.endswith(("Args", "ArgsDict")):
        candidates.append("_inputs")
    for module_name in candidates:
        if _submodule_exists(name, module_name):
            module = importlib.import_module(f"{name}.{module_name}")
            if attr in getattr(module, "__all__", ()):
                return getattr(module, attr)
    return None


def _submodule_exists(package: str, name: str) -> bool:
    return f"{package}.{name}" in sys.modules or importlib.util.find_spec(f"{package}.{name}") is not None


def defer_package_init(name: str) -> bool:
    """Defer the `__init__` of package `name` (True if deferred now).

    Not imported yet: a deferred module goes into `sys.modules`, where the parent's `lazy_import(name)` finds it
    (pulumi/_utils.py returns a module already registered). Imported lazily and not loaded yet: the lazy module
    becomes a deferred one (same object). Loaded already, or not found: nothing to do."""
    module = sys.modules.get(name)
    if module is not None:
        if not pulumi_runtime.is_lazy_module(module):
            return False
        module.__class__ = _DeferredPackage
        return True
    parent, _, _ = name.rpartition(".")
    parent_spec = importlib.util.find_spec(parent)  # a top-level package's spec is found without importing it
    if parent_spec is None or not parent_spec.submodule_search_locations:
        return False
    spec = importlib.machinery.PathFinder.find_spec(name, list(parent_spec.submodule_search_locations))
    if spec is None or spec.loader is None:
        return False
    module = importlib.util.module_from_spec(spec)
    module.__class__ = _DeferredPackage
    sys.modules[name] = module
    return True


def defer_heavy_packages() -> None:
    """Defer each package of `DEFERRED` (gkecap's engine does, before it runs a program), where pulumi's
    `lazy_import` is the tested one (gkecap.compat.pulumi_runtime); elsewhere packages load as the SDK loads them."""
    if not pulumi_runtime.knows_lazy_imports():
        return
    for name in DEFERRED:
        defer_package_init(name)
