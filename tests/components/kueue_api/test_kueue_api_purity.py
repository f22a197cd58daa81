"""gkecap.components.kueue_api is pure: the policy pack imports it without Pulumi, and it reads no CRD file at runtime."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import gkecap.components.kueue_api

PACKAGE = Path(gkecap.components.kueue_api.__file__).parent


def test_importing_and_validating_loads_no_pulumi() -> None:
    code = ("import sys, gkecap.components.kueue_api as k; k.validate_kueue_object({'apiVersion': 'kueue.x-k8s.io/v1beta2', "
            "'kind': 'Cohort', 'metadata': {'name': 'c'}}); "
            "sys.exit(any(m.split('.')[0] in ('pulumi', 'pulumi_kubernetes', 'celpy', 'jsonschema', 'yaml') "
            "for m in sys.modules))")
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_no_crd_file_is_read_at_runtime() -> None:
    sources = "".join(p.read_text() for p in PACKAGE.glob("*.py"))
    assert "open(" not in sources and "read_text" not in sources and "import yaml" not in sources
