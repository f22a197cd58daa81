"""Stack config reaches the program as the Pulumi CLI passes it."""

import json

import pytest

from gkecap.engine.stack_config import SECRET_PLACEHOLDER, StackConfigError, load_stack_config, stack_config_from_document


def _config(config: dict):
    return stack_config_from_document({"config": config}, project="gkecap")


def test_bare_keys_belong_to_the_project():
    assert set(_config({"environment": {"region": "us-east5"}, "gcp:project": "p"}).runtime) == {"gkecap:environment", "gcp:project"}


def test_structured_values_are_json_encoded():
    config = _config({"gkecap:environment": {"region": "us-east5", "teams": [{"name": "a", "weight": 2}]}})
    assert json.loads(config.runtime["gkecap:environment"]) == {"region": "us-east5", "teams": [{"name": "a", "weight": 2}]}


def test_scalars_pass_as_the_cli_prints_them():
    config = _config({"a:count": 3, "a:enabled": True, "a:name": "x"})
    assert config.runtime == {"a:count": "3", "a:enabled": "true", "a:name": "x"}


def test_timestamps_and_yaml11_words_stay_text(tmp_path):
    path = tmp_path / "Pulumi.dev.yaml"
    path.write_text("config:\n  a:env: {start: 2026-12-07T00:00:00Z, mode: on, answer: no}\n")
    assert load_stack_config(path, "p").values["a:env"] == {"start": "2026-12-07T00:00:00Z", "mode": "on", "answer": "no"}


def test_secure_values_become_placeholders_and_secret_keys():
    config = _config({"a:token": {"secure": "v1:abc"}, "a:nested": {"inner": {"secure": "v1:def"}, "plain": 1}, "a:open": "x"})
    assert config.runtime["a:token"] == SECRET_PLACEHOLDER
    assert json.loads(config.runtime["a:nested"]) == {"inner": SECRET_PLACEHOLDER, "plain": 1}
    assert set(config.secret_keys) == {"a:token", "a:nested"}


def test_invalid_yaml_names_the_file_and_line(tmp_path):
    path = tmp_path / "Pulumi.bad.yaml"
    path.write_text("config:\n  a: [1, 2\n")
    with pytest.raises(StackConfigError, match=r"Pulumi\.bad\.yaml: line \d+, column \d+: not valid YAML"):
        load_stack_config(path, "p")


def test_config_must_be_a_mapping():
    with pytest.raises(StackConfigError, match="config: must be a mapping"):
        stack_config_from_document({"config": ["a", "b"]}, project="p")


def test_missing_file_is_reported(tmp_path):
    with pytest.raises(StackConfigError, match="not found"):
        load_stack_config(tmp_path / "Pulumi.nope.yaml", "p")
