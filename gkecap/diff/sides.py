"""The two sides of `gkecap diff`: an environment file (planned offline), a plan.json that `gkecap plan` wrote,
or either of them as committed at a git ref (`git:<ref>:<path>`, read with `git show`, as in a pull request's
base branch)."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path
from typing import Any, Callable

from gkecap.components.spec.user_files import UserFileError, parse_json, read_text
from gkecap.diff.changes import Finding, Side
from gkecap.diff.snapshot import SECTIONS, capacity_snapshot

GIT_PREFIX = "git:"


class SideError(Exception):
    """A side that cannot be read: `problems` are one line each, naming the option."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


def side_of_result(result: Any, label: str, model: Any = None) -> Side:
    """A planned environment (a `gkecap.plan.PlanResult`, whose model is derived once for every output) as a side."""
    model = model if model is not None else result.capacity_model
    capacity = capacity_snapshot(model) if model is not None else {section: {} for section in SECTIONS}
    findings = [Finding(v.enforcement_level, v.policy, _resource(v.urn), v.message) for v in result.violations]
    findings += [Finding("warning", "environment", d.path, d.message) for d in result.diagnostics if d.severity == "warning"]
    return Side(label, capacity, findings)


def side_of_document(document: Any, label: str) -> Side:
    """A plan.json (`gkecap plan`'s JSON document) as a side."""
    if not isinstance(document, dict) or not isinstance(document.get("violations"), list):
        raise SideError([f"{label}: not a gkecap plan document (no violations list)"])
    capacity = document.get("capacity")
    if not isinstance(capacity, dict) or not all(isinstance(capacity.get(section), dict) for section in SECTIONS):
        raise SideError([f"{label}: the plan document has no capacity section (a bare program's plan, or one written "
                         f"by an older gkecap): plan the environment again, or give its environment file"])
    findings = [Finding(str(v.get("enforcementLevel", "")), str(v.get("policy", "")), _resource(v.get("urn")), str(v.get("message", "")))
                for v in document["violations"] if isinstance(v, dict)]
    findings += [Finding("warning", "environment", str(d.get("path", "")), str(d.get("message", "")))
                 for d in document.get("diagnostics") or [] if isinstance(d, dict) and d.get("severity") == "warning"]
    return Side(label, capacity, findings)


def load_side(spec: str, option: str, plan_file: Callable[[Path, str], Side]) -> Side:
    """The side named by `spec` (the value of `option`). `plan_file(path, label)` plans an environment file."""
    if spec.startswith(GIT_PREFIX):
        ref, sep, path = spec[len(GIT_PREFIX):].partition(":")
        if not sep or not ref or not path:
            raise SideError([f"{option}: {spec!r} is not git:<ref>:<path> (e.g. git:main:stacks/Pulumi.prod.yaml)"])
        text = _git_show(ref, path, option)
        with tempfile.TemporaryDirectory(prefix="gkecap-diff-") as scratch:
            copy = Path(scratch) / Path(path).name  # the file's own name: Pulumi.<stack>.yaml names the stack
            copy.write_text(text, encoding="utf-8")
            return _load_file(copy, spec, option, plan_file)
    file = Path(spec)
    if not file.is_file():
        raise SideError([f"{option}: {spec}: file not found"])
    return _load_file(file, spec, option, plan_file)


def _load_file(path: Path, label: str, option: str, plan_file: Callable[[Path, str], Side]) -> Side:
    try:
        text = read_text(path)
    except UserFileError as err:
        raise SideError([f"{option}: {label}: {err}"]) from None
    if not text.lstrip().startswith("{"):  # a plan document (JSON); an environment file is a YAML mapping
        return plan_file(path, label)
    try:
        document = parse_json(text)
    except UserFileError as err:
        raise SideError([f"{option}: {label}: {err}"]) from None
    return side_of_document(document, label)


def _git_show(ref: str, path: str, option: str) -> str:
    if ref.startswith("-"):  # never an option of git's
        raise SideError([f"{option}: {ref!r} is not a git ref"])
    try:
        shown = subprocess.run(["git", "show", f"{ref}:{path}"], capture_output=True, text=True, check=False)
    except OSError as err:
        raise SideError([f"{option}: cannot run git: {err}"]) from None
    if shown.returncode != 0:
        reason = shown.stderr.strip().splitlines()[-1] if shown.stderr.strip() else f"git exited {shown.returncode}"
        raise SideError([f"{option}: git show {ref}:{path}: {reason}"])
    return shown.stdout


def _resource(urn: Any) -> str:
    """A violation's resource as its kind and name (`NodePool h100-dws`): no stack or project, so two stack files of
    one environment name the same resources alike, and no parent chain, so a log line stays readable."""
    if not isinstance(urn, str) or not urn:
        return ""
    parts = urn.split("::")
    if len(parts) < 4:
        return urn
    kind = parts[2].rsplit("$", 1)[-1].rsplit(":", 1)[-1]  # ...$kubernetes:kueue.x-k8s.io/v1beta2:ResourceFlavor
    return f"{kind} {parts[-1]}"
