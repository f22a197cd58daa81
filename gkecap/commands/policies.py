"""`gkecap policies`: every policy of a pack, as the Pulumi engine sees it.

The pack is started the way the Pulumi CLI starts it and asked GetAnalyzerInfo, so the list is the pack's own
answer: name, description, enforcement level, kind (resource or stack) and config schema (the properties a
`--policy-config` / `--policy-pack-config` file may set for the policy, with their defaults).
"""

from __future__ import annotations

import json
import textwrap
from collections import Counter
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer

from gkecap.commands.terminal_io import printable
from gkecap.plan import default_policy_pack
from gkecap.policy_pack.process import PolicyPackProcess
from gkecap.policy_pack.results import AnalyzerInfo, PolicyInfo, PolicyPackError

EXIT_INVALID = 2  # the pack cannot be started (ARCHITECTURE.md "Exit codes")


class PoliciesFormat(str, Enum):
    table = "table"
    json = "json"


class PoliciesAction(str, Enum):
    bundle = "bundle"


def policies_command(
    action: Annotated[
        PoliciesAction | None,
        typer.Argument(help="bundle: write the pack as a folder `pulumi policy publish` uploads (with --out)."),
    ] = None,
    output: Annotated[PoliciesFormat, typer.Option("--format", help="table (default) or json.")] = PoliciesFormat.table,
    policy_pack: Annotated[
        Path | None,
        typer.Option("--policy-pack", help="Policy pack directory (default: the gke-capacity pack).", file_okay=False),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="bundle: the folder to write (PulumiPolicy.yaml, __main__.py, requirements.txt, "
                     "wheels/).", file_okay=False),
    ] = None,
) -> None:
    """List every policy of the pack: name, enforcement level, description and config schema.

    `gkecap policies bundle --out DIR` writes the gke-capacity pack as a self-contained folder instead: its
    PulumiPolicy.yaml (virtualenv inside the folder), entry point, a wheel of this gke-capacity and a
    requirements.txt naming the wheel and public packages only, for `pulumi policy publish DIR`."""
    if action is PoliciesAction.bundle:
        _bundle(out)
        return
    if out is not None:
        typer.echo("error: --out: only with `gkecap policies bundle`", err=True)
        raise typer.Exit(EXIT_INVALID)
    try:
        with PolicyPackProcess(policy_pack or default_policy_pack(), project="gkecap", stack="policies") as pack:
            info = pack.info()
    except PolicyPackError as exc:
        typer.echo(printable(f"error: {exc}"), err=True)
        raise typer.Exit(EXIT_INVALID) from None
    if output is PoliciesFormat.json:
        typer.echo(json.dumps(policies_document(info), indent=2))
    else:
        typer.echo(printable(policies_text(info)))  # a pack's names and descriptions are text, never terminal codes


def policies_document(info: AnalyzerInfo) -> dict[str, Any]:
    """The pack and its policies as one JSON document."""
    return {
        "policyPack": {"name": info.name, "version": info.version, "description": info.description},
        "policies": [_policy(p) for p in info.policies],
    }


def _policy(policy: PolicyInfo) -> dict[str, Any]:
    schema: dict[str, Any] | None = None
    if policy.config_properties or policy.config_required:
        schema = {"type": "object", "properties": dict(policy.config_properties or {})}
        if policy.config_required:
            schema["required"] = list(policy.config_required)
    return {
        "name": policy.name,
        "enforcementLevel": policy.enforcement_level,
        "kind": policy.kind,
        "description": policy.description,
        "configSchema": schema,
    }


def policies_text(info: AnalyzerInfo) -> str:
    """One block per policy (name, level, kind; description; config with defaults): never cut, whatever the
    terminal's width, so CI logs hold every word."""
    levels = Counter(p.enforcement_level for p in info.policies)
    counts = ", ".join(f"{n} {level}" for level, n in sorted(levels.items()))
    lines = [f"{info.name} {info.version}: {len(info.policies)} policies ({counts})", ""]
    for policy in info.policies:
        lines.append(f"{policy.name}  [{policy.enforcement_level}, {policy.kind or 'resource'}]")
        lines += textwrap.wrap(policy.description, width=100, initial_indent="  ", subsequent_indent="  ")
        config = ", ".join(
            f"{name} (default {json.dumps(prop['default'])})" if "default" in prop else name
            for name, prop in (policy.config_properties or {}).items()
        )
        if config:
            lines += textwrap.wrap(f"config: {config}", width=100, initial_indent="  ", subsequent_indent="    ")
        lines.append("")
    lines.append('Set a level or a config property with --policy-config FILE: {"<policy>": {"enforcementLevel": '
                 '"advisory", "<property>": ...}} (see the README).')
    return "\n".join(lines)


def _bundle(out: Path | None) -> None:
    from gkecap.policy_pack.bundle import BundleError, bundle_pack

    if out is None:
        typer.echo("error: --out: required with bundle: the folder to write the pack to", err=True)
        raise typer.Exit(EXIT_INVALID)
    try:
        bundle = bundle_pack(out)
    except (BundleError, OSError) as exc:
        typer.echo(printable(f"error: {exc}"), err=True)
        raise typer.Exit(EXIT_INVALID) from None
    for path in bundle.files:
        typer.echo(printable(f"wrote {path}"))
    typer.echo(printable(f"publish it with: pulumi policy publish {bundle.folder}"))
