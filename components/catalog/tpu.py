"""TPU families, their machine types and slice math. One table per family, math in small functions.

A slice is a machine type plus a topology: chips = product of the topology, vms (nodes) = chips / chips per VM,
multi-host when vms > 1. FACTS A.2 [S1 L285-296]; A.3 [S13: default node count = chips / chips per VM].
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from gkecap.components.catalog.capacity import capacity_models_for_family
from gkecap.components.catalog.errors import CatalogError
from gkecap.components.catalog.kinds import GPU, TPU, kind_of, register
from gkecap.components.catalog.labels import (
    COMPACT_PLACEMENT,
    GKE_TPU_ACCELERATOR_LABEL,
    GKE_TPU_TOPOLOGY_LABEL,
)
from gkecap.components.catalog.topology import (
    CubeRule,
    chips_in,
    format_topology,
    parse_topology,
    topology_problem,
)

# Resource policy type of the workload policy that TPU7x multi-host node pools use. FACTS A.3 [S34]
HIGH_THROUGHPUT = "HIGH_THROUGHPUT"


@dataclass(frozen=True)
class TpuMachineType:
    """A TPU VM type and the topologies a node pool of it can have (an explicit list or a cube rule)."""

    name: str
    family: str
    chips_per_vm: int
    vcpus: int | None  # None: not documented in the sources read
    memory_gb: float | None
    topologies: tuple[str, ...] = ()
    cube_rule: CubeRule | None = None
    source: str = ""

    def allows(self, sizes: tuple[int, ...]) -> bool:
        if self.cube_rule is not None:
            return self.cube_rule.allows(sizes)
        return format_topology(sizes) in self.topologies

    def valid_topologies(self) -> tuple[str, ...]:
        """Every valid topology (for cube rules: the generated list, hundreds of entries)."""
        return self.cube_rule.topologies() if self.cube_rule is not None else self.topologies

    def describe_topologies(self) -> str:
        """Short human text: the explicit list, or the cube rule with a few examples."""
        return self.cube_rule.describe() if self.cube_rule is not None else ", ".join(self.topologies)


@dataclass(frozen=True)
class TpuFamily:
    """A TPU generation: node label value, topology dimensionality and its machine types."""

    name: str  # our short name, e.g. "v6e"
    accelerator_label: str  # value of cloud.google.com/gke-tpu-accelerator
    dims: int  # 2 (2D torus) or 3 (3D torus)
    tensorcores_per_chip: int
    machine_types: tuple[TpuMachineType, ...]
    xpk_prefix: str  # xpk's device-type prefix, e.g. "v5litepod" in "v5litepod-16"
    max_chips: int  # largest slice
    # Multi-host pools of this family get a workload policy (resource policy, HIGH_THROUGHPUT, with the
    # accelerator topology) instead of placement_policy.tpu_topology. None: tpu_topology as usual.
    multi_host_workload_policy: str | None = None
    aliases: tuple[str, ...] = ()
    source: str = ""

    @property
    def capacity_models(self) -> frozenset[str]:
        return capacity_models_for_family(self.name)

    @property
    def machine_type_names(self) -> tuple[str, ...]:
        return tuple(mt.name for mt in self.machine_types)

    def machine_type(self, name: str) -> TpuMachineType:
        for mt in self.machine_types:
            if mt.name == name:
                return mt
        raise CatalogError(
            f"unknown {self.name} machine type {name!r}; known {self.name} machine types: "
            f"{', '.join(self.machine_type_names)}"
        )


@dataclass(frozen=True)
class TpuSlice:
    """One TPU slice: what a node pool of `machine_type` with `topology` is, and the settings it implies."""

    machine_type: str
    family: str
    topology: str  # normalized, e.g. "4x4"
    dims: tuple[int, ...]
    accelerator_label: str
    chips_per_vm: int
    vms: int  # nodes in one slice
    chips: int
    tensorcores: int
    multi_host: bool
    workload_policy: str | None  # HIGH_THROUGHPUT for TPU7x multi-host, else None
    device_type: str  # xpk style, e.g. "v6e-16"

    @property
    def nodes(self) -> int:
        return self.vms

    @property
    def max_nodes(self) -> int:
        """A multi-host slice is all-or-nothing: its pool has 0 or exactly `vms` nodes. FACTS A.3 [secondary]"""
        return self.vms

    @property
    def placement_type(self) -> str | None:
        """Multi-host slices need COMPACT placement. FACTS A.3 [S6 PlacementPolicy; S11 gke.go L571-616]"""
        return COMPACT_PLACEMENT if self.multi_host else None

    @property
    def tpu_topology(self) -> str | None:
        """Value for placement_policy.tpu_topology (None for single-host, or where a workload policy carries it)."""
        return self.topology if self.multi_host and self.workload_policy is None else None

    @property
    def uses_workload_policy(self) -> bool:
        return self.workload_policy is not None

    @property
    def node_selector(self) -> dict[str, str]:
        """Labels GKE puts on the slice's nodes, for pod nodeSelectors and Kueue flavors. FACTS A.1 [S1]"""
        return {GKE_TPU_ACCELERATOR_LABEL: self.accelerator_label, GKE_TPU_TOPOLOGY_LABEL: self.topology}

    def to_dict(self) -> dict[str, object]:
        return {
            "machineType": self.machine_type,
            "family": self.family,
            "topology": self.topology,
            "acceleratorLabel": self.accelerator_label,
            "chipsPerVm": self.chips_per_vm,
            "vms": self.vms,
            "chips": self.chips,
            "tensorcores": self.tensorcores,
            "multiHost": self.multi_host,
            "deviceType": self.device_type,
            "nodePool": {
                "maxNodes": self.max_nodes,
                "placementType": self.placement_type,
                "tpuTopology": self.tpu_topology,
                "workloadPolicy": (
                    {"type": self.workload_policy, "acceleratorTopology": self.topology}
                    if self.workload_policy
                    else None
                ),
            },
            "nodeSelector": self.node_selector,
        }


