"""The structural rules of Pulumi's package metaschema that a component package's schema must keep, as a JSON
Schema for `jsonschema`.

Source: pulumi/pulumi `pkg/codegen/schema/pulumi.json` (read at commit 1b5949891b3c, August 2026): a type token is
`<package>:<module>:<name>`; a type reference is exactly one of a primitive (`type` boolean, integer, number or
string and nothing else), an array (`type: array` with `items`), a map (`type: object`, optional
`additionalProperties`), a `$ref`, or a `oneOf` of two or more references; a property adds `description`,
`const`, `default` (a primitive), `secret`, ...; object types have `type: object`, `properties`, `required`;
resources add `inputProperties`, `requiredInputs`, `isComponent`. A type in `types` is an object type or an enum
type (`enumTypeSpec`: a primitive `type` and `enum`, values `{value, name?, description?, deprecationMessage?}`).
The package's top level allows only the metaschema's keys (`additionalProperties: false`), among them
`publisher`, `repository`, `license`, `keywords` and `language` (`languageSpec`: nodejs `packageName`, python
`packageName`, go `importBasePath`, csharp `rootNamespace`, java `basePackage`, ...); enum types, metadata and
language sections re-read at commit 01c4ec37f501 (November 2026). Written here from those rules (the file is not
shipped with any Pulumi package the tests can read), not copied.
"""

from __future__ import annotations

TOKEN = r"^[a-zA-Z][-a-zA-Z0-9_]*:([^0-9][a-zA-Z0-9._/-]*)?:[^0-9][a-zA-Z0-9._/]*$"
_PRIMITIVE = ["boolean", "integer", "number", "string"]
_NOT = False  # a key that must be absent in that form

_TYPE = {
    "type": "object",
    "properties": {"plain": {"type": "boolean"}},
    "oneOf": [
        {"properties": {"type": {"enum": _PRIMITIVE}, "items": _NOT, "additionalProperties": _NOT, "oneOf": _NOT,
                        "$ref": _NOT}, "required": ["type"]},
        {"properties": {"type": {"const": "array"}, "items": {"$ref": "#/$defs/type"}, "additionalProperties": _NOT,
                        "oneOf": _NOT, "$ref": _NOT}, "required": ["type", "items"]},
        {"properties": {"type": {"const": "object"}, "additionalProperties": {"$ref": "#/$defs/type"}, "items": _NOT,
                        "oneOf": _NOT, "$ref": _NOT}, "required": ["type"]},
        {"properties": {"type": {"type": "string"}, "$ref": {"type": "string"}, "items": _NOT,
                        "additionalProperties": _NOT, "oneOf": _NOT}, "required": ["$ref"]},
        {"properties": {"type": {"enum": _PRIMITIVE}, "oneOf": {"type": "array", "items": {"$ref": "#/$defs/type"},
                                                                "minItems": 2},
                        "items": _NOT, "additionalProperties": _NOT, "$ref": _NOT}, "required": ["oneOf"]},
    ],
}

_PROPERTY = {
    "type": "object",
    "allOf": [{"$ref": "#/$defs/type"}],
    "properties": {
        "description": {"type": "string"},
        "const": {"type": ["boolean", "number", "string"]},
        "default": {"type": ["boolean", "number", "string"]},
        "secret": {"type": "boolean"},
        "deprecationMessage": {"type": "string"},
        "language": {"type": "object"},
        "replaceOnChanges": {"type": "boolean"},
        "willReplaceOnChanges": {"type": "boolean"},
    },
}

_ENUM = {
    "type": "object",
    "properties": {
        "type": {"enum": _PRIMITIVE},
        "description": {"type": "string"},
        "enum": {"type": "array", "minItems": 1, "items": {
            "type": "object", "required": ["value"], "additionalProperties": False,
            "properties": {"value": {"type": ["boolean", "integer", "number", "string"]}, "name": {"type": "string"},
                           "description": {"type": "string"}, "deprecationMessage": {"type": "string"}}}},
    },
    "required": ["type", "enum"],
}

_STRING_MAP = {"type": "object", "additionalProperties": {"type": "string"}}
_LANGUAGE = {
    "type": "object",
    "properties": {
        "nodejs": {"type": "object", "properties": {"packageName": {"type": "string"},
                                                    "packageDescription": {"type": "string"},
                                                    "dependencies": _STRING_MAP,
                                                    "respectSchemaVersion": {"type": "boolean"}}},
        "python": {"type": "object", "properties": {"packageName": {"type": "string"}, "requires": _STRING_MAP,
                                                    "respectSchemaVersion": {"type": "boolean"}}},
        "go": {"type": "object", "properties": {"importBasePath": {"type": "string"},
                                                "respectSchemaVersion": {"type": "boolean"}}},
        "csharp": {"type": "object", "properties": {"rootNamespace": {"type": "string"},
                                                    "namespaces": _STRING_MAP, "packageReferences": _STRING_MAP,
                                                    "respectSchemaVersion": {"type": "boolean"}}},
        "java": {"type": "object", "properties": {"basePackage": {"type": "string"}, "packages": _STRING_MAP,
                                                  "dependencies": _STRING_MAP}},
    },
}

_OBJECT = {
    "type": "object",
    "properties": {
        "description": {"type": "string"},
        "type": {"type": "string"},
        "properties": {"type": "object", "additionalProperties": {"$ref": "#/$defs/property"}},
        "required": {"type": "array", "items": {"type": "string"}},
        "language": {"type": "object"},
    },
}

METASCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["name"],
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string", "pattern": r"^[a-zA-Z][-a-zA-Z0-9_]*$"},
        "displayName": {"type": "string"},
        "version": {"type": "string", "pattern": r"^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$"},
        "description": {"type": "string"},
        "keywords": {"type": "array", "items": {"type": "string"}},
        "homepage": {"type": "string"},
        "license": {"type": "string"},
        "attribution": {"type": "string"},
        "repository": {"type": "string"},
        "logoUrl": {"type": "string"},
        "publisher": {"type": "string"},
        "namespace": {"type": "string", "pattern": r"^([a-z][a-z0-9]*)(-[a-z0-9]+)*$"},
        "meta": {"type": "object"},
        "config": {"type": "object"},
        "dependencies": {"type": "array", "items": {"type": "object", "required": ["name"]}},
        "provider": {"type": "object"},
        "functions": {"type": "object"},
        "language": {"$ref": "#/$defs/language"},
        "parameterization": {"type": "object"},
        "allowedPackageNames": {"type": "array", "items": {"type": "string"}},
        "pluginDownloadURL": {"type": "string"},
        "types": {
            "type": "object",
            "propertyNames": {"pattern": TOKEN},
            "additionalProperties": {"oneOf": [
                {"allOf": [{"$ref": "#/$defs/object"}], "properties": {"type": {"const": "object"}}},
                {"$ref": "#/$defs/enum"},
            ]},
        },
        "resources": {
            "type": "object",
            "propertyNames": {"pattern": TOKEN},
            "additionalProperties": {
                "allOf": [{"$ref": "#/$defs/object"}],
                "properties": {
                    "inputProperties": {"type": "object", "additionalProperties": {"$ref": "#/$defs/property"}},
                    "requiredInputs": {"type": "array", "items": {"type": "string"}},
                    "isComponent": {"type": "boolean"},
                },
            },
        },
    },
    "$defs": {"type": _TYPE, "property": _PROPERTY, "object": _OBJECT, "enum": _ENUM, "language": _LANGUAGE},
}
