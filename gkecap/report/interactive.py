"""What makes report.html work at 1,000 teams: one search box and filters (team, cohort, pool, capacity model) over
every table, sortable columns, and the cohort tree as a collapsible tree table (cohort limits and quotas per pool,
each in its pool's unit). Plain JavaScript and CSS inlined in the page: it opens from file:// or as a CI artifact,
with no network and no library (docs/design.md says why).

Rows say what they are about with data attributes (`data-team`, `data-cohort`, `data-pool`, `data-model`); a
filter hides the rows whose attribute differs, and leaves rows without the attribute alone.
"""

from __future__ import annotations

from html import escape
from typing import Any, Iterable

from gkecap.components.model import CapacityModel
from gkecap.report import facts

CSS = """
.controls{position:sticky;top:0;z-index:2;background:#fff;border-bottom:1px solid #d0d7de;padding:8px 0;display:flex;flex-wrap:wrap;gap:8px;align-items:center}
.controls input,.controls select{font:inherit;padding:3px 6px;border:1px solid #d0d7de;border-radius:4px;max-width:16em}
.controls input{width:16em}.controls .count{color:#57606a;font-size:.88em}
tr.filtered,tr.folded{display:none}
th.sortable{cursor:pointer;user-select:none}th.sortable::after{content:" \\2195";color:#8c959f;font-weight:400}
th[aria-sort=ascending]::after{content:" \\2191";color:#1f2328}th[aria-sort=descending]::after{content:" \\2193";color:#1f2328}
td.rep{color:#8c959f}
table.filterable tbody td:first-child{white-space:nowrap}
.tree td:first-child{white-space:nowrap}
.tree button.toggle{font:inherit;border:0;background:none;cursor:pointer;width:1.4em;padding:0;color:#0969da}
.tree .leaf{display:inline-block;width:1.4em}
.tree tr.cohort td:first-child{font-weight:600}
.unit-list{white-space:normal}
"""

