"""An unknown key in a known config namespace is a warning naming the closest key (the provider ignores it)."""

from gkecap.ci.config_keys import known_keys, unknown_key_diagnostics, unknown_key_issues
from gkecap.engine.stack_config import load_stack_config


def test_gcp_keys_come_from_the_installed_provider():
    assert {"project", "region", "zone", "credentials"} <= known_keys("gcp")


def test_a_typo_names_the_closest_key():
    [issue] = unknown_key_issues(["gcp:projct", "gcp:project"], "demo")
    assert (issue.path, issue.message) == ("gcp:projct", "unknown key in the gcp: namespace; did you mean gcp:project?")


def test_other_namespaces_and_the_projects_own_keys_pass():
    assert unknown_key_issues(["aws:region", "demo:anything", "gkecap:environment"], "demo") == []


def test_the_warning_points_at_the_line_of_the_key(tmp_path):
    stack = tmp_path / "Pulumi.dev.yaml"
    stack.write_text("config:\n  gcp:project: p\n  gcp:regoin: us-east5\n")
    [warning] = unknown_key_diagnostics(load_stack_config(stack, "demo"), "demo")
    assert (warning.severity, warning.path, warning.line) == ("warning", "gcp:regoin", 3)
    assert "did you mean gcp:region?" in warning.message
