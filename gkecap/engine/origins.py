"""Where in a program each resource was created: the program's own file and line, for diagnostics.

A registration reaches the monitor from the SDK's worker threads, far from the program's code; the place
the user wrote is known only while the resource's constructor runs. `RegistrationOrigins.capture()` wraps
`pulumi.Resource.__init__` for the length of one run and notes, for each (type, name), the innermost
frame that belongs to the program's directory (a component's children are placed at the line that created
the component). SARIF uses it to annotate the line of a resource a policy flags.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pulumi


class RegistrationOrigins:
    def __init__(self, program_root: Path) -> None:
        self._root = str(program_root) + os.sep
        self.by_resource: dict[tuple[str, str], tuple[str, int]] = {}  # (type, name) -> (absolute file, line)

    def of(self, type_: str, name: str) -> tuple[str, int] | None:
        return self.by_resource.get((type_, name))

    @contextlib.contextmanager
    def capture(self, on_create: Callable[[str, str, Any], None] | None = None) -> Iterator["RegistrationOrigins"]:
        """Note origins while the block runs. `on_create(type, name, props)` is called first, in the program's
        own call: what it raises, the program raises, at the program's line."""
        original = pulumi.Resource.__init__
        origins = self

        def __init__(resource: pulumi.Resource, t: str, name: str, custom: bool = False, props: Any = None, *args: object, **kwargs: object) -> None:
            origins._note(t, name)
            if on_create is not None:
                on_create(t, name, props)
            original(resource, t, name, custom, props, *args, **kwargs)  # type: ignore[arg-type]

        setattr(pulumi.Resource, "__init__", __init__)  # patched for the run: a method has no typed assignment
        try:
            yield self
        finally:
            setattr(pulumi.Resource, "__init__", original)

    def _note(self, type_: str, name: str) -> None:
        if not isinstance(type_, str) or not isinstance(name, str) or (type_, name) in self.by_resource:
            return
        frame: FrameType | None = sys._getframe(2)  # the constructor that called Resource.__init__, and its callers
        while frame is not None:
            file_name = frame.f_code.co_filename
            if file_name.startswith(self._root) and "site-packages" not in file_name:
                self.by_resource[(type_, name)] = (file_name, frame.f_lineno)
                return
            frame = frame.f_back
