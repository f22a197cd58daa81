"""gkecap.components.spec.user_files: the one ladder of errors for reading a user's JSON or YAML file."""

from __future__ import annotations

import pytest

from gkecap.components.spec.user_files import UserFileError, parse_json, parse_yaml, read_text


def test_a_missing_file_cannot_be_read(tmp_path):
    with pytest.raises(UserFileError, match=r"^cannot read: No such file or directory$"):
        read_text(tmp_path / "missing.yaml")


def test_text_that_is_not_utf8_names_the_byte(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes(b"name: caf\xe9\n")
    with pytest.raises(UserFileError, match=r"^not UTF-8 text \(byte 9: invalid continuation byte\)$"):
        read_text(path)


def test_a_bounded_read_refuses_a_larger_file_with_the_callers_note(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_bytes(b"x" * (2**20 + 1))
    with pytest.raises(UserFileError, match=r"^larger than 1 MiB; split it$"):
        read_text(path, max_bytes=2**20, limit_note="; split it")


def test_a_bounded_read_returns_a_file_within_the_bound(tmp_path):
    path = tmp_path / "small.yaml"
    path.write_text("a: 1\n", encoding="utf-8")
    assert read_text(path, max_bytes=2**20) == "a: 1\n"


def test_a_json_syntax_error_is_located():
    with pytest.raises(UserFileError, match=r"^line 2, column 8: not valid JSON: Expecting value$") as err:
        parse_json('{\n  "a": }')
    assert (err.value.line, err.value.column) == (2, 8)


def test_json_nested_too_deeply_is_an_error_not_a_crash():
    with pytest.raises(UserFileError, match="nested too deeply"):
        parse_json("[" * 200_000 + "]" * 200_000)


def test_a_json_hook_error_passes_through():
    class Refused(ValueError):
        pass

    def refuse(constant):
        raise Refused(constant)

    with pytest.raises(Refused):
        parse_json("[NaN]", parse_constant=refuse)


def test_a_yaml_duplicate_key_is_located():
    with pytest.raises(UserFileError, match=r"^line 2, column 1: not valid YAML: .*'a'.*") as err:
        parse_yaml("a: 1\na: 2\n")
    assert err.value.line == 2


def test_valid_documents_parse():
    assert parse_json('{"a": [1, 2]}') == {"a": [1, 2]}
    assert parse_yaml("a: [1, 2]\n") == {"a": [1, 2]}
