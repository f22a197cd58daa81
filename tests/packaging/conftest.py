"""Session fixtures for the tests that cross the distribution's seams: the wheel built from the checkout, and
fresh virtualenvs made as the Pulumi CLI makes them for the component plugin and for the policy pack folder
(one of each per test session; see testkit.distribution)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from gkecap.policy_pack.process import pack_runtime_options
from testkit.distribution import ROOT, build_wheel, fresh_clone, fresh_venv, install_requirements


@pytest.fixture(scope="session")
def wheel(tmp_path_factory) -> Path:
    """The wheel pip builds from the checkout, built once per session."""
    return build_wheel(tmp_path_factory.mktemp("wheel"))


@pytest.fixture(scope="session")
def plugin_clone(tmp_path_factory) -> tuple[Path, Path]:
    """(components folder of a fresh clone, its python): the venv where PulumiPlugin.yaml says, holding what
    `components/requirements.txt` declares, installed as the CLI installs a plugin folder's dependencies
    (`pip install -r requirements.txt` in the folder)."""
    work = tmp_path_factory.mktemp("plugin")
    folder = fresh_clone(work / "gke-capacity") / "components"
    options = yaml.safe_load((folder / "PulumiPlugin.yaml").read_text())["runtime"]["options"]
    python = fresh_venv((folder / options["virtualenv"]).resolve())
    install_requirements(python, folder, build_dir=work / "build")
    return folder, python


@pytest.fixture(scope="session")
def published_pack(tmp_path_factory, wheel) -> tuple[Path, Path]:
    """(pack folder, its python): `policies/` copied alone, as `pulumi policy publish` uploads it, with a fresh
    venv holding its requirements; gke-capacity comes from the wheel through --find-links."""
    work = tmp_path_factory.mktemp("published-pack")
    pack = work / "gke-capacity-pack"
    shutil.copytree(ROOT / "policies", pack, ignore=shutil.ignore_patterns("__pycache__"))
    # Where the CLI puts the pack's venv: PulumiPolicy.yaml's `virtualenv`, relative to the pack folder.
    python = fresh_venv((pack / pack_runtime_options(pack)["virtualenv"]).resolve())
    install_requirements(python, pack, find_links=wheel.parent, build_dir=work / "build")
    return pack, python
