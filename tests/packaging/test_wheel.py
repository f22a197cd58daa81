"""The distribution as users get it: the wheel pip builds from this checkout has one top-level package,
`gkecap`, with the Pulumi plugin and policy pack files, and once installed it imports and runs beside a
user's own `components` and `policies` packages.

Offline: the wheel is built with the dev venv's own setuptools (no build isolation, nothing downloaded),
installed with --no-index, and its dependencies are the dev venv's.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
import zipfile
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from testkit.layout import package_folders

ROOT = Path(__file__).resolve().parents[2]
DEV_PYTHON = sys.executable  # pytest runs from the dev venv (.venv/bin/pytest)

PULUMI_FILES = (
    "gkecap/components/PulumiPlugin.yaml",
    "gkecap/components/__main__.py",
    "gkecap/policies/PulumiPolicy.yaml",
    "gkecap/policies/__main__.py",
    "gkecap/policies/requirements.txt",
)


def _env() -> dict[str, str]:
    """The environment for child processes, without anything that would put other code on their path."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")}
    env["PIP_NO_INPUT"] = "1"
    return env


def _run(args, **kwargs) -> subprocess.CompletedProcess[str]:
    run = subprocess.run([str(a) for a in args], capture_output=True, text=True, env=_env(), timeout=300, **kwargs)
    assert run.returncode == 0, f"{' '.join(map(str, args))} exited {run.returncode}:\n{run.stdout}\n{run.stderr}"
    return run


def _unmet_build_requirements() -> list[str]:
    """pyproject's [build-system] requires that the dev venv does not satisfy (with no build isolation,
    pip builds with what is installed)."""
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    unmet = []
    for text in requires:
        requirement = Requirement(text)
        try:
            installed = version(requirement.name)
        except PackageNotFoundError:
            unmet.append(f"{text} (not installed)")
            continue
        if not requirement.specifier.contains(installed, prereleases=True):
            unmet.append(f"{text} (installed: {installed})")
    return unmet


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel pip builds from the checkout, built once for this module."""
    unmet = _unmet_build_requirements()
    if unmet:
        pytest.fail(
            "the dev venv cannot build the wheel offline (no build isolation) and nothing is downloaded: "
            f"unmet build requirements {unmet}; add them to the dev extra in pyproject.toml so `make` installs them"
        )
    work = tmp_path_factory.mktemp("wheel")
    (work / "egg").mkdir()
    # setuptools writes build/ and *.egg-info into the source tree; DIST_EXTRA_CONFIG moves them to a
    # temporary folder, so no stale build/lib from an earlier build (a module since deleted) gets into the
    # wheel and the checkout is left as it was. The build itself is pip's, from the checkout.
    extra_config = work / "setup.cfg"
    extra_config.write_text(f"[build]\nbuild_base = {work / 'build'}\n[egg_info]\negg_base = {work / 'egg'}\n")
    out = work / "dist"
    run = subprocess.run(
        [DEV_PYTHON, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", str(out), str(ROOT)],
        capture_output=True, text=True, timeout=300, env={**_env(), "DIST_EXTRA_CONFIG": str(extra_config)},
    )
    assert run.returncode == 0, f"pip wheel failed:\n{run.stdout}\n{run.stderr}"
    [built] = out.glob("*.whl")
    return built


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
    """A fresh venv of the dev venv's base interpreter with the wheel installed; its python."""
    base = getattr(sys, "_base_executable", None) or _venv_home_python()
    venv = tmp_path_factory.mktemp("venv") / "venv"
    _run([base, "-m", "venv", venv])
    python = venv / "bin" / "python"
    _run([python, "-m", "pip", "install", "--no-deps", "--no-index", wheel])
    # Dependencies: the dev venv's site-packages, appended to the fresh venv's path by a .pth file. They
    # are the same pinned dependencies the wheel declares; what is tested here is this distribution's own
    # layout, not dependency resolution (which would need the network). A path line in a .pth only adds
    # that directory to sys.path: the .pth files inside it are not processed, so the dev venv's editable
    # finder for gke-capacity is not active and `gkecap` can come only from the installed wheel.
    site_packages = _run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]).stdout.strip()
    dev_dirs = [p for p in sys.path if Path(p).name in ("site-packages", "dist-packages") and Path(p).is_dir()]
    (Path(site_packages) / "gkecap-test-dev-dependencies.pth").write_text("".join(f"{d}\n" for d in dev_dirs))
    return python


def _venv_home_python() -> str:
    cfg = dict(
        line.split("=", 1) for line in (Path(sys.prefix) / "pyvenv.cfg").read_text().splitlines() if "=" in line
    )
    return str(Path(cfg["home"].strip()) / "python3")


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
