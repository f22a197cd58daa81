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


def test_a_link_leading_out_of_the_root_is_refused_and_one_inside_is_not(tmp_path):
    import pytest

    from gkecap.atomic_files import OutsideOutputError, contained

    root, outside = tmp_path / "out", tmp_path / "elsewhere"
    (root / "inside").mkdir(parents=True)
    outside.mkdir()
    (root / "away").symlink_to(outside)
    (root / "near").symlink_to(root / "inside")
    with pytest.raises(OutsideOutputError, match="a symbolic link to .*elsewhere, outside the output directory"):
        write_text_atomic(root / "away" / "a.yaml", "x\n", root=root)
    assert list(outside.iterdir()) == []
    assert contained(root, root / "near" / "a.yaml") == root / "near" / "a.yaml"


def test_a_failed_write_names_the_file_and_keeps_the_previous_one(tmp_path, monkeypatch):
    import errno

    import pytest

    path = write_text_atomic(tmp_path / "a.yaml", "old\n")

    def full(*_args):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    with pytest.raises(OSError) as failed:
        write_text_atomic(path, "new\n")
    assert (failed.value.filename, failed.value.strerror) == (str(path), "No space left on device")
    assert path.read_text() == "old\n" and [p.name for p in tmp_path.iterdir()] == ["a.yaml"]


def test_the_off_switch_writes_the_same_text_again(tmp_path, monkeypatch):
    from gkecap.atomic_files import WRITE_UNCHANGED_ENV

    path = write_text_atomic(tmp_path / "a.yaml", "kind: Job\n")
    inode = path.stat().st_ino
    monkeypatch.setenv(WRITE_UNCHANGED_ENV, "1")
    write_text_atomic(path, "kind: Job\n")
    assert path.stat().st_ino != inode and path.read_text() == "kind: Job\n"
    assert [p.name for p in tmp_path.iterdir()] == ["a.yaml"]
