"""`gkecap plan` and `gkecap check` as functions: evaluate a program offline (or read a stack export),
run the policy pack over the resources, and return everything a report needs.

    result = plan(program_dir=Path("stacks"), stack="dev")
    result.resources      # ResourceRecords in registration order
    result.violations     # Diagnostics, mandatory first
    result.summary        # counts (JSON-ready)
    result.spec           # the validated EnvironmentSpec when the config holds `gkecap:environment`
    result.exit_code      # 0, or 1 with a mandatory violation

Invalid input (a config the spec rejects, a failing program, a bad policy config, a pack that does
not start) raises `PlanError` whose `problems` are one clear line each (the CLI exits 2).
"""

from __future__ import annotations

import contextlib
import functools
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pulumi

from gkecap.ci import diagnostics as ci_diagnostics
from gkecap.ci.documents import SCHEMA_VERSIONS
from gkecap.components.issues import InvalidInput, Issue, join_path
from gkecap.engine.deadline import DeadlineExceeded
from gkecap.engine.program import Program, ProgramError, find_program
from gkecap.engine.resource_record import ResourceRecord
from gkecap.engine.run import LogEntry, ProgramFailed, run_program
from gkecap.engine.stack_config import StackConfig, StackConfigError, config_file_exists, load_stack_config
from gkecap.engine.stack_names import name_problem
from gkecap.engine.state_import import StateError, load_state
from gkecap.policy_pack.analysis import StreamingAnalysis
from gkecap.previous_state import irreversible_changes
from gkecap.policy_pack.policy_config import PolicyConfigError, PolicySettings, load_policy_config
from gkecap.policy_pack.process import PolicyPackProcess
from gkecap.policy_pack.results import Diagnostic, PolicyPackError, PolicyResult

ENVIRONMENT_KEY = "gkecap:environment"
_LEVEL_ORDER = {"mandatory": 0, "advisory": 1, "disabled": 2}


class PlanError(Exception):
    """Invalid input: `problems` holds one message per problem; `diagnostics` the same problems with their
    field path, file and line where known (for `--format json` and SARIF)."""

    def __init__(self, problems: list[str], diagnostics: list[ci_diagnostics.ConfigDiagnostic] | None = None) -> None:
        self.problems = problems
        self.diagnostics = diagnostics if diagnostics is not None else ci_diagnostics.of_problems(problems)
        super().__init__("\n".join(problems))


@dataclass
class PlanResult:
    stack: str
    project: str
    resources: list[ResourceRecord]
    violations: list[Diagnostic]
    program: Program | None = None
    stack_config: StackConfig | None = None
    spec: Any = None
    policies: PolicyResult | None = None
    logs: list[LogEntry] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    source: str = ""
    diagnostics: list[ci_diagnostics.ConfigDiagnostic] = field(default_factory=list)  # warnings about the input
    origins: Any = None  # gkecap.engine.origins.RegistrationOrigins of a program run
    environment: Any = None  # the DerivedEnvironment handed from the spec's validation to the program (`derived`)
    diff: Any = None  # gkecap.diff.PlanDiff against `gkecap plan --base`: shown in every output

    @property
    def mandatory(self) -> list[Diagnostic]:
        return [v for v in self.violations if v.enforcement_level == "mandatory"]

    @property
    def exit_code(self) -> int:
        return 1 if self.mandatory else 0

    @property
    def summary(self) -> dict[str, Any]:
        levels = Counter(v.enforcement_level for v in self.violations)
        by_type = Counter(r.type for r in self.resources)
        pack = self.policies.info if self.policies is not None else None
        return {
            "source": self.source,
            "project": self.project,
            "stack": self.stack,
            "resources": len(self.resources),
            "customResources": sum(1 for r in self.resources if r.custom),
            "resourcesByType": dict(sorted(by_type.items())),
            "policyPack": {"name": pack.name, "version": pack.version, "policies": len(pack.policies)} if pack else None,
            "violations": {"mandatory": levels.get("mandatory", 0), "advisory": levels.get("advisory", 0)},
            "seconds": {k: round(v, 3) for k, v in self.timings.items()},
        }

    @functools.cached_property
    def derived(self) -> Any:
        """The environment with its model, Kubernetes objects and install (a
        `gkecap.components.kubernetes_objects.derived.DerivedEnvironment`; None for a bare program): the one the
        plan validated and its program's Environment derived, so every output reuses what the program computed."""
        if self.environment is not None:
            return self.environment
        if self.spec is None:
            return None
        from gkecap.components.kubernetes_objects.derived import DerivedEnvironment

        return DerivedEnvironment(self.spec)

    @property
    def capacity_model(self) -> Any:
        """The capacity model of the environment (None for a bare program), derived once for every output."""
        derived = self.derived
        return derived.model if derived is not None else None

    def to_json(self) -> dict[str, Any]:
        """The document `--format json` prints; `capacity` (an environment's teams, cohorts, pools and
        reservations: gkecap.diff.snapshot) is what `gkecap diff` compares."""
        document = {
            "schemaVersion": SCHEMA_VERSIONS["plan"],  # docs/schemas/plan.schema.json
            "resources": [r.to_json() for r in self.resources],
            "violations": [v.to_json() for v in self.violations],
            "diagnostics": [d.to_json() for d in self.diagnostics],
            "summary": self.summary,
        }
        if self.capacity_model is not None:
            from gkecap.diff.snapshot import capacity_snapshot

            document["capacity"] = capacity_snapshot(self.capacity_model)
        if self.diff is not None:
            document["diff"] = self.diff.to_json()
        return document


