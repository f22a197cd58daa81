"""How `gkecap plan` picks the program, stack and config file from --program/--stack/--config."""

import pytest

from gkecap.plan import PlanError, resolve_program
from testkit.engine_fixtures import PROGRAMS


@pytest.fixture()
def checkout(tmp_path):
    (tmp_path / "Pulumi.yaml").write_text("name: gke-capacity\nruntime: python\nmain: stacks/\nstackConfigDir: stacks\n")
    stacks = tmp_path / "stacks"
    stacks.mkdir()
    (stacks / "__main__.py").write_text("")
    (stacks / "Pulumi.dev.yaml").write_text("config: {}\n")
    (stacks / "Pulumi.prod.yaml").write_text("config: {}\n")
    return tmp_path


def test_stack_name_selects_the_stack_file_of_stacks(checkout):
    program, stack, stack_file = resolve_program(None, None, "prod", cwd=checkout)
    assert (program.entry, stack, stack_file) == (checkout / "stacks" / "__main__.py", "prod", checkout / "stacks" / "Pulumi.prod.yaml")


def test_unknown_stack_lists_the_stacks(checkout):
    with pytest.raises(PlanError, match="'qa' has no config file .*; stacks: dev, prod"):
        resolve_program(None, None, "qa", cwd=checkout)


def test_config_file_names_the_stack(checkout, tmp_path):
    other = tmp_path / "Pulumi.staging.yaml"
    other.write_text("config: {}\n")
    program, stack, stack_file = resolve_program(None, other, None, cwd=checkout)
    assert (program.project, stack, stack_file) == ("gke-capacity", "staging", other)


def test_a_program_with_one_stack_file_uses_it():
    _, stack, stack_file = resolve_program(PROGRAMS / "raw_resources", None, None)
    assert (stack, stack_file.name) == ("test", "Pulumi.test.yaml")


def test_explicit_program_and_new_stack_run_without_config():
    _, stack, stack_file = resolve_program(PROGRAMS / "raw_resources", None, "ci")
    assert (stack, stack_file) == ("ci", None)
