"""Pytest plugin (loaded by `-p` in pyproject): bind `gkecap` to the installed package before collection.

The project is installed in editable mode, where setuptools serves `gkecap` from a meta-path finder that runs after
the ordinary path finder. Pytest prepends each test folder without `__init__.py` to `sys.path`; once `tests/` is
there, its `tests/gkecap/` folder would be taken as a namespace package named `gkecap` by the path finder, and
`from gkecap.simulate import ...` fails ("unknown location") in any run that collects a file of `tests/` first.
Importing the package at plugin load, while `sys.path` holds no test folder yet, pins the real one in `sys.modules`.
"""
from __future__ import annotations

import gkecap

if getattr(gkecap, "__file__", None) is None:  # pragma: no cover - the environment itself is broken
    raise RuntimeError(f"gkecap resolved to a namespace package at {list(gkecap.__path__)}: is the project installed?")