def default_policy_pack() -> Path:
    """The installed pack: the folder of `gkecap.policies` (`policies/` in a checkout), which holds
    PulumiPolicy.yaml as package data."""
    import gkecap.policies

    return Path(gkecap.policies.__file__).resolve().parent


def pack_client(policy_pack: Path | None, in_process: bool) -> type[PolicyPackProcess]:
    """The pack's own process (the default, as the Pulumi CLI runs it), or the bundled pack in this process."""
    if not in_process:
        return PolicyPackProcess
    if policy_pack is not None and policy_pack.resolve() != default_policy_pack():
        raise PlanError([f"--pack-in-process runs only the bundled gke-capacity pack, not --policy-pack {policy_pack}"])
    from gkecap.policies.stack_servicer import servicer_class

    if servicer_class() is None:
        # Serving the pack in process builds pulumi_policy's private servicer (gkecap.compat.policy_servicer); where
        # its internals are not the tested ones, the pack runs as its own process: the same findings.
        return PolicyPackProcess
    from gkecap.policy_pack.in_process import InProcessPack

    return InProcessPack


def resolve_program(program_dir: Path | None, config_file: Path | None, stack: str | None, cwd: Path | None = None) -> tuple[Program, str, Path | None]:
    """(program, stack name, stack file) for the CLI's three ways to name what to plan; the names follow
    Pulumi's rules (gkecap.engine.stack_names), so neither can lead a path out of `out/`."""
    if stack is not None and (problem := name_problem(stack)):
        raise PlanError([f"--stack: {problem}"])
    program, stack_name, stack_file = _resolve_program(program_dir, config_file, stack, cwd)
    problems = [f"{program.entry.parent}: {p}" for p in [name_problem(program.project, "project")] if p]
    if problem := name_problem(stack_name):
        problems.append(f"{stack_file or '--stack'}: {problem}")
    if problems:
        raise PlanError(problems)
    return program, stack_name, stack_file


