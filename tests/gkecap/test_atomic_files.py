"""gkecap.atomic_files: whole files or none, and a file that already holds the text is left as it is."""

from __future__ import annotations

import os
import stat

from gkecap.atomic_files import write_text_atomic


def test_writes_the_text_readable_by_all(tmp_path):
    path = write_text_atomic(tmp_path / "a.yaml", "kind: Job\nname: é\n")
    assert path.read_text(encoding="utf-8") == "kind: Job\nname: é\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    assert [p.name for p in tmp_path.iterdir()] == ["a.yaml"]  # no temporary file left


def test_the_same_text_again_leaves_the_file_untouched(tmp_path):
    path = write_text_atomic(tmp_path / "a.yaml", "kind: Job\n")
    before = path.stat()
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns - 10**9))  # so a rewrite would show
    kept = path.stat()
    write_text_atomic(path, "kind: Job\n")
    assert (path.stat().st_ino, path.stat().st_mtime_ns) == (kept.st_ino, kept.st_mtime_ns)


def test_other_text_replaces_the_file(tmp_path):
    path = write_text_atomic(tmp_path / "a.yaml", "kind: Job\n")
    inode = path.stat().st_ino
    write_text_atomic(path, "kind: JobSet\n")
    assert path.read_text() == "kind: JobSet\n"
    assert path.stat().st_ino != inode  # replaced through a new file, never rewritten in place
    write_text_atomic(path, "kind: Jobset\n")  # same length, other bytes
    assert path.read_text() == "kind: Jobset\n"
