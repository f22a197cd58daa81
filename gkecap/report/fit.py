"""Tables that fit any terminal: a table is printed as is where its narrowest layout fits the width, and stacked
(one block per row: the row's identifying cells, then `column: value` lines) where it does not, so no column is
ever cut or dropped at 40 or 80 columns.

    console.print(fitted(table, keys=(0,)))   # column 0 names the row (pool, team, policy...)

Identifying columns never wrap; the others wrap at spaces (a longer word folds). The narrowest layout gives each
identifying or `no_wrap` column its widest cell and every other column its longest word.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.measure import Measurement
from rich.padding import Padding
from rich.table import Table
from rich.text import Text


class Fitted:
    """`table` where it fits, else the same cells stacked, a block per row under its identifying cells (`keys`:
    column indexes; an empty key cell, as in a table grouped by team, repeats the row above)."""

    def __init__(self, table: Table, keys: Sequence[int] = (0,)) -> None:
        self.table = table
        self.keys = tuple(keys)
        for index, column in enumerate(table.columns):
            if index in self.keys:
                column.no_wrap = True
            elif not column.no_wrap:
                column.overflow = "fold"  # a word longer than its column breaks instead of being cut

    def fits(self, width: int) -> bool:
        """Whether every column gets its narrowest width (and is then held to it: rich never cuts a key cell)."""
        table = self.table
        needs = []
        for column in table.columns:
            cells = [_plain(column.header), *(_plain(cell) for cell in column.cells)]
            if table.show_footer:
                cells.append(_plain(column.footer))
            if column.no_wrap:
                need = max(cell_len(line) for cell in cells for line in cell.splitlines() or [""])
                column.min_width = need
            else:
                need = max((cell_len(word) for cell in cells for word in cell.split()), default=1)
            needs.append(need)
        padding = table.padding[1] + table.padding[3]  # (top, right, bottom, left)
        edges = 0 if table.pad_edge else padding
        return sum(needs) + padding * len(needs) - edges + table._extra_width <= width

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if self.fits(options.max_width):
            yield self.table
            return
        yield from self._stacked()

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(1, options.max_width)

    def _stacked(self) -> Iterable[Any]:
        table, keys = self.table, self.keys
        if table.title:
            yield _text(table.title, "italic")
        columns = table.columns
        cells = [list(column.cells) for column in columns]
        headers = [_plain(column.header) for column in columns]
        previous = [Text("")] * len(columns)
        for index in range(table.row_count):
            key_cells = []
            for c in keys:
                cell = _text(cells[c][index])
                if not cell.plain.strip():
                    cell = previous[c]
                previous[c] = cell
                key_cells.append(cell)
            key = Text(" ").join(cell for cell in key_cells if cell.plain.strip())
            values = [(headers[c], _text(cells[c][index])) for c in range(len(columns)) if c not in keys]
            yield self._block(key, values)
        if table.show_footer:
            footers = [(headers[c], _text(column.footer)) for c, column in enumerate(columns) if c not in keys]
            key = Text(" ").join(_text(columns[c].footer) for c in keys if _plain(columns[c].footer))
            if key.plain or any(value.plain.strip() for _, value in footers):
                yield self._block(key, [(head, Text(", ").join(value.split())) for head, value in footers])
        if table.caption:
            yield _text(table.caption, "dim")

    @staticmethod
    def _block(key: Text, values: list[tuple[str, Text]]) -> Group:
        lines: list[Any] = [Text.assemble(key, style="bold")] if key.plain else []
        for head, value in values:
            if value.plain.strip():
                lines.append(Padding(Text.assemble(Text(f"{head}: ", style="dim"), value), (0, 0, 0, 2), expand=False))
        return Group(*lines)


def fitted(table: Table, keys: Sequence[int] = (0,)) -> Fitted:
    return Fitted(table, keys)


def _text(cell: Any, style: str = "") -> Text:
    if isinstance(cell, Text):
        return cell
    return Text("" if cell is None else str(cell), style=style)


def _plain(cell: Any) -> str:
    return cell.plain if isinstance(cell, Text) else ("" if cell is None else str(cell))