def _resolve_program(program_dir: Path | None, config_file: Path | None, stack: str | None, cwd: Path | None = None) -> tuple[Program, str, Path | None]:
    cwd = cwd or Path.cwd()
    explicit_program = program_dir is not None
    if program_dir is None:
        program_dir = _stacks_dir(cwd)
    try:
        program = find_program(program_dir)
    except ProgramError as exc:
        raise PlanError([str(exc)]) from None
    if config_file is not None:
        config_file = config_file if config_file.is_absolute() else cwd / config_file
        if not config_file_exists(config_file):  # a pipe of process substitution (`<(...)`) is a file to read
            raise PlanError([f"--config: {config_file}: file not found"])
        return program, stack or _stack_name_of(config_file), config_file
    if stack is not None:
        stack_file = program.stack_file(stack)
        if stack_file.is_file():
            return program, stack, stack_file
        if explicit_program:
            return program, stack, None  # a stack without a config file is valid for the CLI too
        known = sorted(_stack_name_of(p) for p in program.stack_config_dir.glob("Pulumi.*.yaml"))
        raise PlanError([f"--stack: {stack!r} has no config file {stack_file}; stacks: {', '.join(known) or 'none'}"])
    candidates = sorted(program.stack_config_dir.glob("Pulumi.*.yaml"))
    if len(candidates) == 1:  # one stack file beside the program: that is the stack meant
        return program, _stack_name_of(candidates[0]), candidates[0]
    return program, "dev", None


def _stacks_dir(cwd: Path) -> Path:
    for base in (cwd, Path(__file__).resolve().parent.parent):
        if (base / "stacks" / "__main__.py").is_file():
            return base / "stacks"
    # Installed from a wheel (a pre-commit hook, the GitHub Action): the same environment program, from the package.
    return Path(__file__).resolve().parent / "environment_program"


def _stack_name_of(path: Path) -> str:
    match = re.fullmatch(r"Pulumi\.(.+)\.ya?ml", path.name)
    return match.group(1) if match else path.stem


def plan(
    program_dir: Path | None = None,
    config_file: Path | None = None,
    stack: str | None = None,
    *,
    policy_pack: Path | None = None,
    policy_config_file: Path | None = None,
    no_policies: bool = False,
    cwd: Path | None = None,
    stack_outputs: dict[str, Any] | None = None,
    previous_state: Path | None = None,
    pack_in_process: bool = False,
) -> PlanResult:
    """Evaluate a program offline and run the policy pack over what it registers.

    `stack_outputs` ({stack name: outputs}) feeds the program's `pulumi.StackReference`s. `previous_state`: the
    stack's deployed state (`pulumi stack export`), for what cannot be undone (gkecap.previous_state).
    `pack_in_process`: serve the bundled pack in this process (gkecap.policy_pack.in_process) instead of its own."""
    started = time.perf_counter()
    program, stack_name, stack_file = resolve_program(program_dir, config_file, stack, cwd)
    try:
        config = load_stack_config(stack_file, program.project)
    except StackConfigError as exc:
        raise PlanError([str(exc)]) from None
    from gkecap.ci.config_keys import unknown_key_diagnostics

    config_warnings = unknown_key_diagnostics(config, program.project)
    policy_settings = _policy_settings(policy_config_file)
    deployed = _previous_records(previous_state)
    timings: dict[str, float] = {"load": time.perf_counter() - started}

    pack = None
    analysis: StreamingAnalysis | None = None
    finished = False
    if not no_policies:
        # Started first: the pack boots while the spec is validated and the program runs.
        try:
            pack = pack_client(policy_pack, pack_in_process)(
                policy_pack or default_policy_pack(),
                project=program.project,
                stack=stack_name,
                stack_config=config.runtime,
                secret_keys=config.secret_keys,
            )
            analysis = StreamingAnalysis(pack, policy_settings).start()
        except (PolicyPackError, OSError) as exc:
            if pack is not None:
                pack.close()
            raise PlanError([f"--policy-pack: {exc}"]) from None
    try:
        t0 = time.perf_counter()
        try:
            spec = validate_environment(config)
        except PlanError as exc:  # the config's own warnings belong beside its errors (JSON, SARIF, text)
            exc.diagnostics = config_warnings + exc.diagnostics
            raise
        timings["spec"] = time.perf_counter() - t0
        environment = offer = None
        if spec is not None:  # the program's Environment takes this one: the spec is loaded and derived once a plan
            from gkecap.components.kubernetes_objects.derived import DerivedEnvironment, offered

            environment = DerivedEnvironment(spec)
            offer = offered(environment, config.get(ENVIRONMENT_KEY), config.get("gcp:project"))
        t0 = time.perf_counter()
        try:
            with offer or contextlib.nullcontext():
                run = run_program(program, stack_name, config, on_record=analysis.submit if analysis else None,
                                  stack_outputs=stack_outputs)
        except ProgramFailed as exc:
            if isinstance(exc.cause, DeadlineExceeded):
                raise exc.cause.at(ci_diagnostics.program_location(exc)) from None
            located = ci_diagnostics.program_diagnostics(exc, input_issues(exc.cause), error_problems(exc.cause))
            raise PlanError(program_problems(exc), located) from None
        if deployed is not None and (problems := irreversible_changes(deployed, run.records, previous_state, spec)):
            raise PlanError(problems)
        timings["program"] = time.perf_counter() - t0
        policies = None
        if analysis is not None:
            t0 = time.perf_counter()
            try:
                # The output's plain inputs are converted afterwards, when the pack has ended: converted while it
                # checked the stack they were 1.1 s less at 1,000 teams, but main and pack then peaked together
                # (1,005 MB against 962 MB; measured, benchmarks/RESULTS.md, issue 14).
                policies = analysis.finish(run.records)
            except (PolicyPackError, PolicyConfigError) as exc:
                raise PlanError(_pack_problems(exc)) from None
            finally:
                finished = True
            timings["policies"] = time.perf_counter() - t0
    finally:
        if analysis is not None and not finished:
            analysis.abort()
        if pack is not None:
            pack.close()
    timings["total"] = time.perf_counter() - started
    spec_warnings = ci_diagnostics.spec_warning_diagnostics(spec, config, ENVIRONMENT_KEY)
    shown = {w.message for w in config_warnings} | set(getattr(spec, "warnings", None) or ())  # printed once, as diagnostics
    return PlanResult(
        stack=stack_name,
        project=program.project,
        resources=run.records,
        violations=sort_violations(policies.diagnostics if policies else []),
        program=program,
        stack_config=config,
        spec=spec,
        policies=policies,
        logs=[entry for entry in run.logs if entry.severity in ("warning", "error") and entry.message not in shown]
        + [LogEntry("warning", w.message) for w in config_warnings],
        timings=timings,
        source=str(program.entry.parent),
        diagnostics=config_warnings + spec_warnings,
        origins=run.origins,
        environment=environment,
    )


