"""Real consumers of what gkecap writes (kubectl, a browser, Microsoft's SARIF Multitool), found or skipped.

`.ci/run` installs them, so under `CI=true` a missing tool fails the test instead of skipping it: a consumer
that is not run must not look like a consumer that passed. In a user's clone without the tool the test skips
with a reason naming the tool and how to get it.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def require_tool(name: str, candidates: list[Path | str], how_to_get: str) -> Path:
    """The first candidate that exists (an absolute path, or a command on PATH); skip (or fail in CI) otherwise."""
    for candidate in candidates:
        found = shutil.which(candidate) if isinstance(candidate, str) else (candidate if candidate.is_file() else None)
        if found:
            return Path(found)
    reason = f"{name} is not installed ({how_to_get})"
    if in_ci():
        pytest.fail(f"{reason}: under CI=true this consumer must run; .ci/run installs it")
    pytest.skip(reason)


def sarif_multitool() -> Path:
    """Microsoft's SARIF Multitool (npm package @microsoft/sarif-multitool), as .ci/run installs it."""
    override = os.environ.get("GKECAP_SARIF_MULTITOOL")
    prefix = REPO / ".ci" / "node_modules"
    return require_tool(
        "Microsoft's SARIF Multitool",
        [*( [Path(override)] if override else []), prefix / "@microsoft" / "sarif-multitool-linux" / "Sarif.Multitool", "Sarif.Multitool"],
        "npm install --prefix .ci @microsoft/sarif-multitool",
    )
