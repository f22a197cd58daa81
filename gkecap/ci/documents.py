"""The `--format json` document of invalid input (exit 2): the same keys as a plan's, nothing planned.

    {"resources": [], "violations": [], "diagnostics": [{"severity", "path", "message", "file", "line"}],
     "summary": {"valid": false, "exitCode": 2, "errors": N, "warnings": M}}
"""

from __future__ import annotations

from typing import Any

from gkecap.ci.diagnostics import ERROR, ConfigDiagnostic

# The shape of each `--format json` document, published as docs/schemas/<kind>.schema.json. The major version
# changes when a key is removed or changes meaning (CHANGELOG.md says so under "Changed", as breaking), the minor
# when keys are added; tests validate every document the CLI prints against its schema.
SCHEMA_VERSIONS = {"plan": "1.0", "simulate": "1.0", "policies": "1.0", "diff": "1.0"}


def versioned(kind: str, document: dict[str, Any]) -> dict[str, Any]:
    """`document` with its `schemaVersion` first."""
    return {"schemaVersion": SCHEMA_VERSIONS[kind], **document}


def invalid_input_document(diagnostics: list[ConfigDiagnostic]) -> dict[str, Any]:
    errors = sum(1 for d in diagnostics if d.severity == ERROR)
    return {
        "schemaVersion": SCHEMA_VERSIONS["plan"],
        "resources": [],
        "violations": [],
        "diagnostics": [d.to_json() for d in diagnostics],
        "summary": {"valid": False, "exitCode": 2, "errors": errors, "warnings": len(diagnostics) - errors},
    }
