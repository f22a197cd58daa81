"""`gkecap catalog` and `gkecap slice`: show the accelerator catalog and explain slice math."""

from __future__ import annotations

import json
from enum import Enum
from typing import Annotated, NoReturn

import typer
from gkecap.commands.terminal_io import printable, stdout_console
from gkecap.report.fit import fitted
from rich.table import Table

from gkecap.components.catalog import (
    GPU_FAMILIES,
    GPU_MACHINES,
    TPU_FAMILIES,
    CatalogError,
    GpuMachine,
    TpuFamily,
    TpuMachineType,
    TpuSlice,
    gpu_machine,
    is_gpu_machine_type,
    is_tpu_machine_type,
    node_resources,
    tpu_family,
    tpu_machine,
    tpu_slice,
)
from gkecap.components.catalog.capacity import ordered

EXIT_INVALID = 2  # bad input, as for `gkecap plan` (ARCHITECTURE.md "Exit codes")


class OutputFormat(str, Enum):
    table = "table"
    json = "json"


def _fail(message: str) -> NoReturn:
    typer.echo(printable(f"error: {message}"), err=True)
    raise typer.Exit(EXIT_INVALID)


def _print_json(document: object) -> None:
    typer.echo(json.dumps(document, indent=2))


# --- catalog -------------------------------------------------------------------------------------------


def _select(family: str | None) -> tuple[tuple[GpuMachine, ...], tuple[TpuFamily, ...]]:
    if family is None:
        return GPU_MACHINES, TPU_FAMILIES
    key = family.strip().lower()
    if key in GPU_FAMILIES:
        return tuple(m for m in GPU_MACHINES if m.family == key), ()
    try:
        return (), (tpu_family(key),)
    except CatalogError:
        valid = ", ".join((*GPU_FAMILIES, *(f.name for f in TPU_FAMILIES)))
        _fail(f"--family: unknown family {family!r}; valid: {valid}")


def _topology_rule(mt: TpuMachineType) -> str:
    rule = mt.cube_rule
    if rule is None:
        return ", ".join(mt.topologies)
    order = "A<=B<=C" if rule.enforce_nondecreasing else "any order"
    return (
        f"{', '.join(rule.small_shapes)} + AxBxC, multiples of 4, <= {rule.max_cubes} cubes, {order} "
        f"({len(rule.topologies())} topologies)"
    )


def _tpu_machine_dict(mt: TpuMachineType) -> dict[str, object]:
    rule = mt.cube_rule
    return {
        "machineType": mt.name,
        "chipsPerVm": mt.chips_per_vm,
        "vcpus": mt.vcpus,
        "memoryGb": mt.memory_gb,
        "topologies": list(mt.topologies) if rule is None else None,
        "cubeRule": (
            None
            if rule is None
            else {
                "maxCubes": rule.max_cubes,
                "enforceNondecreasing": rule.enforce_nondecreasing,
                "smallShapes": list(rule.small_shapes),
                "count": len(rule.topologies()),
                "description": rule.describe(),
            }
        ),
    }


def _tpu_family_dict(family: TpuFamily) -> dict[str, object]:
    return {
        "family": family.name,
        "acceleratorLabel": family.accelerator_label,
        "dims": family.dims,
        "tensorcoresPerChip": family.tensorcores_per_chip,
        "maxChips": family.max_chips,
        "capacityModels": list(ordered(family.capacity_models)),
        "multiHostWorkloadPolicy": family.multi_host_workload_policy,
        "machineTypes": [_tpu_machine_dict(mt) for mt in family.machine_types],
    }


def _number(value: float | None) -> str:
    if value is None:
        return "?"
    return str(int(value)) if float(value).is_integer() else str(value)


def _gpu_table(machines: tuple[GpuMachine, ...]) -> Table:
    table = Table(title="GPU machine types", title_justify="left")
    for column in ("machine type", "series", "accelerator label"):
        table.add_column(column, no_wrap=True)
    for column in ("GPUs", "vCPUs", "memory GB", "capacity models", "MIG partitions", "sharing"):
        table.add_column(column)
    for m in machines:
        gpus = str(m.gpus_per_vm) if m.gpu_fraction == 1 else f"1 (1/{round(1 / m.gpu_fraction)} GPU)"
        sharing = ", ".join(s for s, on in (("time-sharing", m.time_sharing), ("MPS", m.mps)) if on)
        table.add_row(
            m.machine_type, m.series, m.accelerator_label, gpus, _number(m.vcpus), _number(m.memory_gb),
            ", ".join(ordered(m.capacity_models)), ", ".join(m.mig_partitions) or "-", sharing or "-",
        )
    return table


def _tpu_table(families: tuple[TpuFamily, ...]) -> Table:
    table = Table(title="TPU machine types and topologies", title_justify="left")
    for column in ("family", "accelerator label", "machine type"):
        table.add_column(column, no_wrap=True)
    for column in ("chips/VM", "vCPUs", "memory GB", "topologies", "capacity models"):
        table.add_column(column)
    for family in families:
        for mt in family.machine_types:
            table.add_row(
                family.name, family.accelerator_label, mt.name, str(mt.chips_per_vm), _number(mt.vcpus),
                _number(mt.memory_gb), _topology_rule(mt), ", ".join(ordered(family.capacity_models)),
            )
    return table


