"""A model field's docstring is its description in the model's JSON schema, read only when a schema is generated.

The API models document each field with a docstring under it (the style of Kubernetes' Go types, whose comments
become the OpenAPI descriptions). pydantic's `use_attribute_docstrings` reads them when each class is created: it
looks the defining module up for every class (`inspect.getmodule` walks `sys.modules`, which holds the provider
SDKs) and tokenizes the class body, about 0.2 CPU-s per process that imports the models (measured: importing the
spec, Vertex and Kueue models took 0.55 s with it and 0.35 s without), paid by every `gkecap` run and by the policy
pack, which never generate a schema. `DOCUMENTED` is a `json_schema_extra` hook (pydantic's public API: called with
the class's schema and the class) that adds the same descriptions when a JSON schema is generated, parsing each
module once.
"""
from __future__ import annotations

import ast
import functools
import inspect
import sys
from typing import Any

from pydantic import BaseModel


@functools.lru_cache(maxsize=None)
def _module_docs(module_name: str) -> dict[str, dict[str, str]]:
    """Class qualname -> field name -> docstring, for every class of a module (one parse per module)."""
    module = sys.modules.get(module_name)
    try:
        tree = ast.parse(inspect.getsource(module)) if module is not None else None
    except (OSError, TypeError):  # no source (a frozen or compiled-only install): no descriptions, nothing breaks
        tree = None
    found: dict[str, dict[str, str]] = {}
    if tree is None:
        return found

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                qualname = prefix + node.name
                found[qualname] = _class_docs(node.body)
                visit(node.body, qualname + ".")

    visit(tree.body, "")
    return found


def _class_docs(body: list[ast.stmt]) -> dict[str, str]:
    # pydantic's rule: a string expression right after an annotated assignment to a plain name documents it.
    docs: dict[str, str] = {}
    for node, following in zip(body, body[1:]):
        if (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                and isinstance(following, ast.Expr) and isinstance(following.value, ast.Constant)
                and isinstance(following.value.value, str)):
            docs[node.target.id] = inspect.cleandoc(following.value.value)
    return docs


def field_docs(cls: type) -> dict[str, str]:
    """Field name -> docstring for `cls`, its own fields first, then those it inherits (as pydantic resolves them)."""
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        module = getattr(klass, "__module__", None)
        if module is None or klass is object:
            continue
        docs.update(_module_docs(module).get(klass.__qualname__, {}))
    return docs


def describe_properties(schema: dict[str, Any], cls: type) -> None:
    """Add each undocumented property's field docstring to `schema` (a model's JSON schema), in place.

    An explicit `Field(description=...)` stays, as with pydantic's `use_attribute_docstrings`.
    """
    properties = schema.get("properties")
    if not isinstance(properties, dict):
        return
    fields = cls.model_fields if isinstance(cls, type) and issubclass(cls, BaseModel) else {}
    for name, doc in field_docs(cls).items():
        info = fields.get(name)
        if info is not None and info.description is not None:
            continue
        keys = [name]
        if info is not None:
            keys = [k for k in (info.validation_alias, info.serialization_alias, info.alias) if isinstance(k, str)] + keys
        for key in keys:
            prop = properties.get(key)
            if isinstance(prop, dict):
                if "description" not in prop:
                    # pydantic places a field's description after its title: keep that order.
                    rebuilt: dict[str, Any] = {}
                    for k, v in prop.items():
                        rebuilt[k] = v
                        if k == "title":
                            rebuilt["description"] = doc
                    rebuilt.setdefault("description", doc)
                    prop.clear()
                    prop.update(rebuilt)
                break


DOCUMENTED = describe_properties
