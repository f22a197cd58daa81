"""SARIF 2.1.0 (OASIS), the format GitHub code scanning reads to annotate a pull request.

One run of the tool `gkecap`: a rule per policy of the pack (its description and enforcement level) and
two for the input itself (`invalid-input`, `input-warning`); a result per violation and per diagnostic.
Each result is located where the user can fix it:

* a diagnostic at its own file and line (the stack file's field, or the program line that raised);
* a violation of a resource built from an environment (`gkecap:environment` in a stack file) at the line of
  the pool, reservation, team, cohort or cluster entry it was built from (a MultiKueue worker's pool at
  `workers[i].nodePools[j]`, its other resources at `workers[i]`), else at the environment itself;
* a violation of a resource in any other program at the program line that created it
  (`gkecap.engine.origins`).

Paths are relative to the working directory (the repository root in CI, as GitHub expects) with
`uriBaseId: %SRCROOT%`. Levels: mandatory -> error, advisory -> warning, disabled -> note.
Spec: https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html ; GitHub's use of it:
https://docs.github.com/en/code-security/code-scanning/integrating-with-code-scanning/sarif-support-for-code-scanning
"""

from __future__ import annotations

import hashlib
import urllib.parse
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from gkecap.ci.diagnostics import ERROR, ConfigDiagnostic, shown_path
from gkecap.ci.yaml_lines import YamlLines, config_key_path
from gkecap.policies.rule_help import DOCS_URL, INPUT_HELP, PROJECT_URL

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
VERSION = "2.1.0"
INVALID_INPUT = "invalid-input"
INPUT_WARNING = "input-warning"
_LEVELS = {"mandatory": "error", "advisory": "warning", "disabled": "note"}
# Entries of an environment a resource can be built from, by the list that holds them.
_ENTRY_LISTS = ("nodePools", "reservations", "teams", "cohorts")
# Resources that stand for the whole environment: never matched by name to one entry.
_WHOLE = ("pulumi:pulumi:Stack", "gkecap:index:Environment")


def sarif_log(result: Any | None, diagnostics: list[ConfigDiagnostic], *, category: str | None = None) -> dict[str, Any]:
    """The SARIF log of a plan (`result`, a PlanResult; None when the input was invalid) and its diagnostics.

    `category` (runs[].automationDetails.id without its trailing slash) defaults to `gkecap/<project>/<stack>`."""
    rules: list[dict[str, Any]] = [_input_rule(INVALID_INPUT, "error"), _input_rule(INPUT_WARNING, "warning")]
    results = [_diagnostic_result(d) for d in diagnostics]
    if result is not None and result.policies is not None:
        for policy in result.policies.info.policies:
            rules.append(_policy_rule(policy, policy.enforcement_level))
    if result is not None:
        locator = ViolationLocator(result)
        known = {rule["id"] for rule in rules}
        for violation in result.violations:
            if violation.policy not in known:  # a pack that did not describe the policy
                described = _Described(violation.policy, violation.description or violation.policy)
                rules.append(_policy_rule(described, violation.enforcement_level))
                known.add(violation.policy)
            results.append(_violation_result(violation, locator.locate(violation.urn)))
    run: dict[str, Any] = {
        "tool": {"driver": {"name": "gkecap", "version": _version(), "informationUri": PROJECT_URL, "rules": rules}},
        "originalUriBaseIds": {"%SRCROOT%": {"uri": Path.cwd().resolve().as_uri() + "/"}},
        "results": results,
    }
    category = category or _category(result, diagnostics)
    if category:
        # GitHub keeps one analysis per category: two stacks uploaded from one workflow must not replace each other.
        run["automationDetails"] = {"id": category + "/"}
    return {"$schema": SCHEMA, "version": VERSION, "runs": [run]}


def _version() -> str:
    try:
        return metadata.version("gke-capacity")
    except metadata.PackageNotFoundError:
        return "0"


def stack_category(project: str, stack: str) -> str:
    """`gkecap/<project>/<stack>`: one code-scanning category per project and stack (runs[].automationDetails.id)."""
    return f"gkecap/{_segment(project)}/{_segment(stack)}"


def _category(result: Any | None, diagnostics: list[ConfigDiagnostic]) -> str:
    if result is not None and getattr(result, "project", None) and getattr(result, "stack", None):
        return stack_category(result.project, result.stack)
    files = sorted({d.file for d in diagnostics if d.file})
    return f"gkecap/{_segment(Path(files[0]).as_posix())}" if files else "gkecap"


def _segment(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "-" for c in text) or "-"


@dataclass(frozen=True)
class _Described:
    """A policy only known from its violations: a name and a description."""

    name: str
    description: str
    remediation_steps: str = ""
    url: str = ""
    tags: tuple[str, ...] = ()


def _first_sentence(text: str) -> str:
    head = text.split(". ", 1)[0].rstrip(".")
    return (head if len(head) <= 200 else head[:197] + "...") + "."


