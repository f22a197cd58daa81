"""One `gkecap plan --stack prod` (the command a user runs, in process, writing its report files) validates the
environment, derives its capacity model and builds its Kubernetes objects once each (issue 28): the plan hands them
from the validation to the program's Environment, the report, the starters and the manifests."""

from __future__ import annotations

import importlib
import sys
from collections import Counter

import pytest
from typer.testing import CliRunner

import gkecap.commands.plan  # noqa: F401  (registers the commands on the app)
import gkecap.components.environment  # noqa: F401  (binds the names the program's Environment calls)
import gkecap.report  # noqa: F401
from gkecap.cli import app

COUNTED = {  # the functions themselves, from their modules (`gkecap.components.model.derive` names the function too)
    "load_environment": importlib.import_module("gkecap.components.spec.load").load_environment,
    "derive": importlib.import_module("gkecap.components.model.derive").derive,
    "kueue_objects": importlib.import_module("gkecap.components.kubernetes_objects.build").kueue_objects,
}


@pytest.fixture
def calls(monkeypatch):
    """Every call of the counted functions, however a module bound them (`from ... import name`, a lazy import)."""
    counts: Counter[str] = Counter()

    def counting(name, function):
        def wrapper(*args, **kwargs):
            counts[name] += 1
            return function(*args, **kwargs)

        return wrapper

    by_id = {id(function): (name, function) for name, function in COUNTED.items()}
    wrappers = {name: counting(name, function) for name, function in COUNTED.items()}
    for module in list(sys.modules.values()):
        if not getattr(module, "__name__", "").startswith("gkecap"):
            continue
        for attribute, value in list(vars(module).items()):
            name, function = by_id.get(id(value), (None, None))
            if name is not None and value is function:
                monkeypatch.setattr(module, attribute, wrappers[name])
    return counts


@pytest.fixture
def prod_plan(calls, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # `out/` in a fresh folder: the report, the starters and the manifests are written
    result = CliRunner().invoke(app, ["plan", "--stack", "prod", "--out", str(tmp_path / "out")])
    return result, calls, tmp_path / "out"


def test_prod_plan_writes_its_report_and_manifests(prod_plan):
    result, _, out = prod_plan
    assert result.exit_code in (0, 1), result.output
    assert (out / "report.html").is_file() and any((out / "manifests").iterdir())


def test_prod_plan_loads_the_environment_once(prod_plan):
    assert prod_plan[1]["load_environment"] == 1


def test_prod_plan_derives_the_model_once(prod_plan):
    assert prod_plan[1]["derive"] == 1


def test_prod_plan_builds_the_kubernetes_objects_once(prod_plan):
    assert prod_plan[1]["kueue_objects"] == 1
