"""The package type-checks: mypy, with pyproject's [tool.mypy] and the public stub packages of the dev extras, finds
no error in gkecap, gkecap.components and gkecap.policies (the package ships py.typed, so its users' checkers read
these annotations)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
# The wheel's layout (setup.py FOLDERS): components/ and policies/ install inside gkecap/.
FOLDERS = {"gkecap": "gkecap", "gkecap/components": "components", "gkecap/policies": "policies"}


def _installed_layout() -> Path:
    """A tree of symlinks laid out as the wheel installs the package (in .mypy_cache, at a fixed place so mypy's
    cache stays valid between runs)."""
    root = REPO / ".mypy_cache" / "layout"
    package = root / "gkecap"
    package.mkdir(parents=True, exist_ok=True)
    for entry in (REPO / FOLDERS["gkecap"]).iterdir():
        if entry.name != "__pycache__":
            _link(package / entry.name, entry)
    for inner, folder in FOLDERS.items():
        if inner != "gkecap":
            _link(root / inner, REPO / folder)
    for stale in package.iterdir():  # a module removed from gkecap/ since the last run
        if stale.is_symlink() and not stale.exists():
            stale.unlink()
    return root


def _link(link: Path, target: Path) -> None:
    if link.is_symlink() and link.resolve() == target.resolve():
        return
    if link.is_symlink():
        link.unlink()
    link.symlink_to(target)


def _mypy(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(REPO / "pyproject.toml"),
         "--cache-dir", str(REPO / ".mypy_cache" / "cache"), *args],
        cwd=cwd, capture_output=True, text=True, timeout=900,
    )


def test_mypy_finds_no_error_in_the_package():
    run = _mypy("-p", "gkecap", cwd=_installed_layout())
    assert run.returncode == 0, run.stdout + run.stderr


def test_mypy_with_this_configuration_reports_a_type_error(tmp_path):
    # The check above can fail: the same configuration rejects a wrong type.
    (tmp_path / "wrong.py").write_text("def nodes() -> int:\n    return 'four'\n")
    run = _mypy("wrong.py", cwd=tmp_path)
    assert run.returncode == 1 and 'Incompatible return value type (got "str", expected "int")' in run.stdout
