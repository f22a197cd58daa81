"""The schema the component package serves: it passes Pulumi's package metaschema, and what the analyzer sees
as `Any` (the environment, Environment's pools and queues, KueueObjects' objects) is typed from the models."""

from __future__ import annotations

import importlib
import json
import re

import jsonschema
import pytest

from gkecap.components.spec.models import EnvironmentSpec, NodePoolSpec, TeamSpec
from testkit.pulumi_metaschema import METASCHEMA

plugin = importlib.import_module("gkecap.components.__main__")


@pytest.fixture(scope="module")
def schema():
    return json.loads(plugin.GkecapProvider().schema)


def _aliases(model) -> list[str]:
    return [field.alias or name for name, field in model.model_fields.items()]


def test_schema_passes_the_package_metaschema(schema):
    jsonschema.Draft202012Validator(METASCHEMA).validate(schema)


def test_metaschema_rejects_a_primitive_with_items(schema):
    # The check above can fail: a primitive type that also carries `items` is not a type reference.
    broken = json.loads(json.dumps(schema))
    broken["types"]["gkecap:index:NodePoolSpec"]["properties"]["name"]["items"] = {"type": "string"}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(METASCHEMA).validate(broken)


def test_nothing_is_any(schema):
    assert re.findall(r"pulumi\.json#/Any", json.dumps(schema)) == []


def test_every_reference_names_a_type_of_the_schema(schema):
    refs = set(re.findall(r'"\$ref": "#/types/([^"]+)"', json.dumps(schema)))
    assert refs and refs <= set(schema["types"])


def test_no_type_name_ends_in_args(schema):
    # Pulumi's Python SDK generator appends Args to input types: FooArgs would become FooArgsArgs.
    assert [token for token in schema["types"] if token.endswith("Args")] == []


def test_environment_is_the_environment_spec(schema):
    environment = schema["resources"]["gkecap:index:Environment"]["inputProperties"]["environment"]
    assert environment["$ref"] == "#/types/gkecap:index:EnvironmentSpec"
    spec = schema["types"]["gkecap:index:EnvironmentSpec"]
    assert sorted(spec["properties"]) == sorted(_aliases(EnvironmentSpec))
    assert spec["required"] == ["region", "cluster"]
    assert spec["properties"]["nodePools"] == {"type": "array", "items": {"$ref": "#/types/gkecap:index:NodePoolSpec"}}


def test_pool_fields_are_typed_with_camel_case_names(schema):
    pool = schema["types"]["gkecap:index:NodePoolSpec"]
    assert sorted(pool["properties"]) == sorted(_aliases(NodePoolSpec))
    assert pool["properties"]["maxNodes"]["type"] == "integer"
    assert pool["properties"]["capacity"]["description"].startswith("One of: ")
    team = schema["types"]["gkecap:index:TeamSpec"]
    assert sorted(team["properties"]) == sorted(_aliases(TeamSpec))
    assert team["properties"]["quota"] == {"type": "object", "additionalProperties": {"type": "integer"}}


def test_environment_outputs_are_typed(schema):
    outputs = schema["resources"]["gkecap:index:Environment"]["properties"]
    assert outputs["pools"]["additionalProperties"] == {"$ref": "#/types/gkecap:index:PoolExport"}
    assert outputs["queues"]["additionalProperties"] == {"$ref": "#/types/gkecap:index:QueueExport"}
    assert schema["types"]["gkecap:index:PoolExport"]["properties"]["maxAccelerators"] == {
        "type": "integer", "description": "Accelerators (GPUs or TPU chips) the pool holds at its maximum size."}


def test_kueue_objects_are_kubernetes_objects_with_kueue_specs(schema):
    objects = schema["resources"]["gkecap:index:KueueObjects"]["inputProperties"]["objects"]
    assert objects["items"] == {"$ref": "#/types/gkecap:index:KubernetesObject"}
    spec = schema["types"]["gkecap:index:KubernetesObject"]["properties"]["spec"]
    assert {"$ref": "#/types/gkecap:index:ClusterQueueSpec"} in spec["oneOf"]
    assert "resourceGroups" in schema["types"]["gkecap:index:ClusterQueueSpec"]["properties"]
