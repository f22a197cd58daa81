"""The distribution as users get it: the wheel pip builds from this checkout has one top-level package,
`gkecap`, with the Pulumi plugin and policy pack files, and once installed it imports and runs beside a
user's own `components` and `policies` packages.

Offline: the wheel is built with the dev venv's own setuptools (no build isolation, nothing downloaded),
installed with --no-index, and its dependencies are the dev venv's.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from testkit.distribution import ROOT, fresh_venv
from testkit.distribution import run as _run
from testkit.layout import package_folders

PULUMI_FILES = (
    "gkecap/components/PulumiPlugin.yaml",
    "gkecap/components/__main__.py",
    "gkecap/policies/PulumiPolicy.yaml",
    "gkecap/policies/__main__.py",
    "gkecap/policies/requirements.txt",
)


@pytest.fixture(scope="module")
def wheel_names(wheel) -> set[str]:
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


def test_only_top_level_package_is_gkecap(wheel_names):
    top_level = {name.split("/")[0] for name in wheel_names}
    assert {t for t in top_level if not t.endswith(".dist-info")} == {"gkecap"}


@pytest.mark.parametrize("path", PULUMI_FILES)
def test_wheel_holds_pulumi_plugin_and_policy_pack_file(wheel_names, path):
    assert path in wheel_names


def test_wheel_holds_every_package_of_the_source_folders(wheel_names):
    # Walk the folders, not setup.py's package list: a package setup.py would miss fails here.
    expected = set()
    for package, folder in package_folders().items():
        for init in (ROOT / folder).rglob("__init__.py"):
            relative = init.relative_to(ROOT / folder).as_posix()
            expected.add(f"{package.replace('.', '/')}/{relative}")
    assert {"gkecap/components/catalog/__init__.py", "gkecap/policies/rules/__init__.py"} <= expected
    assert sorted(expected - wheel_names) == []


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """A fresh venv of the dev venv's base interpreter with the wheel installed; its python. Dependencies are
    the dev venv's (testkit.distribution.fresh_venv), so `gkecap` can come only from the installed wheel."""
    python = fresh_venv(tmp_path_factory.mktemp("venv") / "venv")
    _run([python, "-m", "pip", "install", "--no-deps", "--no-index", wheel])
    return python


@pytest.fixture()
def user_repository(tmp_path) -> Path:
    """A user's Pulumi repository with its own top-level `components` and `policies` packages."""
    for name in ("components", "policies"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(f"OWNER = 'user {name}'\n")
    return tmp_path


IMPORTS = """
import json
from gkecap.components import AcceleratorNodePool, Environment
import gkecap, gkecap.components, gkecap.policies
import gkecap.policies.registry
import components, policies
print(json.dumps({
    "gkecap": gkecap.__file__,
    "gkecap.components": gkecap.components.__file__,
    "gkecap.policies": gkecap.policies.__file__,
    "components": components.__file__,
    "policies": policies.__file__,
    "owners": [components.OWNER, policies.OWNER],
}))
"""


def test_installed_wheel_imports_beside_user_packages(installed, user_repository):
    files = json.loads(_run([installed, "-c", IMPORTS], cwd=user_repository).stdout)
    venv = installed.parent.parent
    for ours in ("gkecap", "gkecap.components", "gkecap.policies"):
        assert Path(files[ours]).is_relative_to(venv), f"{ours} is not the wheel's: {files[ours]}"
    assert Path(files["gkecap.components"]).parent == Path(files["gkecap"]).parent / "components"
    assert Path(files["components"]) == user_repository / "components" / "__init__.py"
    assert Path(files["policies"]) == user_repository / "policies" / "__init__.py"
    assert files["owners"] == ["user components", "user policies"]


def test_console_script_runs(installed, user_repository):
    run = _run([installed.parent / "gkecap", "--help"], cwd=user_repository)
    assert "plan" in run.stdout


def test_wheel_holds_py_typed_and_the_license(wheel_names):
    # PEP 561: type checkers use the package's own hints only where the marker is installed beside it.
    assert "gkecap/py.typed" in wheel_names
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in wheel_names)


def test_an_installed_wheel_plans_an_environment_file_of_another_repository(installed, user_repository):
    # A pre-commit hook's or the GitHub Action's install: no stacks/ program at hand, only the user's stack file.
    (user_repository / "Pulumi.team.yaml").write_text((ROOT / "stacks" / "Pulumi.dev.yaml").read_text())
    run = _run([installed.parent / "gkecap", "check-stacks", "Pulumi.team.yaml"], cwd=user_repository)
    assert "Pulumi.team.yaml: planned" in run.stderr
