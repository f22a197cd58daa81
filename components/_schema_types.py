"""Typed schema for the component package: object types generated from the pydantic models, for the properties
Pulumi's analyzer can only see as `dict[str, Any]`.

Pulumi infers the package schema from the components' annotations; `Environment.environment` (the environment
file's mapping), `Environment.pools` / `.queues` and `KueueObjects.objects` are plain dicts there, so the schema
would say `Any` and a TypeScript, Go, C#, Java or YAML program would get neither autocompletion nor type errors.
`typed_schema(schema)` replaces them with object types generated from the models that already define them:
`spec.EnvironmentSpec` (camelCase keys, as in a stack file), the exports of `Environment`, and the Kueue kinds of
`kueue_api` (plus the Kubernetes fields of the Namespaces and RoleBindings KueueObjects creates).

Only the served schema changes: the provider still hands the values to the components as plain dicts, and the
spec and the Kueue API validate them as before. Schema types are named without a trailing `Args` (Pulumi's
Python code generator appends one to every input type, so `FooArgs` would come out as `FooArgsArgs`).

Every closed set of values (a `Literal` in the models, and the component arguments in `ARGUMENT_ENUMS`) is an
enum type, so a generated SDK has e.g. `gkecap.CapacityModel.FlexStart`; every property carries its field's
description (the models' field docstrings, the one text for the README reference and this schema).
`package_metadata` adds what a registry and the code generators need (publisher, repository, license,
keywords, per-language package names), read from the distribution's metadata where it says it.

Pulumi type specs (pkg/codegen/schema/pulumi.json, typeSpec): a primitive (`type` boolean, integer, number,
string), an array (`items`), a map (`type: object` + `additionalProperties`), a `$ref` to `#/types/<token>`, or
a `oneOf` of at least two type specs; a property may also carry `description` and a primitive `default`. A type
in `types` is an object type or an enum type (enumTypeSpec: a primitive `type` and `enum`, a list of
`{"value", "name"?, "description"?}`).
"""

from __future__ import annotations

import copy
from importlib.metadata import metadata
from typing import Any, Mapping, get_args

from typing_extensions import NotRequired, TypedDict  # pydantic reads TypedDicts from typing_extensions on 3.11

from pydantic import ConfigDict, TypeAdapter, with_config
from pydantic.json_schema import models_json_schema

from gkecap.components.catalog import CAPACITY_MODELS
from gkecap.components.gke import calendar_window
from gkecap.components.gke.cluster import RELEASE_CHANNELS
from gkecap.components.gke.node_labels import TAINT_EFFECTS as GKE_TAINT_EFFECTS
from gkecap.components.gke.pool_request import GPU_DRIVER_VERSIONS, GPU_SHARING_STRATEGIES
from gkecap.components.kueue_api.cluster_queue import (
    BORROW_WITHIN_COHORT_POLICIES,
    RECLAIM_WITHIN_COHORT_POLICIES,
    WITHIN_CLUSTER_QUEUE_POLICIES,
    FungibilityPreference,
)
from gkecap.components.kueue_api.fields import StopPolicy
from gkecap.components.kueue_api.multikueue import LocationType
from gkecap.components.kueue_api.objects import OBJECT_MODELS
from gkecap.components.kueue_api.releases import API_VERSIONS
from gkecap.components.spec import EnvironmentSpec
from gkecap.components.spec.vertex import VertexSpec

_PRIMITIVES = ("boolean", "integer", "number", "string")
_DOCSTRINGS = with_config(ConfigDict(use_attribute_docstrings=True))  # a field's docstring is its description


