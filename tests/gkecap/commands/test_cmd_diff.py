"""`gkecap diff` on two versions of the bundled prod stack: a team's quota raised, a pool added, a reservation moved.
Each format lists exactly those changes; the head's new findings come from the real policy pack and spec."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gkecap.cli import app

ROOT = Path(__file__).resolve().parents[3]
PROD = ROOT / "stacks" / "Pulumi.prod.yaml"
runner = CliRunner()

# (before, after) edits of the prod stack file, as a pull request would make them.
EDITS = (
    ("quota: {h100-dws: 4, h100-dws-long: 8, v6e-4x4: 16, l4-spot: 4}",
     "quota: {h100-dws: 4, h100-dws-long: 12, v6e-4x4: 16, l4-spot: 4}"),  # vision: 8 -> 12 H100 on h100-dws-long
    ('start: "2027-01-18T00:00:00Z"', 'start: "2027-01-25T00:00:00Z"'),  # llm-pretrain moved a week later
    ("    reservations:\n",
     "      - {name: a100-spot, machineType: a2-highgpu-8g, capacity: spot, zones: [us-east5-b], maxNodes: 2}\n"
     "    reservations:\n"),
)
EXPECTED = [  # (kind, name, change, field, before, after, unit)
    ("team", "vision", "changed", "quota.h100-dws-long", 8, 12, "GPUs"),
    ("pool", "a100-spot", "added", None, None, "a2-highgpu-8g", "GPUs"),
    ("reservation", "llm-pretrain", "changed", "start", "2027-01-18T00:00:00Z", "2027-01-25T00:00:00Z", None),
    ("reservation", "llm-pretrain", "changed", "end", "2027-02-01T00:00:00Z", "2027-02-08T00:00:00Z", None),
]


def head_text() -> str:
    text = PROD.read_text(encoding="utf-8")
    for before, after in EDITS:
        assert text.count(before) == 1, before
        text = text.replace(before, after)
    return text


@pytest.fixture(scope="module")
def plans(tmp_path_factory) -> tuple[Path, Path]:
    """plan.json of each version, as `gkecap plan --format json` prints it (real program, real policy pack)."""
    folder = tmp_path_factory.mktemp("diff")
    head = folder / "head" / "Pulumi.prod.yaml"
    head.parent.mkdir()
    head.write_text(head_text(), encoding="utf-8")
    documents = []
    for name, config in (("base", PROD), ("head", head)):
        planned = runner.invoke(app, ["plan", "--config", str(config), "--format", "json"])
        assert planned.exit_code == 0, planned.stderr
        documents.append(folder / f"{name}.json")
        documents[-1].write_text(planned.stdout, encoding="utf-8")
    return documents[0], documents[1]


def _diff(plans: tuple[Path, Path], *options: str):
    result = runner.invoke(app, ["diff", "--base", str(plans[0]), "--head", str(plans[1]), *options])
    assert result.exit_code == 0, result.stderr
    return result.stdout


def test_json_lists_exactly_the_three_changes(plans):
    changes = json.loads(_diff(plans, "--format", "json"))["changes"]
    shown = [(c["kind"], c["name"], c["change"], c["field"], c["before"],
              c["after"]["machineType"] if c["change"] == "added" else c["after"], c["unit"]) for c in changes]
    assert shown == EXPECTED


def test_json_lists_the_quota_raise_as_a_new_finding_of_the_pack(plans):
    new = json.loads(_diff(plans, "--format", "json"))["newFindings"]
    assert any(f["policy"] == "quota-capacity-dws" and "h100-dws-long" in f["resource"] and "vision 12" in f["message"] for f in new)


def test_text_lists_exactly_the_three_changes(plans):
    text = _diff(plans)
    changes = text.split("New findings:")[0].splitlines()[1:]
    assert changes == [
        "  team vision: quota.h100-dws-long: 8 GPUs -> 12 GPUs",
        "  pool a100-spot: added: machineType a2-highgpu-8g; capacityModel spot; capacity 16 GPUs; size 0..2 nodes; "
        "zones us-east5-b",
        "  reservation llm-pretrain:",
        "    start: 2027-01-18T00:00:00Z -> 2027-01-25T00:00:00Z",
        "    end: 2027-02-01T00:00:00Z -> 2027-02-08T00:00:00Z",
    ]


def test_markdown_lists_exactly_the_three_changes_in_tables(plans):
    markdown = _diff(plans, "--format", "markdown")
    rows = [line for line in markdown.split("#### New findings")[0].splitlines() if line.startswith("| ") and "---" not in line]
    assert rows == [
        "| Team | Change | Before | After |",
        "| vision | quota.h100-dws-long | 8 GPUs | 12 GPUs |",
        "| Pool | Change | Before | After |",
        "| a100-spot | added |  | machineType a2-highgpu-8g; capacityModel spot; capacity 16 GPUs; size 0..2 nodes; zones us-east5-b |",
        "| Reservation | Change | Before | After |",
        "| llm-pretrain | start | 2027-01-18T00:00:00Z | 2027-01-25T00:00:00Z |",
        "| llm-pretrain | end | 2027-02-01T00:00:00Z | 2027-02-08T00:00:00Z |",
    ]


def test_a_plan_against_itself_shows_no_change(plans):
    assert _diff((plans[0], plans[0])).endswith(" none\n")


def test_environment_files_at_a_git_ref_are_planned(tmp_path, monkeypatch):
    """The pull-request form: the base as committed (git:<ref>:<path>), the head as edited in the work tree."""
    monkeypatch.chdir(tmp_path)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run(["git", "init", "-q"], check=True)
    (tmp_path / "Pulumi.prod.yaml").write_text(PROD.read_text(encoding="utf-8"), encoding="utf-8")
    subprocess.run(git + ["add", "Pulumi.prod.yaml"], check=True)
    subprocess.run(git + ["commit", "-q", "-m", "base"], check=True)
    (tmp_path / "Pulumi.prod.yaml").write_text(head_text(), encoding="utf-8")
    result = runner.invoke(app, ["diff", "--base", "git:HEAD:Pulumi.prod.yaml", "--head", "Pulumi.prod.yaml",
                                 "--no-policies", "--format", "json"])
    assert result.exit_code == 0, result.stderr
    assert [(c["kind"], c["name"], c["field"]) for c in json.loads(result.stdout)["changes"]] == [e[:2] + e[3:4] for e in EXPECTED]


def test_an_unreadable_side_exits_2_naming_each_option(tmp_path):
    result = runner.invoke(app, ["diff", "--base", str(tmp_path / "none.yaml"), "--head", "git:no-such-ref"])
    assert result.exit_code == 2
    assert "--base:" in result.stderr and "--head: 'git:no-such-ref' is not git:<ref>:<path>" in result.stderr


def test_plan_with_a_base_adds_the_diff_to_every_output(plans, tmp_path):
    head = tmp_path / "Pulumi.prod.yaml"
    head.write_text(head_text(), encoding="utf-8")
    result = runner.invoke(app, ["plan", "--config", str(head), "--base", str(plans[0]), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.stderr
    assert "  team vision: quota.h100-dws-long: 8 GPUs -> 12 GPUs" in result.stdout
    report = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert 'id="changes-table"' in report and "quota.h100-dws-long: 8 GPUs -&gt; 12 GPUs" in report
    document = json.loads((tmp_path / "out" / "plan.json").read_text(encoding="utf-8"))
    assert [c["field"] for c in document["diff"]["changes"]] == [e[3] for e in EXPECTED]


def _document(path: Path, team: str, quota: int, message: str) -> Path:
    """A plan.json as a hand-edited or crafted file may hold it: names and messages with control characters."""
    capacity = {"teams": {team: {"cohort": None, "quota": {"h100": quota}}}, "cohorts": {}, "pools": {}, "reservations": {}}
    violations = [{"policy": "p", "enforcementLevel": "advisory", "urn": "", "message": message}] if message else []
    path.write_text(json.dumps({"violations": violations, "capacity": capacity}), encoding="utf-8")
    return path


@pytest.mark.parametrize("output", ["text", "markdown"])
def test_control_characters_of_names_and_messages_are_printed_escaped(tmp_path, output):
    """ESC, BEL and a bidirectional override from a user's file reach the terminal escaped, as in every output
    (gkecap.commands.terminal_io.printable), never as what a terminal acts on."""
    name = "vis\x1b[2Jion\u202e"
    base = _document(tmp_path / "base.json", name, 4, "")
    head = _document(tmp_path / "head.json", name, 8, "clear\x07 \x1b]0;title\x07")
    result = runner.invoke(app, ["diff", "--base", str(base), "--head", str(head), "--format", output])
    assert result.exit_code == 0, result.stderr
    assert not any(char in result.stdout for char in "\x1b\x07\u202e")
    assert "vis\\x1b" in result.stdout and "ion\\u202e" in result.stdout and "clear\\x07" in result.stdout


def test_json_keeps_control_characters_as_json_escapes(tmp_path):
    base = _document(tmp_path / "base.json", "a\x1bb", 4, "")
    head = _document(tmp_path / "head.json", "a\x1bb", 8, "")
    result = runner.invoke(app, ["diff", "--base", str(base), "--head", str(head), "--format", "json"])
    assert "\x1b" not in result.stdout and "\\u001b" in result.stdout
    assert json.loads(result.stdout)["changes"][0]["name"] == "a\x1bb"
