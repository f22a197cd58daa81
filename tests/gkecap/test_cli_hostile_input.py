"""Hostile and careless input through the real CLI (issue 15): each case as it was found, in a subprocess.

Every run must end (a bounded wait), with exit code 0, 1 or 2 and no traceback, nothing written outside its
output directory, and no process of its session left behind (the policy pack).
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from testkit.cli_process import CliRun, kill_session, run_gkecap, session_members
from testkit.engine_fixtures import MINI_PACK, PACKS, STATES

HOSTILE_PACK = PACKS / "hostile_pack"
STACKS = Path(__file__).resolve().parents[2] / "stacks"
DEV_STACK = STACKS / "Pulumi.dev.yaml"
BOUND = 300  # seconds: a hang fails the test; generous, as CI machines are shared


def write_program(directory: Path, body: str, *, project: str = "hostile", stack_files: dict[str, str] | None = None) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "Pulumi.yaml").write_text(f"name: {project}\nruntime: python\n")
    (directory / "__main__.py").write_text("import pulumi\nimport pulumi_gcp as gcp\n" + textwrap.dedent(body))
    for name, text in (stack_files or {}).items():
        (directory / name).write_text(text)
    return directory


def assert_clean(run: CliRun, *codes: int) -> None:
    assert run.exit_code in (codes or (0, 1, 2)), (run.exit_code, run.stderr[-2000:])
    assert "Traceback" not in run.stderr, run.stderr[-2000:]
    assert run.leftovers == [], f"processes left behind: {run.leftovers}"


def files_under(directory: Path) -> set[Path]:
    return {p.relative_to(directory) for p in directory.rglob("*")}


POOL = 'p{i} = gcp.container.NodePool("p{i}", cluster="c", location="us-east5", node_count=1)\n'


# --- hangs -------------------------------------------------------------------------------------------------


def test_analysis_failing_among_the_last_resources_ends_the_run(tmp_path):
    # The worker had taken its stop signal before the failure and waited for a second one: the run hung.
    body = "".join(POOL.format(i=i) for i in range(3)) + 'gcp.container.NodePool("crash-me", cluster="c", location="us-east5")\n'
    program = write_program(tmp_path / "prog", body)
    run = run_gkecap(["plan", "--program", str(program), "--policy-pack", str(HOSTILE_PACK), "--out", str(tmp_path / "out")], cwd=tmp_path, timeout=BOUND)
    assert_clean(run, 2)
    assert any("Analyze failed" in line for line in run.error_lines), run.stderr


def test_nan_in_a_state_export_is_exit_2_naming_it(tmp_path):
    state = json.loads((STATES / "stack_export.json").read_text())
    state["deployment"]["resources"][2]["inputs"]["initialNodeCount"] = float("nan")
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state))  # Python writes NaN; `pulumi stack export` never does
    run = run_gkecap(["check", "--state", str(path)], cwd=tmp_path, timeout=BOUND)
    assert_clean(run, 2)
    assert run.error_lines == [f"error: {path}: not valid JSON: NaN is not a JSON number (`pulumi stack export` never writes it)"]


def test_nan_program_input_is_exit_2_naming_the_resource(tmp_path):
    program = write_program(tmp_path / "prog", POOL.format(i=0) + 'gcp.container.NodePool("q", cluster="c", location="us-east5", node_count=float("nan"))\n')
    run = run_gkecap(["plan", "--program", str(program), "--out", str(tmp_path / "out")], cwd=tmp_path, timeout=BOUND)
    assert_clean(run, 2)
    assert "gcp:container/nodePool:NodePool 'q': nodeCount: NaN or Infinity" in run.stderr


@pytest.mark.parametrize("raised", ["SystemExit(0)", "KeyboardInterrupt()"])
def test_exit_raised_inside_apply_is_exit_2(tmp_path, raised):
    # The engine caught only Exception: the run hung with the pack still running.
    body = POOL.format(i=0) + f"def stop(_):\n    raise {raised}\np0.name.apply(stop)\n"
    program = write_program(tmp_path / "prog", body)
    run = run_gkecap(["plan", "--program", str(program), "--policy-pack", str(MINI_PACK), "--out", str(tmp_path / "out")], cwd=tmp_path, timeout=BOUND)
    assert_clean(run, 2)
    assert "the program ended early" in run.stderr
    assert not (tmp_path / "out").exists()


def test_alias_bomb_in_the_stack_file_is_refused_fast(tmp_path):
    levels = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    levels += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 10)]
    bomb = "config:\n" + "".join(f"  bomb:{line}\n" for line in levels)  # 9**10 values once expanded
    program = write_program(tmp_path / "prog", "", stack_files={"Pulumi.dev.yaml": bomb})
    assert len(bomb) < 2000
    run = run_gkecap(["plan", "--program", str(program), "--stack", "dev", "--no-policies", "--out", str(tmp_path / "out")], cwd=tmp_path, timeout=BOUND)
    assert_clean(run, 2)
    assert "excessive aliasing" in run.stderr and "Pulumi.dev.yaml" in run.stderr
    assert run.seconds < 90  # unbounded expansion ran for many minutes and GBs


def test_a_program_that_never_ends_stops_at_the_timeout_with_the_pack(tmp_path):
    program = write_program(tmp_path / "prog", POOL.format(i=0) + "import time\nwhile True:\n    time.sleep(1)\n")
    run = run_gkecap(["plan", "--program", str(program), "--timeout", "20", "--out", str(tmp_path / "out")], cwd=tmp_path, timeout=BOUND)
    assert_clean(run, 2)
    assert any(line.startswith("error: --timeout: the plan did not finish within 20 s") for line in run.error_lines), run.stderr


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_stops_gkecap_and_the_pack(tmp_path, signum):
    # SIGTERM: CI timeouts, `timeout`, `docker stop`; clean-up relied on atexit, which the signal never ran.
    program = write_program(tmp_path / "prog", "import time\ntime.sleep(600)\n")
    process = subprocess.Popen(  # noqa: S603
        [sys.executable, "-m", "gkecap", "plan", "--program", str(program), "--out", str(tmp_path / "out")],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
    )
    try:
        deadline = time.monotonic() + BOUND
        while len(session_members(process.pid)) < 2:  # gkecap and its policy pack
            assert time.monotonic() < deadline and process.poll() is None, "the policy pack never started"
            time.sleep(0.1)
        time.sleep(1.0)  # the program is sleeping by now
        process.send_signal(signum)
        _, stderr = process.communicate(timeout=60)
        assert process.returncode == 128 + signum
        assert f"stopped by {signum.name}".encode() in stderr and b"Traceback" not in stderr
        deadline = time.monotonic() + 3
        while session_members(process.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert session_members(process.pid) == []
    finally:
        if process.poll() is None:
            process.kill()
        kill_session(process.pid)


# --- passing by accident -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ending", "shown"),
    [("import sys\nsys.exit(0)\n", "sys.exit(0)"), ("import os\nos._exit(0)\n", "os._exit(0)"), ("import sys\nsys.exit(3)\n", "sys.exit(3)")],
)
def test_program_ending_the_process_is_exit_2(tmp_path, ending, shown):
    program = write_program(tmp_path / "prog", POOL.format(i=0) + ending)
    run = run_gkecap(["plan", "--program", str(program), "--policy-pack", str(MINI_PACK), "--format", "json", "--out", str(tmp_path / "out")], cwd=tmp_path, timeout=BOUND)
    assert_clean(run, 2)
    assert f"the program ended early ({shown})" in run.stderr
    assert not (tmp_path / "out").exists()


def test_program_output_goes_to_stderr_under_json(tmp_path):
    program = write_program(tmp_path / "prog", POOL.format(i=0) + 'print("hello from the program")\n')
    run = run_gkecap(["plan", "--program", str(program), "--no-policies", "--format", "json", "--out", str(tmp_path / "out")], cwd=tmp_path, timeout=BOUND)
    assert_clean(run, 0)
    assert "hello from the program" in run.stderr
    assert json.loads(run.stdout)["summary"]["resources"] == 2


def test_duplicate_key_in_the_stack_file_is_exit_2_naming_it(tmp_path):
    text = "config:\n  hostile:size: 1\n  gcp:project: acme-ml-dev\n  hostile:size: 2\n"
    program = write_program(tmp_path / "prog", "", stack_files={"Pulumi.dev.yaml": text})
    run = run_gkecap(["plan", "--program", str(program), "--stack", "dev", "--no-policies", "--out", str(tmp_path / "out")], cwd=tmp_path, timeout=BOUND)
    assert_clean(run, 2)
    assert "line 4, column 3: not valid YAML: mapping key 'hostile:size' already defined at line 2" in run.stderr


def test_policy_config_clock_that_is_not_a_date_is_exit_2(tmp_path):
    config = tmp_path / "policy-config.json"
    config.write_text(json.dumps({"calendar-reservation-window": {"now": "not-a-date"}}))
    run = run_gkecap(["check", "--state", str(STATES / "stack_export.json"), "--policy-config", str(config)], cwd=tmp_path, timeout=BOUND)
    assert_clean(run, 2)
    assert any(line.startswith("error: policy config: calendar-reservation-window.now: 'not-a-date' does not match") for line in run.error_lines), run.stderr


def test_secret_in_a_state_export_is_never_a_violation(tmp_path):
    secret = {"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", "ciphertext": "v1:c2VjcmV0"}
    queue = {
        "urn": "urn:pulumi:prod::ml-infra::kubernetes:kueue.x-k8s.io/v1beta2:ClusterQueue::research",
        "custom": True, "type": "kubernetes:kueue.x-k8s.io/v1beta2:ClusterQueue", "id": "research",
        "inputs": {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue", "metadata": {"name": "research"}, "spec": secret},
    }
    state = {"version": 3, "deployment": {"resources": [queue]}}
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state))
    run = run_gkecap(["check", "--state", str(path), "--format", "json"], cwd=tmp_path, timeout=BOUND)
    assert_clean(run, 0)
    document = json.loads(run.stdout)
    assert [v for v in document["violations"] if v["enforcementLevel"] == "mandatory"] == []
    assert document["resources"][0]["inputs"]["spec"] == "[secret]"


# --- escaping ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("stack", ["../../../x", "/tmp/absolute", "dev\nx", "a/b"])
def test_stack_name_outside_pulumis_rules_is_exit_2(tmp_path, stack):
    program = write_program(tmp_path / "work" / "prog", POOL.format(i=0))
    run = run_gkecap(["plan", "--program", str(program), "--stack", stack, "--no-policies"], cwd=tmp_path / "work", timeout=BOUND)
    assert_clean(run, 2)
    assert run.error_lines and run.error_lines[0].startswith("error: --stack: stack name ")
    assert files_under(tmp_path) == {Path("work"), Path("work/prog"), Path("work/prog/Pulumi.yaml"), Path("work/prog/__main__.py")}


def test_config_file_named_with_dots_only_is_exit_2(tmp_path):
    program = write_program(tmp_path / "work" / "prog", POOL.format(i=0), stack_files={"Pulumi.....yaml": "config: {}\n"})
    run = run_gkecap(["plan", "--program", str(program), "--config", str(program / "Pulumi.....yaml"), "--no-policies"], cwd=tmp_path / "work", timeout=BOUND)
    assert_clean(run, 2)
    assert "stack name '...' is a path component, not a name" in run.stderr
    assert not (tmp_path / "work" / "out").exists()


def test_markup_in_a_state_exports_project_is_exit_2(tmp_path):
    state = json.loads((STATES / "stack_export.json").read_text())
    for resource in state["deployment"]["resources"]:
        resource["urn"] = resource["urn"].replace("::ml-infra::", "::[/x]ml::")
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state))
    run = run_gkecap(["check", "--state", str(path)], cwd=tmp_path, timeout=BOUND)
    assert_clean(run, 2)
    assert "deployment.resources[0].urn: project name '[/x]ml' may only contain" in run.stderr


def test_markup_in_resource_names_and_log_messages_is_printed_literally(tmp_path):
    body = 'gcp.container.NodePool("[/x]pool[bold]", cluster="c", location="us-east5", node_count=1)\npulumi.log.warn("odd [/x] text [red]")\n'
    program = write_program(tmp_path / "prog", body)
    run = run_gkecap(["plan", "--program", str(program), "--policy-pack", str(MINI_PACK), "--out", str(tmp_path / "out")], cwd=tmp_path, timeout=BOUND)
    assert_clean(run, 0, 1)
    assert "odd [/x] text [red]" in run.stdout
    assert "[/x]pool[bold]" in run.stdout  # the advisory violation names the pool


def test_secret_plaintext_never_reaches_plan_json(tmp_path):
    body = 'gcp.container.NodePool("p", cluster="c", location="us-east5", node_count=1, autoscaling={"total_max_node_count": 4}, node_config={"machine_type": pulumi.Output.secret("hunter2-machine")})\n'
    program = write_program(tmp_path / "prog", body)
    out = tmp_path / "out"
    run = run_gkecap(["plan", "--program", str(program), "--policy-pack", str(HOSTILE_PACK), "--format", "json", "--out", str(out)], cwd=tmp_path, timeout=BOUND)
    assert_clean(run, 1)
    plan_json = (out / "plan.json").read_text()
    assert "quotes [secret]" in plan_json and "hunter2-machine" not in plan_json
    assert "hunter2-machine" not in run.stdout


# --- smaller -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b'{"version": 3, "deployment": {"resources": [\xff]}}', "not UTF-8 text (byte 44: invalid start byte)"),
        (b'{"deployment": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "not valid JSON: nested too deeply to read"),
        (
            b'{"deployment": {"resources": [{"urn": "urn:pulumi:s::p::gcp:container/nodePool:NodePool::x", "type": "gcp:container/nodePool:NodePool", "dependencies": 5}]}}',
            "deployment.resources[0].dependencies: must be a list of strings, got int",
        ),
    ],
    ids=["invalid-utf8", "deep-nesting", "malformed-field"],
)
def test_malformed_state_names_the_file_and_field(tmp_path, content, expected):
    path = tmp_path / "state.json"
    path.write_bytes(content)
    run = run_gkecap(["check", "--state", str(path)], cwd=tmp_path, timeout=BOUND)
    assert_clean(run, 2)
    assert run.error_lines == [f"error: {path}: {expected}"], run.stderr


def test_careless_environment_file_names_every_field(tmp_path):
    # One file, many mistakes found by hand: each is exit 2 with its YAML path, nothing is written.
    text = DEV_STACK.read_text()
    text = text.replace("version: v0.19.2", "version: v٠.١٩.٢")
    text = text.replace("        maxNodes: 2\n", "        maxNodes: 1000000000000000000000000000000\n")
    text = text.replace("        slices: 2\n", "        slices: 1000000000000000000000000000000\n")
    text = text.replace("quota: {h100-flex: 8, v6e-2x2: 4}\n        members: [\"group:ml-research@acme.example\"]",
                        "quota: {h100-flex: 9223372036854775808, v6e-2x2: 4}\n        namespaces: [cnrm-system]\n        members: [\"user:a<script>@x.com\"]")
    text = text.replace("members: [\"group:ml-platform@acme.example\"]", "namespaces: [gatekeeper-system]\n        members: [\"serviceAccount:b<x>@p.iam.gserviceaccount.com\"]")
    text = text.replace("        maxRunDuration: 86400", "        gpuSharing: {strategy: TIME_SHARING, maxSharedClientsPerGpu: 1000000000000000000000000000000}")
    text = text.replace("    cohorts:\n", "    reservations:\n      - {name: r, machineType: a3-highgpu-8g, count: 2, zone: us-east5-a, start: '2026-12-20T00:00:00Z', days: 1000000000000000000000000000000}\n    cohorts:\n")
    path = tmp_path / "Pulumi.careless.yaml"
    path.write_text(text)
    run = run_gkecap(["plan", "--config", str(path), "--program", str(STACKS), "--no-policies", "--out", str(tmp_path / "out")], cwd=tmp_path, timeout=BOUND)
    assert_clean(run, 2)
    expected = [
        "kueue.version: 'v٠.١٩.٢' is not a Kueue release",
        "nodePools[0].maxNodes: 1000000000000000000000000000000 is too large; must be at most 2147483647",
        "nodePools[1].slices: 1000000000000000000000000000000 is too large; must be at most 2147483647",
        "teams[0].quota.h100-flex: 9223372036854775808 is too large",
        "teams[0].namespaces[0]: 'cnrm-system' is reserved",
        "teams[0].members[0]: 'user:a<script>@x.com' is not a principal",
        "teams[1].namespaces[0]: 'gatekeeper-system' is reserved",
        "teams[1].members[0]: 'serviceAccount:b<x>@p.iam.gserviceaccount.com' is not a principal",
        "nodePools[0].gpuSharing.maxSharedClientsPerGpu: 1000000000000000000000000000000 is too large",
        "reservations[0].days: 1000000000000000000000000000000 is too large",
    ]
    for fragment in expected:
        assert any(f"gkecap:environment.{fragment}" in line for line in run.error_lines), (fragment, run.stderr)
    assert not (tmp_path / "out").exists()


def test_gke_version_with_unicode_digits_is_exit_2(tmp_path):
    text = DEV_STACK.read_text().replace("      name: ml-dev ", "      version: '１.３３'\n      name: ml-dev ")
    path = tmp_path / "Pulumi.wide.yaml"
    path.write_text(text)
    run = run_gkecap(["plan", "--config", str(path), "--program", str(STACKS), "--no-policies", "--out", str(tmp_path / "out")], cwd=tmp_path, timeout=BOUND)
    assert_clean(run, 2)
    assert any("gkecap:environment.cluster.version: '１.３３' is not a GKE version" in line for line in run.error_lines), run.stderr


def _kueue(kind: str, name: str, namespace: str | None, spec: dict) -> dict:
    metadata = {"name": name, **({"namespace": namespace} if namespace else {})}
    token = f"kubernetes:kueue.x-k8s.io/v1beta2:{kind}"
    inputs = {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": kind, "metadata": metadata, "spec": spec}
    urn = f"urn:pulumi:prod::ml-infra::{token}::{namespace or ''}{name}"
    return {"urn": urn, "custom": True, "type": token, "id": name, "inputs": inputs, "outputs": inputs}


def test_local_queue_outside_its_cluster_queues_selector_is_advisory(tmp_path):
    selector = {"matchExpressions": [{"key": "kubernetes.io/metadata.name", "operator": "In", "values": ["vision"]}]}
    resources = [
        _kueue("ResourceFlavor", "h100", None, {}),
        _kueue("ClusterQueue", "vision", None, {"namespaceSelector": selector, "resourceGroups": [
            {"coveredResources": ["nvidia.com/gpu"], "flavors": [{"name": "h100", "resources": [{"name": "nvidia.com/gpu", "nominalQuota": 8}]}]}]}),
        _kueue("LocalQueue", "vision", "vision", {"clusterQueue": "vision"}),
        _kueue("LocalQueue", "stray", "llm", {"clusterQueue": "vision"}),
    ]
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"version": 3, "deployment": {"resources": resources}}))
    run = run_gkecap(["check", "--state", str(path), "--format", "json"], cwd=tmp_path, timeout=BOUND)
    assert_clean(run, 1)  # mandatory: the hand-written stack has no guard of its quota (team-quota-bypass)
    found = [v for v in json.loads(run.stdout)["violations"] if v["policy"] == "local-queue-namespace-admitted"]
    assert [(v["enforcementLevel"], v["urn"].rsplit("::", 1)[1]) for v in found] == [("advisory", "llmstray")]
    assert "in namespace 'llm' points at ClusterQueue 'vision'" in found[0]["message"]


def test_unsubmitting_a_submitted_reservation_is_exit_2_naming_it(tmp_path):
    from datetime import datetime, timedelta, timezone

    from gkecap.plan import plan

    start = (datetime.now(timezone.utc) + timedelta(days=20)).strftime("%Y-%m-%dT00:00:00Z")
    reservation = f"    reservations:\n      - {{name: dec-run, machineType: a3-highgpu-8g, count: 2, zone: us-east5-a, start: \"{start}\", days: 7, submit: SUBMIT}}\n"
    text = DEV_STACK.read_text().replace("    cohorts:\n", reservation + "    cohorts:\n")
    submitted, drafted = tmp_path / "Pulumi.prod.yaml", tmp_path / "draft" / "Pulumi.prod.yaml"
    drafted.parent.mkdir()
    submitted.write_text(text.replace("SUBMIT", "true"))
    drafted.write_text(text.replace("SUBMIT", "false"))
    # The deployed state: what `pulumi up` of the submitted file recorded (as `pulumi stack export` writes it).
    deployed = plan(STACKS, submitted, no_policies=True)
    export = {"version": 3, "deployment": {"resources": [
        {"urn": r.urn, "type": r.type, "custom": r.custom, "inputs": r.inputs, "outputs": r.outputs, "protect": bool(r.options.get("protect"))}
        for r in deployed.resources
    ]}}
    state = tmp_path / "state.json"
    state.write_text(json.dumps(export))
    run = run_gkecap(["plan", "--program", str(STACKS), "--config", str(drafted), "--state", str(state), "--no-policies", "--out", str(tmp_path / "out")], cwd=tmp_path, timeout=BOUND)
    assert_clean(run, 2)
    assert run.error_lines == [
        f"error: gkecap:environment.reservations[0].submit: calendar reservation 'dec-run' is SUBMITTED in {state} and would "
        "become DRAFT: a submitted calendar reservation cannot be un-submitted or cancelled; keep submit: true"
    ]
    assert not (tmp_path / "out").exists()
    kept = run_gkecap(["plan", "--program", str(STACKS), "--config", str(submitted), "--state", str(state), "--no-policies", "--out", str(tmp_path / "out")], cwd=tmp_path, timeout=BOUND)
    assert_clean(kept, 0)


def test_policy_config_with_a_repeated_key_is_exit_2(tmp_path):
    config = tmp_path / "policy-config.json"
    config.write_text('{"allow-lists": "advisory", "allow-lists": "disabled"}')
    run = run_gkecap(["check", "--state", str(STATES / "stack_export.json"), "--policy-config", str(config)], cwd=tmp_path, timeout=BOUND)
    assert_clean(run, 2)
    assert run.error_lines == [f"error: {config}: key 'allow-lists' is given twice in one object; give it once"]


def test_hand_written_pool_beyond_gkes_32_bit_fields_is_mandatory(tmp_path):
    body = 'gcp.container.NodePool("raw", cluster="c", location="us-east5", node_count=10**12, autoscaling={"total_max_node_count": 10**30})\n'
    program = write_program(tmp_path / "prog", body)
    run = run_gkecap(["plan", "--program", str(program), "--format", "json", "--out", str(tmp_path / "out")], cwd=tmp_path, timeout=BOUND)
    assert_clean(run, 1)
    found = sorted(v["message"] for v in json.loads(run.stdout)["violations"] if v["policy"] == "node-pool-field-ranges")
    assert [m.split(":")[1].strip() for m in found] == ["autoscaling.totalMaxNodeCount", "nodeCount"]


def test_manifests_refuse_a_stack_name_that_is_a_path(tmp_path):
    run = run_gkecap(["manifests", "--config", str(DEV_STACK), "--stack", "../../escaped"], cwd=tmp_path, timeout=BOUND)
    assert_clean(run, 2)
    assert run.error_lines == ["error: --stack: stack name '../../escaped' may only contain ASCII letters, digits, '_', '.' and '-' (Pulumi's rule)"]
    assert list(tmp_path.parent.glob("escaped")) == [] and list(tmp_path.iterdir()) == []
