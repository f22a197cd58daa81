"""Field docstrings become JSON-schema descriptions when a schema is generated, not when a model class is created."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from gkecap.components.k8s.field_docs import DOCUMENTED, field_docs
from gkecap.components.spec.models import EnvironmentSpec


class _Base(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, json_schema_extra=DOCUMENTED)

    max_nodes: int = 1
    """Most nodes."""


class _Child(_Base):
    pool_name: str
    """The pool's
    name."""
    explicit: str = Field("x", description="Given explicitly.")
    """Not this one."""
    undocumented: int = 0


def test_a_field_docstring_is_its_property_description():
    properties = _Child.model_json_schema(by_alias=True)["properties"]
    assert properties["poolName"]["description"] == "The pool's\nname."


def test_inherited_fields_keep_their_docstring():
    assert _Child.model_json_schema(by_alias=True)["properties"]["maxNodes"]["description"] == "Most nodes."


def test_an_explicit_description_wins_over_the_docstring():
    assert _Child.model_json_schema()["properties"]["explicit"]["description"] == "Given explicitly."


def test_a_field_without_docstring_stays_undescribed():
    assert "description" not in _Child.model_json_schema()["properties"]["undocumented"]


def test_class_creation_reads_no_docstring():
    # The point of the hook: importing the models costs no source parsing (field_docs.py's docstring).
    assert _Child.model_fields["pool_name"].description is None
    assert all(info.description is None for name, info in EnvironmentSpec.model_fields.items()
               if name in field_docs(EnvironmentSpec))


def test_the_environment_schema_is_described_from_docstrings():
    schema = EnvironmentSpec.model_json_schema(by_alias=True, mode="validation")
    docs = field_docs(EnvironmentSpec)
    described = {key for key, prop in schema["properties"].items() if prop.get("description")}
    assert docs and {info.alias or name for name, info in EnvironmentSpec.model_fields.items() if name in docs} <= described
