"""Architecture invariants of `gkecap`: pure layers load no Pulumi, component modules are components,
no import cycles, and imports between layers go one way only.

The import graph is read from the source (ast), not from a running interpreter: every import statement
counts, also one inside a function (a lazy import hides a cycle from Python, not from the design), but
none under `if TYPE_CHECKING:` (those never run). Source folders and package names come from setup.py's
FOLDERS. `python tests/test_layers.py` prints the layer graph and every edge behind it.
"""

from __future__ import annotations

import ast
import json
import pkgutil
import subprocess
import sys
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pytest

import gkecap.components
from gkecap.graphs import strongly_connected
from testkit.layout import package_folders

ROOT = Path(__file__).resolve().parents[1]

# --- The intended architecture -----------------------------------------------------------------------
# Layers of gkecap.components, from the data flow: Kubernetes formats (k8s) and the accelerator catalog
# are independent; GKE settings (gke) derive from both; the Kueue API (kueue_api) is Kubernetes objects;
# the environment spec validates against all of them; the capacity model derives from the spec; the
# Kubernetes objects are built from everything; the Pulumi components (top-level modules) use all of it.
# `issues` (Issue / InvalidInput, how every pure layer reports bad input) is the foundation below them all.
PURE = ("issues", "catalog", "k8s", "gke", "kueue_api", "vertex_api", "spec", "model", "kubernetes_objects")
ALLOWED: dict[str, frozenset[str]] = {
    "issues": frozenset(),
    "catalog": frozenset({"issues"}),
    "k8s": frozenset({"issues"}),
    "gke": frozenset({"issues", "catalog", "k8s"}),
    "kueue_api": frozenset({"issues", "k8s"}),
    # Vertex AI's training API (CustomJob bodies and their FLEX_START rules), over the catalog's Vertex facts.
    "vertex_api": frozenset({"issues", "catalog", "k8s"}),
    "spec": frozenset({"issues", "catalog", "k8s", "gke", "kueue_api", "vertex_api"}),
    "model": frozenset({"issues", "catalog", "gke", "spec", "vertex_api"}),
    "kubernetes_objects": frozenset({"issues", "catalog", "k8s", "gke", "kueue_api", "spec", "model"}),
    # Top-level modules of gkecap.components (the Pulumi ComponentResources, __init__, __main__, helpers).
    "components": frozenset(PURE),
    # The plain data a rule sees (ResourceView, UNKNOWN): pure, part of the rules' own package gkecap.policies.
    "policies.resource_view": frozenset(),
    # Rule functions: pure, checked against the pure layers of gkecap.components, over resource views.
    "policies.rules": frozenset(PURE) | {"policies.resource_view"},
    # Every use of a private name of pulumi, pulumi_policy or grpc (issue 28): imports no other part of gkecap, so
    # the pack process can load it beside the rules.
    "compat": frozenset(),
    # The pack (adapter, registry, __main__): pulumi_policy around the rules; no Pulumi components. `foundation`: the
    # garbage collector's tuning its process shares with the engine (gkecap.collector, stdlib only).
    "policies": frozenset(PURE) | {"policies.rules", "policies.resource_view", "compat", "foundation"},
}

