"""The distribution as a user's machine gets it, offline: the wheel pip builds from the checkout, and fresh
virtualenvs made the way the Pulumi CLI makes them for a plugin or policy pack folder.

Nothing is downloaded. The wheel is built with the dev venv's setuptools (no build isolation). A fresh venv
sees the dev venv's third-party packages (pulumi, pulumi-gcp, ...) through a `.pth` line naming a folder of
links to them, which leaves out gke-capacity itself: the only gke-capacity pip can find there is the one a
test installs (a wheel through `--find-links`, or the checkout a requirements file names). So what is tested is
this distribution's packaging and the folder's requirements file, not dependency resolution (which would need
the network).

How the CLI installs a Python plugin's or pack's dependencies (pulumi/pulumi sdk/python/toolchain/pip.go,
InstallDependencies, and sdk/python/cmd/pulumi-language-python/main.go, parseOptions): `python -m venv <dir>`
(`virtualenv` of PulumiPlugin.yaml / PulumiPolicy.yaml, relative to the folder; `venv` by default for a
plugin), `python -m pip install --upgrade pip setuptools wheel`, then `python -m pip install -r
requirements.txt` with the folder as the working directory. Offline, the upgrade step is replaced by the dev
venv's pip, setuptools and wheel.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[3]
DEV_PYTHON = sys.executable  # pytest runs from the dev venv (.venv/bin/pytest)
# What the links folder leaves out: this distribution (its editable install and its package).
_OWN = ("gke_capacity", "__editable__", "gkecap")


def child_env(**extra: str) -> dict[str, str]:
    """The environment for child processes: nothing that puts other code on their path, no package index
    (offline), no machine-wide find-links."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP") and not k.startswith("PIP_")}
    env.update({"PIP_NO_INPUT": "1", "PIP_NO_INDEX": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1",
                "PIP_CONFIG_FILE": os.devnull})
    env.update(extra)
    return env


def run(args, **kwargs) -> subprocess.CompletedProcess[str]:
    """Run a command; fail with its output if it exits non-zero."""
    env = kwargs.pop("env", None) or child_env()
    done = subprocess.run([str(a) for a in args], capture_output=True, text=True, env=env, timeout=300, **kwargs)
    assert done.returncode == 0, f"{' '.join(map(str, args))} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done


def unmet_build_requirements() -> list[str]:
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


def _build_config(work: Path) -> Path:
    # setuptools writes build/ and *.egg-info into the source tree; DIST_EXTRA_CONFIG moves them to a
    # temporary folder, so no stale build/lib from an earlier build (a module since deleted) gets into the
    # wheel and the checkout is left as it was.
    (work / "egg").mkdir(parents=True, exist_ok=True)
    config = work / "setup.cfg"
    config.write_text(f"[build]\nbuild_base = {work / 'build'}\n[egg_info]\negg_base = {work / 'egg'}\n")
    return config


def build_wheel(work: Path) -> Path:
    """The wheel pip builds from the checkout (offline, no build isolation), in `work/dist`."""
    unmet = unmet_build_requirements()
    assert not unmet, (
        "the dev venv cannot build the wheel offline (no build isolation) and nothing is downloaded: "
        f"unmet build requirements {unmet}; add them to the dev extra in pyproject.toml so `make` installs them"
    )
    out = work / "dist"
    run([DEV_PYTHON, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", out, ROOT],
        env=child_env(DIST_EXTRA_CONFIG=str(_build_config(work))))
    [built] = out.glob("*.whl")
    return built


def base_python() -> str:
    """The interpreter the dev venv was made from (what `python -m venv` runs with)."""
    base = getattr(sys, "_base_executable", None)
    if base:
        return base
    lines = (Path(sys.prefix) / "pyvenv.cfg").read_text().splitlines()
    cfg = {key.strip(): value.strip() for key, _, value in (line.partition("=") for line in lines)}
    return str(Path(cfg["home"]) / "python3")


def dev_site_packages() -> list[Path]:
    return [Path(p) for p in sys.path if Path(p).name in ("site-packages", "dist-packages") and Path(p).is_dir()]


def fresh_venv(where: Path) -> Path:
    """A new venv at `where` (as `python -m venv`), seeing the dev venv's third-party packages but not
    gke-capacity; its python."""
    # The CLI runs `python -m venv` and then upgrades pip, setuptools and wheel from the index; offline, the
    # dev venv's pip, setuptools and wheel stand in (through the links below), which also spares ensurepip.
    run([base_python(), "-m", "venv", "--without-pip", where])
    python = where / "bin" / "python"
    links = where / "dev-dependencies"
    links.mkdir()
    for site in dev_site_packages():
        for entry in site.iterdir():
            if not entry.name.startswith(_OWN) and not (links / entry.name).exists():
                (links / entry.name).symlink_to(entry)
    purelib = run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]).stdout.strip()
    # After the venv's own site-packages on sys.path: what pip installs there comes first.
    (Path(purelib) / "zz-gkecap-test-dev-dependencies.pth").write_text(f"{links}\n")
    return python


def fresh_clone(where: Path) -> Path:
    """The checkout's files as a clone has them (tracked and new, not ignored: no .venv, build output or
    egg-info), copied to `where`."""
    listed = run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=ROOT).stdout
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            target = where / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return where


def install_requirements(python: Path, folder: Path, *, find_links: Path | None = None, build_dir: Path) -> None:
    """`python -m pip install -r requirements.txt` in `folder`, as the CLI runs it; offline: a wheel folder for
    `--find-links`, and local projects built with the linked setuptools (no build isolation)."""
    env = child_env(PIP_NO_BUILD_ISOLATION="0", DIST_EXTRA_CONFIG=str(_build_config(build_dir)))
    if find_links is not None:
        env["PIP_FIND_LINKS"] = str(find_links)
    run([python, "-m", "pip", "install", "-r", "requirements.txt"], cwd=folder, env=env)
