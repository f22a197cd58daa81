"""Where a Pulumi Python program lives: its project file, entry point and stack config directory.

Like the Pulumi CLI, the project is the nearest `Pulumi.yaml` at or above the given directory; its
`main:` names the program (a directory with `__main__.py`, or a `.py` file), relative to the project
directory; stack files are `Pulumi.<stack>.yaml` in `stackConfigDir:` (default: the project directory).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from gkecap.components.spec.strict_yaml import YamlInputError, load_yaml


class ProgramError(ValueError):
    """The program directory or its project file is not usable."""


@dataclass(frozen=True)
class Program:
    project: str
    project_dir: Path  # where Pulumi.yaml is: the program's working directory, as under the CLI
    entry: Path  # the __main__.py (or main file) to run
    stack_config_dir: Path
    runtime: str = "python"

    def stack_file(self, stack: str) -> Path:
        return self.stack_config_dir / f"Pulumi.{stack}.yaml"


def find_program(directory: Path) -> Program:
    """The program of `directory`: its own `__main__.py` (or the project's `main:`) and the nearest project file."""
    directory = directory.resolve()
    if not directory.is_dir():
        raise ProgramError(f"{directory}: program directory not found")
    project_file = _nearest_project_file(directory)
    if project_file is None:
        entry = directory / "__main__.py"
        if not entry.is_file():
            raise ProgramError(f"{directory}: no Pulumi.yaml at or above it and no __main__.py in it")
        return Program(project=directory.name, project_dir=directory, entry=entry, stack_config_dir=directory)

    project = _read_project(project_file)
    project_dir = project_file.parent
    name = project.get("name")
    if not isinstance(name, str) or not name:
        raise ProgramError(f"{project_file}: name: a project name is required")
    runtime = project.get("runtime")
    runtime_name = runtime.get("name") if isinstance(runtime, dict) else runtime
    if runtime_name not in (None, "python"):
        raise ProgramError(f"{project_file}: runtime: {runtime_name!r} is not supported; gkecap runs Python programs")
    stack_dir = project_dir / str(project.get("stackConfigDir") or ".")

    own_main = directory / "__main__.py"
    if directory != project_dir and own_main.is_file():
        entry = own_main
    else:
        main = project.get("main")
        target = (project_dir / str(main)).resolve() if main else project_dir
        entry = target / "__main__.py" if target.is_dir() else target
        if not entry.is_file():
            raise ProgramError(f"{project_file}: main: {main or '.'!s} has no __main__.py ({entry})")
    return Program(project=name, project_dir=project_dir, entry=entry, stack_config_dir=stack_dir.resolve())


def _nearest_project_file(directory: Path) -> Path | None:
    for candidate in (directory, *directory.parents):
        for file_name in ("Pulumi.yaml", "Pulumi.yml"):
            path = candidate / file_name
            if path.is_file():
                return path
    return None


def _read_project(path: Path) -> dict:
    try:
        document = load_yaml(path.read_text(encoding="utf-8"))  # as strict as the CLI: spec.strict_yaml
    except UnicodeDecodeError as exc:
        raise ProgramError(f"{path}: not UTF-8 text (byte {exc.start}: {exc.reason})") from None
    except YamlInputError as exc:
        raise ProgramError(f"{path}: not valid YAML: {exc}") from None
    if not isinstance(document, dict):
        raise ProgramError(f"{path}: a project file is a mapping with `name:` and `runtime:`")
    return document