@_DOCSTRINGS
class PoolExport(TypedDict):
    """One pool of an Environment (its `pools` output)."""

    nodePools: list[str]
    """GKE node pool names (one per multi-host TPU slice)."""
    machineType: str
    """Machine type of the pool."""
    capacity: str
    """Capacity model: flex-start, queued, calendar, reservation, spot or on-demand."""
    resource: str
    """Extended resource of the accelerator: nvidia.com/gpu or google.com/tpu."""
    maxAccelerators: int
    """Accelerators (GPUs or TPU chips) the pool holds at its maximum size."""
    nodeSelector: dict[str, str]
    """Node labels that select the pool's nodes (the Kueue flavor's nodeLabels)."""


@_DOCSTRINGS
class QueueExport(TypedDict):
    """One team of an Environment (its `queues` output)."""

    clusterQueue: str
    """Kueue ClusterQueue of the team."""
    localQueue: str
    """LocalQueue name in each of the team's namespaces."""
    namespaces: list[str]
    """Namespaces the team submits from."""
    cohort: NotRequired[str | None]
    """Cohort the ClusterQueue borrows and lends in, if any."""


@_DOCSTRINGS
class WorkerExport(TypedDict):
    """One MultiKueue worker of an Environment (its `workers` output)."""

    cluster: str
    """Name of the worker's GKE cluster."""
    location: str
    """Location of the worker's cluster."""
    region: str
    """Region of the worker."""
    pools: list[str]
    """The environment's pools that run on this worker."""


@_DOCSTRINGS
class VertexQuotaExport(TypedDict):
    """The preemptible Vertex AI training quota one region and GPU needs (VertexTrainingQuota's `quotas`)."""

    region: str
    """Region of the training jobs."""
    acceleratorType: str
    """Vertex accelerator type, e.g. NVIDIA_H100_80GB."""
    quotaId: str
    """Cloud Quotas quota id, e.g. CustomModelTrainingPreemptibleH100GPUsPerProjectPerRegion."""
    metric: str
    """Quota metric, e.g. aiplatform.googleapis.com/custom_model_training_preemptible_nvidia_h100_gpus."""
    gpus: int
    """GPUs the quota preference asks for: replicas x GPUs x concurrent jobs over the profiles."""
    profiles: list[str]
    """Profiles that need it."""


@_DOCSTRINGS
class ObjectMeta(TypedDict):
    """Kubernetes object metadata (the fields KueueObjects sets)."""

    name: str
    """Object name."""
    namespace: NotRequired[str]
    """Namespace of a namespaced kind (LocalQueue, RoleBinding)."""
    labels: NotRequired[dict[str, str]]
    """Labels of the object."""
    annotations: NotRequired[dict[str, str]]
    """Annotations of the object."""


@_DOCSTRINGS
class RoleRef(TypedDict):
    """rbac.authorization.k8s.io/v1 RoleRef: the role a RoleBinding grants."""

    apiGroup: str
    """API group of the role: rbac.authorization.k8s.io."""
    kind: str
    """ClusterRole or Role."""
    name: str
    """Name of the role."""


@_DOCSTRINGS
class Subject(TypedDict):
    """rbac.authorization.k8s.io/v1 Subject: who a RoleBinding grants the role to."""

    kind: str
    """User, Group or ServiceAccount."""
    name: str
    """Name of the user, group or service account."""
    apiGroup: NotRequired[str]
    """rbac.authorization.k8s.io for users and groups."""
    namespace: NotRequired[str]
    """Namespace of a service account."""


@_DOCSTRINGS
class KubernetesObject(TypedDict):
    """A Kubernetes object KueueObjects creates: a Kueue kind (kueue.x-k8s.io v1beta1/v1beta2), a Namespace or
    a RoleBinding. `spec` is the kind's spec; WorkloadPriorityClass has `value` and `description` instead, and
    RoleBinding `roleRef` and `subjects`."""

    apiVersion: str
    """API version, e.g. kueue.x-k8s.io/v1beta2."""
    kind: str
    """Kind, e.g. ClusterQueue."""
    metadata: ObjectMeta
    """Name, namespace, labels and annotations."""
    value: NotRequired[int]
    """WorkloadPriorityClass: the priority."""
    description: NotRequired[str]
    """WorkloadPriorityClass: what the class is for."""
    roleRef: NotRequired[RoleRef]
    """RoleBinding: the role granted."""
    subjects: NotRequired[list[Subject]]
    """RoleBinding: who gets the role."""


