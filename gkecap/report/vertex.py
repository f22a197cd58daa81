"""The report's Vertex AI section: the FLEX_START training profiles beside the GKE capacity, and the preemptible
Vertex quota per region and GPU they need (what the stack's Cloud Quotas preferences ask for)."""

from __future__ import annotations

from html import escape

from gkecap.components.model import CapacityModel
from gkecap.components.vertex_api import format_duration


def _td(value: object, cls: str = "") -> str:
    attr = f' class="{cls}"' if cls else ""
    return f"<td{attr}>{escape(str(value))}</td>"


def vertex_section(model: CapacityModel) -> str:
    """HTML of the section ('' when the environment has no Vertex profiles)."""
    if not model.vertex_profiles:
        return ""
    out = ['<h2 id="vertex">Vertex AI training (Dynamic Workload Scheduler, FLEX_START)</h2>',
           '<table id="vertex-profiles"><thead><tr><th>profile</th><th>team</th><th>region</th><th>machine</th>'
           '<th class="n">replicas</th><th class="n">GPUs per job</th><th>max wait</th><th>timeout</th>'
           '<th class="n">concurrent jobs</th><th class="n">quota needed</th></tr></thead><tbody>']
    for p in model.vertex_profiles:
        out.append(
            "<tr>" + _td(p.name) + _td(p.team or "-") + _td(p.region)
            + _td(f"{p.machine_type} ({p.accelerator_count} x {p.accelerator_type})") + _td(p.replica_count, "n")
            + _td(p.gpus_per_job, "n") + _td("indefinitely" if p.max_wait_seconds == 0 else format_duration(p.max_wait_seconds))
            + _td(format_duration(p.timeout_seconds)) + _td(p.max_concurrent_jobs, "n") + _td(f"{p.quota_gpus} GPUs", "n")
            + "</tr>"
        )
    out.append('</tbody></table><table id="vertex-quotas"><thead><tr><th>region</th><th>GPU</th>'
               '<th>preemptible quota (Cloud Quotas id)</th><th class="n">GPUs asked for</th><th>profiles</th>'
               "</tr></thead><tbody>")
    for q in model.vertex_quotas:
        out.append("<tr>" + _td(q.region) + _td(q.accelerator_type) + _td(q.quota_id) + _td(q.gpus, "n")
                   + _td(", ".join(q.profiles)) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def vertex_table(model: CapacityModel):
    """The same profiles as a rich table for the terminal (None when there are none)."""
    from rich.table import Table

    if not model.vertex_profiles:
        return None
    caption = "; ".join(f"{q.quota_id} in {q.region}: {q.gpus}" for q in model.vertex_quotas)
    table = Table(title="Vertex AI training (FLEX_START)", caption=f"preemptible quota needed: {caption}")
    for column in ("profile", "team", "machines", "GPUs", "wait", "timeout", "quota"):
        table.add_column(column, justify="right" if column in ("GPUs", "quota") else "left")
    for p in model.vertex_profiles:
        table.add_row(p.name, p.team or "-", f"{p.replica_count} x {p.machine_type}", str(p.gpus_per_job),
                      "forever" if p.max_wait_seconds == 0 else format_duration(p.max_wait_seconds),
                      format_duration(p.timeout_seconds), str(p.quota_gpus))
    return table
