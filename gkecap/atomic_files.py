"""Write a file so that no reader ever sees it half-written: a temporary file beside it, then a rename.

`os.replace` within one directory is atomic on POSIX and Windows, so a concurrent plan writing the same
`out/<project>/<stack>/` leaves each file either as it was or complete, never empty or cut.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_text_atomic(path: Path, text: str) -> Path:
    """Write `text` (UTF-8) to `path` through a unique temporary file in the same directory; a file that holds
    `text` already is left as it is (a plan written again rewrites only what changed: at 300 teams most of
    its 13,800 starter files)."""
    return write_bytes_atomic(path, text.encode("utf-8"))


def write_bytes_atomic(path: Path, data: bytes) -> Path:
    """As `write_text_atomic`, for bytes."""
    try:
        if path.stat().st_size == len(data) and path.read_bytes() == data:
            return path
    except OSError:  # not there (or not readable): written below
        pass
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, 0o644)  # mkstemp makes it 0600; the file is a report, readable as any other
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path