# Names of the enum types, by their values (a set the models spell in several places is one type). A closed set
# missing here is named after its first property (`<Type><Property>`).
ENUM_NAMES: dict[frozenset[str], str] = {
    frozenset(CAPACITY_MODELS): "CapacityModel",
    frozenset(RELEASE_CHANNELS): "ReleaseChannel",
    frozenset(GKE_TAINT_EFFECTS): "TaintEffect",
    frozenset(GPU_DRIVER_VERSIONS): "GpuDriverVersion",
    frozenset(GPU_SHARING_STRATEGIES): "GpuSharingStrategy",
    frozenset(calendar_window.WORKLOAD_TYPES): "ReservationWorkloadType",
    frozenset(API_VERSIONS): "KueueApiVersion",
    frozenset(RECLAIM_WITHIN_COHORT_POLICIES): "ReclaimWithinCohortPolicy",
    frozenset(BORROW_WITHIN_COHORT_POLICIES): "BorrowWithinCohortPolicy",
    frozenset(WITHIN_CLUSTER_QUEUE_POLICIES): "WithinClusterQueuePolicy",
    frozenset({"MayStopSearch", "TryNextFlavor"}): "FlavorFungibilityPolicy",
    frozenset({"MayStopSearch", "TryNextFlavor", "Borrow"}): "WhenCanBorrowV1Beta1",
    frozenset({"MayStopSearch", "TryNextFlavor", "Preempt"}): "WhenCanPreemptV1Beta1",
    frozenset({"Eviction", "Creation"}): "RequeuingTimestamp",
    frozenset({"AllAtOnce", "Incremental"}): "MultiKueueDispatcherMode",
    frozenset(get_args(StopPolicy)): "StopPolicy",
    frozenset(get_args(FungibilityPreference)): "FlavorFungibilityPreference",
    frozenset(get_args(LocationType)): "KubeConfigLocationType",
    frozenset({"StrictFIFO", "BestEffortFIFO"}): "QueueingStrategy",
    frozenset({"UsageBasedAdmissionFairSharing", "NoAdmissionFairSharing"}): "AdmissionMode",
    frozenset({"TryPreferredFlavors", "RetainFirstAdmission"}): "ConcurrentAdmissionMigrationMode",
    frozenset({"Manual", "Automated"}): "MultiKueueQuotaManagement",
    frozenset({"IdenticalPodTemplates", "IdenticalWorkloadSchedulingRequirements"}): "PodSetMergePolicy",
}

# Component arguments (plain `str` in their TypedDicts, so Python callers keep passing strings) whose values are
# a closed set: (resource or type name, property) -> the values, the same constants the checks use.
ARGUMENT_ENUMS: dict[tuple[str, str], tuple[str, ...]] = {
    ("AcceleratorNodePool", "capacity"): tuple(CAPACITY_MODELS),
    ("AcceleratorNodePool", "gpuDriverVersion"): tuple(GPU_DRIVER_VERSIONS),
    ("GpuSharing", "strategy"): tuple(GPU_SHARING_STRATEGIES),
    ("NodeTaint", "effect"): tuple(GKE_TAINT_EFFECTS),
    ("GkeCluster", "releaseChannel"): tuple(RELEASE_CHANNELS),
    ("CalendarReservation", "workloadType"): tuple(calendar_window.WORKLOAD_TYPES),
    ("RequeuingStrategy", "timestamp"): ("Eviction", "Creation"),
}


class UntypedSchemaError(ValueError):
    """A model field has no type a Pulumi schema can say (free-form object or `Any`)."""


