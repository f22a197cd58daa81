"""Stack and project names as Pulumi accepts them, checked before any name becomes a path or a URN.

Pulumi's rule for both (pkg/backend/diy/backend.go `validateStackName`, sdk/go/common/tokens/project.go
`ValidateProjectName`; https://www.pulumi.com/docs/iac/concepts/stacks/): 1 to 100 ASCII letters, digits,
`_`, `.` and `-`. gkecap also refuses a name of dots only (`.`, `..`): Pulumi's pattern lets it through, but
`out/<stack>` would then name the output directory's parent. A fully qualified `org/project/stack` names a
backend's stack, not a stack file, so `/` is refused too. Everything else (`../x`, an absolute path, a
newline, a `Pulumi....yaml` file) is an error naming the offending value.
"""

from __future__ import annotations

import re

_NAME = re.compile(r"[A-Za-z0-9_.-]{1,100}", re.ASCII)


def name_problem(name: object, what: str = "stack") -> str | None:
    """Why `name` is not a valid Pulumi stack (or project) name; None when it is."""
    if not isinstance(name, str) or not name:
        return f"{what} name is empty"
    if len(name) > 100:
        return f"{what} name {_shown(name)} is longer than 100 characters"
    if _NAME.fullmatch(name) is None:
        return f"{what} name {_shown(name)} may only contain ASCII letters, digits, '_', '.' and '-' (Pulumi's rule)"
    if set(name) == {"."}:
        return f"{what} name {_shown(name)} is a path component, not a name"
    return None


def _shown(name: str) -> str:
    text = repr(name)
    return text if len(text) <= 80 else text[:77] + "...'"
