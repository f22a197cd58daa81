"""The environment file's reference (docs/environment.md), written from the models' field descriptions: the same
text as the JSON Schema and the component package's schema (components/_schema_types.py), so the three agree.

`python -m gkecap.components.spec.reference > docs/environment.md` rewrites it; a test checks it is current.
"""

from __future__ import annotations

from typing import Any, Mapping

from gkecap.components.spec.models import EnvironmentSpec

_INTRO = """# The environment file

Every key of `gkecap:environment` (a stack file's `config:`), from the models in `components/spec/` (their field
descriptions; the component package's schema says the same). Keys are camelCase and an unknown key is an error.
Written by `python -m gkecap.components.spec.reference`; do not edit by hand.
"""


def markdown() -> str:
    """The reference: one table per object, in the order the file nests them."""
    schema = EnvironmentSpec.model_json_schema(by_alias=True, mode="validation")
    definitions: dict[str, Any] = {**schema.get("$defs", {}), "EnvironmentSpec": schema}
    paths = _paths(definitions)
    sections = [_INTRO]
    for name, path in paths.items():
        definition = definitions[name]
        rows = ["| Key | Type | Default | Description |", "| --- | --- | --- | --- |"]
        required = set(definition.get("required", ()))
        for key, prop in definition.get("properties", {}).items():
            default = "required" if key in required else _default(prop)
            rows.append(f"| `{key}` | {_type(prop, paths)} | {default} | {_text(prop.get('description', ''))} |")
        heading = f"## `{path}`" if path else "## Top level"
        description = _text(definition.get("description", ""))
        sections.append("\n".join([heading, "", *([description, ""] if description else []), *rows, ""]))
    return "\n".join(sections)


def _paths(definitions: Mapping[str, Any]) -> dict[str, str]:
    """Each object's key path from the top (its first occurrence), breadth first: `nodePools[]`, `kueue` ..."""
    paths = {"EnvironmentSpec": ""}
    queue = ["EnvironmentSpec"]
    while queue:
        name = queue.pop(0)
        for key, prop in definitions[name].get("properties", {}).items():
            for ref, suffix in _refs(prop):
                if ref not in paths:
                    parent = paths[name]
                    paths[ref] = f"{parent}.{key}{suffix}" if parent else f"{key}{suffix}"
                    queue.append(ref)
    return paths


def _refs(node: Mapping[str, Any], suffix: str = "") -> list[tuple[str, str]]:
    if "$ref" in node:
        return [(node["$ref"].rsplit("/", 1)[-1], suffix)]
    found = []
    for choice in node.get("anyOf", []):
        found += _refs(choice, suffix)
    if isinstance(node.get("items"), dict):
        found += _refs(node["items"], suffix + "[]")
    if isinstance(node.get("additionalProperties"), dict):
        found += _refs(node["additionalProperties"], suffix + "{}")
    return found


def _type(node: Mapping[str, Any], paths: Mapping[str, str]) -> str:
    choices = [c for c in node.get("anyOf", []) if c.get("type") != "null"]
    if choices:
        return " or ".join(_type(c, paths) for c in choices)
    if "$ref" in node:
        path = paths[node["$ref"].rsplit("/", 1)[-1]]
        return f"[object](#{_anchor(path)})"
    if "enum" in node:
        return "one of " + ", ".join(f"`{value}`" for value in node["enum"])
    if "const" in node:
        return f"`{node['const']}`"
    kind = node.get("type")
    if kind == "array":
        return f"list of {_type(node.get('items') or {}, paths)}"
    if kind == "object":
        return f"map of {_type(node.get('additionalProperties') or {'type': 'string'}, paths)}"
    return str(kind or "any")


def _default(node: Mapping[str, Any]) -> str:
    if "default" not in node or node["default"] in (None, [], {}):
        return ""
    value = node["default"]
    return f"`{str(value).lower() if isinstance(value, bool) else value}`"


def _anchor(path: str) -> str:
    """GitHub's heading anchor of `## \\`path\\``: lower case, punctuation but `-` and `_` dropped."""
    return "".join(c for c in path.lower() if c.isalnum() or c in "-_")


def _text(text: str) -> str:
    return " ".join(text.replace("``", "`").replace("|", "\\|").split())


if __name__ == "__main__":
    print(markdown(), end="")