def _policy_rule(policy: Any, enforcement_level: str) -> dict[str, Any]:
    """A reportingDescriptor with what GitHub code scanning requires (short and full description, help) and shows."""
    description = (policy.description or policy.name).strip()
    fix = (getattr(policy, "remediation_steps", "") or "").strip() or "See the policy's documentation for how to fix it."
    url = getattr(policy, "url", "") or ""
    level = _LEVELS.get(enforcement_level, "warning")
    text = f"{description}\n\nHow to fix: {fix}"
    markdown = f"**{policy.name}** ({enforcement_level})\n\n{description}\n\n**How to fix:** {fix}"
    if url:
        markdown += f"\n\n[Documentation]({url})"
    rule: dict[str, Any] = {
        "id": policy.name,
        "name": _pascal(policy.name),
        "shortDescription": {"text": _first_sentence(description)},
        "fullDescription": {"text": description},
        "help": {"text": text, "markdown": markdown},
        "defaultConfiguration": {"level": level},
        "properties": {
            "tags": ["gke-capacity", *(t.split(":", 1)[-1] for t in getattr(policy, "tags", ()) or ())],
            # Deterministic rules over declared settings: a finding is what the platform would do, not a guess.
            "precision": "very-high",
            "problem.severity": {"error": "error", "warning": "warning"}.get(level, "recommendation"),
        },
    }
    if url:
        rule["helpUri"] = url
    return rule


def _input_rule(rule_id: str, level: str) -> dict[str, Any]:
    described, fix = INPUT_HELP[rule_id]
    policy = _Described(rule_id, described, fix, f"{DOCS_URL}#{rule_id}", ("category:input",))
    return _policy_rule(policy, "mandatory" if level == "error" else "advisory")


def _pascal(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.replace("_", "-").split("-"))


def _fingerprint(*parts: str | None) -> dict[str, str]:
    """A key GitHub uses to follow one finding across runs and commits (not its line, which moves)."""
    digest = hashlib.sha256("\x1f".join(p or "" for p in parts).encode("utf-8")).hexdigest()
    return {"gkecapFinding/v1": digest[:32]}


def _location(file: str | None, line: int | None, urn: str | None = None) -> list[dict[str, Any]]:
    if not file:
        return []
    physical: dict[str, Any] = {"artifactLocation": _artifact(file)}
    if line:
        physical["region"] = {"startLine": line}
    location: dict[str, Any] = {"physicalLocation": physical}
    if urn:
        location["logicalLocations"] = [{"fullyQualifiedName": urn, "kind": "resource"}]
    return [location]


def _artifact(file: str) -> dict[str, Any]:
    path = Path(file)
    if path.is_absolute():
        return {"uri": path.as_uri()}
    # A URI reference (SARIF 2.1.0 §3.10.2, RFC 3986): a space, `#`, `%` or `?` in a file name is percent-encoded,
    # as `as_uri()` does for absolute paths.
    return {"uri": urllib.parse.quote(path.as_posix(), safe="/"), "uriBaseId": "%SRCROOT%"}


def _diagnostic_result(diagnostic: ConfigDiagnostic) -> dict[str, Any]:
    text = f"{diagnostic.path}: {diagnostic.message}" if diagnostic.path and not diagnostic.message.startswith(diagnostic.path) else diagnostic.message
    rule = INVALID_INPUT if diagnostic.severity == ERROR else INPUT_WARNING
    return {
        "ruleId": rule,
        "level": "error" if diagnostic.severity == ERROR else "warning",
        "message": {"text": text},
        "locations": _location(diagnostic.file, diagnostic.line),
        "partialFingerprints": _fingerprint(rule, diagnostic.file, diagnostic.path, diagnostic.message),
    }


def _violation_result(violation: Any, where: tuple[str | None, int | None]) -> dict[str, Any]:
    result: dict[str, Any] = {
        "ruleId": violation.policy,
        "level": _LEVELS.get(violation.enforcement_level, "warning"),
        "message": {"text": f"{violation.message} ({violation.urn})" if violation.urn else violation.message},
        "locations": _location(*where, violation.urn),
        "partialFingerprints": _fingerprint(violation.policy, violation.urn, violation.message),
    }
    return result


