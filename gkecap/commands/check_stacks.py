"""`gkecap check-stacks FILE...`: plan each environment file given, as a pre-commit hook or a CI step runs it.

Each `Pulumi.<stack>.yaml` that declares `gkecap:environment` is planned as `gkecap plan --config FILE` plans it
(the bundled program, the policy pack, no files written); other files (a stack of another project, a
`Pulumi.yaml`) are skipped, so the hook can be given every changed stack file. One line per finding,
`file:line: level: policy: message`, as editors and CI logs link them. Exit: the worst of the files (2 invalid
input, 1 mandatory violations, 0 otherwise).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
import yaml

ENVIRONMENT_KEY = "gkecap:environment"  # as gkecap.plan (not imported here: it loads the engine)
PROJECT = "gke-capacity"  # the environment program's project (stacks/, gkecap/environment_program/Pulumi.yaml)


def check_stacks_command(
    files: Annotated[list[Path], typer.Argument(help="Stack files (Pulumi.<stack>.yaml); files without gkecap:environment are skipped.", dir_okay=False)],
    policy_config: Annotated[Path | None, typer.Option("--policy-config", help="Policy pack config JSON, as `pulumi preview --policy-pack-config`.", dir_okay=False)] = None,
    sarif_dir: Annotated[Path | None, typer.Option("--sarif-dir", help="Also write each file's SARIF as DIR/<stack>.sarif (one code-scanning category each).", file_okay=False)] = None,
) -> None:
    """Plan every environment file given (a pre-commit hook's entry); print one line per finding."""
    from gkecap.ci.sarif import ViolationLocator
    from gkecap.plan import PlanError, plan

    worst = 0
    for file in files:
        if not _declares_environment(file):
            continue
        try:
            result = plan(config_file=file, policy_config_file=policy_config)
        except PlanError as exc:
            _write_sarif(sarif_dir, file, None, exc.diagnostics)
            for diagnostic in exc.diagnostics:
                typer.echo(_diagnostic_line(diagnostic, file))
            if not exc.diagnostics:
                for problem in exc.problems:
                    typer.echo(f"{file}:1: error: {problem}")
            worst = 2
            continue
        _write_sarif(sarif_dir, file, result, result.diagnostics)
        for diagnostic in result.diagnostics:
            typer.echo(_diagnostic_line(diagnostic, file))
        locator = ViolationLocator(result)
        for violation in result.violations:
            path, line = locator.locate(violation.urn)
            typer.echo(f"{path or file}:{line or 1}: {violation.enforcement_level}: {violation.policy}: {violation.message}")
        status = f"{len(result.mandatory)} mandatory, {len(result.violations) - len(result.mandatory)} other findings"
        typer.echo(f"{file}: planned {len(result.resources)} resources: {status}", err=True)
        worst = max(worst, result.exit_code)
    raise typer.Exit(worst)


def _write_sarif(directory: Path | None, file: Path, result, diagnostics) -> None:
    if directory is None:
        return
    import json

    from gkecap.atomic_files import write_text_atomic
    from gkecap.ci.sarif import sarif_log, stack_category

    name = file.name.removeprefix("Pulumi.").removesuffix(".yaml").removesuffix(".yml")
    # Invalid input keeps the stack's category, so its results replace the stack's last analysis on GitHub.
    category = None if result is not None else stack_category(PROJECT, name)
    directory.mkdir(parents=True, exist_ok=True)
    write_text_atomic(directory / f"{name}.sarif", json.dumps(sarif_log(result, list(diagnostics), category=category), indent=2) + "\n")


def _diagnostic_line(diagnostic, file: Path) -> str:
    message = diagnostic.message
    if diagnostic.path and not message.startswith(diagnostic.path):
        message = f"{diagnostic.path}: {message}"
    return f"{diagnostic.file or file}:{diagnostic.line or 1}: {diagnostic.severity}: {message}"


def _declares_environment(file: Path) -> bool:
    """Whether the file is a stack file with `gkecap:environment` (read without its values' rules: plan checks them)."""
    try:
        document = yaml.safe_load(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return file.name.startswith("Pulumi.") and file.name != "Pulumi.yaml"  # let plan report what is wrong
    config = document.get("config") if isinstance(document, dict) else None
    return isinstance(config, dict) and ENVIRONMENT_KEY in config