def typed_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """The package schema with typed object types in place of `Any` (see the module docstring)."""
    result = copy.deepcopy(dict(schema))
    package = result["name"]
    _rename_args_types(result)
    types = result.setdefault("types", {})
    converter = _Converter(package, types)

    environment = converter.root(EnvironmentSpec.model_json_schema(by_alias=True, mode="validation"), "EnvironmentSpec")
    pools = converter.node(TypeAdapter(dict[str, PoolExport]).json_schema(mode="serialization"))
    queues = converter.node(TypeAdapter(dict[str, QueueExport]).json_schema(mode="serialization"))
    objects = {"type": "array", "items": converter.node(_kubernetes_object_schema(converter))}

    resources = result["resources"]
    env = resources[f"{package}:index:Environment"]
    _retype(env["inputProperties"]["environment"], environment)
    _retype(env["properties"]["pools"], pools)
    _retype(env["properties"]["queues"], queues)
    if "workers" in env["properties"]:
        _retype(env["properties"]["workers"],
                converter.node(TypeAdapter(dict[str, WorkerExport]).json_schema(mode="serialization")))
    _retype(resources[f"{package}:index:KueueObjects"]["inputProperties"]["objects"], objects)
    vertex = resources.get(f"{package}:index:VertexTrainingQuota")
    if vertex is not None:  # the environment file's `vertex` section, and the quota per region and GPU
        _retype(vertex["inputProperties"]["vertex"], converter.node(VertexSpec.model_json_schema(by_alias=True, mode="validation")))
        _retype(vertex["properties"]["quotas"], converter.node(TypeAdapter(list[VertexQuotaExport]).json_schema(mode="serialization")))
    _enum_arguments(result, converter)
    return result


def package_metadata(schema: Mapping[str, Any], distribution: str = "gke-capacity") -> dict[str, Any]:
    """The schema with the package's metadata (Pulumi metaschema: publisher, repository, license, keywords, and
    the `language` sections the code generators read), from the distribution's own metadata (pyproject.toml)."""
    meta = metadata(distribution)
    urls = dict(url.split(", ", 1) for url in meta.get_all("Project-URL") or [])
    repository = urls["Repository"]
    owner = repository.rstrip("/").split("/")[-2]  # github.com/<owner>/<repo>: the SDKs' namespace
    name = schema["name"]
    description = meta["Summary"]
    result = dict(schema)
    result.update({
        "displayName": "GKE capacity",
        "description": description,
        "publisher": meta["Author"],
        "homepage": urls["Homepage"],
        "repository": repository,
        "license": meta["License-Expression"],
        # Pulumi's registry reads `category/<c>` and `kind/<k>` keywords; the rest are the distribution's.
        "keywords": list(dict.fromkeys(["pulumi", "category/cloud", "kind/component", *meta["Keywords"].split(",")])),
        "language": {
            # pulumi/pulumi pkg/codegen/schema/pulumi.json, *LanguageSpec: the generated packages' names, so a
            # TypeScript SDK is @acme/gkecap rather than @pulumi/gkecap.
            "nodejs": {"packageName": f"@{owner}/{name}", "packageDescription": description,
                       "respectSchemaVersion": True},
            "python": {"packageName": f"{owner}_{name}", "respectSchemaVersion": True},
            "go": {"importBasePath": f"{repository.removeprefix('https://')}/sdk/go/{name}",
                   "respectSchemaVersion": True},
            "csharp": {"rootNamespace": owner.capitalize(), "respectSchemaVersion": True},
            "java": {"basePackage": f"com.{owner}"},
        },
    })
    return result


