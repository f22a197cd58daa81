"""The README's policy-config example works as written, through the real CLI (console script, subprocess)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GKECAP = Path(sys.executable).parent / "gkecap"  # the console script of the venv pytest runs in


def test_readme_policy_config_example_runs_through_the_cli(tmp_path):
    # The first JSON block of the README's "Policy config" section.
    section = (ROOT / "README.md").read_text().split("### Policy config", 1)[1]
    example = re.search(r"```json\n(.*?)```", section, flags=re.S).group(1)
    config = tmp_path / "policy-config.json"
    config.write_text(example)
    run = subprocess.run(
        [str(GKECAP), "plan", "--stack", "dev", "--policy-config", str(config), "--format", "json",
         "--out", str(tmp_path / "out")],
        capture_output=True, text=True, cwd=ROOT, timeout=300,
    )
    assert run.returncode == 0, run.stderr
    # team-quota-layers: advised while the environment's Kueue does not manage jobs without a queue name (issue 23).
    violations = [v for v in json.loads(run.stdout)["violations"] if v["policy"] != "team-quota-layers"]
    # The example's limit of 8 accelerators per team, made advisory, applies to both dev teams (12 each).
    assert sorted((v["policy"], v["enforcementLevel"]) for v in violations) == [
        ("team-accelerator-limit", "advisory"), ("team-accelerator-limit", "advisory")]
