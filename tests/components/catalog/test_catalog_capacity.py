"""Capacity models per machine type (FACTS B.3 [S16, S17], C)."""

import pytest

from gkecap.components.catalog import (
    CAPACITY_MODELS,
    GPU_MACHINES,
    TPU_FAMILIES,
    CatalogError,
    supported_capacity_models,
)

DWS = {"flex-start", "queued"}


def test_capacity_model_order_is_the_kueue_flavor_order():
    assert CAPACITY_MODELS == ("reservation", "calendar", "queued", "flex-start", "spot", "on-demand")


@pytest.mark.parametrize("machine", GPU_MACHINES, ids=lambda m: m.machine_type)
def test_gpu_flex_start_everywhere_except_a4x_and_g4(machine):
    assert (DWS <= machine.capacity_models) == (machine.family not in ("a4x", "g4"))


@pytest.mark.parametrize("machine", GPU_MACHINES, ids=lambda m: m.machine_type)
def test_gpu_calendar_only_for_a3_and_later(machine):
    assert ("calendar" in machine.capacity_models) == machine.family.startswith(("a3", "a4"))


@pytest.mark.parametrize("family", TPU_FAMILIES, ids=lambda f: f.name)
def test_tpu_flex_start_only_v5e_v5p_v6e_and_tpu7x(family):
    # TPU7x: Cluster Toolkit's gke-tpu-7x dws-flex-start(-queued-provisioning) examples (issue 11 item 7).
    assert (DWS <= family.capacity_models) == (family.name in ("v5e", "v5p", "v6e", "tpu7x"))


@pytest.mark.parametrize("family", TPU_FAMILIES, ids=lambda f: f.name)
def test_tpu_calendar_for_v5e_v5p_v6e_tpu7x(family):
    assert ("calendar" in family.capacity_models) == (family.name in ("v5e", "v5p", "v6e", "tpu7x"))


@pytest.mark.parametrize("machine_type", ["a2-highgpu-1g", "g4-standard-6", "ct4p-hightpu-4t", "tpu7-standard-1t"])
def test_spot_on_demand_and_reservation_everywhere(machine_type):
    assert {"spot", "on-demand", "reservation"} <= supported_capacity_models(machine_type)


def test_supported_models_are_known_names():
    everything = set().union(*(m.capacity_models for m in GPU_MACHINES), *(f.capacity_models for f in TPU_FAMILIES))
    assert everything == set(CAPACITY_MODELS)


def test_tpu_machine_type_inherits_family_models():
    assert supported_capacity_models("ct6e-standard-1t") == set(CAPACITY_MODELS)


def test_unknown_machine_type_raises():
    with pytest.raises(CatalogError, match="unknown accelerator machine type 'e2-standard-4'"):
        supported_capacity_models("e2-standard-4")
