"""No module outside `gkecap.compat` touches a private name of pulumi, pulumi_policy or grpc (issue 28): every
shortcut through their internals has its guard and public fallback in one place. Read from the source (ast)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from testkit.layout import package_folders

ROOT = Path(__file__).resolve().parents[3]
LIBRARIES = ("pulumi", "pulumi_policy", "grpc")


def _sources() -> list[tuple[str, Path]]:
    found = []
    for package, folder in package_folders().items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            module = ".".join([package, *path.relative_to(ROOT / folder).with_suffix("").parts])
            if not module.startswith("gkecap.compat"):
                found.append((module, path))
    return found


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _from_library(module: str | None) -> bool:
    return module is not None and module.split(".")[0] in LIBRARIES


def private_uses(source: str) -> list[str]:
    """`line: what` for each private name of the libraries the source reaches."""
    tree = ast.parse(source)
    aliases: set[str] = set()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            aliases |= {(a.asname or a.name).split(".")[0] for a in node.names if _from_library(a.name)}
        elif isinstance(node, ast.ImportFrom) and not node.level and _from_library(node.module):
            for alias in node.names:
                if _private(alias.name) or any(_private(part) for part in node.module.split(".")):
                    found.append(f"{node.lineno}: from {node.module} import {alias.name}")
                aliases.add(alias.asname or alias.name)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            base = node.value
            while isinstance(base, ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name) and base.id in aliases:
                found.append(f"{node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.Attribute) and node.attr in ("__closure__", "co_freevars"):
            found.append(f"{node.lineno}: {ast.unparse(node)}")  # reading a library function's closure
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and "_PolicyAnalyzerServicer" in node.value:
            found.append(f"{node.lineno}: {node.value!r}")
    return found


def test_the_check_finds_each_kind_of_private_use():
    source = ("from pulumi.runtime.sync_await import _sync_await\nfrom pulumi.runtime import settings\n"
              "settings._get_rpc_manager()\nimport pulumi_policy.policy as p\np._PolicyAnalyzerServicer\n"
              "f.__closure__\nx = '_PolicyAnalyzerServicer__policies'\n")
    assert sorted(int(line.split(":")[0]) for line in private_uses(source)) == [1, 3, 5, 6, 7]


def test_public_names_and_our_own_private_names_pass():
    assert private_uses("import pulumi\nfrom pulumi.runtime import mocks\nmocks.MockMonitor\nself._lock\n"
                        "from gkecap.policies.rule_runner import _Reporter\n") == []


@pytest.mark.parametrize("module,path", _sources(), ids=[m for m, _ in _sources()])
def test_no_private_name_outside_compat(module, path):
    assert private_uses(path.read_text()) == [], f"{path.relative_to(ROOT)} reaches library internals; use gkecap.compat"
