"""What the components share at the Pulumi seam: known outputs, plain argument values, and bad-input errors.

* `known(value)`: one Output for a plain value the program already knows (a component's exports).
  `pulumi.Output.from_input` unwraps a list or dict deeply, making an Output (an asyncio task the runtime
  tracks and waits for) per element and per key: thousands for the object names of a large organisation.
* `whole(value)`: over the component-provider wire every number is a double (`4.0`); a whole-valued one is
  taken back as an int, anything else is left for the checks to reject. `whole_numbers(inputs)` does it for
  every number of a Construct request, nested ones included (the provider in `__main__` calls it once).
* `raise_invalid(subject, issues)`: the pure layers' issues as `pulumi.InputPropertiesError` with one
  (property path, reason) per issue, as pulumi-eks reports bad inputs; raised before anything is registered.
* `arguments(subject, args, shape)`: a component's arguments with every key in its snake_case name (camelCase
  accepted at every level, as the component package's schema names them), refusing unknown keys.
"""

import difflib
import types
import typing
from typing import Any, Iterable, Mapping, NoReturn, TypeVar, get_args, get_origin, is_typeddict

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


def snake(name: str) -> str:
    """`maxRunDurationSeconds` -> `max_run_duration_seconds`: an argument as Python names it."""
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name)


def arguments(subject: str, args: Any, shape: type) -> dict[str, Any]:
    """`args` with every key of the TypedDict `shape` (and of the TypedDicts nested in it) in its snake_case name.

    Each key may be given in snake_case (`max_nodes`, as Python programs write it) or camelCase (`maxNodes`, as the
    schema and the environment file name it). An unknown key, or one given in both spellings, is an error naming
    the key and the closest known one: a misspelled argument must not pass silently. Every problem is collected
    and raised at once as `pulumi.InputPropertiesError`; dicts typed `dict[...]`/`Any` and Outputs pass as given."""
    result, issues = argument_issues(args, shape)
    if issues:
        raise_invalid(subject, issues)
    return result


def argument_issues(args: Any, shape: type) -> tuple[dict[str, Any], list[Issue]]:
    """As `arguments`, returning the issues for the caller to raise with its own (every problem at once)."""
    issues: list[Issue] = []
    result = _keys(args if args is not None else {}, shape, "", issues)
    return (result if isinstance(result, dict) else {}), issues


def _keys(value: Any, shape: type, path: str, issues: list[Issue]) -> Any:
    if not isinstance(value, Mapping):
        return value  # an Output, or a wrong type for the component's own checks
    hints = dict(shape.__annotations__)  # as written: pulumi.Input holds a forward reference to Output
    result: dict[str, Any] = {}
    given: dict[str, str] = {}
    for key, item in value.items():
        name = snake(key) if isinstance(key, str) else key
        here = f"{path}{key}"
        if name not in hints:
            known = sorted(hints)
            spelled = known if "_" in str(key) or str(key).islower() else [camel(k) for k in known]
            hint = difflib.get_close_matches(str(key), spelled, n=1)
            did_you_mean = f"did you mean {hint[0]}? " if hint else ""
            issues.append(Issue(here, f"unknown argument; {did_you_mean}allowed: {', '.join(spelled)}"))
            continue
        if name in given:
            issues.append(Issue(here, f"given twice, as {given[name]} and {key}; give it once"))
            continue
        given[name] = key
        result[name] = _nested(item, hints[name], here, issues)
    return result


def _nested(value: Any, annotation: Any, path: str, issues: list[Issue]) -> Any:
    """`value` with the keys of any TypedDict its annotation names normalized (lists of them too)."""
    for candidate in _alternatives(annotation):
        if is_typeddict(candidate) and isinstance(value, Mapping):
            return _keys(value, candidate, f"{path}.", issues)
        if get_origin(candidate) is list and isinstance(value, list):
            [element] = get_args(candidate) or [Any]
            if any(is_typeddict(c) for c in _alternatives(element)):
                return [_nested(item, element, f"{path}[{index}]", issues) for index, item in enumerate(value)]
    return value


def _alternatives(annotation: Any) -> list[Any]:
    """The types an annotation allows, unwrapped from NotRequired/Required/Annotated/Optional/Union/Input."""
    origin = get_origin(annotation)
    if origin in (typing.NotRequired, typing.Required, typing.Annotated):
        return _alternatives(get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        return [t for arg in get_args(annotation) for t in _alternatives(arg)]
    return [annotation]
