"""Fuzzing the real CLI with hostile environment files and state exports (issue 15), and workloads files (issue 25).

Each example runs `gkecap` in a subprocess, with the policy pack, as CI runs it, and asserts what must hold for
any input: the run ends within a bound, exits 0, 1 or 2, prints no traceback, writes nothing outside its output
directory, and leaves no process behind. Examples are few (each is a real run of several seconds).
"""

from __future__ import annotations

import copy
import json
import tempfile
from pathlib import Path

import yaml
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from testkit.cli_process import run_gkecap
from testkit.engine_fixtures import STATES

ROOT = Path(__file__).resolve().parents[2]
STACKS = ROOT / "stacks"
DEV_CONFIG = yaml.safe_load((STACKS / "Pulumi.dev.yaml").read_text())
DEV_SCENARIO = yaml.safe_load((STACKS / "scenarios" / "dev.yaml").read_text())
STATE = json.loads((STATES / "stack_export.json").read_text())
# No shrinking: each example is a subprocess of seconds; a failure reports the example as drawn.
# Derandomized: CI sees the same examples on every run (explore more locally with a higher max_examples).
SETTINGS = settings(max_examples=10, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow], database=None,
                    phases=(Phase.explicit, Phase.generate))
BOUND = 120  # seconds: far above a normal run, far below "hangs"

SECRET = {"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", "ciphertext": "v1:eA=="}
hostile_text = st.sampled_from(
    ["", " ", "[/x]", "[bold]x[/bold]", "../../../x", "/etc/passwd", "a\nb", "v٠.١٩.٢", "１.３３", "x" * 300,
     "kube-system", "a<script>@x.com", "\x00", "%s%n", "{{7*7}}", "NaN", "-1", "1e400"]
)
hostile_number = st.sampled_from([0, -1, 2**31, 2**63, 10**30, -(10**30), 1.5, float("inf"), float("nan")])
leaf = st.one_of(hostile_text, hostile_number, st.booleans(), st.none(), st.text(max_size=12))
hostile_value = st.recursive(leaf, lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(hostile_text, inner, max_size=3)), max_leaves=6)

ENVIRONMENT_PATHS = [
    ("region",), ("cluster", "name"), ("kueue", "version"), ("nodePools", 0, "maxNodes"), ("nodePools", 0, "zones"),
    ("nodePools", 1, "slices"), ("nodePools", 1, "tpuTopology"), ("nodePools", 0, "name"), ("cohorts", 0, "name"),
    ("teams", 0, "name"), ("teams", 0, "quota", "h100-flex"), ("teams", 0, "members", 0), ("teams", 1, "cohort"),
    ("teams", 0, "namespaces"), ("teams", 1, "weight"), ("reservations",), ("nodePools",), ("teams",),
]
TEXT_DAMAGE = [
    None,
    lambda text: text + "  gcp:project: again\n",  # a duplicate key
    lambda text: text + "  bomb: &a [x, x, x, x]\n  more: [*a, *a, *a, *a]\n",  # aliases (harmless size)
    lambda text: text.replace("config:", "config: &c\n  self: *c\n", 1),  # an alias to an undefined anchor
    lambda text: text + "  deep: " + "[" * 5000 + "]" * 5000 + "\n",
    lambda text: text[: len(text) // 2],  # truncated
]
STACK_NAMES = st.sampled_from(["dev", "..", "...", "a b", "x" * 120, "[x]", "ok-name.1", "é"])  # file names: no "/"


def _set(document: dict, path: tuple, value: object) -> None:
    target = document
    for key in path[:-1]:
        try:
            target = target[key]
        except (KeyError, IndexError, TypeError):
            return
    if isinstance(target, dict) or (isinstance(target, list) and isinstance(path[-1], int) and path[-1] < len(target)):
        target[path[-1]] = value


def _written_outside(root: Path, allowed: list[Path]) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file() and not any(p.is_relative_to(a) for a in allowed)]


def _assert_contained_run(args: list[str], work: Path, inputs: Path) -> None:
    stacks_before = {p for p in STACKS.rglob("*") if "__pycache__" not in p.parts}
    run = run_gkecap(args, cwd=work, timeout=BOUND)
    assert run.exit_code in (0, 1, 2), (run.exit_code, run.stderr[-2000:])
    assert "Traceback" not in run.stderr, run.stderr[-3000:]
    assert run.leftovers == [], f"processes left behind: {run.leftovers}"
    assert _written_outside(work.parent, [work / "out", inputs]) == []
    assert {p for p in STACKS.rglob("*") if "__pycache__" not in p.parts} == stacks_before


@SETTINGS
@given(
    edits=st.lists(st.tuples(st.sampled_from(ENVIRONMENT_PATHS), hostile_value), min_size=1, max_size=3),
    damage=st.sampled_from(TEXT_DAMAGE),
    stack=STACK_NAMES,
)
def test_any_environment_file_ends_cleanly(edits, damage, stack):
    config = copy.deepcopy(DEV_CONFIG)
    for path, value in edits:
        _set(config["config"]["gkecap:environment"], path, value)
    text = yaml.safe_dump(config, allow_unicode=True, sort_keys=False)
    if damage is not None:
        text = damage(text)
    with tempfile.TemporaryDirectory(prefix="gkecap-fuzz-") as root:
        inputs, work = Path(root, "inputs"), Path(root, "work")
        inputs.mkdir()
        work.mkdir()
        config_file = inputs / f"Pulumi.{stack}.yaml"
        config_file.write_text(text, encoding="utf-8")
        _assert_contained_run(["plan", "--program", str(STACKS), "--config", str(config_file)], work, inputs)