SCRIPT = r"""
(function () {
  "use strict";
  var FILTERS = ["team", "cohort", "pool", "model"];
  var query = document.getElementById("report-search");
  var selects = {};
  FILTERS.forEach(function (key) { selects[key] = document.getElementById("filter-" + key); });
  var rows = Array.prototype.slice.call(document.querySelectorAll("table.filterable tbody tr"));
  var searchText = rows.map(function (row) { return row.textContent.toLowerCase(); });

  function treeRows(table) { return Array.prototype.slice.call(table.querySelectorAll("tbody tr")); }

  // A tree row is folded when an ancestor is collapsed, unless a filter is on and it or a descendant matches.
  function layoutTree(table, filtering) {
    var byId = {};
    var list = treeRows(table);
    list.forEach(function (row) { byId[row.id] = row; row.dataset.keep = ""; });
    if (filtering) {
      list.forEach(function (row) {
        if (row.classList.contains("filtered")) { return; }
        for (var up = byId[row.dataset.parent]; up; up = byId[up.dataset.parent]) { up.dataset.keep = "1"; }
      });
    }
    list.forEach(function (row) {
      var parent = byId[row.dataset.parent];
      if (filtering) {
        if (row.dataset.keep) { row.classList.remove("filtered"); }
        row.classList.remove("folded");
        return;
      }
      var folded = !!parent && (parent.classList.contains("folded") || parent.getAttribute("aria-expanded") === "false");
      row.classList.toggle("folded", folded);
    });
  }

  function apply() {
    var text = query ? query.value.trim().toLowerCase() : "";
    var wanted = {};
    var filtering = !!text;
    FILTERS.forEach(function (key) {
      wanted[key] = selects[key] ? selects[key].value : "";
      if (wanted[key]) { filtering = true; }
    });
    rows.forEach(function (row, index) {
      var shown = !text || searchText[index].indexOf(text) !== -1;
      // A cohort of the tree stays for a team or pool filter only as the ancestor of a row that matches.
      if (row.classList.contains("cohort") && (wanted.team || wanted.pool || wanted.model)) { shown = false; }
      FILTERS.forEach(function (key) {
        var value = row.dataset[key];
        if (shown && wanted[key] && value !== undefined && value !== wanted[key]) { shown = false; }
      });
      row.classList.toggle("filtered", !shown);
    });
    Array.prototype.forEach.call(document.querySelectorAll("table.tree"), function (table) { layoutTree(table, filtering); });
    Array.prototype.forEach.call(document.querySelectorAll("table.filterable"), function (table) {
      var counter = document.querySelector('[data-count-for="' + table.id + '"]');
      if (!counter) { return; }
      var all = table.tBodies[0] ? table.tBodies[0].rows.length : 0;
      var hidden = table.querySelectorAll("tbody tr.filtered").length;
      counter.textContent = filtering ? (all - hidden) + " of " + all + " rows" : all + " rows";
    });
  }

  function cellValue(row, column) {
    var cell = row.cells[column];
    if (!cell) { return ""; }
    if (cell.dataset.sort !== undefined) { return parseFloat(cell.dataset.sort); }
    var text = cell.textContent.trim();
    var number = /^-?\d+(\.\d+)?/.exec(text);
    return number && number[0].length === text.split(" ")[0].length ? parseFloat(number[0]) : text.toLowerCase();
  }

  function sortBy(table, header) {
    var column = header.cellIndex;
    var ascending = header.getAttribute("aria-sort") !== "ascending";
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) { th.removeAttribute("aria-sort"); });
    header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var body = table.tBodies[0];
    var sorted = Array.prototype.slice.call(body.rows).sort(function (a, b) {
      var x = cellValue(a, column), y = cellValue(b, column);
      if (typeof x !== typeof y) { x = String(x); y = String(y); }
      var order = x < y ? -1 : x > y ? 1 : 0;
      return ascending ? order : -order;
    });
    sorted.forEach(function (row) { body.appendChild(row); });
  }

  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    if (!table.tHead) { return; }
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
      th.classList.add("sortable");
      th.tabIndex = 0;
      th.addEventListener("click", function () { sortBy(table, th); });
      th.addEventListener("keydown", function (event) { if (event.key === "Enter") { sortBy(table, th); } });
    });
  });

  Array.prototype.forEach.call(document.querySelectorAll("table.tree button.toggle"), function (button) {
    button.addEventListener("click", function () {
      var row = button.closest("tr");
      var open = row.getAttribute("aria-expanded") !== "true";
      row.setAttribute("aria-expanded", open ? "true" : "false");
      button.textContent = open ? "\u25be" : "\u25b8";
      button.setAttribute("aria-label", (open ? "collapse " : "expand ") + row.dataset.cohort);
      apply();
    });
  });

  if (query) { query.addEventListener("input", apply); }
  FILTERS.forEach(function (key) { if (selects[key]) { selects[key].addEventListener("change", apply); } });
  apply();
})();
"""


def script() -> str:
    return f"<script>{SCRIPT}</script>"


def _options(key: str, label: str, values: Iterable[str]) -> str:
    options = "".join(f'<option value="{escape(v)}">{escape(v)}</option>' for v in values)
    return (f'<label>{escape(label)} <select id="filter-{key}" aria-label="filter by {escape(label)}">'
            f'<option value="">all</option>{options}</select></label>')


def controls(model: CapacityModel) -> str:
    """The search box and the filters, above the tables they filter."""
    return search_controls(
        team=[t.name for t in model.teams], cohort=[c.name for c in model.cohorts], pool=[p.name for p in model.pools],
        model=list(dict.fromkeys(pool.capacity for pool in model.pools)),
    )


_LABELS = {"team": "team", "cohort": "cohort", "pool": "pool", "model": "capacity model"}


def search_controls(**filters: list[str]) -> str:
    """A search box and a filter per key given (team, cohort, pool, model) that has values."""
    selects = "".join(_options(key, _LABELS[key], values) for key, values in filters.items() if values)
    return ('<div class="controls" role="search"><input id="report-search" type="search" '
            'placeholder="Search teams, cohorts, pools..." aria-label="search the report">' + selects + "</div>")


