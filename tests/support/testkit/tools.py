"""External command-line tools a test runs for real (kubectl): found on PATH, or the test is skipped with a reason
naming the tool; under CI=true (`.ci/run` installs them) a missing tool fails the test instead."""

from __future__ import annotations

import os
import shutil

import pytest


def require_tool(name: str, how: str) -> str:
    """The path of `name`; skip (fail in CI) when it is not installed. `how` says how to install it."""
    path = shutil.which(name)
    if path is None:
        message = f"needs {name} on PATH ({how}); CI installs it"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path
