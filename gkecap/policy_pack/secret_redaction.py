"""Violation messages never carry a secret's plaintext.

The engine hands a policy pack the plaintext of secret inputs (a rule must be able to check them), and a
rule may quote a value in its message (`machine type 'x' is unknown`). Those messages land in the terminal,
in `plan.json` and in the report: every plaintext a resource marked secret (a `pulumi.Output.secret`, a
secret config value, `additionalSecretOutputs`) is replaced by `[secret]` in them. Very short plaintexts
(fewer than `MIN_REDACTED` characters: `1`, `on`) are left: replacing them would garble every message, and
they carry no secret worth the name.

A message may quote a value in another notation than the plaintext: Python's `repr()` (`{value!r}`), JSON or
YAML with their escapes (`zz\\val\\nue` for a backslash and a line break). `representations` gives each
plaintext in every such form, and each form is redacted.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable

from google.protobuf import struct_pb2

from gkecap.engine.resource_record import ResourceRecord
from gkecap.engine.struct_values import OUTPUT_VALUE_SIG, SECRET, SECRET_SIG, SIG_KEY
from gkecap.policy_pack.results import Diagnostic

MIN_REDACTED = 3


def secret_texts(records: Iterable[ResourceRecord]) -> set[str]:
    """The plaintexts (strings and numbers as text) of every secret value in the records' inputs."""
    found: set[str] = set()
    for record in records:
        if not record.may_hold_secrets():
            continue
        struct = record.inputs_struct
        if struct is not None:
            for value in struct.fields.values():
                _collect(value, False, found)
    return {text for text in found if len(text) >= MIN_REDACTED}


def _collect(value: struct_pb2.Value, secret: bool, found: set[str]) -> None:
    kind = value.WhichOneof("kind")
    if kind == "struct_value":
        fields = value.struct_value.fields
        if SIG_KEY in fields:
            sig = fields[SIG_KEY].string_value
            if sig == SECRET_SIG or (sig == OUTPUT_VALUE_SIG and "secret" in fields and fields["secret"].bool_value):
                secret = True
        for key, item in fields.items():
            if key != SIG_KEY:  # the signature is Pulumi's marker, not the secret
                _collect(item, secret, found)
    elif kind == "list_value":
        for item in value.list_value.values:
            _collect(item, secret, found)
    elif secret and kind == "string_value":
        found.add(value.string_value)
    elif secret and kind == "number_value":
        number = value.number_value
        found.add(str(int(number)) if number.is_integer() else str(number))


def representations(text: str) -> set[str]:
    """`text` as a message may quote it: as is, as Python's repr, JSON (ASCII or not) and YAML (double- and
    single-quoted) write it inside their quotes."""
    from gkecap.manifests import yaml_double_quoted

    forms = {text, repr(text)[1:-1], ascii(text)[1:-1], json.dumps(text)[1:-1], json.dumps(text, ensure_ascii=False)[1:-1],
             yaml_double_quoted(text)[1:-1], text.replace("'", "''")}
    return {form for form in forms if len(form) >= MIN_REDACTED}


def redact(diagnostics: Iterable[Diagnostic], secrets: set[str]) -> list[Diagnostic]:
    """`diagnostics` with every secret plaintext (in every representation) in their messages replaced by
    `[secret]` (longest first)."""
    ordered = sorted({form for secret in secrets for form in representations(secret)}, key=len, reverse=True)
    result = []
    for diagnostic in diagnostics:
        message, description = diagnostic.message, diagnostic.description
        for text in ordered:
            if text in message or text in description:
                message = message.replace(text, SECRET)
                description = description.replace(text, SECRET)
        result.append(dataclasses.replace(diagnostic, message=message, description=description) if message != diagnostic.message or description != diagnostic.description else diagnostic)
    return result