def check_state(
    state_file: Path,
    *,
    policy_pack: Path | None = None,
    policy_config_file: Path | None = None,
    no_policies: bool = False,
    pack_in_process: bool = False,
) -> PlanResult:
    """Run the policy pack over the resources of a `pulumi stack export` file."""
    started = time.perf_counter()
    try:
        records, stack, project = load_state(state_file)
    except StateError as exc:
        raise PlanError(exc.problems) from None
    policy_settings = _policy_settings(policy_config_file)
    policies = None
    if not no_policies:
        try:
            pack = pack_client(policy_pack, pack_in_process)(policy_pack or default_policy_pack(), project=project, stack=stack, dry_run=False)
        except PolicyPackError as exc:
            raise PlanError([f"--policy-pack: {exc}"]) from None
        try:
            analysis = StreamingAnalysis(pack, policy_settings).start()
            for record in records:
                analysis.submit(record)
            policies = analysis.finish(records)
        except (PolicyPackError, PolicyConfigError) as exc:
            raise PlanError(_pack_problems(exc)) from None
        finally:
            pack.close()
    return PlanResult(
        stack=stack,
        project=project,
        resources=records,
        violations=sort_violations(policies.diagnostics if policies else []),
        policies=policies,
        timings={"total": time.perf_counter() - started},
        source=str(state_file),
    )


def _previous_records(path: Path | None) -> list[ResourceRecord] | None:
    try:
        return load_state(path)[0] if path is not None else None
    except StateError as exc:
        raise PlanError([f"--state: {problem}" for problem in exc.problems]) from None