# Layers of the tool (gkecap outside components/, policies/ and compat/), from the data flow of a plan: the commands
# (and the CLI that dispatches to them) use every other layer and nothing imports them; `plan` evaluates a program
# with the offline engine, runs the policy pack and reads the config's diagnostics (ci) and the base plan (diff); the
# report, the simulator and the diff are read from what a plan holds; `outputs` are the files written beside a plan
# (manifests, starters, GitOps units); `foundation` is stdlib-only help every layer may use (atomic writes, the
# garbage collector's tuning, strongly connected components, shutdown on a signal). The engine imports no other tool
# layer. Report and simulate share their look through the public gkecap.report.styling.
TOOL_LAYERS: dict[str, tuple[str, ...]] = {
    "commands": ("gkecap.cli", "gkecap.__main__", "gkecap.commands"),
    "plan": ("gkecap.plan", "gkecap.previous_state"),
    "policy_pack": ("gkecap.policy_pack",),
    "report": ("gkecap.report",),
    "simulate": ("gkecap.simulate",),
    "diff": ("gkecap.diff",),
    "ci": ("gkecap.ci",),
    "engine": ("gkecap.engine",),
    "outputs": ("gkecap.manifests", "gkecap.starters", "gkecap.gitops"),
    "environment_program": ("gkecap.environment_program",),
    "foundation": ("gkecap", "gkecap.atomic_files", "gkecap.collector", "gkecap.graphs", "gkecap.shutdown"),
}
_LIBRARY = frozenset(PURE) | {"components", "policies.rules", "policies.resource_view", "compat", "foundation"}
ALLOWED |= {
    "foundation": frozenset(),
    "engine": _LIBRARY,
    "outputs": _LIBRARY,
    "ci": _LIBRARY | {"engine", "policies"},
    "policy_pack": _LIBRARY | {"engine", "outputs", "policies"},
    "diff": _LIBRARY,
    "report": _LIBRARY | {"diff", "outputs"},
    "simulate": _LIBRARY | {"report"},
    "plan": _LIBRARY | {"engine", "policy_pack", "ci", "diff", "policies"},
    "commands": _LIBRARY | set(TOOL_LAYERS) - {"commands"} | {"policies"},
    # The bundled environments' program: the Environment component, as any user's program would use it.
    "environment_program": frozenset(PURE) | {"components"},
}


def layer_of(module: str) -> str:
    """The layer of a dotted module name of gkecap."""
    parts = module.split(".")
    if parts[:2] == ["gkecap", "components"]:
        if len(parts) > 2 and _is_subpackage("gkecap.components", parts[2]):
            return parts[2]
        return "components"
    if parts[:2] == ["gkecap", "compat"]:
        return "compat"
    if parts[:2] == ["gkecap", "policies"]:
        if parts[2:3] in (["rules"], ["resource_view"]):
            return f"policies.{parts[2]}"
        return "policies"
    for layer, prefixes in TOOL_LAYERS.items():
        if any(module == prefix or (module.startswith(f"{prefix}.") and prefix != "gkecap") for prefix in prefixes):
            return layer
    return "gkecap"  # a module of the tool in no layer: test_every_module_of_the_tool_has_a_layer


# --- Reading the source ------------------------------------------------------------------------------


@lru_cache(maxsize=None)
def module_files() -> dict[str, Path]:
    """Dotted module name -> source file, for every module the three folders install."""
    found: dict[str, Path] = {}
    for package, folder in package_folders().items():
        base = ROOT / folder
        for path in sorted(base.rglob("*.py")):
            relative = path.relative_to(base)
            # Only files inside packages (every folder on the way has an __init__.py), as find_packages.
            if not all((base / Path(*relative.parts[:i]) / "__init__.py").exists() for i in range(len(relative.parts))):
                continue
            parts = list(relative.with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([package, *parts])] = path
    return found


def _is_package(module: str) -> bool:
    return module_files()[module].name == "__init__.py"


