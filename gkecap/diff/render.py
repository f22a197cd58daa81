"""A plan diff as text (terminal and logs), Markdown (a pull-request comment) and JSON.

Each change reads as the user wrote the environment: `team vision: quota.h100-dws: 4 -> 8 GPUs`; numbers carry
their pool's unit and are never summed across units.
"""

from __future__ import annotations

import json
from typing import Any

from gkecap.diff.changes import Change, Finding, PlanDiff

_ORDER = ("team", "cohort", "pool", "reservation")
_TITLES = {"team": "Teams", "cohort": "Cohorts", "pool": "Pools", "reservation": "Reservations"}


def render_json(diff: PlanDiff, *, schema_version: str) -> str:
    """The `--format json` document, `schemaVersion` first (`gkecap.ci.documents.SCHEMA_VERSIONS["diff"]`, the
    shape of docs/schemas/diff.schema.json)."""
    return json.dumps({"schemaVersion": schema_version, **diff.to_json()}, indent=2, default=str)


def value_text(value: Any, unit: str | None = None) -> str:
    """One value as the environment file would say it; `none` for no value."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, list):
        return ", ".join(value_text(item) for item in value) or "none"
    if isinstance(value, dict):
        return ", ".join(f"{key} {value_text(item)}" for key, item in value.items()) or "none"
    return f"{value} {unit}" if unit and isinstance(value, int) else str(value)


def object_text(change: Change) -> str:
    """An added or removed object in one line: its settings that are set."""
    entry = change.after if change.change == "added" else change.before
    parts = []
    for key, value in (entry or {}).items():
        if key == "unit" or value in (None, {}, []):
            continue
        shown = value_text(value, change.unit if key in ("capacity", "count") else None)
        parts.append(f"{key} {{{shown}}}" if isinstance(value, dict) else f"{key} {shown}")
    return "; ".join(parts)


def change_text(change: Change) -> str:
    if change.change in ("added", "removed"):
        return f"{change.change}: {object_text(change)}"
    return f"{change.field}: {value_text(change.before, change.unit)} -> {value_text(change.after, change.unit)}"


def finding_text(finding: Finding) -> str:
    where = f" ({finding.resource})" if finding.resource else ""
    return f"[{finding.level}] {finding.policy}{where}: {finding.message}"


def _by_object(diff: PlanDiff) -> dict[str, dict[str, list[Change]]]:
    grouped: dict[str, dict[str, list[Change]]] = {kind: {} for kind in _ORDER}
    for change in diff.changes:
        grouped[change.kind].setdefault(change.name, []).append(change)
    return grouped


def render_text(diff: PlanDiff) -> str:
    lines = [f"Changes from {diff.base} to {diff.head}:"]
    if diff.empty:
        return lines[0] + " none\n"
    for kind, objects in _by_object(diff).items():
        for name, changes in objects.items():
            if len(changes) == 1:
                lines.append(f"  {kind} {name}: {change_text(changes[0])}")
                continue
            lines.append(f"  {kind} {name}:")
            lines += [f"    {change_text(change)}" for change in changes]
    for title, findings in (("New findings", diff.new_findings), ("Resolved findings", diff.resolved_findings)):
        if findings:
            lines.append(f"{title}:")
            lines += [f"  {finding_text(finding)}" for finding in findings]
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    """Text safe in a Markdown table cell: no line breaks, pipes and markup characters escaped."""
    text = " ".join(str(text).split())
    for char in "\\`*_[]<>|":
        text = text.replace(char, "\\" + char)
    return text


def render_markdown(diff: PlanDiff) -> str:
    lines = [f"### Capacity changes: {_cell(diff.base)} → {_cell(diff.head)}", ""]
    if diff.empty:
        return "\n".join(lines + ["No change to teams, cohorts, pools, reservations or findings.", ""])
    for kind, objects in _by_object(diff).items():
        if not objects:
            continue
        lines += [f"#### {_TITLES[kind]}", "", f"| {kind.capitalize()} | Change | Before | After |", "|---|---|---|---|"]
        for name, changes in objects.items():
            for change in changes:
                if change.change in ("added", "removed"):
                    before, after = ("", object_text(change)) if change.change == "added" else (object_text(change), "")
                    what = change.change
                else:
                    before, after, what = value_text(change.before, change.unit), value_text(change.after, change.unit), change.field or ""
                lines.append(f"| {_cell(name)} | {_cell(what)} | {_cell(before)} | {_cell(after)} |")
        lines.append("")
    for title, findings in (("New findings", diff.new_findings), ("Resolved findings", diff.resolved_findings)):
        if findings:
            lines += [f"#### {title}", "", "| Level | Policy | Resource | Message |", "|---|---|---|---|"]
            lines += [f"| {_cell(f.level)} | {_cell(f.policy)} | {_cell(f.resource)} | {_cell(f.message)} |" for f in findings]
            lines.append("")
    return "\n".join(lines)
