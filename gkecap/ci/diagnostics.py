"""Diagnostics: a problem (or a warning) with the input, located at the field path, file and line it is about.

    ConfigDiagnostic("error", "'4x3' is not a valid v6e topology ...", path="nodePools[1].tpuTopology",
                     file="stacks/Pulumi.dev.yaml", line=24)

The `--format json` document lists them under `diagnostics` (also for invalid input, exit 2), SARIF turns each
into a result at its file and line, and the text output prints them as before, one line each on stderr.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from gkecap.ci.yaml_lines import YamlLines, config_key_path, parse_path
from gkecap.components.issues import Issue

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True)
class ConfigDiagnostic:
    severity: str  # error | warning
    message: str
    path: str = ""  # the field, as the user wrote it (`nodePools[1].tpuTopology`); "" for the input as a whole
    file: str | None = None  # relative to the working directory when below it
    line: int | None = None  # 1-based

    def to_json(self) -> dict[str, Any]:
        return {"severity": self.severity, "path": self.path, "message": self.message, "file": self.file, "line": self.line}


def shown_path(path: Path | str) -> str:
    """`path` relative to the working directory when it is below it (as CI annotations want), else absolute."""
    resolved = Path(path).resolve()
    try:
        return resolved.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return resolved.as_posix()


def of_problems(problems: Iterable[str], severity: str = ERROR) -> list[ConfigDiagnostic]:
    """Problems known only as text (a missing file, a bad policy config...): no field, no line."""
    return [ConfigDiagnostic(severity, problem) for problem in problems]


def config_diagnostics(
    issues: Iterable[Issue], severity: str, config_file: Path | None, config_key: str, project: str
) -> list[ConfigDiagnostic]:
    """Issues of the config value `config_key` (e.g. `gkecap:environment`) of a stack file, each at its line."""
    issues = list(issues)
    if config_file is None:
        return [ConfigDiagnostic(severity, issue.message, issue.path) for issue in issues]
    lines = YamlLines.of_file(config_file)
    base = config_key_path(lines, config_key, project)
    file = shown_path(config_file)
    return [
        ConfigDiagnostic(severity, issue.message, issue.path, file, lines.line_of((*base, *parse_path(issue.path))))
        for issue in issues
    ]


def at_location(issues: Iterable[Issue], location: str | None, severity: str = ERROR) -> list[ConfigDiagnostic]:
    """Issues raised by a program (a component's bad input), at the program line `file:line` that raised them."""
    file, line = split_location(location)
    return [ConfigDiagnostic(severity, issue.message, issue.path, file, line) for issue in issues]


def split_location(location: str | None) -> tuple[str | None, int | None]:
    """`stacks/__main__.py:12` -> ('stacks/__main__.py', 12)."""
    if not location:
        return None, None
    file, _, line = location.rpartition(":")
    if not file or not line.isdigit():
        return location, None
    return file.replace(os.sep, "/"), int(line)


def spec_warning_diagnostics(spec: Any, config: Any, environment_key: str) -> list[ConfigDiagnostic]:
    """The environment's warnings (`EnvironmentSpec.warning_issues`), each at its line of the stack file."""
    issues = list(getattr(spec, "warning_issues", None) or ())
    if not issues:
        return []
    return config_diagnostics(issues, WARNING, getattr(config, "path", None), environment_key, "gkecap")


def program_diagnostics(failure: Any, issues: list[Issue] | None, messages: list[str]) -> list[ConfigDiagnostic]:
    """A failed program (`gkecap.engine.run.ProgramFailed`) as diagnostics: bad input one per issue (`issues`), any
    other error as its `messages`, at the program line that raised it (or, for a StackReference without outputs,
    the line that created it)."""
    from gkecap.engine.stack_references import STACK_REFERENCE_TYPE, MissingStackOutputs

    location = failure.location
    cause = failure.cause
    if isinstance(cause, MissingStackOutputs) and failure.origins is not None:
        origin = failure.origins.of(STACK_REFERENCE_TYPE, cause.stack) or _origin_by_id(failure.origins, cause.stack)
        if origin is not None:
            location = f"{shown_path(origin[0])}:{origin[1]}"
    elif location:
        location = _from_project_dir(location, failure.program)
    if issues is not None:
        return at_location(issues, location)
    file, line = split_location(location)
    return [ConfigDiagnostic(ERROR, message, "", file, line) for message in messages]


def _origin_by_id(origins: Any, stack: str) -> tuple[str, int] | None:
    # A reference named differently from the stack it reads (`StackReference("net", stack_name="org/net/prod")`).
    found = [origin for (type_, _name), origin in origins.by_resource.items() if type_ == "pulumi:pulumi:StackReference"]
    return found[0] if len(found) == 1 else None


def _from_project_dir(location: str, program: Any) -> str:
    # ProgramFailed.location is relative to the project directory; annotations are relative to the working one.
    file, line = split_location(location)
    if file is None or program is None:
        return location
    return f"{shown_path(Path(program.project_dir) / file)}:{line}" if line is not None else location


def program_location(failure: Any) -> str | None:
    """The program line of a failure (`file:line`), relative to the working directory."""
    return _from_project_dir(failure.location, failure.program) if failure.location else None


def as_written(issues: Iterable[Issue], config_file: Path | None, config_key: str, data: Any) -> list[Issue]:
    """Issues whose message starts with the value as YAML read it (`0.1 is not a string`) start with the value
    as the user wrote it instead (`0.10 (read as 0.1) is not a string`): a number or a boolean YAML converted."""
    from gkecap.components.spec.errors import show

    issues = list(issues)
    if config_file is None:
        return issues
    lines = YamlLines.of_file(config_file)
    base = config_key_path(lines, config_key, "gkecap")
    rewritten = []
    for issue in issues:
        path = parse_path(issue.path)
        raw = lines.plain_scalars.get((*base, *path))
        value = _value_at(data, path)
        shown = show(value)
        if raw is not None and not isinstance(value, str) and raw != shown and issue.message.startswith(shown):
            issue = Issue(issue.path, f"{raw} (read as {shown}){issue.message[len(shown):]}", issue.rule)
        rewritten.append(issue)
    return rewritten


def _value_at(data: Any, path: tuple) -> Any:
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data