def _is_subpackage(package: str, name: str) -> bool:
    module = f"{package}.{name}"
    return module in module_files() and _is_package(module)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST):
    """Import statements anywhere in the module (functions included), skipping `if TYPE_CHECKING:` bodies."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def _known(name: str) -> str | None:
    """The module `name` names, or its longest prefix that is a gkecap module (None outside gkecap)."""
    modules = module_files()
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in modules:
            return candidate
    return None


@dataclass(frozen=True, order=True)
class Edge:
    source: str
    target: str
    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.source} -> {self.target}"


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    """Modules of gkecap that one import statement loads (submodules for `from pkg import submodule`)."""
    if isinstance(node, ast.Import):
        return [t for alias in node.names if (t := _known(alias.name)) is not None]
    if node.level:
        package = module if _is_package(module) else module.rpartition(".")[0]
        base_parts = package.split(".")[: len(package.split(".")) - (node.level - 1)]
        base = ".".join(base_parts + ([node.module] if node.module else []))
    else:
        base = node.module or ""
    targets = []
    for alias in node.names:
        submodule = f"{base}.{alias.name}"
        if submodule in module_files():
            targets.append(submodule)
        elif (t := _known(base)) is not None:
            targets.append(t)
    return targets


@lru_cache(maxsize=None)
def edges() -> tuple[Edge, ...]:
    """Every intra-gkecap import: module -> module, with the file and line of the import statement.

    `import a.b` and `from a.b import c` load a's __init__ too; that implicit edge is left out, or every
    package that re-exports its submodules would be a cycle with them. An explicit import of a package's
    __init__ (a name from `pkg`, not a submodule) is an edge to it, so a submodule that imports a name
    back from its own package's __init__, which imports that submodule, is a real cycle and is reported.
    """
    found = set()
    for module, path in module_files().items():
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in _imports(tree):
            for target in _targets(module, node):
                if target != module:
                    found.add(Edge(module, target, str(path.relative_to(ROOT)), node.lineno))
    return tuple(sorted(found))


def cycles() -> list[tuple[list[str], list[Edge]]]:
    """Each strongly connected component of more than one module, with the import edges inside it."""
    successors: dict[str, set[str]] = defaultdict(set)
    for edge in edges():
        successors[edge.source].add(edge.target)
    found = []
    for component in strongly_connected(sorted(module_files()), successors):
        if len(component) > 1:
            members = set(component)
            found.append((component, [e for e in edges() if e.source in members and e.target in members]))
    return found


def layer_edges() -> dict[tuple[str, str], list[Edge]]:
    found: dict[tuple[str, str], list[Edge]] = defaultdict(list)
    for edge in edges():
        source, target = layer_of(edge.source), layer_of(edge.target)
        if source != target:
            found[(source, target)].append(edge)
    return dict(sorted(found.items()))


def describe_layer_graph() -> str:
    lines = []
    for (source, target), behind in layer_edges().items():
        mark = "" if target in ALLOWED.get(source, ()) else "   <-- NOT ALLOWED"
        lines.append(f"{source} -> {target} ({len(behind)} imports){mark}")
        lines += [f"    {edge}" for edge in behind]
    return "\n".join(lines)


# --- Purity ------------------------------------------------------------------------------------------

PURE_PACKAGES = sorted(
    f"gkecap.components.{info.name}" for info in pkgutil.iter_modules(gkecap.components.__path__) if info.ispkg
) + ["gkecap.policies.rules"]

# Every module of the package, not only its __init__ (which may import nothing).
_LOADED_PULUMI = (
    "import importlib, json, pkgutil, sys; package = importlib.import_module({name!r}); "
    "[importlib.import_module(m.name) for m in pkgutil.walk_packages(package.__path__, package.__name__ + '.')]; "
    "print(json.dumps(sorted(m for m in sys.modules if m == 'pulumi' or m.startswith(('pulumi.', 'pulumi_')))))"
)


@pytest.mark.parametrize("package", PURE_PACKAGES)
def test_pure_package_loads_no_pulumi(package, tmp_path):
    # A fresh interpreter, so nothing imported by other tests counts; cwd away from the checkout so its
    # folders (components/, policies/) are not importable under their folder names.
    run = subprocess.run(
        [sys.executable, "-c", _LOADED_PULUMI.format(name=package)],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == [], f"importing {package} loads Pulumi"


def test_every_subpackage_of_components_has_a_layer():
    """A new subpackage must be placed in ALLOWED (and so in the purity checks) before it is used."""
    subpackages = {p.rpartition(".")[2] for p in PURE_PACKAGES if p.startswith("gkecap.components.")}
    assert subpackages - set(ALLOWED) == set(), "subpackages of gkecap.components missing from ALLOWED"


# --- Top level of gkecap.components: components only -------------------------------------------------

TOP_LEVEL_MODULES = sorted(
    info.name
    for info in pkgutil.iter_modules(gkecap.components.__path__)
    if not info.ispkg and not info.name.startswith("_")
)


def _component_classes(tree: ast.Module) -> list[str]:
    """Classes whose bases include pulumi.ComponentResource (as `pulumi.ComponentResource` under any alias
    of `pulumi`, or a name imported `from pulumi import ComponentResource`)."""
    pulumi_names = {"pulumi"}
    component_names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            pulumi_names |= {a.asname or a.name for a in node.names if a.name == "pulumi"}
        elif isinstance(node, ast.ImportFrom) and node.module == "pulumi" and not node.level:
            component_names |= {a.asname or a.name for a in node.names if a.name == "ComponentResource"}

    def is_component(base: ast.expr) -> bool:
        if isinstance(base, ast.Attribute):
            return base.attr == "ComponentResource" and isinstance(base.value, ast.Name) and base.value.id in pulumi_names
        return isinstance(base, ast.Name) and base.id in component_names

    return [n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and any(map(is_component, n.bases))]


@pytest.mark.parametrize("name", TOP_LEVEL_MODULES)
def test_top_level_component_module_defines_a_component_resource(name):
    # Pure helpers belong in a layer (a subpackage) or a private `_module`; the top level is the components.
    path = module_files()[f"gkecap.components.{name}"]
    tree = ast.parse(path.read_text(), filename=str(path))
    assert _component_classes(tree), f"{path.relative_to(ROOT)} defines no pulumi.ComponentResource subclass"


# --- No import cycles --------------------------------------------------------------------------------


def test_no_import_cycles():
    found = cycles()
    report = "\n\n".join(
        f"cycle of {len(members)} modules: {', '.join(members)}\n" + "\n".join(f"    {e}" for e in inside)
        for members, inside in found
    )
    assert not found, f"{len(found)} import cycle(s):\n{report}"


def package_of(module: str) -> str:
    """The package a module belongs to: itself for a package (its __init__), else the package that holds it."""
    return module if _is_package(module) else module.rpartition(".")[0]


def package_cycles() -> list[list[str]]:
    """Packages that import each other (through any of their modules): each strongly connected group of more than
    one package. A package's own __init__ importing its subpackages is how a package re-exports, so the edge from a
    package to one of its ancestors is what would close such a cycle and is what counts."""
    successors: dict[str, set[str]] = defaultdict(set)
    for edge in edges():
        source, target = package_of(edge.source), package_of(edge.target)
        if source != target and not target.startswith(f"{source}."):  # a package re-exporting its own subpackage
            successors[source].add(target)
    packages = sorted({package_of(m) for m in module_files()})
    return [group for group in strongly_connected(packages, successors) if len(group) > 1]


def test_no_package_level_cycles():
    found = package_cycles()
    assert not found, "packages that import each other: " + "; ".join(", ".join(group) for group in found)


def test_allowed_layers_form_no_cycle():
    # The intended architecture is a direction: were two layers allowed to import each other, a cycle could grow.
    groups = [g for g in strongly_connected(sorted(ALLOWED), {k: set(v) for k, v in ALLOWED.items()}) if len(g) > 1]
    assert not groups, f"layers allowed to import each other: {groups}"


def test_every_module_of_the_tool_has_a_layer():
    """A new module of gkecap's tool must be placed in TOOL_LAYERS (and so in the import directions) first."""
    unplaced = sorted(m for m in module_files() if layer_of(m) == "gkecap")
    assert not unplaced, f"modules in no layer (add them to TOOL_LAYERS): {unplaced}"


