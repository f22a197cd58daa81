"""What the cross-field checks work on: a view of the entries that parsed, and where findings go.

When pydantic rejected part of the file, the checks still run on every entry that parses (an entry whose
bad keys are dropped, since those are reported already; a bad `name` is stood in for), so one run reports every
problem: a team whose name is wrong still has its cohort and its quota's pools checked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Iterable, Mapping

from pydantic import BaseModel, ValidationError

from gkecap.components.gke.locations import is_region
from gkecap.components.issues import Issue
from gkecap.components.spec.models import (
    ClusterSpec,
    CohortSpec,
    EnvironmentSpec,
    KueueSpec,
    NodePoolSpec,
    DEFAULT_PRIORITY_CLASSES,
    PriorityClassSpec,
    ReservationSpec,
    TeamSpec,
)
from gkecap.components.spec.vertex import VertexSpec


@dataclass
class View:
    project: str | None
    region: str | None
    node_service_account: str | None
    cluster: ClusterSpec | None
    kueue: KueueSpec | None
    pools: list[tuple[int, NodePoolSpec]]
    reservations: list[tuple[int, ReservationSpec]]
    cohorts: list[tuple[int, CohortSpec]]
    teams: list[tuple[int, TeamSpec]]
    priority_classes: list[tuple[int, PriorityClassSpec]]
    # Names written in the file, parsed or not: references to them are not reported as dangling.
    # None when the section itself is malformed: references into it are then not checked.
    pool_names: set[str] | None
    reservation_names: set[str] | None
    cohort_names: set[str] | None
    vertex: VertexSpec | None = None

    @classmethod
    def of(cls, spec: EnvironmentSpec) -> "View":
        return cls(
            project=spec.project,
            region=spec.region,
            node_service_account=spec.node_service_account,
            cluster=spec.cluster,
            kueue=spec.kueue,
            pools=list(enumerate(spec.node_pools)),
            reservations=list(enumerate(spec.reservations)),
            cohorts=list(enumerate(spec.cohorts)),
            teams=list(enumerate(spec.teams)),
            priority_classes=list(enumerate(spec.priority_classes or [])),
            pool_names={p.name for p in spec.node_pools},
            reservation_names={r.name for r in spec.reservations},
            cohort_names={c.name for c in spec.cohorts},
            vertex=spec.vertex,
        )

    @classmethod
    def lenient(cls, data: Mapping[str, Any]) -> "View":
        def one(key: str, model: type[BaseModel], default: Any = None) -> Any:
            raw = data.get(key, default)
            return None if raw is None else _parse_salvaging(model, raw)

        def many(key: str, model: type[BaseModel]) -> list[tuple[int, Any]]:
            raw = data.get(key)
            if not isinstance(raw, list):
                return []
            parsed = ((index, _parse_salvaging(model, item)) for index, item in enumerate(raw))
            return [(index, item) for index, item in parsed if item is not None]

        def names(key: str) -> set[str] | None:
            raw = data.get(key)
            if raw is None:
                return set()
            if not isinstance(raw, list):
                return None  # the section is malformed (reported): its names are unknown
            return {item["name"] for item in raw if isinstance(item, Mapping) and isinstance(item.get("name"), str)}

        def text(key: str) -> str | None:
            return data.get(key) if isinstance(data.get(key), str) else None

        region = text("region")
        cluster = one("cluster", ClusterSpec)
        if cluster is not None and cluster.location is None and region is not None:
            cluster.location = region
        return cls(
            project=text("project"),
            region=region,
            node_service_account=text("nodeServiceAccount"),
            cluster=cluster,
            kueue=one("kueue", KueueSpec, {}),
            pools=many("nodePools", NodePoolSpec),
            reservations=many("reservations", ReservationSpec),
            cohorts=many("cohorts", CohortSpec),
            teams=many("teams", TeamSpec),
            # No `priorityClasses` key: the defaults apply (EnvironmentSpec._fill_defaults), and teams may name them.
            priority_classes=many("priorityClasses", PriorityClassSpec) if data.get("priorityClasses") is not None
            else list(enumerate(DEFAULT_PRIORITY_CLASSES)),
            pool_names=names("nodePools"),
            reservation_names=names("reservations"),
            cohort_names=names("cohorts"),
            vertex=one("vertex", VertexSpec),
        )


# A valid stand-in for a `name` that failed to parse (already reported), so the entry's references are checked.
_NAME_STAND_IN = "unparsed-name"


def _parse_salvaging(model: type[BaseModel], raw: Any) -> Any:
    """Parse one entry; if that fails, once more without the keys that failed (already reported), so the
    cross-field checks still see the rest of the entry. A bad or missing `name` is the one required key stood in
    for: the entry keeps its other keys' checks (its cohort, its quota's pools) and carries the name as written.
    None when even that fails (another required key)."""
    try:
        return model.model_validate(raw)
    except ValidationError as err:
        if not isinstance(raw, Mapping):
            return None
        bad = {error["loc"][0] for error in err.errors() if error["loc"]}
        kept = {k: v for k, v in raw.items() if k not in bad}
        try:
            return model.model_validate(kept)
        except ValidationError:
            pass
        if "name" not in model.model_fields or "name" in kept:
            return None
        try:
            parsed = model.model_validate({**kept, "name": _NAME_STAND_IN})
        except ValidationError:
            return None
        written = raw.get("name")
        # Messages name the entry as written (a missing name as ''), never by the stand-in; a team's namespace
        # defaulted from that name is left unchecked (the name's own error covers it).
        update: dict[str, Any] = {"name": "" if written is None else str(written)}
        if getattr(parsed, "namespaces", None) == [_NAME_STAND_IN]:
            update["namespaces"] = []
        return parsed.model_copy(update=update)


@dataclass
class Findings:
    """The view being checked, the clock, and the errors and warnings found so far."""

    view: View
    now: datetime
    errors: list[Issue] = field(default_factory=list)
    warnings: list[Issue] = field(default_factory=list)

    def error(self, path: str, message: str) -> None:
        self.errors.append(Issue(path, message))

    def warn(self, path: str, message: str) -> None:
        self.warnings.append(Issue(path, message))

    @property
    def valid_region(self) -> str | None:
        return self.view.region if is_region(self.view.region) else None

    def unique(self, section: str, index: int, name: str, seen: dict[str, int], what: str) -> bool:
        """False, with an error, when an earlier entry of `section` already has this name."""
        first = seen.setdefault(name, index)
        if first == index:
            return True
        self.error(f"{section}[{index}].name", f"{name!r} is already used by {section}[{first}]; {what} names must be unique")
        return False


def listing(names: Iterable[str], limit: int = 20) -> str:
    listed = list(names)
    if not listed:
        return "none"
    shown = ", ".join(listed[:limit])
    return shown + (f" and {len(listed) - limit} more" if len(listed) > limit else "")
