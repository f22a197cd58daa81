"""What the engine would register for a remote (provider-implemented) component we can expand offline.

`kubernetes:yaml/v2:ConfigGroup` and `ConfigFile` are multi-language components: the Kubernetes
provider's Construct parses the manifests and registers one resource per object, under the component.
Mocks have no provider, so the monitor expands them the same way here, letting the policy pack see
Kueue objects given as YAML. Other remote components (Helm charts, kustomizations) need tools we do
not run offline; they are recorded as a note.
"""

from __future__ import annotations

import glob
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

CONFIG_GROUP = "kubernetes:yaml/v2:ConfigGroup"
CONFIG_FILE = "kubernetes:yaml/v2:ConfigFile"
NOT_EXPANDED = ("kubernetes:helm.sh/v4:Chart", "kubernetes:kustomize/v2:Directory")


@dataclass(frozen=True)
class ChildObject:
    type: str
    name: str
    object: dict[str, Any]


def type_token(obj: dict[str, Any]) -> str:
    """The Pulumi type of a Kubernetes object: `kubernetes:<group or core>/<version>:<Kind>`."""
    api_version = str(obj.get("apiVersion") or "v1")
    group, _, version = api_version.rpartition("/")
    return f"kubernetes:{group or 'core'}/{version}:{obj.get('kind')}"


def expand(type_: str, name: str, inputs: dict[str, Any], cwd: Path) -> tuple[list[ChildObject], list[str]]:
    """(children the provider would register, notes about what could not be read) for a remote component."""
    if type_ not in (CONFIG_GROUP, CONFIG_FILE):
        unread = [f"{type_} '{name}' is rendered by its provider; its resources are not checked offline"] if type_ in NOT_EXPANDED else []
        return [], unread
    notes: list[str] = []
    documents: list[Any] = []
    texts = inputs.get("yaml")
    for text in [texts] if isinstance(texts, str) else texts or []:
        documents += _load_all(text, f"{name}.yaml", notes)
    objs = inputs.get("objs")
    documents += objs if isinstance(objs, list) else [objs] if isinstance(objs, dict) else []
    files = [inputs["file"]] if type_ == CONFIG_FILE and inputs.get("file") else list(inputs.get("files") or [])
    for pattern in files:
        documents += _load_files(str(pattern), cwd, notes)
    prefix = inputs.get("resourcePrefix") or name
    children = [_child(obj, prefix) for obj in _objects(documents)]
    return children, notes


def _objects(documents: list[Any]) -> Iterator[dict[str, Any]]:
    for document in documents:
        if not isinstance(document, dict) or not document:
            continue
        if str(document.get("kind", "")).endswith("List") and isinstance(document.get("items"), list):
            yield from _objects(document["items"])  # a v1 List holds objects
        elif document.get("kind"):
            yield document


def _child(obj: dict[str, Any], prefix: str) -> ChildObject:
    metadata: dict[str, Any] = obj["metadata"] if isinstance(obj.get("metadata"), dict) else {}
    object_name = str(metadata.get("name") or "unnamed")
    namespace = metadata.get("namespace")
    resource_name = f"{namespace}/{object_name}" if namespace else object_name
    # yaml/v2 names children after the component (or resourcePrefix): `<prefix>-<name>`.
    return ChildObject(type=type_token(obj), name=f"{prefix}-{resource_name}", object=obj)


def _load_all(text: str, source: str, notes: list[str]) -> list[Any]:
    try:
        return list(yaml.safe_load_all(text))
    except yaml.YAMLError as exc:
        notes.append(f"{source}: not valid YAML: {getattr(exc, 'problem', None) or exc}")
        return []


def _load_files(pattern: str, cwd: Path, notes: list[str]) -> list[Any]:
    if "://" in pattern:
        notes.append(f"{pattern}: manifests at a URL are not fetched offline; their resources are not checked")
        return []
    base = pattern if Path(pattern).is_absolute() else str(cwd / pattern)
    paths = sorted(glob.glob(base)) or ([base] if not glob.has_magic(base) else [])
    documents: list[Any] = []
    for path in paths:
        try:
            documents += _load_all(Path(path).read_text(encoding="utf-8"), path, notes)
        except OSError as exc:
            notes.append(f"{pattern}: cannot read {path}: {exc.strerror}")
    return documents