# --- Tables -------------------------------------------------------------------------------------------
# Labels: FACTS A.1 [S1, S9]. Tensorcores per chip: FACTS A.2 [S1]. Generators: FACTS A.2 table [S1].

V4 = TpuFamily(
    name="v4",
    accelerator_label="tpu-v4-podslice",
    dims=3,
    tensorcores_per_chip=2,
    xpk_prefix="v4",
    max_chips=4096,  # FACTS A.2 table [S1]
    machine_types=(
        TpuMachineType(
            "ct4p-hightpu-4t", "v4", chips_per_vm=4,
            # vCPUs / memory: GKE "Plan TPUs" machine-type table
            # https://cloud.google.com/kubernetes-engine/docs/concepts/plan-tpus
            vcpus=240, memory_gb=407,
            cube_rule=CubeRule(max_cubes=64, enforce_nondecreasing=False),  # FACTS A.2 [S1]
            source="FACTS A.2 [S1]; 2x2x1 single-host FACTS A.3 [S33]",
        ),
    ),
    source="FACTS A.1, A.2 [S1]",
)

V5E = TpuFamily(
    name="v5e",
    accelerator_label="tpu-v5-lite-podslice",
    dims=2,
    tensorcores_per_chip=1,
    xpk_prefix="v5litepod",
    max_chips=256,
    aliases=("v5litepod", "v5lite"),
    machine_types=(
        # 1t/8t are in Google's v5e docs but not in xpk; Google's docs win. FACTS A.3 [S31], A.2 [S1 history]
        TpuMachineType("ct5lp-hightpu-1t", "v5e", 1, vcpus=24, memory_gb=48, topologies=("1x1",),
                       source="FACTS A.3 [S31]"),
        # 2x2 single-host on 4t: Google docs [S31, S33]; 2x4..16x16 on 4t (2x4 = 2 VMs): xpk [S1]
        TpuMachineType("ct5lp-hightpu-4t", "v5e", 4, vcpus=112, memory_gb=192,
                       topologies=("2x2", "2x4", "4x4", "4x8", "8x8", "8x16", "16x16"),
                       source="FACTS A.2 [S1], A.3 [S31, S33]"),
        TpuMachineType("ct5lp-hightpu-8t", "v5e", 8, vcpus=224, memory_gb=384, topologies=("2x4",),
                       source="FACTS A.3 [S31]"),
    ),
    source="FACTS A.2 [S1], A.3 [S31]",
)

V5P = TpuFamily(
    name="v5p",
    accelerator_label="tpu-v5p-slice",
    dims=3,
    tensorcores_per_chip=2,
    xpk_prefix="v5p",
    max_chips=8960,  # FACTS A.2 table [S1]; pod size FACTS A.3 [S32]
    machine_types=(
        # ct5p-hightpu-1t/2t appear only in an old Cluster Toolkit map [S9a], not in Google's v5p docs
        # (4 chips per VM [S32]) nor in xpk, so they are left out.
        TpuMachineType(
            "ct5p-hightpu-4t", "v5p", chips_per_vm=4,
            # vCPUs / memory: https://cloud.google.com/kubernetes-engine/docs/concepts/plan-tpus
            vcpus=208, memory_gb=448,
            cube_rule=CubeRule(max_cubes=140, enforce_nondecreasing=True),  # FACTS A.2 [S1]
            source="FACTS A.2 [S1], A.3 [S32]",
        ),
    ),
    source="FACTS A.2 [S1], A.3 [S32]",
)

