"""gkecap.collector: a program runs under fewer garbage collections, and the thresholds come back after."""

from __future__ import annotations

import gc

from gkecap.engine.program import find_program
from gkecap.engine.run import run_program
from gkecap.engine.stack_config import StackConfig
from gkecap.collector import THRESHOLDS, fewer_collections


def test_a_program_runs_under_the_thresholds(tmp_path):
    (tmp_path / "Pulumi.yaml").write_text("name: gc-probe\nruntime: python\n")
    (tmp_path / "__main__.py").write_text("import gc\nimport pulumi\n\npulumi.export('thresholds', list(gc.get_threshold()))\n")
    run = run_program(find_program(tmp_path), "dev", StackConfig(path=None))
    assert tuple(run.exports["thresholds"]) == THRESHOLDS


def test_the_previous_thresholds_come_back():
    before = gc.get_threshold()
    with fewer_collections():
        assert gc.get_threshold() == THRESHOLDS
    assert gc.get_threshold() == before