class ViolationLocator:
    """The file and line to annotate for a violation of the resource with a given URN."""

    def __init__(self, result: Any) -> None:
        self.by_urn = {record.urn: record for record in result.resources}
        self.origins = getattr(result, "origins", None)
        config = getattr(result, "stack_config", None)
        config_path = getattr(config, "path", None)
        self.stack_file: str | None = None
        self.entries: list[tuple[str, int]] = []  # (entry name, line), for environments
        self.workers: list[tuple[str, int]] = []  # (MultiKueue worker name, line): what no entry claims
        self.environment_line: int | None = None
        if getattr(result, "spec", None) is not None and config is not None and config_path is not None:
            lines = YamlLines.of_file(Path(config_path))
            base = config_key_path(lines, "gkecap:environment", "gkecap")
            self.stack_file = shown_path(config_path)
            self.environment_line = lines.line_of(base)
            environment = config.get("gkecap:environment") or {}
            for list_key in _ENTRY_LISTS:
                for index, entry in enumerate(environment.get(list_key) or ()):
                    if isinstance(entry, dict) and isinstance(entry.get("name"), str):
                        self.entries.append((entry["name"], lines.line_of((*base, list_key, index)) or 0))
            cluster = environment.get("cluster")
            if isinstance(cluster, dict) and isinstance(cluster.get("name"), str):
                self.entries.append((cluster["name"], lines.line_of((*base, "cluster")) or 0))
            self._worker_entries(environment, lines, base)
            # the longest name first: `h100-dws-long` before `h100-dws`
            self.entries.sort(key=lambda entry: -len(entry[0]))
            self.workers.sort(key=lambda entry: -len(entry[0]))
        self.fallback: tuple[str | None, int | None] = (self.stack_file, self.environment_line)
        program = getattr(result, "program", None)
        source = Path(getattr(result, "source", "") or "")
        if self.stack_file is None and program is not None:
            self.fallback = (shown_path(program.entry), None)
        elif self.stack_file is None and str(source) not in ("", ".") and source.is_file():
            self.fallback = (shown_path(source), None)  # `gkecap check --state FILE`: the export itself
        elif self.stack_file is None and str(source) == "-":
            # `pulumi stack export | gkecap check --state -`, run at the project's root: the stack's config file
            # (or the project file) is the file of the repository these resources belong to.
            stack = getattr(result, "stack", "") or ""
            candidates = [Path(f"Pulumi.{stack}.yaml"), Path(f"Pulumi.{stack}.yml"), Path("Pulumi.yaml"), Path("Pulumi.yml")]
            found = next((c for c in candidates if c.is_file()), candidates[0])
            self.fallback = (found.as_posix(), None)

    def _worker_entries(self, environment: dict, lines: YamlLines, base: tuple) -> None:
        """MultiKueue workers (`workers[i]`): their pools, reservations and cluster are entries at their own lines
        (`workers[i].nodePools[j]`), and the worker's other resources (its Kueue, the manager's identity there, its
        MultiKueueCluster) are at the worker's line. Worker resources are named `<worker>-...`, and the worker's
        Environment `<environment>-<worker>` (components.environment)."""
        workers = environment.get("workers")
        for i, worker in enumerate(workers if isinstance(workers, list) else ()):
            if not isinstance(worker, dict):
                continue
            for list_key in ("nodePools", "reservations"):
                entries = worker.get(list_key)
                for j, entry in enumerate(entries if isinstance(entries, list) else ()):
                    if isinstance(entry, dict) and isinstance(entry.get("name"), str):
                        self.entries.append((entry["name"], lines.line_of((*base, "workers", i, list_key, j)) or 0))
            cluster = worker.get("cluster")
            if isinstance(cluster, dict) and isinstance(cluster.get("name"), str):
                self.entries.append((cluster["name"], lines.line_of((*base, "workers", i, "cluster")) or 0))
            if isinstance(worker.get("name"), str):
                self.workers.append((worker["name"], lines.line_of((*base, "workers", i)) or 0))

    def locate(self, urn: str | None) -> tuple[str | None, int | None]:
        record = self.by_urn.get(urn) if urn else None
        if record is None:
            return self.fallback
        if self.stack_file is not None:
            lineage = self._lineage(record)
            for candidate in lineage:
                for name, line in self.entries:
                    if _named_after(candidate.name, name):
                        return self.stack_file, line
            for candidate in self._lineage(record, whole=True):  # a worker's resource no entry claims
                for name, line in self.workers:
                    if _named_after(candidate.name, name):
                        return self.stack_file, line
            return self.fallback
        if self.origins is not None:
            for candidate in self._lineage(record):
                origin = self.origins.of(candidate.type, candidate.name)
                if origin is not None:
                    return shown_path(origin[0]), origin[1]
        return self.fallback

    def _lineage(self, record: Any, *, whole: bool = False) -> list[Any]:
        """The record and its ancestors; with `whole`, also the Environments (a worker's names its worker)."""
        chain: list[Any] = []
        seen = 0
        while record is not None and seen < 64:
            seen += 1
            if record.type not in _WHOLE or (whole and record.type != "pulumi:pulumi:Stack"):
                chain.append(record)
            record = self.by_urn.get(record.parent) if record.parent else None
        return chain


def _named_after(resource: str, entry: str) -> bool:
    """Whether a resource is named after an entry: the entry's name, or it with a prefix or suffix."""
    return resource == entry or resource.endswith(f"-{entry}") or resource.startswith(f"{entry}-")