def data(**attributes: str | None) -> str:
    """`data-*` attributes of a row (those that are set)."""
    return "".join(f' data-{key}="{escape(value)}"' for key, value in attributes.items() if value)


def count(table_id: str) -> str:
    return f'<p class="count" data-count-for="{escape(table_id)}"></p>'


def per_pool(values: dict[str, int], units: dict[str, str]) -> str:
    """`h100-dws 16 GPUs, v6e-4x4 32 chips`: each number with its pool's unit, never added across pools."""
    return ", ".join(f"{pool} {n} {units.get(pool, '')}".rstrip() for pool, n in values.items()) or "-"


def cohort_tree(model: CapacityModel) -> str:
    """Cohorts and their teams as a tree table: a cohort row per cohort (its shared quota, limits towards its
    parent, and the quota of its whole subtree), a row per team under it; roots open, deeper cohorts folded."""
    if not model.cohorts:
        return ""
    units = {pool.name: facts.unit_of(pool) for pool in model.pools}
    head = ("cohort / team", "teams", "own quota", "borrowing limit", "lending limit", "quota of the subtree")
    out = ['<h2 id="cohorts">Cohort tree</h2>', count("cohort-tree"),
           '<table id="cohort-tree" class="tree filterable"><thead><tr>'
           + "".join(f"<th>{h}</th>" for h in head) + "</tr></thead><tbody>"]

    def team_total(name: str) -> int:
        cohort = model.cohort(name)
        return len(cohort.teams) + sum(team_total(child) for child in cohort.children)

    def cohort_rows(name: str, parent: str | None) -> None:
        cohort = model.cohort(name)
        open_ = cohort.parent is None
        pad = f"padding-left:{cohort.depth * 1.2:.1f}em"
        arrow = "\u25be" if open_ else "\u25b8"
        label = f"{'collapse' if open_ else 'expand'} {cohort.name}"
        out.append(
            f'<tr id="c-{escape(name)}" class="cohort" aria-expanded="{"true" if open_ else "false"}"'
            + data(cohort=name, parent=f"c-{parent}" if parent else None) + ">"
            + f'<td style="{pad}"><button class="toggle" type="button" aria-label="{escape(label)}">{arrow}</button>'
            + f"cohort {escape(name)}</td>"
            + f'<td class="n">{team_total(name)}</td>'
            + f'<td class="unit-list">{escape(per_pool(cohort.quota, units))}</td>'
            + f'<td class="unit-list">{escape(per_pool(cohort.borrowing_limits, units) if cohort.parent else "-")}</td>'
            + f'<td class="unit-list">{escape(per_pool(cohort.lending_limits, units) if cohort.parent else "-")}</td>'
            + f'<td class="unit-list">{escape(per_pool(cohort.subtree_quota, units))}</td></tr>'
        )
        for child in cohort.children:
            cohort_rows(child, name)
        for team_name in cohort.teams:
            team = model.team(team_name)
            tpad = f"padding-left:{(cohort.depth + 1) * 1.2:.1f}em"
            out.append(
                f'<tr id="t-{escape(team_name)}" class="team"' + data(team=team_name, cohort=name, parent=f"c-{name}") + ">"
                + f'<td style="{tpad}"><span class="leaf"></span>{escape(team_name)}</td><td></td>'
                + f'<td class="unit-list">{escape(per_pool(team.quotas, units))}</td>'
                + f'<td class="unit-list">{escape(per_pool(team.borrowing_limits, units))}</td>'
                + f'<td class="unit-list">{escape(per_pool(team.lending_limits, units))}</td><td></td></tr>'
            )

    for root in model.root_cohorts:
        cohort_rows(root.name, None)
    out.append("</tbody></table>")
    return "".join(out)


def unit_totals(counts: dict[str, int]) -> str:
    """Totals per unit, listed apart (`64 GPUs, 32 chips`): never one number across units."""
    return ", ".join(f"{n} {unit}" for unit, n in sorted(counts.items())) or "0"


