"""The strict YAML reader: what go-yaml v3 (the Pulumi CLI's parser) refuses, gkecap refuses too."""

import time

import pytest

from gkecap.components.spec.strict_yaml import YamlInputError, load_yaml


def test_duplicate_key_names_both_lines():
    with pytest.raises(YamlInputError) as caught:
        load_yaml("a: 1\nb: 2\na: 3\n")
    assert (caught.value.line, caught.value.problem) == (3, "mapping key 'a' already defined at line 1")


def test_duplicate_key_in_a_nested_mapping_is_refused():
    with pytest.raises(YamlInputError, match="mapping key 'quota' already defined at line 2"):
        load_yaml("team:\n  quota: 1\n  quota: 2\n")


def test_merge_key_may_be_overridden_beside_it():
    # `<<: *base` then an explicit key: go-yaml takes the explicit one; not a duplicate.
    assert load_yaml("base: &b {x: 1, y: 2}\nitem:\n  <<: *b\n  x: 3\n")["item"] == {"x": 3, "y": 2}


def test_small_aliasing_is_read():
    assert load_yaml("a: &a [1, 2]\nb: *a\n") == {"a": [1, 2], "b": [1, 2]}


def test_alias_bomb_is_refused_before_it_is_expanded():
    levels = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"] + [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 12)]
    started = time.perf_counter()
    with pytest.raises(YamlInputError, match="excessive aliasing"):
        load_yaml("\n".join(levels))
    assert time.perf_counter() - started < 5


def test_recursive_anchor_is_refused():
    with pytest.raises(YamlInputError, match="recursive anchor"):
        load_yaml("a: &a [1, *a]\n")


def test_deep_nesting_is_an_error_not_a_crash():
    with pytest.raises(YamlInputError, match="nested too deeply"):
        load_yaml("[" * 50_000 + "]" * 50_000)


def test_libyaml_and_pythons_parser_read_a_stack_file_alike(monkeypatch):
    # load_yaml composes with libyaml where PyYAML has it (faster); the Python parser is the fallback.
    from pathlib import Path

    from gkecap.components.spec import strict_yaml

    text = (Path(__file__).resolve().parents[3] / "stacks" / "Pulumi.prod.yaml").read_text(encoding="utf-8")
    assert strict_yaml._c_composer(strict_yaml.StrictSafeLoader) is not None  # the fast path is the one tested
    fast = load_yaml(text)
    monkeypatch.setattr(strict_yaml, "_c_composer", lambda loader: None)
    assert load_yaml(text) == fast
