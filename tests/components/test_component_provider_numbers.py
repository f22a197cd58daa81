"""The component provider takes a Construct request's whole-valued doubles as ints, nested ones included (every
language but Python sends numbers as doubles); a fraction stays a float for the components' checks."""

from __future__ import annotations

import importlib
from functools import cache

plugin = importlib.import_module("gkecap.components.__main__")


@cache
def _provider():
    return plugin.GkecapProvider()


def _mapped(component: str, inputs: dict) -> dict:
    provider = _provider()
    return provider.map_inputs(inputs, provider._component_defs[component])


def test_nested_whole_doubles_become_ints():
    priority = {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "WorkloadPriorityClass",
                "metadata": {"name": "high"}, "value": 1000.0}
    [mapped] = _mapped("KueueObjects", {"objects": [priority]})["objects"]
    assert mapped["value"] == 1000 and isinstance(mapped["value"], int)


def test_top_level_whole_doubles_become_ints_and_fractions_stay():
    mapped = _mapped("CalendarReservation", {"machineType": "a3-highgpu-8g", "count": 8.0, "zone": "us-east5-a",
                                             "start": "2027-01-18T00:00:00Z", "days": 2.5})
    assert (mapped["count"], type(mapped["count"])) == (8, int)
    assert mapped["days"] == 2.5


def test_booleans_and_strings_are_left_alone():
    mapped = _mapped("KueueInstall", {"fairSharing": True, "managerCpu": "2"})
    assert mapped == {"fair_sharing": True, "manager_cpu": "2"}
