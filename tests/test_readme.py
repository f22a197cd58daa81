"""The README's environment example is a valid environment (docs must not drift from the spec)."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path

import yaml

from gkecap.components.spec import load_stack_config

README = Path(__file__).resolve().parent.parent / "README.md"
# The example's draft reservation must start inside the booking window of this date (FACTS C).
WRITTEN = datetime(2026, 11, 22, tzinfo=timezone.utc)


def test_readme_environment_example_loads():
    [block] = re.findall(r"```yaml\n(.*?)```", README.read_text(), flags=re.S)
    spec = load_stack_config(yaml.safe_load(block)["config"], now=WRITTEN)
    assert [p.name for p in spec.node_pools] == ["h100-dws", "v6e-4x4", "h100-cal", "l4-spot"]
