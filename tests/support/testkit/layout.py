"""Where the distribution's packages come from: setup.py's FOLDERS (package name -> source folder), read without
running setup.py, so the tests and the build agree on one mapping."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]  # tests/support/testkit -> the repository


def package_folders() -> dict[str, str]:
    tree = ast.parse((ROOT / "setup.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "FOLDERS" for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError("setup.py defines no FOLDERS")
