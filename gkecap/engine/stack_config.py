"""Stack configuration from a Pulumi stack file (`Pulumi.<stack>.yaml`), as the Pulumi CLI hands it to a program.

The CLI passes the program a flat map of `namespace:key` -> string: a key without a namespace belongs to
the project (`environment` in project `gkecap` is `gkecap:environment`); strings pass as is; every other
value (numbers, booleans, lists, maps) is JSON-encoded, so `pulumi.Config().require_object()` decodes it.
Secrets (`{secure: <ciphertext>}`) cannot be decrypted offline: they become a placeholder string and their
keys are listed as secret, which makes `Config.get_secret*` return secret Outputs as under the CLI.
"""

from __future__ import annotations

import errno
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from gkecap.components.spec.strict_yaml import StrictSafeLoader
from gkecap.components.spec.user_files import UserFileError, parse_yaml, read_text

SECRET_PLACEHOLDER = "[secret]"


class _CliYamlLoader(StrictSafeLoader):
    """SafeLoader reading scalars as the CLI's YAML 1.2 parser does: timestamps stay the text written
    (`start: 2026-12-07T00:00:00Z`), and only true/false are booleans (`on`, `no` stay strings); duplicate keys
    and excessive aliasing are errors, as in the CLI (gkecap.components.spec.strict_yaml)."""


_CliYamlLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag not in ("tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:bool")]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_CliYamlLoader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


class StackConfigError(ValueError):
    """The stack file cannot be read or does not have the shape of a Pulumi stack file."""


@dataclass(frozen=True)
class StackConfig:
    """A stack's configuration, both as structured data and as the CLI passes it to the program."""

    path: Path | None
    values: dict[str, Any] = field(default_factory=dict)  # "gkecap:environment" -> parsed YAML value
    runtime: dict[str, str] = field(default_factory=dict)  # "gkecap:environment" -> JSON text
    secret_keys: tuple[str, ...] = ()

    def get(self, key: str, default: Any = None) -> Any:
        return self.values.get(key, default)


# A config given by process substitution (`--config <(sops -d Pulumi.prod.yaml)`) is a pipe, `/dev/fd/63`: it can be
# read once, so its text is kept for every later reader (the loader, the line finder of diagnostics).
_PIPED_TEXT: dict[str, str] = {}
MAX_PIPED_BYTES = 64 * 1024 * 1024


def config_file_exists(path: Path) -> bool:
    """`path` names a file to read: a regular file, or a pipe or device as process substitution gives."""
    return path.is_file() or (path.exists() and not path.is_dir())


def read_config_text(path: Path) -> str:
    """The text of a config file (UTF-8); a pipe's is read once and kept. FileNotFoundError where there is no such
    file, UserFileError (spec.user_files) where it cannot be read as text."""
    if path.is_file():
        return read_text(path)
    key = str(path)
    if key not in _PIPED_TEXT:
        if not path.exists():
            raise FileNotFoundError(errno.ENOENT, "no such file", key)
        _PIPED_TEXT[key] = read_text(path, max_bytes=MAX_PIPED_BYTES)
    return _PIPED_TEXT[key]


def load_stack_config(path: Path | None, project: str) -> StackConfig:
    """Read `path` (None: empty config). Keys without a namespace go to `project`."""
    if path is None:
        return StackConfig(path=None)
    try:
        document = parse_yaml(read_config_text(path), _CliYamlLoader)
    except FileNotFoundError:
        raise StackConfigError(f"{path}: stack config file not found") from None
    except UserFileError as exc:
        raise StackConfigError(f"{path}: {exc}") from None
    return stack_config_from_document(document, project, path)


def stack_config_from_document(document: Any, project: str, path: Path | None = None) -> StackConfig:
    where = str(path) if path is not None else "stack config"
    if document is None:
        return StackConfig(path=path)
    if not isinstance(document, dict):
        raise StackConfigError(f"{where}: a stack file is a mapping with a `config:` key, got {type(document).__name__}")
    config = document.get("config") or {}
    if not isinstance(config, dict):
        raise StackConfigError(f"{where}: config: must be a mapping of `namespace:key: value`, got {type(config).__name__}")
    values: dict[str, Any] = {}
    runtime: dict[str, str] = {}
    secret_keys: list[str] = []
    for raw_key, raw_value in config.items():
        key = _qualify(str(raw_key), project)
        value, secret = _strip_secrets(raw_value)
        values[key] = value
        runtime[key] = _as_cli_string(value)
        if secret:
            secret_keys.append(key)
    return StackConfig(path=path, values=values, runtime=runtime, secret_keys=tuple(secret_keys))


def _qualify(key: str, project: str) -> str:
    # Pulumi config keys are `namespace:name`; a bare name is the project's own.
    return key if ":" in key else f"{project}:{key}"


def _strip_secrets(value: Any) -> tuple[Any, bool]:
    if isinstance(value, dict):
        if set(value) == {"secure"}:
            return SECRET_PLACEHOLDER, True
        secret = False
        out = {}
        for k, v in value.items():
            out[k], s = _strip_secrets(v)
            secret = secret or s
        return out, secret
    if isinstance(value, list):
        items = [_strip_secrets(v) for v in value]
        return [v for v, _ in items], any(s for _, s in items)
    return value, False


def _as_cli_string(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, separators=(",", ":"))