def catalog_command(
    family: Annotated[
        str | None, typer.Option("--family", help="Only this family: a2, a3, a4, a4x, g2, g4, v4, v5e, v5p, v6e, tpu7x, tpu7.")
    ] = None,
    output: Annotated[OutputFormat, typer.Option("--format", help="table or json.")] = OutputFormat.table,
) -> None:
    """Show the accelerator catalog: GPU machine types, TPU families and their topology rules."""
    gpus, tpus = _select(family)
    if output is OutputFormat.json:
        _print_json({"gpu": [m.to_dict() for m in gpus], "tpu": [_tpu_family_dict(f) for f in tpus]})
        return
    # Piped output is never cut to rich's 80-column default (gkecap.commands.terminal_io).
    console = stdout_console()
    if gpus:
        console.print(fitted(_gpu_table(gpus)))
    if tpus:
        console.print(fitted(_tpu_table(tpus)))


# --- slice ---------------------------------------------------------------------------------------------


def _explain_tpu(s: TpuSlice) -> list[str]:
    dims = " x ".join(str(d) for d in s.dims)
    lines = [
        f"{s.machine_type} with topology {s.topology}: TPU {s.family} ({s.accelerator_label}), {len(s.dims)}D",
        f"chips        {dims} = {s.chips}",
        f"chips per VM {s.chips_per_vm}",
        f"VMs (nodes)  {s.chips} / {s.chips_per_vm} = {s.vms}  ->  {'multi-host' if s.multi_host else 'single-host'}",
        f"tensorcores  {s.tensorcores} (device type {s.device_type})",
    ]
    if s.multi_host:
        placement = (
            f"workload policy {s.workload_policy} with accelerator topology {s.topology} (replaces tpu_topology)"
            if s.workload_policy
            else f"placement {s.placement_type}, tpu_topology {s.topology}"
        )
        lines += [
            f"node pool    {placement}",
            f"             one node pool per slice, all-or-nothing: 0 or {s.max_nodes} nodes (max nodes {s.max_nodes})",
        ]
    else:
        lines.append("node pool    single-host: each node is one whole slice; scale 0..N nodes for N slices")
    selector = ", ".join(f"{k}={v}" for k, v in s.node_selector.items())
    lines.append(f"selector     {selector}")
    lines.append(f"per node     {_resources_text(s.machine_type)}")
    return lines


def _explain_gpu(m: GpuMachine) -> list[str]:
    lines = [
        f"{m.machine_type}: {m.series}, {m.gpus_per_vm} x {m.accelerator_label} per VM",
        f"selector     {', '.join(f'{k}={v}' for k, v in m.node_selector.items())}",
        f"per node     {_resources_text(m.machine_type)}",
        f"capacity     {', '.join(ordered(m.capacity_models))}",
        f"MIG          {', '.join(m.mig_partitions) or 'none'}",
        f"placement    {'COMPACT available' if m.compact_placement else 'no COMPACT placement'}",
    ]
    return lines


def _resources_text(machine_type: str) -> str:
    return ", ".join(f"{k}: {v}" for k, v in node_resources(machine_type).items())


def slice_command(
    machine_type: Annotated[str, typer.Argument(help="TPU or GPU machine type, e.g. ct6e-standard-4t.")],
    topology: Annotated[str | None, typer.Argument(help="TPU topology, e.g. 4x4 or 2x2x1 (TPU only).")] = None,
    output: Annotated[OutputFormat, typer.Option("--format", help="table or json.")] = OutputFormat.table,
) -> None:
    """Explain a TPU slice (chips, VMs, single- or multi-host, node-pool settings) or a GPU machine type."""
    try:
        if not is_gpu_machine_type(machine_type) and not is_tpu_machine_type(machine_type):
            node_resources(machine_type)  # raises CatalogError listing the known types of the family (or all)
        if is_gpu_machine_type(machine_type):
            if topology is not None:
                _fail(f"TOPOLOGY: GPU machine type {machine_type} takes no topology (got {topology!r})")
            machine = gpu_machine(machine_type)
            document: dict[str, object] = {"kind": "gpu", **machine.to_dict()}
            lines = _explain_gpu(machine)
        else:
            if topology is None:
                valid = tpu_machine(machine_type).describe_topologies()
                _fail(f"TOPOLOGY is required for TPU machine type {machine_type}; valid: {valid}")
            tpu = tpu_slice(machine_type, topology)
            document = {"kind": "tpu", **tpu.to_dict()}
            lines = _explain_tpu(tpu)
        document["nodeResources"] = node_resources(machine_type)
    except CatalogError as err:
        _fail(str(err))
    if output is OutputFormat.json:
        _print_json(document)
        return
    console = stdout_console(highlight=False)
    for line in lines:
        console.print(line, soft_wrap=True)
