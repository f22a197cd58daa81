"""The capacity plan report: terminal (rich) and files (`out/<stack>/`).

    render_plan(result, console)          # what `gkecap plan` prints
    render_json(result)                   # the `--format json` document
    write_outputs(result, Path("out/dev")) # plan.json, report.html, manifests/

`result` is a `gkecap.plan.PlanResult`. With an environment in its config the report derives the
capacity model (gkecap.components.model) and shows pools, teams, reservations and cohorts; for a bare program
it shows resources and violations only.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from rich.console import Console

from gkecap.report.facts import model_of

__all__ = ["default_out_dir", "render_json", "render_plan", "write_outputs"]

PLAN_JSON = "plan.json"
REPORT_HTML = "report.html"
MANIFESTS_DIR = "manifests"


def default_out_dir(result: Any, base: Path | None = None) -> Path:
    """`out/<project>/<stack>` (relative to `base`, default the working directory): a program's `dev` stack
    never lands in the bundled environments' `out/gke-capacity/dev`."""
    return (base or Path.cwd()) / "out" / result.project / result.stack


def render_json(result: Any) -> str:
    """The `--format json` document (`result.to_json()`), compact: json's indenting encoder is pure Python,
    several times slower and twice the size on a large plan (`python -m json.tool` indents it)."""
    return json.dumps(result.to_json(), separators=(",", ":"), default=str)


def write_outputs(result: Any, out_dir: Path, *, model: Any = None, now: datetime | None = None) -> dict[str, Path]:
    """Write `plan.json` (the `--format json` document), `report.html` and, for an environment,
    `manifests/` (every generated Kubernetes object as kubectl-ready YAML). Returns what was written."""
    from gkecap.report.html import render_html

    from gkecap.atomic_files import contained
    from gkecap.starters import VERTEX_DIR, WORKLOADS_DIR, WRITTEN_LIST

    model = model if model is not None else model_of(result)
    out_dir.mkdir(parents=True, exist_ok=True)
    # A link out of out_dir is refused before anything is written (nothing half-written).
    for name in (PLAN_JSON, REPORT_HTML, MANIFESTS_DIR, WORKLOADS_DIR, VERTEX_DIR, WRITTEN_LIST):
        contained(out_dir, out_dir / name)

    def _replace(path: Path, text: str) -> Path:
        return _write(path, text, out_dir)

    written: dict[str, Path] = {}
    # The `--format json` document; compact, because json's indenting encoder is pure Python (about ten
    # times slower on a 1,000-team plan than the C encoder used without indent).
    written["plan"] = _replace(out_dir / PLAN_JSON, json.dumps(result.to_json(), separators=(",", ":"), default=str) + "\n")
    written["report"] = _replace(out_dir / REPORT_HTML, render_html(result, model, now=now or datetime.now(timezone.utc)))
    if model is not None:
        written["manifests"] = _write_manifests(result, model, out_dir / MANIFESTS_DIR)
        from gkecap.starters import write_starters  # workloads/ and vertex/: starters for the teams

        written.update(write_starters(model, out_dir, result.stack, _replace))
    else:  # a bare program: manifests of an earlier run of an environment here are stale
        from gkecap.manifests import remove_manifests

        remove_manifests(out_dir / MANIFESTS_DIR)
        from gkecap.starters import remove_stale_starters

        remove_stale_starters(out_dir)
    return written


def _write(path: Path, text: str, root: Path) -> Path:
    """Write through a temporary file and rename: a reader (or a concurrent plan) never sees half a file; nothing
    through a link leading out of `root`."""
    from gkecap.atomic_files import write_text_atomic

    return write_text_atomic(path, text, root=root)


def _write_manifests(result: Any, model: Any, directory: Path) -> Path:
    """Every cluster's GitOps unit (`gkecap.manifests.write_environment_manifests`, as `gkecap manifests` writes)."""
    from gkecap.components.kubernetes_objects.derived import DerivedEnvironment
    from gkecap.manifests import write_environment_manifests

    config = getattr(result, "stack_config", None)
    source = config.path.name if config is not None and config.path is not None else f"stack {result.stack}"
    # The plan's own environment (its objects built once, by the program's Environment), unless another model is
    # written.
    derived = getattr(result, "derived", None)
    if derived is None or derived.model is not model:
        derived = DerivedEnvironment(getattr(result, "spec", None), model=model)  # type: ignore[arg-type]
    write_environment_manifests(derived, directory, source=source)
    return directory


def render_plan(result: Any, console: Console, *, written: dict[str, Path] | None = None, model: Any = None) -> None:
    """The plan in the terminal (the hook `gkecap plan --format text` calls)."""
    from gkecap.report.terminal import render

    render(result, console, model=model if model is not None else model_of(result), written=written)
