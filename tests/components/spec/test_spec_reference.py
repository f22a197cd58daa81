"""docs/environment.md is the models' own reference: every key, described by its field's docstring."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pydantic

from gkecap.components.k8s.field_docs import field_docs
from gkecap.components.spec import reference
from gkecap.components.spec.models import EnvironmentSpec, NodePoolSpec

REPO = Path(__file__).resolve().parents[3]


def test_docs_environment_md_is_current():
    run = subprocess.run([sys.executable, "-m", "gkecap.components.spec.reference"], capture_output=True, text=True,
                         check=True)
    assert (REPO / "docs" / "environment.md").read_text() == run.stdout, (
        "docs/environment.md is stale: python -m gkecap.components.spec.reference > docs/environment.md")


def _models(root):
    seen, todo = set(), [root]
    while todo:
        model = todo.pop()
        if model not in seen:
            seen.add(model)
            for field in model.model_fields.values():
                todo += [a for a in _hints(field.annotation) if isinstance(a, type) and issubclass(a, pydantic.BaseModel)]
    return seen


def _hints(hint):
    yield hint
    for arg in getattr(hint, "__args__", ()) or ():
        yield from _hints(arg)


def test_every_field_of_the_environment_file_has_a_description():
    # A field's description: an explicit Field(description=...) or its docstring (components/k8s/field_docs.py).
    missing = [f"{model.__name__}.{name}" for model in _models(EnvironmentSpec)
               for name, field in model.model_fields.items()
               if not (field.description or field_docs(model).get(name) or "").strip()]
    assert len(_models(EnvironmentSpec)) > 15 and missing == []


def test_the_reference_has_a_row_per_key_with_its_description():
    text = reference.markdown()
    description = field_docs(NodePoolSpec)["tpu_topology"]
    assert description and f"| `tpuTopology` | string |  | {description} |" in text
    assert "## `nodePools[]`" in text and "## `kueue.waitForPodsReady.requeuingStrategy`" in text


def test_a_closed_set_lists_its_values_and_default():
    assert "| `releaseChannel` | one of `RAPID`, `REGULAR`, `STABLE`, `EXTENDED` | `REGULAR` |" in reference.markdown()
