"""What commands print: control characters of user text escaped (gkecap.commands.terminal_io, issue 25)."""

from __future__ import annotations

import io

from rich.table import Table

from gkecap.commands.terminal_io import SafeConsole, printable


def test_control_characters_are_escaped_and_line_breaks_kept():
    assert printable("a\x1b[2Jb\x07\nc\td\u202e\x9b") == "a\\x1b[2Jb\\x07\nc\td\\u202e\\x9b"


def test_the_console_escapes_table_cells_whole_and_keeps_its_own_styles():
    stream = io.StringIO()
    console = SafeConsole(file=stream, force_terminal=True, width=120)
    table = Table()
    table.add_column("name")
    table.add_row("x\x1b]0;owned\x07y")
    console.print(table)
    console.print("[bold]bold[/bold]")
    text = stream.getvalue()
    assert "x\\x1b]0;owned\\x07y" in text  # whole: the column is sized to the escaped text
    assert "\x1b]0;" not in text and "\x07" not in text
    assert "\x1b[1mbold" in text  # rich's own style sequence
