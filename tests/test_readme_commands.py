"""Every command in the README's shell blocks works as written on a fresh clone after `make plan`/`make test`.

The commands run in a directory laid out like a clone (its `stacks/`, `Pulumi.yaml` and `.venv/bin/gkecap`
point at this checkout and the venv running the tests), so they write their `out/` there, not into the
checkout. `make` lines are checked with `make -n` (the target exists and runs what it says; `make test` would
run this test again). Lines that need the Pulumi, gcloud or kubectl CLI and a cloud account are listed, not run.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
CLOUD_TOOLS = ("pulumi ", "gcloud ", "kubectl ", "helm ", "argocd ")  # kubectl, helm, argocd: a running cluster


def _commands() -> list[str]:
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", README.read_text(), flags=re.S):
        for line in block.splitlines():
            command = re.sub(r"\s+#.*$", "", line).strip()
            if command and not command.startswith("#"):
                commands.append(command)
    return commands


COMMANDS = _commands()
GKECAP = [c for c in COMMANDS if c.startswith(".venv/bin/gkecap ")]
MAKE = [c for c in COMMANDS if c.startswith("make ")]
CLOUD = [c for c in COMMANDS if any(c.startswith(tool) or f"| {tool}" in c or f"({tool}" in c for tool in CLOUD_TOOLS)]


def test_every_command_is_run_checked_or_needs_a_cloud_cli():
    assert sorted(set(COMMANDS) - set(GKECAP) - set(MAKE) - set(CLOUD)) == []
    assert not any(c.startswith("gkecap ") for c in COMMANDS)  # not on PATH after `make`: .venv/bin/gkecap


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    clone = tmp_path_factory.mktemp("clone")
    for name in ("stacks", "Pulumi.yaml"):
        (clone / name).symlink_to(ROOT / name)
    (clone / ".venv" / "bin").mkdir(parents=True)
    (clone / ".venv" / "bin" / "gkecap").symlink_to(Path(sys.executable).with_name("gkecap"))
    return clone


@pytest.mark.parametrize("command", GKECAP)
def test_gkecap_command_runs_as_written(command, clone):
    result = subprocess.run(["bash", "-c", command], cwd=clone, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert result.stdout or list((clone / "out").rglob("*"))


@pytest.mark.parametrize("command", MAKE)
def test_make_target_exists(command):
    result = subprocess.run(["make", "-n", *command.split()[1:]], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
