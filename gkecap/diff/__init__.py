"""`gkecap diff`: what a change of an environment does to each team, cohort, pool and reservation.

    capacity_snapshot(model)        # the capacity facts a diff compares (also plan.json's `capacity`)
    compare(base, head)             # -> PlanDiff: one Change per changed fact, new and resolved violations
    render_text / render_markdown(diff), render_json(diff, schema_version=...)
    load_side("git:main:stacks/Pulumi.prod.yaml")  # an environment file, a plan.json or a file at a git ref
"""

from gkecap.diff.changes import Change, PlanDiff, compare
from gkecap.diff.render import render_json, render_markdown, render_text
from gkecap.diff.snapshot import capacity_snapshot

__all__ = ["Change", "PlanDiff", "capacity_snapshot", "compare", "render_json", "render_markdown", "render_text"]