def sort_violations(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    # Resources are analyzed concurrently; a stable order makes reports and diffs reproducible.
    return sorted(diagnostics, key=lambda d: (_LEVEL_ORDER.get(d.enforcement_level, 3), d.policy, d.urn or "", d.message))


def validate_environment(config: StackConfig) -> Any:
    """The EnvironmentSpec of `gkecap:environment`, validated before the program runs (None if absent)."""
    data = config.get(ENVIRONMENT_KEY)
    if data is None:
        return None
    from gkecap.components.spec import load_environment  # loaded only for stacks that declare an environment

    try:
        return load_environment(data, project=config.get("gcp:project"))
    except ValueError as exc:
        issues = input_issues(exc)
        if issues is not None:  # a value YAML converted (`0.10` -> 0.1) is quoted as the user wrote it
            exc = InvalidInput(ci_diagnostics.as_written(issues, config.path, ENVIRONMENT_KEY, data))
            issues = exc.issues
        problems = error_problems(exc, prefix=f"{_shown(config.path) if config.path else 'config'}: {ENVIRONMENT_KEY}")
        located = ci_diagnostics.config_diagnostics(issues, "error", config.path, ENVIRONMENT_KEY, "gkecap") if issues else None
        raise PlanError(problems, located) from None


def _shown(path: Path) -> str:
    """`path` relative to the working directory when it is below it (shorter messages)."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def program_problems(failure: ProgramFailed) -> list[str]:
    """The program's exception as messages: bad input as one line per issue under what rejected it, any other
    error with the program line that raised it."""
    location = ci_diagnostics.program_location(failure)  # the program's own file, as the user finds it from here
    issues = input_issues(failure.cause)
    if issues is not None:
        subject = _subject(failure.cause)
        problems = [f"{subject}: {line}" if subject else line for line in _issue_lines(issues, "")]
    else:
        problems = error_problems(failure.cause)
    return [f"{location}: {p}" for p in problems] if location else problems


def input_issues(exc: BaseException) -> list[Issue] | None:
    """The issues of bad input, in the one shape every layer reports (None for other errors): an `InvalidInput`'s
    (the spec's `SpecError` is one), or a component's `pulumi.InputPropertiesError` details."""
    if isinstance(exc, InvalidInput):
        return exc.issues
    if isinstance(exc, pulumi.InputPropertiesError) and exc.errors:
        return [Issue(detail["property_path"], detail["reason"]) for detail in exc.errors]
    return None


def _subject(exc: BaseException) -> str:
    # What rejected the input (`AcceleratorNodePool 'h100'`): set by gke-capacity's components and InvalidInput.
    return getattr(exc, "subject", "")


def _issue_lines(issues: list[Issue], prefix: str) -> list[str]:
    lines = []
    for issue in issues:
        path = join_path(prefix, issue.path)
        lines.append(f"{path}: {issue.message}" if path else issue.message)
    return lines


def error_problems(exc: BaseException, prefix: str = "") -> list[str]:
    """One line per problem of an exception: bad input's issues (`input_issues`), else its text (a ValueError's
    text is written for users; other exceptions are named)."""
    issues = input_issues(exc)
    if issues is not None:
        return _issue_lines(issues, prefix)
    lines = [line for line in str(exc).splitlines() if line.strip()] or [""]
    if isinstance(exc, OverflowError):  # the SDK turns every number into a protobuf double (Struct's number_value)
        lines = [f"a number beyond a double ({exc}): Pulumi sends every number as a 64-bit float; a policy would never see it"]
    elif not isinstance(exc, ValueError):
        lines[0] = f"{type(exc).__name__}: {lines[0]}".rstrip(": ")
    return [f"{prefix}: {line}" if prefix else line for line in lines]


def _policy_settings(path: Path | None) -> dict[str, PolicySettings] | None:
    if path is None:
        return None
    try:
        return load_policy_config(path)
    except PolicyConfigError as exc:
        raise PlanError(exc.problems) from None


def _pack_problems(exc: Exception) -> list[str]:
    return list(getattr(exc, "problems", None) or [str(exc)])