def _enum_arguments(schema: dict[str, Any], converter: _Converter) -> None:
    """The component arguments of `ARGUMENT_ENUMS` as enum types (inputs of a resource, properties of a type)."""
    package = schema["name"]
    for (owner, name), values in ARGUMENT_ENUMS.items():
        token = f"{package}:index:{owner}"
        spec = schema["resources"].get(token) or schema["types"].get(token)
        if spec is None:
            raise UntypedSchemaError(f"ARGUMENT_ENUMS: no resource or type {token}")
        properties = spec.get("inputProperties") or spec.get("properties") or {}
        if properties.get(name, {}).get("type") != "string":
            raise UntypedSchemaError(f"ARGUMENT_ENUMS: {owner}.{name} is not a string property")
        _retype(properties[name], converter.enum(list(values), f"{owner}.{name}"))


def _retype(prop: dict[str, Any], type_spec: Mapping[str, Any]) -> None:
    """Replace the type of `prop` with `type_spec`, keeping its description and `plain`."""
    for key in ("type", "items", "additionalProperties", "$ref", "oneOf"):
        prop.pop(key, None)
    prop.update(type_spec)


def _rename_args_types(schema: dict[str, Any]) -> None:
    """`gkecap:index:GpuSharingArgs` -> `gkecap:index:GpuSharing`, in `types` and in every `$ref`."""
    types = schema.get("types") or {}
    renamed = {token: token[: -len("Args")] for token in types if token.endswith("Args")}
    if not renamed:
        return
    schema["types"] = {renamed.get(token, token): spec for token, spec in types.items()}

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/types/") and ref[len("#/types/"):] in renamed:
                node["$ref"] = "#/types/" + renamed[ref[len("#/types/"):]]
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)


def _kubernetes_object_schema(converter: _Converter) -> dict[str, Any]:
    """KubernetesObject's JSON schema, with `spec` one of the Kueue kinds' spec types."""
    # Each kind's `spec` is `<Spec model> | None`.
    spec_models = sorted(
        {arg for model in OBJECT_MODELS.values() if "spec" in model.model_fields
         for arg in get_args(model.model_fields["spec"].annotation) if arg is not type(None)},
        key=lambda m: m.__name__,
    )
    _, definitions = models_json_schema([(m, "validation") for m in spec_models], by_alias=True)
    converter.add_definitions(definitions.get("$defs", {}))
    schema = TypeAdapter(KubernetesObject).json_schema(mode="serialization")
    schema["properties"]["spec"] = {"anyOf": [{"$ref": f"#/$defs/{m.__name__}"} for m in spec_models],
                                    "description": "The kind's spec (ClusterQueue, Cohort, LocalQueue, ResourceFlavor, "
                                    "AdmissionCheck, ProvisioningRequestConfig or Topology)."}
    schema.setdefault("$defs", {})
    return schema


