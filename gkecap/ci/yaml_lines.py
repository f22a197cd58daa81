"""Where a field is written in a YAML file: the line of every key and list item, from a `yaml.compose` pass.

The loaders (stack config, spec) keep only values; this second, separate pass over the same text keeps the
node marks, so a diagnostic's field path (`nodePools[1].tpuTopology`) can be shown at its line, as GitHub
code scanning annotates a pull request. Composing builds nodes only (no Python objects, no tags resolved to
constructors), so it is as safe as the safe loader.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Union

import yaml

Key = Union[str, int]
_PATH_PART = re.compile(r"\.?([A-Za-z0-9_:/-]+)|\[(\d+)\]|\[('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")\]")


def parse_path(path: str) -> tuple[Key, ...]:
    """`nodePools[1].labels['example.com/team']` -> ('nodePools', 1, 'labels', 'example.com/team').

    Stops at the first part it cannot read (a path is still located at its longest known prefix)."""
    parts: list[Key] = []
    position = 0
    while position < len(path):
        match = _PATH_PART.match(path, position)
        if match is None or match.end() == position:
            break
        name, index, quoted = match.groups()
        parts.append(name if name is not None else int(index) if index is not None else ast.literal_eval(quoted))
        position = match.end()
    return tuple(parts)


class YamlLines:
    """1-based line of each key path of one YAML document (the first document of the file)."""

    def __init__(self, text: str) -> None:
        self.lines: dict[tuple[Key, ...], int] = {}
        self.plain_scalars: dict[tuple[Key, ...], str] = {}  # unquoted values, as written (`0.10`, not 0.1)
        try:
            # libyaml's parser where PyYAML has it: the same nodes, ten times faster (a large stack file's warnings)
            root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        except yaml.YAMLError:
            root = None  # the loader reports the syntax error; lines are a nicety
        if root is not None:
            self.lines[()] = root.start_mark.line + 1
            self._seen: set[int] = set()
            self._walk(root, ())

    @classmethod
    def of_file(cls, path: Path) -> "YamlLines":
        from gkecap.components.spec.user_files import UserFileError
        from gkecap.engine.stack_config import read_config_text  # a piped config is read once, kept there

        try:
            return cls(read_config_text(path))
        except (OSError, UserFileError):
            return cls("")

    def _walk(self, node: yaml.Node, prefix: tuple[Key, ...]) -> None:
        if id(node) in self._seen:
            return  # an alias: its node is located where the anchor is (and a billion-laughs file stays cheap)
        self._seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                if isinstance(key_node, yaml.ScalarNode):
                    path = (*prefix, key_node.value)
                    self.lines.setdefault(path, key_node.start_mark.line + 1)
                    self._walk(value_node, path)
        elif isinstance(node, yaml.ScalarNode) and not node.style:  # plain: None from PyYAML's parser, "" from libyaml's
            self.plain_scalars[prefix] = node.value
        elif isinstance(node, yaml.SequenceNode):
            for index, item in enumerate(node.value):
                path = (*prefix, index)
                self.lines[path] = item.start_mark.line + 1
                self._walk(item, path)

    def line_of(self, path: tuple[Key, ...]) -> int | None:
        """The line of `path`, or of its longest prefix written in the file (None for an empty file)."""
        for end in range(len(path), -1, -1):
            line = self.lines.get(path[:end])
            if line is not None:
                return line
        return None


def config_key_path(lines: YamlLines, qualified_key: str, project: str) -> tuple[Key, ...]:
    """The path of a stack file's config key (`gkecap:environment`), as written: a project's own key may be
    written without its namespace (`environment` in project `gkecap`)."""
    namespace, _, name = qualified_key.partition(":")
    if ("config", qualified_key) not in lines.lines and namespace == project and ("config", name) in lines.lines:
        return ("config", name)
    return ("config", qualified_key)
