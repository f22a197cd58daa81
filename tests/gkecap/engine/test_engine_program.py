"""Finding a program's project file, entry point and stack files, as the Pulumi CLI does."""

import pytest

from gkecap.engine.program import ProgramError, find_program
from testkit.engine_fixtures import PROGRAMS


def test_program_with_its_own_project_file():
    program = find_program(PROGRAMS / "raw_resources")
    assert (program.project, program.entry.name) == ("raw-resources", "__main__.py")
    assert program.stack_file("test") == PROGRAMS / "raw_resources" / "Pulumi.test.yaml"


def test_project_main_and_stack_config_dir(tmp_path):
    (tmp_path / "Pulumi.yaml").write_text("name: demo\nruntime: python\nmain: app/\nstackConfigDir: envs\n")
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "__main__.py").write_text("")
    program = find_program(tmp_path)
    assert program.entry == tmp_path / "app" / "__main__.py"
    assert program.stack_file("prod") == tmp_path / "envs" / "Pulumi.prod.yaml"


def test_program_directory_below_the_project_file(tmp_path):
    (tmp_path / "Pulumi.yaml").write_text("name: demo\nruntime:\n  name: python\nmain: stacks/\nstackConfigDir: stacks\n")
    (tmp_path / "stacks").mkdir()
    (tmp_path / "stacks" / "__main__.py").write_text("")
    program = find_program(tmp_path / "stacks")
    assert (program.project, program.project_dir, program.entry.parent) == ("demo", tmp_path, tmp_path / "stacks")


def test_non_python_runtime_is_rejected(tmp_path):
    (tmp_path / "Pulumi.yaml").write_text("name: demo\nruntime: nodejs\n")
    with pytest.raises(ProgramError, match="runtime: 'nodejs' is not supported"):
        find_program(tmp_path)


def test_missing_entry_point_is_reported(tmp_path):
    (tmp_path / "Pulumi.yaml").write_text("name: demo\nruntime: python\n")
    with pytest.raises(ProgramError, match="has no __main__.py"):
        find_program(tmp_path)
