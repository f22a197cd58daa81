"""Hostile and careless input, round two (issue 25): each failure as it was found, through the installed `gkecap`
console script in a subprocess, as a user runs it.

Every run must end (a bounded wait), exit 0, 1 or 2 without a traceback, leave the user's files as they were,
write nothing through a link out of its output directory, and leave no process of its session behind.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import time
from pathlib import Path

import pytest

from testkit.cli_process import CliRun, gkecap_command, kill_session, run_gkecap, session_members
from testkit.engine_fixtures import MINI_PACK, PACKS, STATES

HOSTILE_PACK = PACKS / "hostile_pack"
STACKS = Path(__file__).resolve().parents[2] / "stacks"
DEV_STACK = STACKS / "Pulumi.dev.yaml"
BOUND = 300  # seconds: a hang fails the test; generous, as CI machines are shared
START = "start: 2027-01-10T00:00:00Z\n"
WORKLOAD = "{name: %s, team: research, pods: 1, accelerators: 8, pool: h100-flex, submit: 0s, duration: 1h}"


def gkecap(args: list[str], cwd: Path, **options) -> CliRun:
    return run_gkecap(args, cwd=cwd, timeout=BOUND, console_script=True, **options)


def assert_clean(run: CliRun, *codes: int) -> None:
    assert run.exit_code in (codes or (0, 1, 2)), (run.exit_code, run.stderr[-2000:])
    assert "Traceback" not in run.stderr, run.stderr[-2000:]
    assert run.leftovers == [], f"processes left behind: {run.leftovers}"


def write_program(directory: Path, body: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "Pulumi.yaml").write_text("name: hostile\nruntime: python\n")
    (directory / "__main__.py").write_text("import pulumi\nimport pulumi_gcp as gcp\n" + body)
    return directory


def snapshot(directory: Path) -> dict[str, bytes]:
    return {str(p.relative_to(directory)): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


POOL = 'p{i} = gcp.container.NodePool("p{i}", cluster="c", location="us-east5", node_count=1)\n'


# --- 1, 2, 3: files ----------------------------------------------------------------------------------------


def test_plan_out_leaves_a_users_files_and_removes_only_its_own(tmp_path):
    out = tmp_path / "out"
    users = {out / "workloads" / "prod" / "train.yaml": "kind: Job\n", out / "workloads" / "research" / "mine.json": "{}\n",
             out / "vertex" / "notes.yaml": "a: 1\n"}
    for path, text in users.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    first = gkecap(["plan", "--program", str(STACKS), "--config", str(DEV_STACK), "--no-policies", "--out", str(out)], tmp_path)
    assert_clean(first, 0)
    assert (out / "workloads" / "platform.yaml").is_file()
    # The next plan no longer has team `platform`: its starters go, the user's files stay.
    renamed = tmp_path / "Pulumi.dev.yaml"
    renamed.write_text(DEV_STACK.read_text().replace("name: platform", "name: infra").replace("group:ml-platform", "group:ml-infra"))
    second = gkecap(["plan", "--program", str(STACKS), "--config", str(renamed), "--no-policies", "--out", str(out)], tmp_path)
    assert_clean(second, 0)
    assert not (out / "workloads" / "platform.yaml").exists()
    assert (out / "workloads" / "infra.yaml").is_file()
    assert {path: path.read_text() for path in users} == users


def test_plan_refuses_a_starter_directory_linked_out_of_its_output(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.yaml").write_text("kind: Job\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / "workloads").symlink_to(elsewhere)
    run = gkecap(["plan", "--program", str(STACKS), "--config", str(DEV_STACK), "--no-policies", "--out", str(out)], tmp_path)
    assert_clean(run, 2)
    assert f"cannot write {out / 'workloads'}: a symbolic link to {elsewhere}, outside the output directory" in run.stderr
    assert snapshot(elsewhere) == {"keep.yaml": b"kind: Job\n"}
    assert sorted(p.name for p in out.iterdir()) == ["workloads"]  # refused before anything was written


def test_simulate_refuses_a_report_linked_out_of_its_output(tmp_path):
    victim = tmp_path / "victim.html"
    victim.write_text("mine\n")
    out = tmp_path / "sim"
    out.mkdir()
    (out / "simulation.html").symlink_to(victim)
    workloads = tmp_path / "w.yaml"
    workloads.write_text(START + "workloads:\n  - " + WORKLOAD % "a" + "\n")
    run = gkecap(["simulate", "--config", str(DEV_STACK), "--workloads", str(workloads), "--out", str(out)], tmp_path)
    assert_clean(run, 2)
    assert "a symbolic link to" in run.stderr and victim.read_text() == "mine\n"


def _limited_file_size() -> None:  # in the child: writes past 8 KiB fail with EFBIG, as on a full disk
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (8 * 1024, 8 * 1024))  # the report is about 17 KiB


def test_a_failed_simulate_write_names_the_file_and_keeps_the_previous_one(tmp_path):
    out = tmp_path / "sim"
    out.mkdir()
    previous = out / "simulation.html"
    previous.write_text("<html>previous</html>\n")
    workloads = tmp_path / "w.yaml"
    workloads.write_text(START + "workloads:\n  - " + WORKLOAD % "a" + "\n")
    process = subprocess.run(  # noqa: S603
        [*gkecap_command(console_script=True), "simulate", "--config", str(DEV_STACK), "--workloads", str(workloads), "--out", str(out)],
        cwd=tmp_path, capture_output=True, text=True, timeout=BOUND, preexec_fn=_limited_file_size, start_new_session=True,
    )
    assert process.returncode == 2 and "Traceback" not in process.stderr, process.stderr
    assert f"error: --out: cannot write {previous}: File too large" in process.stderr
    assert previous.read_text() == "<html>previous</html>\n"
    assert sorted(p.name for p in out.iterdir()) == ["simulation.html"]  # no temporary file left


# --- 4, 5: processes and time ------------------------------------------------------------------------------


def test_sigkill_of_gkecap_ends_the_policy_pack(tmp_path):
    program = write_program(tmp_path / "prog", POOL.format(i=0) + "import time\ntime.sleep(600)\n")
    process = subprocess.Popen(  # noqa: S603
        [*gkecap_command(console_script=True), "plan", "--program", str(program), "--out", str(tmp_path / "out")],
        cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    try:
        deadline = time.monotonic() + BOUND
        while len(session_members(process.pid)) < 2:  # gkecap and its policy pack
            assert time.monotonic() < deadline and process.poll() is None, "the policy pack never started"
            time.sleep(0.1)
        time.sleep(2.0)  # the pack listens by now
        process.kill()
        process.wait(timeout=30)
        deadline = time.monotonic() + 10
        while session_members(process.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert session_members(process.pid) == []
    finally:
        kill_session(process.pid)


@pytest.mark.parametrize("delay", [0.3, 0.9, 1.8])
def test_sigterm_at_any_moment_of_the_start_leaves_no_pack(tmp_path, delay):
    # Under load, a SIGTERM while the pack was starting orphaned it in about one run of two.
    program = write_program(tmp_path / "prog", POOL.format(i=0) + "import time\ntime.sleep(600)\n")
    process = subprocess.Popen(  # noqa: S603
        [*gkecap_command(console_script=True), "plan", "--program", str(program), "--out", str(tmp_path / "out")],
        cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
    )
    try:
        time.sleep(delay)
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=60)
        assert b"Traceback" not in stderr, stderr[-2000:]
        deadline = time.monotonic() + 10
        while session_members(process.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert session_members(process.pid) == []
    finally:
        if process.poll() is None:
            process.kill()
        kill_session(process.pid)


def test_system_exit_in_an_apply_among_many_outputs_ends_the_run(tmp_path):
    # The SDK's tasks waited forever on Outputs whose resolver had died; cancelling them hung gkecap.
    body = ("ps = [gcp.container.NodePool(f'p{i}', cluster='c', location='us-east5', node_count=1) for i in range(30)]\n"
            "def stop(_):\n    raise SystemExit(0)\n"
            "pulumi.Output.all(*[p.name for p in ps]).apply(stop)\n"
            "for p in ps:\n    p.id.apply(lambda n: n)\n")
    program = write_program(tmp_path / "prog", body)
    run = gkecap(["plan", "--program", str(program), "--policy-pack", str(MINI_PACK), "--out", str(tmp_path / "out")], tmp_path)
    assert_clean(run, 2)
    assert "the program ended early (sys.exit(0))" in run.stderr
    assert run.seconds < 120


@pytest.mark.parametrize(
    "loop",
    [
        "while True:\n    try:\n        time.sleep(0.2)\n    except Exception:\n        pass\n",  # a retry loop
        "while True:\n    try:\n        signal.setitimer(signal.ITIMER_REAL, 0)\n        time.sleep(0.2)\n    except BaseException:\n        pass\n",
    ],
    ids=["catches-exception", "resets-the-timer-and-catches-everything"],
)
def test_timeout_stops_a_program_that_fights_it(tmp_path, loop):
    program = write_program(tmp_path / "prog", POOL.format(i=0) + "import signal, time\n" + loop)
    run = gkecap(["plan", "--program", str(program), "--timeout", "5", "--format", "json", "--out", str(tmp_path / "out")], tmp_path)
    assert_clean(run, 2)
    assert any(line.startswith("error: --timeout: the plan did not finish within 5 s") for line in run.error_lines), run.stderr
    assert json.loads(run.stdout)["summary"]["exitCode"] == 2
    assert run.seconds < 90


@pytest.mark.parametrize("value", ["inf", "1e300", "nan", "-1"])
def test_timeout_beyond_a_week_or_not_a_number_is_a_usage_error(tmp_path, value):
    run = gkecap(["plan", "--program", str(STACKS), "--timeout", value, "--format", "json"], tmp_path)
    assert_clean(run, 2)
    assert "Invalid value for '--timeout'" in run.stderr and "internal error" not in run.stderr
    document = json.loads(run.stdout)  # --format json: one document, also for an option error
    assert [d["path"] for d in document["diagnostics"]] == ["--timeout"]


def test_simulate_has_a_timeout(tmp_path):
    workloads = tmp_path / "w.yaml"
    workloads.write_text(START + "workloads:\n  - {name: s, team: research, pods: 1, accelerators: 4, pool: v6e-2x2, "
                         "duration: 45m, count: 10000, every: 1m}\n")
    run = gkecap(["simulate", "--config", str(DEV_STACK), "--workloads", str(workloads), "--timeout", "3", "--format", "json"], tmp_path)
    assert_clean(run, 2)
    assert any(line.startswith("error: --timeout: the simulation did not finish within 3 s") for line in run.error_lines), run.stderr
    assert "diagnostics" in json.loads(run.stdout)


# --- 6: secrets --------------------------------------------------------------------------------------------


def test_a_secret_quoted_with_repr_is_redacted_everywhere(tmp_path):
    secret = "zz-S3CRET\\val\nue"
    body = ('gcp.container.NodePool("p", cluster="c", location="us-east5", node_count=1, autoscaling={"total_max_node_count": 4}, '
            f"node_config={{'machine_type': pulumi.Output.secret({secret!r})}})\n")
    program = write_program(tmp_path / "prog", body)
    out = tmp_path / "out"
    run = gkecap(["plan", "--program", str(program), "--policy-pack", str(HOSTILE_PACK), "--out", str(out)], tmp_path)
    assert_clean(run, 1)
    written = run.stdout + (out / "plan.json").read_text() + (out / "report.html").read_text()
    assert "quotes [secret] (as '[secret]')" in (out / "plan.json").read_text()
    for fragment in ("S3CRET", "val\\nue", "val\\\\nue"):
        assert fragment not in written


# --- 7, 8, 9: simulate input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (START + "workloads:\n  - {name: a, team: research, accelerators: 8, pool: h100-flex, duration: .nan}\n",
         "workloads[0].duration: nan is not a finite number"),
        (START + "workloads:\n  - {name: a, team: research, accelerators: 8, pool: h100-flex, duration: .inf}\n",
         "workloads[0].duration: inf is not a finite number"),
        (START + "workloads:\n  - {name: a, team: research, accelerators: 8, pool: h100-flex, submit: .inf, duration: 1h}\n",
         "workloads[0].submit: inf is not a finite number"),
        (START + "workloads:\n  - {name: a, team: research, accelerators: 8, pool: h100-flex, duration: 1.0e+400}  # YAML 1.1 reads it as a float: inf\n",
         "workloads[0].duration: inf is not a finite number"),
        (START + "workloads:\n  - " + WORKLOAD % "a" + "\ncapacity:\n  - {pool: h100-flex, from: 0s, until: .nan, nodes: 1}\n",
         "capacity[0].until: nan is not a finite number"),
        (START + "workloads:\n  - {name: a, team: research, pods: true, accelerators: 8, pool: h100-flex, duration: 1h}\n",
         "workloads[0].pods: True is not a whole number"),
        ("start: 2027\nworkloads:\n  - " + WORKLOAD % "a" + "\n", "start: 2027 is not a timestamp"),
        (START + "workloads:\n  - {name: a, team: research, accelerators: 8, pool: h100-flex, duration: 1h, name: b}\n",
         "mapping key 'name' already defined"),
        (START + "workloads: " + "[" * 3000 + "]" * 3000 + "\n", "nested too deeply"),
        (START + "workloads:\n  - {name: a, team: research, accelerators: 8, pool: h100-flex, duration: 99999999d}\n",
         "workloads[0].duration: '99999999d' is too long"),
    ],
    ids=["nan-duration", "inf-duration", "inf-submit", "1e400", "nan-until", "bool-pods", "bare-year", "duplicate-key",
         "nesting", "too-long"],
)
def test_a_hostile_workloads_file_is_exit_2_naming_the_path(tmp_path, text, expected):
    workloads = tmp_path / "w.yaml"
    workloads.write_text(text)
    run = gkecap(["simulate", "--config", str(DEV_STACK), "--workloads", str(workloads), "--format", "json"], tmp_path)
    assert_clean(run, 2)
    assert any(line.startswith(f"error: {workloads}: ") and expected in line for line in run.error_lines), run.stderr
    assert json.loads(run.stdout)["diagnostics"]


def test_too_many_workloads_in_all_is_a_clear_error(tmp_path):
    workloads = tmp_path / "w.yaml"
    entry = "  - {name: a, team: research, accelerators: 8, pool: h100-flex, duration: 1h, count: 6000}\n"
    workloads.write_text(START + "workloads:\n" + entry + entry)
    run = gkecap(["simulate", "--config", str(DEV_STACK), "--workloads", str(workloads)], tmp_path)
    assert_clean(run, 2)
    assert run.error_lines == [f"error: {workloads}: workloads: 12,000 workloads in all (entries times their `count`); "
                               "at most 10,000 are simulated (--max-workloads raises the cap): split the scenario"]


def test_the_workload_cap_is_a_flag(tmp_path):
    workloads = tmp_path / "w.yaml"
    workloads.write_text(START + "workloads:\n  - {name: a, team: research, accelerators: 8, pool: h100-flex, "
                                 "duration: 1h, count: 3}\n")
    refused = gkecap(["simulate", "--config", str(DEV_STACK), "--workloads", str(workloads), "--max-workloads", "2"],
                     tmp_path)
    assert_clean(refused, 2)
    assert "at most 2 are simulated (--max-workloads raises the cap)" in refused.stderr
    raised = gkecap(["simulate", "--config", str(DEV_STACK), "--workloads", str(workloads), "--max-workloads", "3",
                     "--format", "json"], tmp_path)
    assert_clean(raised, 0)
    assert json.loads(raised.stdout)["summary"]["admitted"] == 3


def test_the_default_workload_cap_is_the_documented_one():
    import inspect

    from gkecap.commands.simulate import simulate_command
    from gkecap.simulate.workloads_file import MAX_WORKLOADS

    assert inspect.signature(simulate_command).parameters["max_workloads"].default.default == MAX_WORKLOADS


def test_an_endless_workloads_file_is_refused(tmp_path):
    run = gkecap(["simulate", "--config", str(DEV_STACK), "--workloads", "/dev/zero"], tmp_path)
    assert_clean(run, 2)
    assert run.error_lines == ["error: /dev/zero: larger than 4 MiB; a workloads file lists at most 10,000 workloads "
                               "(--max-workloads raises the cap)"]


def test_tex_in_a_workload_name_is_drawn_literally(tmp_path):
    workloads = tmp_path / "w.yaml"
    workloads.write_text(START + "workloads:\n  - " + WORKLOAD % "'a$\\foo$b'" + "\n")
    run = gkecap(["simulate", "--config", str(DEV_STACK), "--workloads", str(workloads), "--out", str(tmp_path / "sim")], tmp_path)
    assert_clean(run, 0)
    svg = (tmp_path / "sim" / "simulation.html").read_text()
    assert "a$\\foo$b" in svg


# --- 10, 11: output ----------------------------------------------------------------------------------------


def test_escape_sequences_in_workload_names_never_reach_the_terminal(tmp_path):
    workloads = tmp_path / "w.yaml"
    entry = '{name: "x\\e]0;owned\\ay\\e[2J", team: research, pods: 1, accelerators: 8, pool: h100-flex, duration: 1h, count: 2}'
    workloads.write_text(START + "workloads:\n  - " + entry + "\n")
    run = gkecap(["simulate", "--config", str(DEV_STACK), "--workloads", str(workloads)], tmp_path)
    assert_clean(run, 0)
    assert "\x1b" not in run.stdout and "\x07" not in run.stdout


def test_escape_sequences_in_resource_names_and_logs_never_reach_the_terminal(tmp_path):
    body = ('gcp.container.NodePool("pool\\x1b[2J", cluster="c", location="us-east5", node_count=1)\n'
            'pulumi.log.warn("title \\x1b]0;owned\\x07 here")\n')
    program = write_program(tmp_path / "prog", body)
    run = gkecap(["plan", "--program", str(program), "--policy-pack", str(MINI_PACK), "--out", str(tmp_path / "out")], tmp_path)
    assert_clean(run, 0, 1)
    assert "\x1b" not in run.stdout and "\x07" not in run.stdout
    assert "title \\x1b]0;owned\\x07 here" in run.stdout and "pool\\x1b[2J" in run.stdout


def test_sarif_uris_are_percent_encoded(tmp_path):
    folder = tmp_path / "my dir#1"
    folder.mkdir()
    (folder / "Pulumi.dev.yaml").write_text(DEV_STACK.read_text().replace("maxNodes: 2", "maxNodes: -1", 1))
    run = gkecap(["plan", "--program", str(STACKS), "--config", "my dir#1/Pulumi.dev.yaml", "--format", "sarif"], tmp_path)
    assert_clean(run, 2)
    uris = {location["physicalLocation"]["artifactLocation"]["uri"]
            for result in json.loads(run.stdout)["runs"][0]["results"] for location in result.get("locations", [])}
    assert uris == {"my%20dir%231/Pulumi.dev.yaml"}


def test_a_full_stdout_is_an_error_without_a_traceback(tmp_path):
    with open("/dev/full", "wb") as full:
        process = subprocess.run(  # noqa: S603
            [*gkecap_command(console_script=True), "check", "--state", str(STATES / "stack_export.json"), "--format", "json"],
            cwd=tmp_path, stdout=full, stderr=subprocess.PIPE, text=True, timeout=BOUND, start_new_session=True,
        )
    assert process.returncode == 2
    assert process.stderr.splitlines() == ["error: cannot write the output: No space left on device"]


def test_check_from_a_closed_stdin_is_exit_2(tmp_path):
    process = subprocess.run(  # noqa: S603
        [*gkecap_command(console_script=True), "check", "--state", "-"],
        cwd=tmp_path, capture_output=True, text=True, timeout=BOUND, preexec_fn=lambda: os.close(0), start_new_session=True,
    )
    assert process.returncode == 2
    assert process.stderr.splitlines() == ["error: --state -: stdin is closed; pipe `pulumi stack export` into it"]


def test_config_from_process_substitution(tmp_path):
    script = f"{gkecap_command(console_script=True)[0]} plan --program {STACKS} --config <(cat {DEV_STACK}) --no-policies --format json"
    process = subprocess.run(["bash", "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=BOUND)  # noqa: S603,S607
    assert process.returncode == 0, process.stderr
    assert json.loads(process.stdout)["summary"]["resources"] > 0


@pytest.mark.parametrize("version", ["4", "0", '"3"', "true"])
def test_check_refuses_an_unknown_stack_export_version(tmp_path, version):
    path = tmp_path / "state.json"
    path.write_text((STATES / "stack_export.json").read_text().replace('"version": 3', f'"version": {version}', 1))
    run = gkecap(["check", "--state", str(path)], tmp_path)
    assert_clean(run, 2)
    assert run.error_lines == [f"error: {path}: version: {version} is not a stack export version Pulumi reads (1, 2, 3; "
                               "`pulumi stack export` writes 3)"]


@pytest.mark.parametrize("number", ["1e400", "-1e400", "1" + "0" * 400])
def test_a_number_beyond_a_double_never_reaches_the_pack(tmp_path, number):
    state = json.loads((STATES / "stack_export.json").read_text())
    state["deployment"]["resources"][2]["inputs"]["initialNodeCount"] = 7
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state).replace('"initialNodeCount": 7', f'"initialNodeCount": {number}'))
    run = gkecap(["check", "--state", str(path)], tmp_path)
    assert_clean(run, 2)
    assert len(run.error_lines) == 1 and "is beyond a double" in run.error_lines[0]


def test_a_number_beyond_a_double_in_a_program_is_exit_2_saying_so(tmp_path):
    program = write_program(tmp_path / "prog", 'gcp.container.NodePool("p", cluster="c", location="us-east5", node_count=10**400)\n')
    run = gkecap(["plan", "--program", str(program), "--out", str(tmp_path / "out")], tmp_path)
    assert_clean(run, 2)
    assert any("a number beyond a double" in line for line in run.error_lines), run.stderr


def test_vertex_contact_email_is_checked(tmp_path):
    text = DEV_STACK.read_text().replace("      region: us-central1\n      profiles:", "      region: us-central1\n      contactEmail: a<script>@x\n      profiles:")
    config = tmp_path / "Pulumi.dev.yaml"
    config.write_text(text)
    run = gkecap(["plan", "--program", str(STACKS), "--config", str(config), "--no-policies"], tmp_path)
    assert_clean(run, 2)
    assert any("gkecap:environment.vertex.contactEmail: 'a<script>@x' is not an email address" in line for line in run.error_lines), run.stderr