V6E = TpuFamily(
    name="v6e",
    accelerator_label="tpu-v6e-slice",
    dims=2,
    tensorcores_per_chip=1,
    xpk_prefix="v6e",
    max_chips=256,
    aliases=("trillium",),
    machine_types=(
        # vCPU/memory: https://cloud.google.com/tpu/docs/v6e VM types (44/176, 180/720, 180/1440). A user note
        # quoting GKE's plan-tpus page gives 448 GiB for 1t; a running 1t VM reports ~172 GB, so 176 is kept.
        TpuMachineType("ct6e-standard-1t", "v6e", 1, vcpus=44, memory_gb=176, topologies=("1x1",),
                       source="FACTS A.3 [S30]"),
        # 2x4 on 4t is 2 VMs ("only supported when using the GKE API"). FACTS A.3 [S30]; A.2 [S1]
        TpuMachineType("ct6e-standard-4t", "v6e", 4, vcpus=180, memory_gb=720,
                       topologies=("2x2", "2x4", "4x4", "4x8", "8x8", "8x16", "16x16"),
                       source="FACTS A.2 [S1], A.3 [S30]"),
        TpuMachineType("ct6e-standard-8t", "v6e", 8, vcpus=180, memory_gb=1440, topologies=("2x4",),
                       source="FACTS A.3 [S30]"),
    ),
    source="FACTS A.2 [S1], A.3 [S30]",
)

TPU7X = TpuFamily(
    name="tpu7x",
    accelerator_label="tpu7x",
    dims=3,
    tensorcores_per_chip=2,
    xpk_prefix="tpu7x",
    max_chips=9216,  # FACTS A.2 table [S1]; pod FACTS A.3 [S34]
    multi_host_workload_policy=HIGH_THROUGHPUT,  # FACTS A.3 [S34]; A.2 [S1 requires_workload_policy]
    aliases=("ironwood",),
    machine_types=(
        # 1t: xpk [S1]; vCPU/memory not documented in the sources read.
        TpuMachineType("tpu7x-standard-1t", "tpu7x", 1, vcpus=None, memory_gb=None, topologies=("1x1x1",),
                       source="FACTS A.2 [S1]"),
        TpuMachineType("tpu7x-standard-4t", "tpu7x", 4, vcpus=224, memory_gb=960,  # FACTS A.3 [S34]
                       cube_rule=CubeRule(max_cubes=144, enforce_nondecreasing=True),  # FACTS A.2 [S1]
                       source="FACTS A.2 [S1], A.3 [S34]"),
    ),
    source="FACTS A.2 [S1], A.3 [S34]",
)

TPU7 = TpuFamily(
    name="tpu7",
    accelerator_label="tpu7",
    dims=3,
    tensorcores_per_chip=2,
    xpk_prefix="tpu7",
    max_chips=256,
    # xpk requires a workload policy for tpu7 as for tpu7x when vms > 1 (the only source). FACTS A.2 [S1]
    multi_host_workload_policy=HIGH_THROUGHPUT,
    machine_types=(
        # vCPU/memory of tpu7 VMs: not in the sources read.
        TpuMachineType("tpu7-standard-1t", "tpu7", 1, vcpus=None, memory_gb=None, topologies=("1x1x1",),
                       source="FACTS A.2 [S1]"),
        TpuMachineType("tpu7-standard-4t", "tpu7", 4, vcpus=None, memory_gb=None,
                       cube_rule=CubeRule(max_cubes=4, enforce_nondecreasing=True),  # FACTS A.2 [S1]
                       source="FACTS A.2 [S1]"),
    ),
    source="FACTS A.2 [S1]",
)

TPU_FAMILIES: tuple[TpuFamily, ...] = (V4, V5E, V5P, V6E, TPU7X, TPU7)

_BY_MACHINE_TYPE: dict[str, TpuMachineType] = {mt.name: mt for f in TPU_FAMILIES for mt in f.machine_types}
register(TPU, _BY_MACHINE_TYPE)
_FAMILY_BY_NAME: dict[str, TpuFamily] = {f.name: f for f in TPU_FAMILIES}
# Machine-type prefix ("ct6e" in "ct6e-standard-4t") -> family, for helpful errors.
_FAMILY_BY_PREFIX: dict[str, TpuFamily] = {
    mt.name.split("-")[0]: f for f in TPU_FAMILIES for mt in f.machine_types
}


def tpu_machine_types() -> tuple[str, ...]:
    return tuple(_BY_MACHINE_TYPE)


def is_tpu_machine_type(machine_type: str) -> bool:
    return isinstance(machine_type, str) and machine_type in _BY_MACHINE_TYPE


