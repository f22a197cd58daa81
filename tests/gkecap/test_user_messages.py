"""Messages never leak internals: no research-note keys (`FACTS C`) in any string the code builds for users.

Citations belong in comments and docstrings (and the catalog's `source` data, which no command prints); a
string literal elsewhere can end up in an error, a violation or a report.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ["components", "policies", "gkecap", "stacks"]
CITATION_DATA = ROOT / "components" / "catalog"  # `source=` fields: data, shown by no command


def _string_literals(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node.lineno, node.value


def test_no_string_for_users_cites_the_research_notes():
    leaks = [
        f"{path.relative_to(ROOT)}:{line}: {text[:60]!r}"
        for folder in SCANNED
        for path in sorted((ROOT / folder).rglob("*.py"))
        if CITATION_DATA not in path.parents
        for line, text in _string_literals(path)
        if "FACTS" in text or "error: error" in text
    ]
    assert leaks == []


def test_the_catalog_command_does_not_print_citations():
    from typer.testing import CliRunner

    from gkecap.cli import app

    result = CliRunner().invoke(app, ["catalog", "--format", "json"])
    assert result.exit_code == 0 and "FACTS" not in result.stdout
