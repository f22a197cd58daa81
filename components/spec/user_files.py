"""Reading a user's JSON or YAML file, with one ladder of errors for all of them: a stack config, an environment
file, a stack export, stack outputs, a policy config, a plan.json, a workloads file. Pure.

Each step raises `UserFileError` with one line that names what is wrong and, for a syntax error, where
(`line 4, column 3: not valid YAML: ...`); the caller puts its file's name (or option) in front and its own error
type around it:

    cannot read: No such file or directory          (OSError; its strerror)
    larger than 4 MiB                                (a bounded read: a device or a pipe may never end)
    not UTF-8 text (byte 44: invalid start byte)
    line 1, column 9: not valid JSON: Expecting value
    line 4, column 3: not valid YAML: mapping key 'size' already defined at line 2   (spec.strict_yaml's checks)
    not valid JSON: nested too deeply to read
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gkecap.components.spec.strict_yaml import StrictSafeLoader, YamlInputError, load_yaml


class UserFileError(ValueError):
    """Why a file cannot be read as the document it should be; `line`/`column` 1-based where known."""

    def __init__(self, problem: str, line: int | None = None, column: int | None = None) -> None:
        self.problem = problem
        self.line = line
        self.column = column
        super().__init__(f"line {line}, column {column}: {problem}" if line is not None else problem)


def read_text(path: Path, *, max_bytes: int | None = None, limit_note: str = "") -> str:
    """The file's UTF-8 text; with `max_bytes`, at most that much is read (`limit_note` follows the error)."""
    try:
        if max_bytes is None:
            return path.read_text(encoding="utf-8")
        with path.open("rb") as stream:
            data = stream.read(max_bytes + 1)
    except OSError as exc:
        raise UserFileError(f"cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise _not_utf8(exc) from None
    if len(data) > max_bytes:
        raise UserFileError(f"larger than {max_bytes // 2**20} MiB{limit_note}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _not_utf8(exc) from None


def _not_utf8(exc: UnicodeDecodeError) -> UserFileError:
    return UserFileError(f"not UTF-8 text (byte {exc.start}: {exc.reason})")


def parse_json(text: str, **options: Any) -> Any:
    """`json.loads(text, **options)`; what `options`' hooks raise passes through unchanged."""
    try:
        return json.loads(text, **options)
    except json.JSONDecodeError as exc:
        raise UserFileError(f"not valid JSON: {exc.msg}", exc.lineno, exc.colno) from None
    except RecursionError:
        raise UserFileError("not valid JSON: nested too deeply to read") from None


def parse_yaml(text: str, loader: type[StrictSafeLoader] = StrictSafeLoader) -> Any:
    """One YAML document, as strictly as an environment file (`spec.strict_yaml`)."""
    try:
        return load_yaml(text, loader)
    except YamlInputError as exc:
        raise UserFileError(f"not valid YAML: {exc.problem}", exc.line, exc.column) from None
