"""YAML as the Pulumi CLI reads a stack file, and no more: duplicate keys and alias bombs are errors.

The Pulumi CLI parses stack files with go-yaml v3 (gopkg.in/yaml.v3), which
- refuses a mapping key given twice ("mapping key ... already defined at line N"; decode.go, `d.mapping`),
  where PyYAML silently keeps the last value: a careless copy-paste must not pass;
- refuses "excessive aliasing" (decode.go, `allowedAliasRatio`: up to 400,000 decoded nodes any share may
  come from aliases, above that at most 10%), so a 1.7 KB "billion laughs" document cannot grow to gigabytes.
  PyYAML shares aliased nodes while composing (cheap) but every later copy expands them: the expanded size
  is measured here, on the composed graph, before anything is built from it;
- refuses an alias to a node that contains itself.

`load_yaml(text)` raises `YamlInputError` (a `ValueError` with `line`/`column` when known) for those, for
syntax errors and for nesting too deep for the parser. Pure: no Pulumi import.
"""

from __future__ import annotations

from typing import Any

import yaml

# gopkg.in/yaml.v3 decode.go: alias_ratio_range_low = 400000 decodes (any alias share allowed below it),
# alias_ratio_range_high: 10% of the nodes may come from aliases for large documents.
MAX_EXPANDED_NODES = 400_000
LARGE_DOCUMENT_ALIAS_SHARE = 0.10


class YamlInputError(ValueError):
    """A YAML document gkecap refuses to read; `line`/`column` are 1-based (None when unknown)."""

    def __init__(self, problem: str, line: int | None = None, column: int | None = None) -> None:
        self.problem = problem
        self.line = line
        self.column = column
        where = f"line {line}, column {column}: " if line is not None else ""
        super().__init__(f"{where}{problem}")


# libyaml's parser (PyYAML's C extension, where PyYAML was built with it) composes a document ten times faster
# than PyYAML's Python one (a 1,000-team stack file: 0.03 CPU-s instead of 0.35; benchmarks/RESULTS.md, issue 14).
# Nodes are the same; the constructor and the checks below stay PyYAML's Python ones.
_C_LOADER = getattr(yaml, "CSafeLoader", None)
# libyaml refuses more than 1,000 nested collections (yaml_private.h, MAX_NESTING_LEVEL) with this problem.
_LIBYAML_TOO_DEEP = "exceeded maximum nesting depth"


class StrictSafeLoader(yaml.SafeLoader):
    """`yaml.SafeLoader` that refuses duplicate keys, excessive or recursive aliasing (see module docstring)."""

    def __init__(self, stream: Any) -> None:
        super().__init__(stream)
        self._source = stream

    def get_single_node(self) -> Any:
        composer = _c_composer(type(self))
        if composer is None:
            node = super().get_single_node()
        else:
            parser = composer(self._source)
            try:
                node = parser.get_single_node()
            finally:
                parser.dispose()
        if node is not None:
            check_alias_expansion(node)
        return node

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        if isinstance(node, yaml.MappingNode):
            _refuse_duplicate_keys(self, node)
        return super().construct_mapping(node, deep=deep)


_C_COMPOSERS: dict[type[StrictSafeLoader], type | None] = {}


def _c_composer(loader: type[StrictSafeLoader]) -> type | None:
    """libyaml's loader resolving tags as `loader` does (its implicit resolvers), or None without libyaml; made
    once per loader class."""
    if loader not in _C_COMPOSERS:
        resolvers = {"yaml_implicit_resolvers": loader.yaml_implicit_resolvers,
                     "yaml_path_resolvers": loader.yaml_path_resolvers}
        _C_COMPOSERS[loader] = None if _C_LOADER is None else type(f"C{loader.__name__}", (_C_LOADER,), resolvers)
    return _C_COMPOSERS[loader]


def _refuse_duplicate_keys(loader: yaml.SafeLoader, node: yaml.MappingNode) -> None:
    seen: dict[Any, Any] = {}
    for key_node, _value in node.value:
        if key_node.tag == "tag:yaml.org,2002:merge":
            continue  # `<<: *base` merges; the keys written beside it override, as in go-yaml
        if not isinstance(key_node, yaml.ScalarNode):
            continue  # complex keys are rejected later by whoever reads the mapping
        key = loader.construct_object(key_node)
        try:
            first = seen.setdefault(key, key_node)
        except TypeError:
            continue
        if first is not key_node:
            raise yaml.constructor.ConstructorError(
                None, None, f"mapping key {key!r} already defined at line {first.start_mark.line + 1}", key_node.start_mark
            )


def check_alias_expansion(root: yaml.Node) -> None:
    """Raise YamlInputError when the document, with every alias expanded, is too large or contains itself."""
    sizes: dict[int, int] = {}
    unique: set[int] = set()
    in_progress: set[int] = set()

    def size(node: yaml.Node) -> int:
        key = id(node)
        if key in sizes:
            return sizes[key]
        if key in in_progress:
            mark = node.start_mark
            raise YamlInputError("an alias refers to a node that contains it (recursive anchor)", mark.line + 1, mark.column + 1)
        in_progress.add(key)
        unique.add(key)
        total = 1
        if isinstance(node, yaml.SequenceNode):
            total += sum(size(child) for child in node.value)
        elif isinstance(node, yaml.MappingNode):
            total += sum(size(k) + size(v) for k, v in node.value)
        in_progress.discard(key)
        sizes[key] = total
        return total

    try:
        expanded = size(root)
    except RecursionError:
        raise YamlInputError("nested too deeply") from None
    from_aliases = expanded - len(unique)
    if expanded > MAX_EXPANDED_NODES and from_aliases > LARGE_DOCUMENT_ALIAS_SHARE * expanded:
        raise YamlInputError(
            f"excessive aliasing: the aliases expand the document to {expanded:,} values "
            f"({len(unique):,} written); avoid anchors and aliases (`&name`, `*name`) in this file"
        )


def load_yaml(text: str, loader: type[StrictSafeLoader] = StrictSafeLoader) -> Any:
    """Parse one YAML document with `loader` (a StrictSafeLoader); YamlInputError for anything refused."""
    try:
        return yaml.load(text, Loader=loader)  # noqa: S506 -- a SafeLoader
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        problem = exc.problem or str(exc)
        if problem == _LIBYAML_TOO_DEEP:
            problem = "nested too deeply"  # as PyYAML's Python parser reports it (a RecursionError, below)
        raise YamlInputError(problem, mark.line + 1 if mark else None, mark.column + 1 if mark else None) from None
    except yaml.YAMLError as exc:
        raise YamlInputError(str(exc)) from None
    except RecursionError:
        raise YamlInputError("nested too deeply") from None

