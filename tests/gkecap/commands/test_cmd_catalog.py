"""`gkecap catalog` and `gkecap slice`: output, JSON shape and exit codes."""

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

import gkecap.commands.catalog  # noqa: F401  (registers the commands on the app)
from gkecap.cli import app

runner = CliRunner()


def _run(*args):
    return runner.invoke(app, list(args))


def test_catalog_table_lists_gpus_and_tpus():
    result = _run("catalog")
    assert result.exit_code == 0
    assert "a3-highgpu-8g" in result.stdout and "ct6e-standard-4t" in result.stdout


def test_catalog_json_has_every_family():
    document = json.loads(_run("catalog", "--format", "json").stdout)
    assert {m["family"] for m in document["gpu"]} == {"a2", "a3", "a4", "a4x", "g2", "g4"}
    assert [f["family"] for f in document["tpu"]] == ["v4", "v5e", "v5p", "v6e", "tpu7x", "tpu7"]


def test_catalog_json_cube_rule():
    document = json.loads(_run("catalog", "--family", "v5p", "--format", "json").stdout)
    (machine,) = document["tpu"][0]["machineTypes"]
    assert (machine["cubeRule"]["maxCubes"], machine["cubeRule"]["count"], machine["topologies"]) == (140, 414, None)


def test_catalog_family_filter_for_gpus():
    document = json.loads(_run("catalog", "--family", "A4X", "--format", "json").stdout)
    assert (document["tpu"], {m["machineType"] for m in document["gpu"]}) == (
        [], {"a4x-highgpu-4g", "a4x-highgpu-4g-nolssd", "a4x-maxgpu-4g-metal", "a4x-maxgpu-4g-metal-nolssd"}
    )


def test_catalog_family_filter_table():
    result = _run("catalog", "--family", "v6e")
    assert result.exit_code == 0 and "ct6e-standard-8t" in result.stdout and "a3-highgpu-8g" not in result.stdout


def test_catalog_unknown_family_exits_2_with_valid_list():
    result = _run("catalog", "--family", "h100")
    assert result.exit_code == 2
    assert "unknown family 'h100'; valid: a2, a3, a4, a4x, g2, g4, v4, v5e, v5p, v6e, tpu7x, tpu7" in result.stderr


def test_slice_explains_multi_host_math():
    result = _run("slice", "ct6e-standard-4t", "4x4")
    assert result.exit_code == 0
    for text in ("4 x 4 = 16", "16 / 4 = 4", "multi-host", "COMPACT", "tpu_topology 4x4", "max nodes 4"):
        assert text in result.stdout


def test_slice_explains_tpu7x_workload_policy():
    result = _run("slice", "tpu7x-standard-4t", "4x4x4")
    assert "workload policy HIGH_THROUGHPUT" in result.stdout


def test_slice_single_host():
    assert "single-host" in _run("slice", "ct5lp-hightpu-8t", "2x4").stdout


@pytest.mark.parametrize(
    ("machine_type", "vms", "multi_host"), [("ct5lp-hightpu-8t", 1, False), ("ct5lp-hightpu-4t", 2, True)]
)
def test_slice_json_v5e_2x4(machine_type, vms, multi_host):
    document = json.loads(_run("slice", machine_type, "2x4", "--format", "json").stdout)
    assert (document["kind"], document["vms"], document["multiHost"], document["chips"]) == ("tpu", vms, multi_host, 8)


def test_slice_json_includes_node_pool_and_resources():
    document = json.loads(_run("slice", "ct5p-hightpu-4t", "2x2x2", "--format", "json").stdout)
    assert document["nodePool"] == {"maxNodes": 2, "placementType": "COMPACT", "tpuTopology": "2x2x2", "workloadPolicy": None}
    assert document["nodeResources"]["google.com/tpu"] == 4


def test_slice_gpu_machine_without_topology():
    document = json.loads(_run("slice", "a3-highgpu-8g", "--format", "json").stdout)
    assert (document["kind"], document["acceleratorLabel"], document["gpusPerVm"]) == ("gpu", "nvidia-h100-80gb", 8)


def test_slice_invalid_topology_exits_2_with_catalog_message():
    result = _run("slice", "ct6e-standard-4t", "4x3")
    assert (result.exit_code, result.stdout) == (2, "")
    assert "'4x3' is not a valid v6e topology for ct6e-standard-4t; valid: 2x2, 2x4" in result.stderr


def test_slice_unknown_machine_type_exits_2():
    result = _run("slice", "ct6e-standard-2t", "2x2")
    assert result.exit_code == 2 and "known v6e machine types" in result.stderr


def test_slice_tpu_without_topology_exits_2():
    result = _run("slice", "ct5p-hightpu-4t")
    assert result.exit_code == 2 and "TOPOLOGY is required" in result.stderr and "140 cubes" in result.stderr


def test_slice_gpu_with_topology_exits_2():
    result = _run("slice", "a3-highgpu-8g", "2x2")
    assert result.exit_code == 2 and "takes no topology" in result.stderr


def test_console_script_exit_code_and_no_traceback():
    code = "import sys; sys.argv = ['gkecap', 'slice', 'ct5p-hightpu-4t', '4x4x3']; from gkecap.cli import main; main()"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "not a valid v5p topology" in proc.stderr
