"""The schema the component package serves: it passes Pulumi's package metaschema, what the analyzer sees as `Any`
(the environment, Environment's pools and queues, KueueObjects' objects) is typed from the models, every closed
set is an enum type, every property is described, and the package carries its metadata."""

from __future__ import annotations

import importlib
import json
import re
import tomllib
import types
import typing
from pathlib import Path

import jsonschema
import pytest

import pydantic

from gkecap.components.catalog import CAPACITY_MODELS
from gkecap.components.gke.cluster import RELEASE_CHANNELS
from gkecap.components.gke.pool_request import GPU_SHARING_STRATEGIES
from gkecap.components.kueue_api.objects import OBJECT_MODELS
from gkecap.components.spec.models import EnvironmentSpec, NodePoolSpec, TeamSpec
from gkecap.components.spec.vertex import VertexSpec
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
    assert spec["properties"]["nodePools"] == {"type": "array", "items": {"$ref": "#/types/gkecap:index:NodePoolSpec"},
                                               "description": "The accelerator pools."}


def test_pool_fields_are_typed_with_camel_case_names(schema):
    pool = schema["types"]["gkecap:index:NodePoolSpec"]
    assert sorted(pool["properties"]) == sorted(_aliases(NodePoolSpec))
    assert pool["properties"]["maxNodes"]["type"] == "integer"
    assert pool["properties"]["capacity"]["$ref"] == "#/types/gkecap:index:CapacityModel"
    team = schema["types"]["gkecap:index:TeamSpec"]
    assert sorted(team["properties"]) == sorted(_aliases(TeamSpec))
    assert team["properties"]["quota"] == {"type": "object", "additionalProperties": {"type": "integer"},
                                           "description": "Nominal quota in accelerators (GPUs or TPU chips) per pool."}


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


def _properties(schema):
    """(where, property spec) of every property: object types' properties, resources' inputs and outputs."""
    for token, spec in schema["types"].items():
        for name, prop in spec.get("properties", {}).items():
            yield f"{token}.{name}", prop
    for token, spec in schema["resources"].items():
        for section in ("inputProperties", "properties"):
            for name, prop in spec.get(section, {}).items():
                yield f"{token}.{section}.{name}", prop


def test_every_property_is_described(schema):
    assert [where for where, prop in _properties(schema) if not prop.get("description", "").strip()] == []


def _literal_fields(roots):
    """(model, JSON name, values) of every field whose type has a Literal, in the models reachable from `roots`."""
    seen, found, todo = set(), [], list(roots)
    while todo:
        model = todo.pop()
        if model in seen:
            continue
        seen.add(model)
        for name, field in model.model_fields.items():
            stack = [field.annotation]
            while stack:
                hint = stack.pop()
                if typing.get_origin(hint) is typing.Literal:
                    found.append((model, field.alias or name, set(typing.get_args(hint))))
                elif isinstance(hint, type) and issubclass(hint, pydantic.BaseModel):
                    todo.append(hint)
                else:
                    stack.extend(a for a in typing.get_args(hint) if not isinstance(a, (str, int, pydantic.fields.FieldInfo))
                                 or typing.get_origin(a) is not None)
    return found


def _spec_models():
    """The Kueue kinds' spec models (KueueObjects' `objects[].spec`)."""
    return [arg for model in OBJECT_MODELS.values() if "spec" in model.model_fields
            for arg in typing.get_args(model.model_fields["spec"].annotation) if arg is not type(None)]


def test_the_walk_finds_the_literals():
    # The check below can fail: the walk sees Literals inside Optional and Annotated, in nested models.
    fields = {(model.__name__, name) for model, name, _ in _literal_fields([EnvironmentSpec])}
    assert {("NodePoolSpec", "capacity"), ("ClusterSpec", "releaseChannel"), ("GpuSharingSpec", "strategy"),
            ("PreemptionSpec", "reclaimWithinCohort")} <= fields


def test_every_literal_of_the_models_is_an_enum(schema):
    literals = _literal_fields([EnvironmentSpec, VertexSpec, *_spec_models()])
    assert len(literals) > 20
    wrong = []
    for model, name, values in literals:
        prop = schema["types"][f"gkecap:index:{model.__name__}"]["properties"][name]
        enum = schema["types"].get(prop.get("$ref", "").removeprefix("#/types/"), {})
        if enum.get("type") != "string" or {v["value"] for v in enum.get("enum", [])} != values:
            wrong.append(f"{model.__name__}.{name}: {prop}")
    assert wrong == []


def test_an_enum_type_is_one_type_wherever_its_values_appear(schema):
    # FlavorFungibilitySpec (the environment file) and FlavorFungibility (Kueue's) say the same policy.
    spec = schema["types"]["gkecap:index:FlavorFungibilitySpec"]["properties"]["whenCanBorrow"]
    kueue = schema["types"]["gkecap:index:FlavorFungibility"]["properties"]["whenCanPreempt"]
    assert spec["$ref"] == kueue["$ref"] == "#/types/gkecap:index:FlavorFungibilityPolicy"


def test_enum_values_are_the_catalog_values(schema):
    values = {token.rsplit(":", 1)[-1]: [v["value"] for v in spec["enum"]]
              for token, spec in schema["types"].items() if "enum" in spec}
    assert values["CapacityModel"] == list(CAPACITY_MODELS)
    assert values["ReleaseChannel"] == list(RELEASE_CHANNELS)
    assert values["GpuSharingStrategy"] == list(GPU_SHARING_STRATEGIES)


def test_closed_set_component_arguments_are_enums(schema):
    # The components' own arguments (str in Python) name the same enum types as the environment file.
    resources, types_ = schema["resources"], schema["types"]
    assert resources["gkecap:index:AcceleratorNodePool"]["inputProperties"]["capacity"]["$ref"] == \
        "#/types/gkecap:index:CapacityModel"
    assert resources["gkecap:index:GkeCluster"]["inputProperties"]["releaseChannel"]["$ref"] == \
        "#/types/gkecap:index:ReleaseChannel"
    assert types_["gkecap:index:GpuSharing"]["properties"]["strategy"]["$ref"] == \
        "#/types/gkecap:index:GpuSharingStrategy"


def test_enum_default_is_said_in_the_description(schema):
    channel = schema["types"]["gkecap:index:ClusterSpec"]["properties"]["releaseChannel"]
    assert channel["description"].endswith("Default: REGULAR.")


def test_metaschema_rejects_an_enum_without_values(schema):
    broken = json.loads(json.dumps(schema))
    broken["types"]["gkecap:index:CapacityModel"]["enum"] = []
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(METASCHEMA).validate(broken)


def test_package_metadata_comes_from_the_distribution(schema):
    project = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())["project"]
    assert schema["publisher"] == project["authors"][0]["name"]
    assert schema["repository"] == project["urls"]["Repository"]
    assert schema["license"] == project["license"]
    assert set(project["keywords"]) <= set(schema["keywords"]) and "kind/component" in schema["keywords"]


def test_generated_sdks_have_the_publishers_names(schema):
    language = schema["language"]
    assert language["nodejs"]["packageName"] == "@acme/gkecap"
    assert language["python"]["packageName"] == "acme_gkecap"
    assert language["go"]["importBasePath"] == "github.com/acme/gke-capacity/sdk/go/gkecap"
    assert language["csharp"]["rootNamespace"] == "Acme"
    assert language["java"]["basePackage"] == "com.acme"
