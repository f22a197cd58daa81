"""The catalog is pure: importing it loads neither Pulumi nor pydantic (policies import it)."""

import subprocess
import sys


def test_import_loads_no_pulumi():
    code = "import sys, gkecap.components.catalog; print(sorted(m for m in sys.modules if m.split('.')[0] in ('pulumi', 'pulumi_gcp', 'pydantic')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
