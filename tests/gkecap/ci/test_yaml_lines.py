"""Field paths to YAML lines, from a separate compose pass."""

from gkecap.ci.yaml_lines import YamlLines, config_key_path, parse_path

STACK = """\
config:
  gcp:project: p
  gkecap:environment:
    region: us-east5
    nodePools:
      - name: a
        machineType: a3-highgpu-8g
      - {name: b, tpuTopology: 4x3}
    teams:
      - name: t
        labels: {example.com/team: x}
"""


def test_paths_parse_like_the_issues_write_them():
    assert parse_path("nodePools[1].labels['example.com/team']") == ("nodePools", 1, "labels", "example.com/team")


def test_a_field_is_found_at_its_key():
    lines = YamlLines(STACK)
    base = config_key_path(lines, "gkecap:environment", "gkecap")
    assert lines.line_of((*base, *parse_path("nodePools[0].machineType"))) == 7
    assert lines.line_of((*base, *parse_path("nodePools[1].tpuTopology"))) == 8  # a flow mapping: its own line
    assert lines.line_of((*base, *parse_path("teams[0].labels['example.com/team']"))) == 11


def test_a_missing_field_is_found_at_its_nearest_parent():
    lines = YamlLines(STACK)
    assert lines.line_of(("config", "gkecap:environment", "nodePools", 0, "maxNodes")) == 6


def test_a_bare_key_of_the_project_is_found():
    lines = YamlLines("config:\n  environment:\n    region: x\n")
    assert config_key_path(lines, "gkecap:environment", "gkecap") == ("config", "environment")


def test_aliases_are_walked_once():
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n" for i in range(12))
    lines = YamlLines(bomb)
    assert len(lines.lines) < 200


def test_unreadable_yaml_has_no_lines():
    assert YamlLines("a: [").line_of(("a",)) is None
