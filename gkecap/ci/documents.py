"""The `--format json` document of invalid input (exit 2): the same keys as a plan's, nothing planned.

    {"resources": [], "violations": [], "diagnostics": [{"severity", "path", "message", "file", "line"}],
     "summary": {"valid": false, "exitCode": 2, "errors": N, "warnings": M}}
"""

from __future__ import annotations

from typing import Any

from gkecap.ci.diagnostics import ERROR, ConfigDiagnostic


def invalid_input_document(diagnostics: list[ConfigDiagnostic]) -> dict[str, Any]:
    errors = sum(1 for d in diagnostics if d.severity == ERROR)
    return {
        "resources": [],
        "violations": [],
        "diagnostics": [d.to_json() for d in diagnostics],
        "summary": {"valid": False, "exitCode": 2, "errors": errors, "warnings": len(diagnostics) - errors},
    }
