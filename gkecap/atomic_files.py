"""Write a file so that no reader ever sees it half-written: a temporary file beside it, then a rename.

`os.replace` within one directory is atomic on POSIX and Windows, so a concurrent plan writing the same
`out/<project>/<stack>/` leaves each file either as it was or complete, never empty or cut; a write that fails
(a full disk) leaves the previous file as it was and names the file it was writing.

`root=` keeps a write inside an output directory: a symbolic link between `root` and the file that leads out
of `root` (a `workloads/` linked to another repository) is refused, never followed (`contained`).

A file that already holds the bytes is left as it is (a plan written again rewrites only what changed). That
shortcut's off switch: `GKECAP_WRITE_UNCHANGED=1` writes every file through the temporary file and rename, as if
none existed; tests/gkecap/test_atomic_files.py and tests/gkecap/report/test_unchanged_files.py compare both ways.
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path


class OutsideOutputError(OSError):
    """A path of an output directory leads out of it through a symbolic link (nothing was read or written)."""


def contained(root: Path, path: Path) -> Path:
    """`path`, below `root`, once no existing component between them is a symbolic link leading out of `root`
    (a link that stays inside is fine); else `OutsideOutputError` naming the link and where it leads.
    String operations and one `lstat` per component: a plan checks every one of its 13,800 starter files."""
    base = os.path.abspath(root)
    relative = os.path.relpath(os.path.abspath(path), base)
    if relative == os.pardir or relative.startswith(os.pardir + os.sep) or os.path.isabs(relative):
        raise OutsideOutputError(errno.EXDEV, f"not inside the output directory {root}", str(path))
    current = base
    for part in relative.split(os.sep):
        if part in ("", os.curdir):
            continue
        current = os.path.join(current, part)
        if os.path.islink(current):
            real, real_root = os.path.realpath(current), os.path.realpath(base)
            if real != real_root and not real.startswith(real_root.rstrip(os.sep) + os.sep):
                raise OutsideOutputError(
                    errno.EXDEV, f"a symbolic link to {real}, outside the output directory {root}; gkecap writes nothing through it", current
                )
    return path


def make_directory(root: Path, directory: Path) -> Path:
    """Create `directory` (and its parents) below `root`, refusing a link that leads out of `root`."""
    contained(root, directory)
    directory.mkdir(parents=True, exist_ok=True)
    return directory


def write_text_atomic(path: Path, text: str, *, root: Path | None = None) -> Path:
    """Write `text` (UTF-8) to `path` through a unique temporary file in the same directory; a file that holds
    `text` already is left as it is (a plan written again rewrites only what changed: at 300 teams most of
    its 13,800 starter files). With `root`, a link leading out of it is refused (`contained`)."""
    if root is not None:
        contained(root, path)
    return write_bytes_atomic(path, text.encode("utf-8"))


WRITE_UNCHANGED_ENV = "GKECAP_WRITE_UNCHANGED"  # "1": the off switch of the unchanged-file shortcut


def skip_unchanged() -> bool:
    """Whether a write leaves a file that already holds its bytes as it is (on unless GKECAP_WRITE_UNCHANGED=1)."""
    return os.environ.get(WRITE_UNCHANGED_ENV, "") not in ("1", "true", "yes")


def write_bytes_atomic(path: Path, data: bytes) -> Path:
    """`write_text_atomic` for bytes. A failed write raises an OSError naming `path`; the old file stays."""
    if skip_unchanged():
        try:
            if path.stat().st_size == len(data) and path.read_bytes() == data:
                return path
        except OSError:  # not there (or not readable): written below
            pass
    temporary = None
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, 0o644)  # mkstemp makes it 0600; the file is a report, readable as any other
        os.replace(temporary, path)
    except BaseException as exc:
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)
        if isinstance(exc, OSError) and not isinstance(exc, OutsideOutputError):
            # A write's error carries no file name ("cannot write None"): name the file being written.
            raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from exc
        raise
    return path
