"""Parse request bodies with Vertex AI's own API types (google.cloud.aiplatform_v1) in a child process.

Why a process: pulumi's SDK registers `google.rpc.Status` in the default protobuf pool under its own file name
(pulumi/runtime/proto/status_pb2.py), and google-cloud-aiplatform registers the same symbol from
googleapis-common-protos, so the two cannot be loaded into one interpreter. The child reads one JSON request per
line, parses the body strictly with `json_format.ParseDict` (an unknown field or enum value fails) and answers
with the parsed message (proto field names) or the parse error. One child per test session (`vertex_types`).
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

_CHILD = r"""
import json, sys
from google.cloud.aiplatform_v1.types import CustomJob, CustomJobSpec
from google.protobuf import json_format
TYPES = {"CustomJob": CustomJob, "CustomJobSpec": CustomJobSpec}
for line in sys.stdin:
    request = json.loads(line)
    kind = TYPES[request["type"]]
    try:
        message = json_format.ParseDict(request["body"], kind.pb(kind()))
        reply = {"message": json_format.MessageToDict(message, preserving_proto_field_name=True)}
    except json_format.ParseError as err:
        reply = {"error": str(err)}
    print(json.dumps(reply), flush=True)
"""


class VertexParseError(ValueError):
    """The body is not a valid message of the type (Google's parser said why)."""


class VertexTypes:
    def __init__(self) -> None:
        self._process = subprocess.Popen([sys.executable, "-W", "ignore", "-c", _CHILD], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, text=True)

    def parse(self, type_name: str, body: Any) -> dict[str, Any]:
        """The parsed `CustomJob` or `CustomJobSpec` (proto field names, enums by name, durations as '1800s')."""
        assert self._process.stdin is not None and self._process.stdout is not None
        self._process.stdin.write(json.dumps({"type": type_name, "body": body}) + "\n")
        self._process.stdin.flush()
        line = self._process.stdout.readline()
        if not line:
            raise RuntimeError("the aiplatform_v1 parser process ended (is google-cloud-aiplatform installed?)")
        reply = json.loads(line)
        if "error" in reply:
            raise VertexParseError(reply["error"])
        return reply["message"]

    def close(self) -> None:
        self._process.kill()  # nothing to flush: every answer was read
        self._process.wait(timeout=30)


@pytest.fixture(scope="session")
def vertex_types():
    parser = VertexTypes()
    yield parser
    parser.close()
