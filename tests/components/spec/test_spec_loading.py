"""Valid environments load, with their defaults; the three loaders accept their documented inputs."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest
import yaml

from gkecap.components.issues import Issue
from gkecap.components.spec import (
    DEFAULT_PRIORITY_CLASSES,
    EnvironmentSpec,
    SpecError,
    load_environment,
    load_stack_config,
    load_stack_file,
)
from testkit.spec_data import NOW, dev, prod, stack_file


def test_dev_environment_loads():
    spec = load_environment(dev(), now=NOW)
    assert [p.name for p in spec.node_pools] == ["l4-flex", "v6e-4"]
    assert [t.name for t in spec.teams] == ["vision", "nlp"]
    assert spec.warnings == []


def test_prod_environment_loads_without_warnings():
    env = prod()
    for team, quota in zip(env["teams"], (8, 0, 0, 8)):  # whole 8-GPU VMs on the queued pool (whole-VM warning)
        team["quota"]["h100-dws"] = quota
    env["reservations"][0]["submit"] = True  # a pool consuming a draft is a warning
    spec = load_environment(env, project="acme-ml-prod", now=NOW)
    assert spec.project == "acme-ml-prod"
    assert spec.reservations[0].start == datetime(2026, 12, 7, tzinfo=timezone.utc)
    assert spec.reservations[0].end == datetime(2026, 12, 21, tzinfo=timezone.utc)
    assert spec.warnings == []


def test_architecture_example_loads():
    # The abridged example of ARCHITECTURE.md "The environment file", as written there.
    document = yaml.safe_load("""
config:
  gcp:project: acme-ml-dev
  gkecap:environment:
    region: us-east5
    cluster: {name: ml-dev}
    kueue: {version: v0.19.2, fairSharing: true}
    nodePools:
      - {name: h100-dws, machineType: a3-highgpu-8g, capacity: queued, maxNodes: 4, zones: [us-east5-a]}
      - {name: v6e-16, machineType: ct6e-standard-4t, tpuTopology: 4x4, capacity: flex-start, slices: 2}
      - {name: h100-dec, machineType: a3-highgpu-8g, capacity: calendar, reservation: dec-run}
    reservations:
      - {name: dec-run, machineType: a3-highgpu-8g, count: 8, zone: us-east5-a,
         start: "2026-12-07T00:00:00Z", days: 14}
    cohorts:
      - {name: research}
    teams:
      - {name: vision, cohort: research, quota: {h100-dws: 16, v6e-16: 32}, weight: 2,
         borrowingLimit: {h100-dws: 16}, lendingLimit: {v6e-16: 16},
         members: ["group:vision@acme.example"]}
