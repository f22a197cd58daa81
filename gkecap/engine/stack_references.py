"""`pulumi.StackReference` offline: the outputs of the referenced stacks come from files the user gives.

Under the CLI a StackReference reads another stack's outputs from the backend (a read of the resource
`pulumi:pulumi:StackReference` whose id is the stack name, answered with `outputs` and `secretOutputNames`;
pulumi/stack_reference.py). Offline there is no backend: `gkecap plan --stack-outputs NAME=FILE` names the
JSON that `pulumi stack output --json --stack NAME` prints, and a reference to a stack without such a file
fails the plan naming the reference and the flag (never a silent empty stack).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from gkecap.components.spec.user_files import UserFileError, parse_json, read_text

STACK_REFERENCE_TYPE = "pulumi:pulumi:StackReference"
FLAG = "--stack-outputs"


class StackOutputsError(ValueError):
    """A `--stack-outputs` argument or its file is unusable: one message per problem."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


class MissingStackOutputs(ValueError):
    """A program references a stack whose outputs were not given."""

    def __init__(self, stack: str, given: Iterable[str]) -> None:
        self.stack = stack
        known = ", ".join(sorted(given)) or "none"
        super().__init__(
            f"pulumi.StackReference({stack!r}): no outputs for that stack offline; pass {FLAG} {stack}=FILE "
            f"with the JSON of `pulumi stack output --json --stack {stack}` (stacks given: {known})"
        )


def load_stack_outputs(arguments: Iterable[str], cwd: Path | None = None) -> dict[str, dict[str, Any]]:
    """{stack name: outputs} from `NAME=FILE` arguments; every problem at once as StackOutputsError."""
    outputs: dict[str, dict[str, Any]] = {}
    problems: list[str] = []
    for argument in arguments:
        name, separator, file_name = argument.partition("=")
        if not separator or not name or not file_name:
            problems.append(f"{FLAG} {argument!r}: expected NAME=FILE (a stack name and the JSON of `pulumi stack output --json`)")
            continue
        if name in outputs:
            problems.append(f"{FLAG} {name}: given twice")
            continue
        path = Path(file_name)
        if cwd is not None and not path.is_absolute():
            path = cwd / path
        try:
            document = parse_json(read_text(path))
        except UserFileError as exc:
            problems.append(f"{FLAG} {name}={file_name}: {exc}")
            continue
        if not isinstance(document, dict):
            problems.append(f"{FLAG} {name}={file_name}: expected a JSON object of outputs (`pulumi stack output --json`), got {type(document).__name__}")
            continue
        outputs[name] = document
    if problems:
        raise StackOutputsError(problems)
    return outputs


def check_reference(type_: str, _name: str, props: Any, stack_outputs: Mapping[str, Any]) -> None:
    """Raise MissingStackOutputs when a StackReference is created for a stack without outputs (called in the
    program's own `pulumi.StackReference(...)`, so the error points at that line)."""
    if type_ == STACK_REFERENCE_TYPE and isinstance(props, Mapping):
        stack = props.get("name")
        if isinstance(stack, str) and stack not in stack_outputs:
            raise MissingStackOutputs(stack, stack_outputs)


def reference_state(stack: str, stack_outputs: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """The state the engine returns for a read of `pulumi:pulumi:StackReference` with id `stack`."""
    if stack not in stack_outputs:
        raise MissingStackOutputs(stack, stack_outputs)
    # `pulumi stack output --json` prints secrets as "[secret]" (without --show-secrets): nothing is secret here.
    return {"name": stack, "outputs": dict(stack_outputs[stack]), "secretOutputNames": []}
