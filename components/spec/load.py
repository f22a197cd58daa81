"""Loading an environment: `load_environment(config)` validates the value of `gkecap:environment`.

It checks the shape (`spec.models`: camelCase keys, unknown keys rejected, types, formats and enumerations)
and then every cross-field rule (`spec.checks`: each pool's one rule set, references between pools,
reservations, cohorts and teams, calendar windows, quotas against capacity), collects *all* problems and
raises them as one `SpecError` whose lines read `path: message` with the YAML path
(`nodePools[1].tpuTopology: '4x3' is not a valid v6e topology ...`). Non-fatal findings land in
`EnvironmentSpec.warnings`. Pure: no Pulumi. Callers pass `now` for the calendar-window rules.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Mapping

from pydantic import ValidationError

from gkecap.components.spec.checks import check_environment
from gkecap.components.issues import Issue
from gkecap.components.spec.errors import (
    SpecError,
    in_file_order,
    show,
    translate_validation_error,
    under_any,
    unique,
)
from gkecap.components.spec.models import EnvironmentSpec
from gkecap.components.spec.user_files import UserFileError, parse_yaml, read_text
from gkecap.components.spec.workers import check_workers, has_workers


def load_environment(
    config: Mapping[str, Any], project: str | None = None, *, now: datetime | None = None
) -> EnvironmentSpec:
    """Validate the value of ``gkecap:environment``; raise SpecError with every problem, or return the spec."""
    now = _aware_now(now)
    if not isinstance(config, Mapping):
        raise SpecError([Issue("gkecap:environment", f"expected a mapping of settings, got {show(config)}")])
    data = dict(config)
    issues: list[Issue] = []
    if project is not None:
        given = data.get("project")
        if given is not None and given != project:
            issues.append(Issue("project", f"{given!r} differs from gcp:project {project!r}; give one"))
        data["project"] = project
    try:
        spec: EnvironmentSpec | None = EnvironmentSpec.model_validate(data)
    except ValidationError as err:
        spec = None
        issues += translate_validation_error(err, EnvironmentSpec)
    worker_datas: list[dict[str, Any]] = []
    if has_workers(data):  # MultiKueue: the manager's rules, then each worker's as its own environment
        errors, warnings, worker_datas = check_workers(spec, data, now, check_environment)
        warnings = unique(warnings)
    else:
        errors, warnings = check_environment(spec, data, now)
    # A key that failed to parse was dropped for the cross-field checks: do not report it twice.
    reported = {issue.path for issue in issues}
    issues += [issue for issue in errors if not under_any(issue.path, reported)]
    if issues:
        raise SpecError(in_file_order(unique(issues)))
    assert spec is not None
    spec._warnings = [str(w) for w in warnings]
    spec._warning_issues = list(warnings)
    spec._worker_data = worker_datas
    return spec


def load_stack_config(stack_config: Mapping[str, Any], *, now: datetime | None = None) -> EnvironmentSpec:
    """Load from a whole Pulumi stack ``config:`` map (``gcp:project`` and ``gkecap:environment``)."""
    if not isinstance(stack_config, Mapping):
        raise SpecError([Issue("config", f"expected a mapping, got {show(stack_config)}")])
    environment = stack_config.get("gkecap:environment")
    if environment is None:
        keys = ", ".join(sorted(map(str, stack_config))) or "none"
        raise SpecError([Issue("config", f"no gkecap:environment key; keys present: {keys}")])
    project = stack_config.get("gcp:project")
    if project is not None and not isinstance(project, str):
        raise SpecError([Issue("config.gcp:project", f"expected a project ID string, got {show(project)}")])
    return load_environment(environment, project=project, now=now)


def load_stack_file(path: str | Path, *, now: datetime | None = None) -> EnvironmentSpec:
    """Load a ``Pulumi.<env>.yaml`` (with a top-level ``config:``) or a bare environment mapping."""
    path = Path(path)
    try:
        document = parse_yaml(read_text(path))
    except UserFileError as err:
        raise SpecError([Issue(str(path), str(err))]) from None
    if not isinstance(document, Mapping):
        raise SpecError([Issue(str(path), f"expected a mapping at the top level, got {show(document)}")])
    if "config" in document:
        return load_stack_config(document["config"] or {}, now=now)
    if "gkecap:environment" in document:
        return load_stack_config(document, now=now)
    return load_environment(document, now=now)


def _aware_now(now: datetime | None) -> datetime:
    if now is None:
        return datetime.now(timezone.utc)
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware (e.g. datetime.now(timezone.utc))")
    return now
