"""What the components share at the Pulumi seam: known outputs, plain argument values, and bad-input errors.

* `known(value)`: one Output for a plain value the program already knows (a component's exports).
  `pulumi.Output.from_input` unwraps a list or dict deeply, making an Output (an asyncio task the runtime
  tracks and waits for) per element and per key: thousands for the object names of a large organisation.
* `whole(value)`: over the component-provider wire every number is a double (`4.0`); a whole-valued one is
  taken back as an int, anything else is left for the checks to reject. `whole_numbers(inputs)` does it for
  every number of a Construct request, nested ones included (the provider in `__main__` calls it once).
* `raise_invalid(subject, issues)`: the pure layers' issues as `pulumi.InputPropertiesError` with one
  (property path, reason) per issue, as pulumi-eks reports bad inputs; raised before anything is registered.
"""

from typing import Iterable, Mapping, NoReturn, TypeVar

import pulumi
from pulumi.errors import InputPropertyErrorDetails

from gkecap.components.issues import Issue
from gkecap.components.spec.fields import whole_number as whole  # noqa: F401  (the components import it from here)

T = TypeVar("T")


def known(value: T) -> pulumi.Output[T]:
    """An Output of `value` (plain data, no Outputs inside): known, not secret, no dependencies, as
    `Output.from_input(value)` would give, but one Output however large the value."""
    return pulumi.Output.from_input(None).apply(lambda _: value)


def whole_numbers(value: T) -> T:
    """`value` with every whole-valued double inside dicts and lists turned into the int it spells (`2.5`, strings,
    booleans and Outputs unchanged, for the checks to judge at their paths)."""
    if isinstance(value, dict):
        return {key: whole_numbers(item) for key, item in value.items()}  # type: ignore[return-value]
    if isinstance(value, list):
        return [whole_numbers(item) for item in value]  # type: ignore[return-value]
    return whole(value)


def camel(snake: str) -> str:
    """`max_run_duration_seconds` -> `maxRunDurationSeconds`: an argument as the schema names it."""
    head, *rest = snake.split("_")
    return head + "".join(word.title() for word in rest)


def raise_invalid(subject: str, issues: Iterable[Issue], renamed: Mapping[str, str] = {}) -> NoReturn:
    """Raise `pulumi.InputPropertiesError` listing every issue; `renamed` maps a whole path, or a path's first
    field, to the argument that carries it when the names differ (`maxRunDuration` -> `maxRunDurationSeconds`)."""
    details: list[InputPropertyErrorDetails] = []
    for issue in issues:
        head, sep, rest = issue.path.partition(".")
        name, bracket, index = head.partition("[")
        path = renamed.get(issue.path) or renamed.get(name, name) + bracket + index + sep + rest
        details.append({"property_path": path, "reason": issue.message})
    lines = "\n".join(f"  {d['property_path']}: {d['reason']}" if d["property_path"] else f"  {d['reason']}" for d in details)
    error = pulumi.InputPropertiesError(f"{subject} has invalid inputs:\n{lines}", details)
    error.subject = subject  # type: ignore[attr-defined]  # what rejected the inputs, for the CLI's lines
    raise error
