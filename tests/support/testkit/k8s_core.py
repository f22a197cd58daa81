"""Validate core Kubernetes objects (Namespace, RoleBinding...) against kubernetes-validate's strict schemas,
with the schema and its definitions loaded once per (kind, apiVersion) instead of on every call (the library
re-reads a multi-megabyte definitions file each time). Same files, same validator as
`kubernetes_validate.validate(obj, VERSION, strict=True)`; errors are `kubernetes_validate.ValidationError`.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

import jsonschema
import kubernetes_validate
from kubernetes_validate import utils
from referencing import Registry, Resource

K8S_VERSION = "1.33"  # GKE's regular-channel line


def _schema_dir() -> str:
    version = [v for v in utils.all_versions() if utils.major_minor(v) <= K8S_VERSION][-1]
    return f"v{version}-local-strict"


@lru_cache(maxsize=None)
def _validator(kind: str, api_version: str) -> jsonschema.Validator:
    group_version = re.sub(r"^([^./]*)(?:\.[^/]*)?/", r"\1-", api_version)
    directory = _schema_dir()
    schema = utils.schema_contents(f"kubernetes-json-schema/{directory}/{kind.lower()}-{group_version}.json", K8S_VERSION)
    definitions = utils.schema_contents(f"kubernetes-json-schema/{directory}/_definitions.json", K8S_VERSION)
    registry = Resource.from_contents(definitions) @ (Resource.from_contents(schema) @ Registry())
    return jsonschema.validators.Draft202012Validator(schema, registry=registry)


def validate_core(obj: dict[str, Any]) -> None:
    """Raise kubernetes_validate.ValidationError when `obj` does not match its strict core schema."""
    try:
        _validator(obj["kind"], obj["apiVersion"]).validate(obj)
    except jsonschema.ValidationError as err:
        raise kubernetes_validate.ValidationError(err, version=K8S_VERSION) from None
