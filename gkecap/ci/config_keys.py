"""Unknown keys in a known config namespace: `gcp:projct` is a typo the provider would silently ignore.

The keys a namespace knows are read from the installed provider SDK itself (`pulumi_gcp.config`,
which reads each setting with `__config__.get('<key>')`), so the list follows the provider version in use; `gkecap:` knows `environment` (stacks/__main__.py). A key of another
namespace (the program's own, `aws:`...) is not checked.
"""

from __future__ import annotations

import difflib
import functools
import importlib.util
import re
from pathlib import Path

from gkecap.ci.diagnostics import WARNING, ConfigDiagnostic, config_diagnostics
from gkecap.components.issues import Issue
from gkecap.engine.stack_config import StackConfig

_SDK_CONFIG = {"gcp": "pulumi_gcp.config.vars"}
_OWN_KEYS = {"gkecap": frozenset({"environment"})}
_GET = re.compile(r"""__config__\.get(?:_bool|_int|_float|_object|_secret)?\(\s*['"]([A-Za-z0-9_]+)['"]""")


@functools.cache
def known_keys(namespace: str) -> frozenset[str] | None:
    """The keys `namespace:` accepts (None: a namespace this check does not know)."""
    if namespace in _OWN_KEYS:
        return _OWN_KEYS[namespace]
    module = _SDK_CONFIG.get(namespace)
    try:
        spec = importlib.util.find_spec(module) if module else None
    except ImportError:
        spec = None
    if spec is None or spec.origin is None:
        return None
    keys = frozenset(_GET.findall(Path(spec.origin).read_text(encoding="utf-8")))
    return keys or None


def unknown_key_issues(keys: list[str], project: str) -> list[Issue]:
    """One warning per `namespace:key` whose namespace is known and key is not, naming the closest key."""
    issues = []
    for qualified in keys:
        namespace, _, key = qualified.partition(":")
        if namespace == project and namespace not in _OWN_KEYS:
            continue  # the program's own settings
        known = known_keys(namespace)
        if known is None or key in known:
            continue
        hint = difflib.get_close_matches(key, sorted(known), n=1)
        did_you_mean = f"; did you mean {namespace}:{hint[0]}?" if hint else f"; {namespace}: keys include {', '.join(sorted(known)[:8])}"
        issues.append(Issue(qualified, f"unknown key in the {namespace}: namespace{did_you_mean}"))
    return issues


def unknown_key_diagnostics(config: StackConfig, project: str) -> list[ConfigDiagnostic]:
    """The warnings of `unknown_key_issues` for a stack file, each at its line."""
    issues = unknown_key_issues(list(config.values), project)
    if config.path is None:
        return [ConfigDiagnostic(WARNING, f"{issue.path}: {issue.message}", issue.path) for issue in issues]
    located = []
    for issue in issues:
        # the path is the config key itself: locate `config.<key>`
        [diagnostic] = config_diagnostics([Issue("", issue.message)], WARNING, config.path, issue.path, project)
        located.append(ConfigDiagnostic(WARNING, f"{issue.path}: {issue.message}", issue.path, diagnostic.file, diagnostic.line))
    return located