STATE_FIELDS = ["inputs", "outputs", "dependencies", "parent", "provider", "propertyDependencies", "urn", "type",
                "aliases", "protect", "id", "customTimeouts"]


@SETTINGS
@given(
    index=st.integers(0, len(STATE["deployment"]["resources"]) - 1),
    edits=st.lists(st.tuples(st.sampled_from(STATE_FIELDS), st.one_of(hostile_value, st.just(SECRET))), min_size=1, max_size=3),
    input_edits=st.lists(st.tuples(hostile_text, st.one_of(hostile_value, st.just(SECRET))), max_size=3),
    raw=st.sampled_from([None, b"\xff", b"NaN"]),
)
def test_any_state_export_ends_cleanly(index, edits, input_edits, raw):
    state = copy.deepcopy(STATE)
    resource = state["deployment"]["resources"][index]
    # Copies: hypothesis may draw the same object (SECRET) twice; nesting it in itself would make a cycle.
    for key, value in edits:
        resource[key] = copy.deepcopy(value)
    if isinstance(resource.get("inputs"), dict):
        for key, value in input_edits:
            resource["inputs"][key] = copy.deepcopy(value)
    data = json.dumps(state).encode()
    if raw is not None:
        data = data.replace(b'"version": 3', b'"version": ' + raw, 1)
    with tempfile.TemporaryDirectory(prefix="gkecap-fuzz-") as root:
        inputs, work = Path(root, "inputs"), Path(root, "work")
        inputs.mkdir()
        work.mkdir()
        state_file = inputs / "state.json"
        state_file.write_bytes(data)
        _assert_contained_run(["check", "--state", str(state_file), "--format", "json"], work, inputs)


WORKLOAD_FIELDS = ["name", "team", "pods", "accelerators", "pool", "priority", "submit", "duration", "count", "every"]
CAPACITY_FIELDS = ["pool", "from", "until", "nodes"]
hostile_scenario_value = st.one_of(
    hostile_value,
    st.sampled_from([100_000, 10**7, 10_001, "1e400s", "99999999d", "$\\foo$", "a$x$b", "\x1b[2J\x1b]0;t\x07", "é" * 50,
                     "\u202e", "2027", 2027, "2027-01-10", float("inf"), float("-inf")]),
)
SCENARIO_DAMAGE = [
    None,
    lambda text: text + "start: 2027-01-11T00:00:00Z\n",  # a duplicate key
    lambda text: text.replace("workloads:", "workloads: &w", 1) + "more: *w\n",  # an alias (an unknown key too)
    lambda text: "workloads: " + "[" * 5000 + "]" * 5000 + "\n",
    lambda text: text[: len(text) // 2],  # truncated
    lambda text: text.replace("start: 2027-01-10T00:00:00Z", "start: .nan", 1),
]


@SETTINGS
@given(
    workload_edits=st.lists(st.tuples(st.integers(0, 3), st.sampled_from(WORKLOAD_FIELDS), hostile_scenario_value), max_size=3),
    capacity_edits=st.lists(st.tuples(st.integers(0, 1), st.sampled_from(CAPACITY_FIELDS), hostile_scenario_value), max_size=2),
    damage=st.sampled_from(SCENARIO_DAMAGE),
)
def test_any_workloads_file_ends_cleanly(workload_edits, capacity_edits, damage):
    scenario = copy.deepcopy(DEV_SCENARIO)
    for index, key, value in workload_edits:
        _set(scenario, ("workloads", index, key), copy.deepcopy(value))
    for index, key, value in capacity_edits:
        _set(scenario, ("capacity", index, key), copy.deepcopy(value))
    text = yaml.safe_dump(scenario, allow_unicode=True, sort_keys=False)
    if damage is not None:
        text = damage(text)
    with tempfile.TemporaryDirectory(prefix="gkecap-fuzz-") as root:
        inputs, work = Path(root, "inputs"), Path(root, "work")
        inputs.mkdir()
        work.mkdir()
        workloads = inputs / "workloads.yaml"
        workloads.write_text(text, encoding="utf-8")
        args = ["simulate", "--config", str(STACKS / "Pulumi.dev.yaml"), "--workloads", str(workloads), "--out", str(work / "out")]
        _assert_contained_run(args, work, inputs)
        json_run = run_gkecap([*args[:-2], "--format", "json"], cwd=work, timeout=BOUND)
        assert json_run.exit_code in (0, 2) and "Traceback" not in json_run.stderr, json_run.stderr[-2000:]
        json.loads(json_run.stdout, parse_constant=_not_json)  # one strict JSON document whatever the input


def _not_json(constant: str) -> None:
    raise AssertionError(f"{constant} in a JSON document: not JSON")
