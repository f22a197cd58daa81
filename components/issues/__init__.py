"""One way to report bad input, in every pure layer: `Issue(path, message)` and `InvalidInput` carrying them.

Like Kueue's webhooks (a field path and a reason per problem), every check collects issues instead of
raising at the first one. Paths are written the way the user wrote the input: camelCase keys, `[index]`
for list items and `['key']` for map keys with dots or slashes (`nodePools[1].labels['example.com/team']`).
A check of one part names fields relative to that part (`minNodes`); its caller places them with `under`
(`nodePools[0].minNodes`). The CLI prints `path: message`; a component turns the same list into
`pulumi.InputPropertiesError` details.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable

__all__ = ["Issue", "InvalidInput", "format_path", "join_path", "key_path", "under"]

_PLAIN_KEY = re.compile(r"[A-Za-z0-9_:-]+")


@dataclass(frozen=True)
class Issue:
    """One problem: where (`path`, empty for the input as a whole), what is wrong and what is allowed.

    `rule` optionally names the rule that was broken (e.g. `start-passed`), for callers that map rules to
    their own wording or enforcement; it is not part of the message.
    """

    path: str
    message: str
    rule: str = ""

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message

    def under(self, prefix: str) -> "Issue":
        """The same issue with its path placed below `prefix`."""
        return Issue(join_path(prefix, self.path), self.message, self.rule)


class InvalidInput(ValueError):
    """Bad input: every issue found, one line per issue (`path: message`)."""

    def __init__(self, issues: Iterable[Issue], subject: str = ""):
        self.issues: list[Issue] = list(issues)
        self.subject = subject  # what was checked, e.g. "AcceleratorNodePool 'h100'"; not part of the lines
        super().__init__(str(self))

    def __str__(self) -> str:
        return "\n".join(str(issue) for issue in self.issues)


def join_path(prefix: str, path: str) -> str:
    """`nodePools[0]` + `minNodes` -> `nodePools[0].minNodes`; a path starting with `[` attaches directly."""
    if not prefix:
        return path
    if not path:
        return prefix
    return f"{prefix}{path}" if path.startswith("[") else f"{prefix}.{path}"


def under(prefix: str, issues: Iterable[Issue]) -> list[Issue]:
    """Every issue placed below `prefix`."""
    return [issue.under(prefix) for issue in issues]


def key_path(path: str, key: str) -> str:
    """A mapping key appended to a path: `.key`, or `['key']` when it has dots, slashes or spaces."""
    return join_path(path, key) if _PLAIN_KEY.fullmatch(key) else f"{path}[{key!r}]"


def format_path(loc: Iterable[Any]) -> str:
    """('nodePools', 1, 'tpuTopology') -> 'nodePools[1].tpuTopology'; odd keys as ['key']."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text = key_path(text, str(part)) if text else (str(part) if _PLAIN_KEY.fullmatch(str(part)) else f"[{str(part)!r}]")
    return text
