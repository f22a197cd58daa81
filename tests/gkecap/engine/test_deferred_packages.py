"""gkecap.engine.deferred_packages: a plan loads the one pulumi_gcp.compute module it uses, and the package
still exports every name as its `__init__` does. Each case runs in a fresh interpreter (what is imported is the point)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

_PLAN = """
import json, sys
from gkecap.plan import plan
plan(stack={stack!r}, no_policies=True)
print(json.dumps(sorted(m for m in sys.modules if m.startswith("pulumi_gcp.compute"))))
"""

# Names the deferred package finds in one module each: a resource, an input type, a function and its output form,
# a submodule; and what each is (its kind, module and name), printed as JSON.
_DESCRIBE = """
import json, sys, types
{setup}
import pulumi_gcp as gcp
names = ["FutureReservation", "FutureReservationTimeWindowArgs", "get_instance", "get_instance_output", "outputs"]
described = [[type(getattr(gcp.compute, n)).__name__, getattr(getattr(gcp.compute, n), "__module__", None),
              getattr(getattr(gcp.compute, n), "__name__", None)] for n in names]
print(json.dumps([described, type(gcp.compute).__name__]))
"""


def _python(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip().splitlines()[-1]


def test_a_plan_without_calendar_pools_loads_no_compute_module():
    assert json.loads(_python(_PLAN.format(stack="dev"))) == ["pulumi_gcp.compute"]  # registered, never run


def test_a_calendar_reservation_loads_its_module_not_the_package():
    loaded = json.loads(_python(_PLAN.format(stack="prod")))  # the prod stack books a calendar reservation
    assert "pulumi_gcp.compute.future_reservation" in loaded
    assert "pulumi_gcp.compute.instance" not in loaded and len(loaded) < 10


def test_deferred_names_are_the_ones_the_package_exports():
    deferred, kind = json.loads(_python(_DESCRIBE.format(
        setup="from gkecap.engine.deferred_packages import defer_package_init; assert defer_package_init('pulumi_gcp.compute')")))
    loaded, _ = json.loads(_python(_DESCRIBE.format(setup="")))
    assert kind == "_DeferredPackage"  # found without running the package's __init__
    assert deferred == loaded


def test_a_name_the_layout_does_not_place_runs_the_packages_init():
    kind = _python("""
        from gkecap.engine.deferred_packages import defer_package_init
        defer_package_init("pulumi_gcp.compute")
        import pulumi_gcp as gcp
        try:
            gcp.compute.no_such_name
        except AttributeError:
            print(type(gcp.compute).__name__, hasattr(gcp.compute, "Autoscaler"))
    """)
    assert kind == "module True"
