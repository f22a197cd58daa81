"""gkecap.diff.render: text, Markdown (pull-request comments) and JSON of one diff."""

from __future__ import annotations

import json

from gkecap.ci.documents import SCHEMA_VERSIONS
from gkecap.diff import render_json, render_markdown, render_text
from gkecap.diff.changes import Change, Finding, PlanDiff


def _diff(*changes: Change, findings: tuple[Finding, ...] = ()) -> PlanDiff:
    return PlanDiff("base.json", "head.json", list(changes), list(findings), [])


QUOTA = Change("team", "vision", "changed", "quota.h100", 4, 8, "GPUs")


def test_text_reads_as_the_environment_file():
    assert render_text(_diff(QUOTA)).splitlines()[1] == "  team vision: quota.h100: 4 GPUs -> 8 GPUs"


def test_text_of_no_change_says_none():
    assert render_text(_diff()) == "Changes from base.json to head.json: none\n"


def test_markdown_escapes_table_breaking_text():
    finding = Finding("advisory", "p", "NodePool a", "a | b\nc `x`")
    row = [line for line in render_markdown(_diff(findings=(finding,))).splitlines() if line.startswith("| advisory")]
    assert row == ["| advisory | p | NodePool a | a \\| b c \\`x\\` |"]


def test_markdown_a_change_is_one_table_row():
    assert "| vision | quota.h100 | 4 GPUs | 8 GPUs |" in render_markdown(_diff(QUOTA)).splitlines()


def test_json_carries_a_schema_version_and_every_change():
    document = json.loads(render_json(_diff(QUOTA), schema_version=SCHEMA_VERSIONS["diff"]))
    assert document["schemaVersion"] == SCHEMA_VERSIONS["diff"]
    assert document["changes"] == [{"kind": "team", "name": "vision", "change": "changed", "field": "quota.h100",
                                    "before": 4, "after": 8, "unit": "GPUs"}]
    assert document["summary"]["changes"] == {"team": {"changed": 1}}
