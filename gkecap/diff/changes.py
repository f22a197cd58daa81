"""Two plans compared: one `Change` per fact that differs (a team's quota on a pool, a pool's capacity, a
reservation's window...), objects added or removed, and the findings (policy violations, environment warnings)
that are new in the head or resolved in it.

Pure: works on two `Side`s (a capacity snapshot, `gkecap.diff.snapshot`, and the findings of one plan).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from gkecap.diff.snapshot import SECTIONS

KINDS = {"teams": "team", "cohorts": "cohort", "pools": "pool", "reservations": "reservation"}
# Per-pool maps: compared entry by entry, each in its pool's unit.
PER_POOL = ("quota", "borrowingLimit", "lendingLimit")
UNSHOWN = frozenset({"unit"})  # carried with the numbers it qualifies, never a change of its own


@dataclass(frozen=True)
class Finding:
    """A policy violation or an environment warning of one plan."""

    level: str  # mandatory | advisory | disabled | warning
    policy: str  # the policy, or "environment" for a warning of the environment file
    resource: str  # a resource URN or a field path; "" for the stack
    message: str


@dataclass
class Side:
    """One side of a diff: where it came from, its capacity snapshot, its findings."""

    label: str
    capacity: dict[str, dict[str, dict[str, Any]]]
    findings: list[Finding] = field(default_factory=list)


@dataclass(frozen=True)
class Change:
    kind: str  # team | cohort | pool | reservation
    name: str
    change: str  # added | removed | changed
    field: str | None = None  # "quota.h100-dws", "start"...; None for a whole object added or removed
    before: Any = None  # None: no value (an added entry, a pool without a quota)
    after: Any = None
    unit: str | None = None  # GPUs | GPU units | chips | VMs of the numbers


@dataclass
class PlanDiff:
    base: str
    head: str
    changes: list[Change]
    new_findings: list[Finding]
    resolved_findings: list[Finding]

    @property
    def empty(self) -> bool:
        return not (self.changes or self.new_findings or self.resolved_findings)

    @property
    def new_mandatory(self) -> list[Finding]:
        return [f for f in self.new_findings if f.level == "mandatory"]

    def to_json(self) -> dict[str, Any]:
        return {
            "base": self.base,
            "head": self.head,
            "changes": [asdict(change) for change in self.changes],
            "newFindings": [asdict(finding) for finding in self.new_findings],
            "resolvedFindings": [asdict(finding) for finding in self.resolved_findings],
            "summary": self.summary(),
        }

    def summary(self) -> dict[str, Any]:
        counts: dict[str, dict[str, int]] = {}
        for change in self.changes:
            per_kind = counts.setdefault(change.kind, {})
            per_kind[change.change] = per_kind.get(change.change, 0) + 1
        return {"changes": counts, "newFindings": len(self.new_findings), "resolvedFindings": len(self.resolved_findings)}


def compare(base: Side, head: Side) -> PlanDiff:
    changes: list[Change] = []
    for section in SECTIONS:
        kind = KINDS[section]
        before, after = base.capacity.get(section, {}), head.capacity.get(section, {})
        for name in _union(before, after):
            if name not in before:
                changes.append(Change(kind, name, "added", after=after[name], unit=after[name].get("unit")))
            elif name not in after:
                changes.append(Change(kind, name, "removed", before=before[name], unit=before[name].get("unit")))
            else:
                changes += _entry_changes(kind, name, before[name], after[name], base, head)
    base_findings, head_findings = set(base.findings), set(head.findings)
    return PlanDiff(
        base=base.label,
        head=head.label,
        changes=changes,
        new_findings=[f for f in _ordered(head.findings) if f not in base_findings],
        resolved_findings=[f for f in _ordered(base.findings) if f not in head_findings],
    )


def _entry_changes(kind: str, name: str, before: dict[str, Any], after: dict[str, Any], base: Side, head: Side) -> list[Change]:
    changes = []
    for key in _union(before, after):
        if key in UNSHOWN:
            continue
        old, new = before.get(key), after.get(key)
        if key in PER_POOL and isinstance(old or {}, dict) and isinstance(new or {}, dict):
            old, new = old or {}, new or {}
            for pool in _union(old, new):
                if old.get(pool) != new.get(pool):
                    changes.append(Change(kind, name, "changed", f"{key}.{pool}", old.get(pool), new.get(pool), _pool_unit(pool, head, base)))
        elif old != new:
            unit = after.get("unit") if key in ("capacity", "count") else None
            changes.append(Change(kind, name, "changed", key, old, new, unit))
    return changes


def _pool_unit(pool: str, *sides: Side) -> str | None:
    for side in sides:
        entry = side.capacity.get("pools", {}).get(pool)
        if entry is not None:
            return entry.get("unit")
    return None


def _union(first: dict[str, Any], second: dict[str, Any]) -> list[str]:
    """Keys of both, in the base's order and then the head's new ones (file order, as the user reads them)."""
    return list(first) + [key for key in second if key not in first]


_LEVEL_ORDER = {"mandatory": 0, "advisory": 1, "warning": 2, "disabled": 3}


def _ordered(findings: list[Finding]) -> list[Finding]:
    unique = list(dict.fromkeys(findings))
    return sorted(unique, key=lambda f: (_LEVEL_ORDER.get(f.level, 4), f.policy, f.resource, f.message))