""")
    spec = load_stack_config(document["config"], now=NOW)
    assert spec.project == "acme-ml-dev"
    assert spec.pool("v6e-16").slices == 2


def test_defaults_are_filled():
    spec = load_environment(dev(), now=NOW)
    assert spec.cluster.create is False
    assert spec.cluster.location == "us-east5"  # defaults to the region
    assert spec.cluster.release_channel == "REGULAR"
    assert spec.kueue.api_version == "v1beta2"
    assert spec.kueue.install is True
    assert spec.teams[0].namespaces == ["vision"]  # default [name]


def test_default_priority_classes_when_none_given():
    spec = load_environment(dev(), now=NOW)
    assert [(pc.name, pc.value) for pc in spec.priority_classes] == [("low", 100), ("normal", 500), ("high", 1000)]
    assert [pc.name for pc in DEFAULT_PRIORITY_CLASSES] == ["low", "normal", "high"]


def test_explicit_empty_priority_classes_means_none():
    env = dev()
    env["priorityClasses"] = []
    assert load_environment(env, now=NOW).priority_classes == []


def test_snake_case_keys_are_accepted_too():
    env = dev()
    env["nodePools"][0]["max_nodes"] = env["nodePools"][0].pop("maxNodes")
    assert load_environment(env, now=NOW).node_pools[0].max_nodes == 2


def test_yaml_dates_and_timestamps_are_utc():
    env = prod()
    env["reservations"][0]["start"] = yaml.safe_load("d: 2026-12-07")["d"]  # a date: midnight UTC
    spec = load_environment(env, now=NOW)
    assert spec.reservations[0].start == datetime(2026, 12, 7, tzinfo=timezone.utc)


def test_time_sharing_on_mig_partitions_is_allowed():
    env = dev()
    env["nodePools"].append(
        {
            "name": "a100-mig",
            "machineType": "a2-highgpu-1g",
            "capacity": "on-demand",
            "maxNodes": 1,
            "gpuPartitionSize": "1g.5gb",
            "gpuSharing": {"strategy": "TIME_SHARING", "maxSharedClientsPerGpu": 3},
        }
    )
    env["teams"][0]["quota"]["a100-mig"] = 1
    spec = load_environment(env, now=NOW)
    assert spec.pool("a100-mig").gpu_sharing.strategy == "TIME_SHARING"


def test_calendar_tpu_pool_within_its_chip_reservation():
    env = dev()
    env["reservations"] = [
        {
            "name": "tpu-run",
            "machineType": "ct6e-standard-4t",
            "count": 32,
            "zone": "us-east5-a",
            "start": "2027-03-01T00:00:00Z",
            "days": 7,
        }
    ]  # 99 days ahead: TPUs allow 120
    env["nodePools"].append(
        {
            "name": "v6e-cal",
            "machineType": "ct6e-standard-4t",
            "tpuTopology": "4x4",
            "capacity": "calendar",
            "reservation": "tpu-run",
            "slices": 2,
        }
    )
    env["teams"][0]["quota"]["v6e-cal"] = 32
    spec = load_environment(env, now=NOW)
    assert spec.reservation("tpu-run").count == 32


def test_partial_gke_version_means_newest_patch():
    env = prod()
    env["cluster"]["minMasterVersion"] = "1.34"
    assert load_environment(env, now=NOW).cluster.min_master_version == "1.34"


def test_latest_gke_version_is_accepted():
    env = prod()
    env["cluster"]["minMasterVersion"] = "latest"
    load_environment(env, now=NOW)


def test_load_stack_config_takes_project_from_gcp_project():
    spec = load_stack_config(stack_file(dev(), project="acme-ml-dev")["config"], now=NOW)
    assert spec.project == "acme-ml-dev"


def test_load_stack_file_reads_a_full_pulumi_stack_file(tmp_path):
    path = tmp_path / "Pulumi.dev.yaml"
    path.write_text(yaml.safe_dump(stack_file(dev(), project="acme-ml-dev")))
    spec = load_stack_file(path, now=NOW)
    assert isinstance(spec, EnvironmentSpec)
    assert spec.project == "acme-ml-dev"


def test_load_stack_file_reads_a_bare_environment(tmp_path):
    path = tmp_path / "env.yaml"
    path.write_text(yaml.safe_dump(dev()))
    assert load_stack_file(path, now=NOW).project is None


def test_load_stack_file_reports_invalid_yaml(tmp_path):
    path = tmp_path / "Pulumi.bad.yaml"
    path.write_text("config: [unclosed\n")
    with pytest.raises(SpecError) as err:
        load_stack_file(path, now=NOW)
    assert err.value.issues[0].path == str(path)
    assert "not valid YAML" in err.value.issues[0].message


def test_load_stack_file_reports_a_missing_file(tmp_path):
    with pytest.raises(SpecError, match="cannot read: "):
        load_stack_file(tmp_path / "nope.yaml", now=NOW)


def test_stack_config_without_environment_says_which_keys_exist():
    with pytest.raises(SpecError) as err:
        load_stack_config({"gcp:project": "acme-ml-dev"}, now=NOW)
    assert err.value.issues == [Issue("config", "no gkecap:environment key; keys present: gcp:project")]


def test_naive_now_is_rejected():
    with pytest.raises(ValueError, match="timezone-aware"):
        load_environment(dev(), now=datetime(2026, 11, 22))


def test_spec_module_imports_no_pulumi():
    import subprocess
    import sys

    code = (
        "import sys, gkecap.components.spec, gkecap.components.model, gkecap.components.gke.calendar_window; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pulumi', 'pulumi_gcp', 'pulumi_kubernetes')))"
    )
    root = Path(__file__).resolve().parents[3]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root).stdout
    assert out.strip() == "[]"