class _Converter:
    """JSON Schema (as pydantic writes it) to Pulumi type specs; object types go into `types`."""

    def __init__(self, package: str, types: dict[str, Any]) -> None:
        self.package = package
        self.types = types
        self.definitions: dict[str, Any] = {}
        self.done: set[str] = set()

    def add_definitions(self, definitions: Mapping[str, Any]) -> None:
        for name, definition in definitions.items():
            known = self.definitions.get(name)
            if known is not None and known != definition:
                raise UntypedSchemaError(f"two different models are both named {name!r}")
            self.definitions[name] = definition

    def root(self, schema: Mapping[str, Any], name: str) -> dict[str, Any]:
        """A model's whole JSON schema as a named object type; its `$ref`."""
        self.add_definitions(schema.get("$defs", {}))
        self.add_definitions({name: {k: v for k, v in schema.items() if k != "$defs"}})
        return self._ref(name)

    def node(self, schema: Mapping[str, Any]) -> dict[str, Any]:
        self.add_definitions(schema.get("$defs", {}))
        body = {k: v for k, v in schema.items() if k != "$defs"}
        if body.get("type") == "object" and "properties" in body:
            name = body.get("title") or "Object"
            self.add_definitions({name: body})
            return self._ref(name)
        return self._type(body, name="")

    def enum(self, values: list[str], name: str) -> dict[str, Any]:
        """The `$ref` of the enum type of `values` (named by `ENUM_NAMES`, else after the property `name`)."""
        key = frozenset(values)
        type_name = ENUM_NAMES.get(key) or "".join(part[:1].upper() + part[1:] for part in name.split("."))
        token = self._token(type_name)
        known = self.types.get(token)
        if known is None:
            self.types[token] = {"type": "string", "enum": [{"value": value} for value in values]}
        elif known.get("enum") is None or {v["value"] for v in known["enum"]} != key:
            raise UntypedSchemaError(f"enum type {token}: two different value sets share the name")
        return {"$ref": f"#/types/{token}"}

    def _token(self, name: str) -> str:
        if name.endswith("Args"):
            raise UntypedSchemaError(f"type {name!r}: a schema type name must not end in Args")
        return f"{self.package}:index:{name}"

    def _ref(self, name: str) -> dict[str, Any]:
        token = self._token(name)
        if name not in self.done:
            self.done.add(name)
            if token in self.types:
                raise UntypedSchemaError(f"type {token} is already in the schema")
            self.types[token] = self._object_type(self.definitions[name], name)
        return {"$ref": f"#/types/{token}"}

    def _object_type(self, definition: Mapping[str, Any], name: str) -> dict[str, Any]:
        properties = {key: self._property(value, f"{name}.{key}") for key, value in definition.get("properties", {}).items()}
        spec: dict[str, Any] = {"type": "object", "properties": properties}
        if definition.get("description"):
            spec["description"] = _clean(definition["description"])
        if definition.get("required"):
            spec["required"] = list(definition["required"])
        return spec

    def _property(self, node: Mapping[str, Any], name: str) -> dict[str, Any]:
        spec = self._type(node, name)
        notes = []
        if node.get("description"):
            notes.append(_clean(node["description"]))
        default = node.get("default")
        if isinstance(default, (bool, int, float, str)) and "type" in spec and spec["type"] in _PRIMITIVES:
            spec["default"] = default
        elif isinstance(default, str) and _enum(node):
            notes.append(f"Default: {default}.")  # the enum's `$ref` takes no primitive default
        if notes:
            spec["description"] = " ".join(notes)
        return spec

    def _type(self, node: Mapping[str, Any], name: str) -> dict[str, Any]:
        choices = [c for c in node.get("anyOf", node.get("oneOf", [])) if c.get("type") != "null"]
        if choices:
            if len(choices) == 1:
                return self._type({**choices[0], **{k: v for k, v in node.items() if k not in ("anyOf", "oneOf")}}, name)
            return {"oneOf": [self._type(c, name) for c in choices]}
        if "$ref" in node:
            return self._ref(node["$ref"].rsplit("/", 1)[-1])
        kind = node.get("type")
        if kind == "array":
            return {"type": "array", "items": self._type(node.get("items") or {}, f"{name}[]")}
        if kind == "object":
            if node.get("properties"):
                title = node.get("title") or name
                self.add_definitions({title: node})
                return self._ref(title)
            values = node.get("additionalProperties")
            if isinstance(values, dict) and values:
                return {"type": "object", "additionalProperties": self._type(values, f"{name}{{}}")}
        if "enum" in node and node["enum"] and all(isinstance(o, str) for o in node["enum"]):
            return self.enum(list(node["enum"]), name)
        if "const" in node and isinstance(node["const"], str):
            return self.enum([node["const"]], name)
        if kind in _PRIMITIVES:
            return {"type": kind}
        raise UntypedSchemaError(f"{name or 'value'}: no schema type for {dict(node)!r} (free-form or Any)")


def _enum(node: Mapping[str, Any]) -> list[Any]:
    for choice in [node, *node.get("anyOf", [])]:
        if "enum" in choice:
            return list(choice["enum"])
    return []


def _clean(text: str) -> str:
    return " ".join(text.replace("``", "`").split())