def test_nothing_imports_the_commands():
    importers = sorted({str(e) for e in edges() if layer_of(e.target) == "commands" and layer_of(e.source) != "commands"})
    assert not importers, "the commands are the top; they are imported by:\n" + "\n".join(importers)


def private_imports_across_layers() -> list[str]:
    """`from a.b import _name` where a.b is in another layer than the importer: a private name is its layer's own."""
    found = []
    for module, path in module_files().items():
        for node in _imports(ast.parse(path.read_text(), filename=str(path))):
            if not isinstance(node, ast.ImportFrom):
                continue
            private = [a.name for a in node.names if a.name.startswith("_") and not a.name.startswith("__")]
            for target in _targets(module, node) if private else ():
                if layer_of(target) != layer_of(module):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {module} imports {', '.join(private)} of {target}")
    return sorted(set(found))


def test_no_private_name_is_imported_across_layers():
    found = private_imports_across_layers()
    assert not found, "private names used outside their layer (make them public):\n" + "\n".join(found)


# --- Layer directions --------------------------------------------------------------------------------


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_layer_imports_only_allowed_layers(layer):
    violations = [
        edge
        for (source, target), behind in layer_edges().items()
        if source == layer and target not in ALLOWED[layer]
        for edge in behind
    ]
    allowed = ", ".join(sorted(ALLOWED[layer])) or "nothing"
    assert not violations, f"{layer} may import {allowed}; it imports:\n" + "\n".join(f"    {e}" for e in violations)


if __name__ == "__main__":
    print(describe_layer_graph())
    for members, inside in cycles():
        print(f"\ncycle: {', '.join(members)}")
        print("\n".join(f"    {e}" for e in inside))