def _known_tpu_types() -> str:
    return "; ".join(f"{f.name}: {', '.join(f.machine_type_names)}" for f in TPU_FAMILIES)


def tpu_machine(machine_type: str) -> TpuMachineType:
    """The TPU machine type; CatalogError lists the family's types (or all TPU types) when unknown."""
    found = _BY_MACHINE_TYPE.get(machine_type) if isinstance(machine_type, str) else None
    if found is not None:
        return found
    prefix = machine_type.split("-")[0] if isinstance(machine_type, str) else ""
    family = _FAMILY_BY_PREFIX.get(prefix)
    if family is not None:
        raise CatalogError(
            f"unknown {family.name} TPU machine type {machine_type!r}; known {family.name} machine types: "
            f"{', '.join(family.machine_type_names)}"
        )
    if kind_of(machine_type) == GPU:
        raise CatalogError(
            f"{machine_type!r} is a GPU machine type, not a TPU one; known TPU machine types: {_known_tpu_types()}"
        )
    raise CatalogError(f"unknown TPU machine type {machine_type!r}; known TPU machine types: {_known_tpu_types()}")


def tpu_family_of(machine_type: str) -> TpuFamily:
    return _FAMILY_BY_NAME[tpu_machine(machine_type).family]


def tpu_family(name: str) -> TpuFamily:
    """A family by our name ("v6e"), xpk prefix, node label value or alias; case-insensitive."""
    key = name.strip().lower() if isinstance(name, str) else ""
    for family in TPU_FAMILIES:
        if key in (family.name, family.xpk_prefix, family.accelerator_label, *family.aliases):
            return family
    raise CatalogError(
        f"unknown TPU family {name!r}; known: {', '.join(f.name for f in TPU_FAMILIES)}"
    )


def tpu_topologies(machine_type: str) -> tuple[str, ...]:
    """Every valid topology of a TPU machine type."""
    return tpu_machine(machine_type).valid_topologies()


def machine_types_for_topology(family: str, topology: str) -> tuple[str, ...]:
    """Machine types of `family` on which `topology` is valid (e.g. v6e 2x4: ct6e-standard-4t, -8t)."""
    fam = tpu_family(family)
    sizes = parse_topology(topology, fam.dims)
    return tuple(mt.name for mt in fam.machine_types if mt.allows(sizes))


def _invalid_topology(mt: TpuMachineType, family: TpuFamily, text: str, sizes: tuple[int, ...]) -> CatalogError:
    message = (
        f"{text!r} is not a valid {family.name} topology for {mt.name}; valid: {mt.describe_topologies()}"
    )
    elsewhere = [other.name for other in family.machine_types if other is not mt and other.allows(sizes)]
    if elsewhere:
        message += f" ({format_topology(sizes)} is valid on {', '.join(elsewhere)})"
    return CatalogError(message)


def tpu_slice(machine_type: str, topology: str) -> TpuSlice:
    """The slice a node pool of `machine_type` with `topology` forms; CatalogError if either is invalid."""
    mt = tpu_machine(machine_type)
    family = _FAMILY_BY_NAME[mt.family]
    problem = topology_problem(topology, family.dims)
    if problem is not None:
        raise CatalogError(
            f"{topology!r} is not a valid {family.name} topology for {mt.name}: {problem} "
            f"({family.name} is {family.dims}D); valid: {mt.describe_topologies()}"
        )
    sizes = parse_topology(topology, family.dims)
    if not mt.allows(sizes):
        raise _invalid_topology(mt, family, topology, sizes)
    return _make_slice(mt, family, sizes)


@lru_cache(maxsize=4096)
def _make_slice(mt: TpuMachineType, family: TpuFamily, sizes: tuple[int, ...]) -> TpuSlice:
    chips = chips_in(sizes)
    # A 1-chip topology fits in one VM of any type (xpk: chips_per_vm = 1 if product == 1). FACTS A.2 [S1]
    chips_per_vm = min(mt.chips_per_vm, chips)
    if chips % chips_per_vm:
        # Not reachable with the tables above; guards a future table edit.
        raise CatalogError(f"{format_topology(sizes)} ({chips} chips) does not divide into {mt.name} VMs")
    vms = chips // chips_per_vm
    tensorcores = chips * family.tensorcores_per_chip
    multi_host = vms > 1
    return TpuSlice(
        machine_type=mt.name,
        family=family.name,
        topology=format_topology(sizes),
        dims=sizes,
        accelerator_label=family.accelerator_label,
        chips_per_vm=chips_per_vm,
        vms=vms,
        chips=chips,
        tensorcores=tensorcores,
        multi_host=multi_host,
        workload_policy=family.multi_host_workload_policy if multi_host else None,
        device_type=f"{family.xpk_prefix}-{tensorcores}",
    )
