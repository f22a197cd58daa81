"""`gkecap policies bundle --out DIR` (issue 22 item 7): a pack folder `pulumi policy publish DIR` can upload. The
folder is bundled, copied elsewhere alone, given a fresh virtualenv where its PulumiPolicy.yaml says (inside the
folder) with its requirements.txt installed as the Pulumi CLI installs them (offline: the public packages come from
the dev venv's links, gke-capacity only from the bundled wheel), and started as the CLI starts a Python pack: it
answers GetAnalyzerInfo and Analyze."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from typer.testing import CliRunner

from gkecap.cli import app
from gkecap.engine.resource_record import ResourceRecord
from gkecap.policies.registry import ALL_POLICIES
from gkecap.policies.rule_runner import RUNNER_NAMES
from gkecap.policy_pack.process import PolicyPackProcess, pack_runtime_options
from testkit.distribution import child_env, fresh_venv, install_requirements

STACK_URN = "urn:pulumi:ci::acme::pulumi:pulumi:Stack::acme-ci"


@pytest.fixture(scope="module")
def bundled(tmp_path_factory):
    """(the bundle as written, the copy elsewhere, its python)."""
    work = tmp_path_factory.mktemp("bundle")
    result = CliRunner().invoke(app, ["policies", "bundle", "--out", str(work / "written")])
    assert result.exit_code == 0, result.output
    copy = shutil.copytree(work / "written", work / "elsewhere" / "gke-capacity-pack")
    shutil.rmtree(work / "written")  # nothing may point back at where it was bundled
    python = fresh_venv((copy / pack_runtime_options(copy)["virtualenv"]).resolve())
    install_requirements(python, copy, build_dir=work / "build")
    return result.output, copy, python


def test_the_virtualenv_lives_inside_the_pack_folder(bundled):
    _, folder, python = bundled
    assert python.is_relative_to(folder)


def test_requirements_name_the_bundled_wheel_and_public_packages_only(bundled):
    _, folder, _ = bundled
    lines = [line for line in (folder / "requirements.txt").read_text().splitlines() if not line.startswith("#")]
    wheel, *public = lines
    assert wheel.startswith("./wheels/gke_capacity-") and (folder / wheel).is_file()
    assert public and all(re.fullmatch(r"[A-Za-z0-9._-]+==[0-9][A-Za-z0-9.+-]*", line) for line in public)
    assert not any(line.lower().startswith(("gke-capacity", "gke_capacity")) for line in public)


def test_the_pack_runs_the_rules_from_the_bundled_wheel(bundled):
    _, folder, python = bundled
    where = subprocess.run([str(python), "-c", "import gkecap.policies.registry as r; print(r.__file__)"],
                           cwd=folder, env=child_env(), capture_output=True, text=True, check=True).stdout.strip()
    assert where.startswith(str(folder / "venv")) and "site-packages" in where


@pytest.fixture(scope="module")
def pack(bundled):
    _, folder, python = bundled
    with PolicyPackProcess(folder, project="acme", stack="ci") as process:  # the venv found from PulumiPolicy.yaml
        assert process.python == str(python)
        process.configure(None)
        yield process


def test_the_bundled_pack_answers_get_analyzer_info(pack):
    info = pack.info()
    assert info.name == "gke-capacity"
    assert sorted(p.name for p in info.policies) == sorted([*(p.name for p in ALL_POLICIES), *RUNNER_NAMES])


def test_the_bundled_pack_answers_analyze(pack):
    inputs = {"cluster": "ml", "location": "us-east5", "nodeLocations": ["us-east5-a"],
              "nodeConfig": {"machineType": "ct6e-standard-4t"},
              "placementPolicy": {"type": "COMPACT", "tpuTopology": "4x4"},
              "autoscaling": {"totalMinNodeCount": 0, "totalMaxNodeCount": 3, "locationPolicy": "ANY"}}
    pool = ResourceRecord(
        urn="urn:pulumi:ci::acme::gcp:container/nodePool:NodePool::v6e-16", type="gcp:container/nodePool:NodePool",
        name="v6e-16", custom=True, parent=STACK_URN, dependencies=(), property_dependencies={}, provider=None,
        id=None, options={"protect": False}, inputs=inputs, outputs=inputs)
    violations = pack.analyzed(pack.analyze_future(pool), pool.urn)
    assert [(v.policy, v.enforcement_level) for v in violations] == [("tpu-slice-topology", "mandatory")]


def test_bundle_needs_an_out_folder():
    result = CliRunner().invoke(app, ["policies", "bundle"])
    assert result.exit_code == 2 and "--out: required with bundle" in result.stderr


def test_bundling_leaves_other_files_in_the_folder_alone(tmp_path):
    (tmp_path / "notes.md").write_text("mine")
    assert CliRunner().invoke(app, ["policies", "bundle", "--out", str(tmp_path)]).exit_code == 0
    assert (tmp_path / "notes.md").read_text() == "mine"
    assert {p.name for p in tmp_path.iterdir()} == {"notes.md", "PulumiPolicy.yaml", "__main__.py", "requirements.txt",
                                                     "wheels"}


def test_a_link_leading_out_of_the_folder_is_refused(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "pack").mkdir()
    (tmp_path / "pack" / "wheels").symlink_to(elsewhere)
    result = CliRunner().invoke(app, ["policies", "bundle", "--out", str(tmp_path / "pack")])
    assert result.exit_code == 2 and "outside the output directory" in result.stderr
    assert list(elsewhere.iterdir()) == []
