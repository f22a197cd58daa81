"""Validate JobSet objects against the REAL JobSet CRD in <repo>/../shared/jobset-crd (test data, never copied).

Same steps as `testkit.kueue_crds` (prune nulls, apply defaults, the openAPIV3Schema with jsonschema, unknown
fields as kubectl's strict field validation reports them, then the CRD's CEL rules), over the JobSet CRD of the
release named in ../shared/jobset-crd/SOURCE.txt. Tests that use it carry `requires_jobset_crd`.
"""

from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any

import jsonschema
import pytest
import yaml

from testkit.kueue_crds import (
    _FORMATS,
    REPO_ROOT,
    CrdError,
    _apply_defaults,
    _cel_errors,
    _json_path,
    _metadata_errors,
    _prune_nulls,
    _structural_errors,
    _to_json_schema,
)

CRD_FILE = REPO_ROOT.parent / "shared" / "jobset-crd" / "jobset.x-k8s.io_jobsets.yaml"

requires_jobset_crd = pytest.mark.skipif(
    not CRD_FILE.is_file(), reason=f"real JobSet CRD not found at {CRD_FILE} (../shared is absent in a user's clone)")


@lru_cache(maxsize=None)
def _schemas() -> dict[str, dict[str, Any]]:
    # libyaml's loader when PyYAML has it: the CRD is 10,000 lines, seconds for the pure-Python one.
    crd = yaml.load(CRD_FILE.read_text(), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    return {v["name"]: v["schema"]["openAPIV3Schema"] for v in crd["spec"]["versions"] if v.get("served")}


@lru_cache(maxsize=None)
def _validator(version: str) -> jsonschema.Draft7Validator:
    return jsonschema.Draft7Validator(_to_json_schema(_schemas()[version]), format_checker=_FORMATS)


def validate_jobset(obj: dict[str, Any]) -> list[CrdError]:
    """Problems the API server would find creating `obj` with the real JobSet CRD ([] when accepted)."""
    group, _, version = str(obj.get("apiVersion", "")).partition("/")
    if group != "jobset.x-k8s.io" or obj.get("kind") != "JobSet" or version not in _schemas():
        return [CrdError("apiVersion", f"no served JobSet CRD version for {obj.get('apiVersion')!r}", "apiserver")]
    schema = _schemas()[version]
    prepared = _prune_nulls(copy.deepcopy(obj), schema)
    _apply_defaults(prepared, schema)
    errors = _metadata_errors(prepared)
    errors += [CrdError(_json_path(e.absolute_path), e.message, "schema", e.validator)
               for e in _validator(version).iter_errors(prepared)]
    errors += _structural_errors(prepared, schema, True)
    if not errors:
        errors += _cel_errors(prepared, schema)
    return errors
