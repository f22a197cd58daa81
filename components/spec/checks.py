"""Cross-field rules of an environment spec: catalog facts, references between pools, reservations,
cohorts and teams, calendar windows, quota against capacity.

``check_environment`` runs on a parsed ``EnvironmentSpec`` or, when pydantic rejected parts of the file, on
whatever entries still parse (``_View.lenient``), so one run reports every problem. Pure: no Pulumi.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Iterable, Mapping

from pydantic import BaseModel, ValidationError

from gkecap.components.gke import boot_disks, calendar_window
from gkecap.components.catalog import (
    CAPACITY_MODELS,
    GPU_FAMILIES,
    GPU_RESOURCE,
    TPU_FAMILIES,
    TPU_RESOURCE,
    CatalogError,
    capacity_models_for_family,
    gpu_machine,
    is_tpu_machine_type,
    mig_profile,
    supported_capacity_models,
    tpu_family_of,
    tpu_machine,
    tpu_slice,
)
from gkecap.components.kueue_api import V1BETA2_SINCE
from gkecap.components.gke.node_pools import (
    FLEX_CAPACITIES,
    GPU_FLEX_MIN_VERSION,
    GPU_TAINT,
    MANAGED_LABELS,
    MAX_RUN_DURATION_SECONDS,
    NODE_POOL_NAME_MAX,
    OVERCOMMIT_WARNS,
    QUEUED_TAINT,
    RESERVATION_CAPACITIES,
    TPU7X_MIN_VERSION,
    TPU_FLEX_MIN_VERSION,
    TPU_NODE_TAINT,
    is_default_compute_service_account,
)
from gkecap.components.spec import (
    ClusterSpec,
    CohortSpec,
    EnvironmentSpec,
    KueueSpec,
    NodePoolSpec,
    PriorityClassSpec,
    ReservationSpec,
    TaintSpec,
    TeamSpec,
)
from gkecap.components.spec.errors import SpecIssue, key_path

# --------------------------------------------------------------------------------------------------------
# Facts and limits

# Capacity-model sets (OVERCOMMIT_WARNS too), the 7-day run limit (MAX_RUN_DURATION_SECONDS), the GKE version floors and the node pool
# name limit are gkecap.components.gke.node_pools' facts; the first Kueue with v1beta2 is gkecap.components.kueue_api's.
FLEX_MODELS = FLEX_CAPACITIES
RESERVED_MODELS = RESERVATION_CAPACITIES
GKE_CLUSTER_NAME_MAX = 40  # GKE cluster names: lowercase, start with a letter, up to 40 characters (gcloud reference)
DNS_LABEL_MAX = 63  # Kubernetes namespace and label names (RFC 1123 label)
GCE_NAME_MAX = 63  # Compute Engine resource names (RFC 1035), e.g. reservations [S4 FutureReservation.name]
WPC_DESCRIPTION_MAX = 2048  # WorkloadPriorityClass.description. KUEUE_VALIDATION.md (WorkloadPriorityClass)
# Namespaces a team must never own (its members get edit rights there): Kubernetes' own, Kueue's, and the
# prefixes GKE and Managed Prometheus use for their system namespaces. Project convention.
RESERVED_NAMESPACES = frozenset({"default", "kueue-system"})
RESERVED_NAMESPACE_PREFIXES = ("kube-", "gke-", "gmp-")
MEMBER_KINDS = ("user", "group", "serviceAccount")
# Taint keys a pool's nodes already carry (GKE sets them; gkecap.components.gke.node_pools declares them and the
# Kueue flavor tolerates them): a user taint with one of these keys would clash with them.
RESERVED_TAINT_KEYS = frozenset(t.key for t in (GPU_TAINT, TPU_NODE_TAINT, QUEUED_TAINT))
# "The kubernetes.io/ and k8s.io/ prefixes are reserved for Kubernetes core components"
# (https://kubernetes.io/docs/reference/labels-annotations-taints/); node.kubernetes.io/* taints are the
# node controller's.
RESERVED_KEY_PREFIXES = ("kubernetes.io", "k8s.io")

_DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
_LETTER_NAME = re.compile(r"^[a-z]([-a-z0-9]*[a-z0-9])?$")  # GCE/GKE resource names
_DNS_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
_REGION = re.compile(r"^[a-z]+-[a-z]+[0-9]+$")
_ZONE = re.compile(r"^([a-z]+-[a-z]+[0-9]+)-[a-z]$")
_PROJECT = re.compile(r"^([a-z][-a-z0-9.]*[a-z0-9]:)?[a-z][-a-z0-9]{4,28}[a-z0-9]$")
_EMAIL = re.compile(r"^[^@\s:]+@[^@\s]+\.[^@\s]+$")
_LABEL_NAME = re.compile(r"^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)$")
_LABEL_VALUE = re.compile(r"^(([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?)$")
_GKE_VERSION = re.compile(r"^(\d+)\.(\d+)(?:\.(\d+)(?:-gke\.(\d+))?)?$")
_KUEUE_VERSION = re.compile(r"^v(\d+)\.(\d+)\.(\d+)(-[0-9A-Za-z.-]+)?$")
_QUANTITY = re.compile(r"^(\d+(\.\d+)?|\.\d+)(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$")


def check_environment(
    spec: EnvironmentSpec | None, data: Mapping[str, Any], now: datetime
) -> tuple[list[SpecIssue], list[SpecIssue]]:
    """(errors, warnings) of the cross-field rules. `spec` is None when pydantic rejected part of `data`."""
    view = _View.of(spec) if spec is not None else _View.lenient(data)
    checker = _Checker(view, now)
    checker.run()
    return checker.issues, checker.warnings


# --------------------------------------------------------------------------------------------------------
# A view of what parsed, so cross-field checks run even when some entries are malformed


@dataclass
class _View:
    project: str | None
    region: str | None
    node_service_account: str | None
    cluster: ClusterSpec | None
    kueue: KueueSpec | None
    pools: list[tuple[int, NodePoolSpec]]
    reservations: list[tuple[int, ReservationSpec]]
    cohorts: list[tuple[int, CohortSpec]]
    teams: list[tuple[int, TeamSpec]]
    priority_classes: list[tuple[int, PriorityClassSpec]]
    # Names written in the file, parsed or not: references to them are not reported as dangling.
    # None when the section itself is malformed: references into it are then not checked.
    pool_names: set[str] | None
    reservation_names: set[str] | None
    cohort_names: set[str] | None

    @classmethod
    def of(cls, spec: EnvironmentSpec) -> "_View":
        return cls(
            project=spec.project,
            region=spec.region,
            node_service_account=spec.node_service_account,
            cluster=spec.cluster,
            kueue=spec.kueue,
            pools=list(enumerate(spec.node_pools)),
            reservations=list(enumerate(spec.reservations)),
            cohorts=list(enumerate(spec.cohorts)),
            teams=list(enumerate(spec.teams)),
            priority_classes=list(enumerate(spec.priority_classes or [])),
            pool_names={p.name for p in spec.node_pools},
            reservation_names={r.name for r in spec.reservations},
            cohort_names={c.name for c in spec.cohorts},
        )

    @classmethod
    def lenient(cls, data: Mapping[str, Any]) -> "_View":
        def one(key: str, model: type[BaseModel], default: Any = None) -> Any:
            raw = data.get(key, default)
            return None if raw is None else _parse_salvaging(model, raw)

        def many(key: str, model: type[BaseModel]) -> list[tuple[int, Any]]:
            raw = data.get(key)
            if not isinstance(raw, list):
                return []
            parsed = ((index, _parse_salvaging(model, item)) for index, item in enumerate(raw))
            return [(index, item) for index, item in parsed if item is not None]

        def names(key: str) -> set[str] | None:
            raw = data.get(key)
            if raw is None:
                return set()
            if not isinstance(raw, list):
                return None  # the section is malformed (reported): its names are unknown
            return {item["name"] for item in raw if isinstance(item, Mapping) and isinstance(item.get("name"), str)}

        region = data.get("region") if isinstance(data.get("region"), str) else None
        project = data.get("project") if isinstance(data.get("project"), str) else None
        sa = data.get("nodeServiceAccount") if isinstance(data.get("nodeServiceAccount"), str) else None
        cluster = one("cluster", ClusterSpec)
        if cluster is not None and cluster.location is None and region is not None:
            cluster.location = region
        kueue = one("kueue", KueueSpec, {})
        classes = many("priorityClasses", PriorityClassSpec)
        return cls(
            project=project,
            region=region,
            node_service_account=sa,
            cluster=cluster,
            kueue=kueue,
            pools=many("nodePools", NodePoolSpec),
            reservations=many("reservations", ReservationSpec),
            cohorts=many("cohorts", CohortSpec),
            teams=many("teams", TeamSpec),
            priority_classes=classes,
            pool_names=names("nodePools"),
            reservation_names=names("reservations"),
            cohort_names=names("cohorts"),
        )


def _parse_salvaging(model: type[BaseModel], raw: Any) -> Any:
    """Parse one entry; if that fails, once more without the keys that failed (already reported), so the
    cross-field checks still see the rest of the entry. None when even that fails (e.g. a required key)."""
    try:
        return model.model_validate(raw)
    except ValidationError as err:
        if not isinstance(raw, Mapping):
            return None
        bad = {error["loc"][0] for error in err.errors() if error["loc"]}
        try:
            return model.model_validate({k: v for k, v in raw.items() if k not in bad})
        except ValidationError:
            return None


# --------------------------------------------------------------------------------------------------------
# Cross-field checks


@dataclass(frozen=True)
class _PoolFacts:
    """What the catalog says about one pool, resolved once and shared by the checks."""

    index: int
    pool: NodePoolSpec
    kind: str  # "gpu" | "tpu"
    resource: str
    per_node: int  # accelerators per node
    nodes: int | None  # GPU max nodes (after the calendar default)
    slices: int
    chips_per_slice: int | None
    vms_per_slice: int | None
    family: str

    @property
    def capacity(self) -> int | None:
        if self.kind == "tpu":
            return self.slices * self.chips_per_slice if self.chips_per_slice else None
        return self.nodes * self.per_node if self.nodes else None

    def capacity_text(self) -> str:
        if self.kind == "tpu":
            return f"{self.slices} slice{'s' if self.slices != 1 else ''} x {self.chips_per_slice} chips"
        return f"{self.nodes} node{'s' if self.nodes != 1 else ''} x {self.per_node}"


class _Checker:
    def __init__(self, view: _View, now: datetime):
        self.v = view
        self.now = now
        self.issues: list[SpecIssue] = []
        self.warnings: list[SpecIssue] = []
        self.facts: dict[str, _PoolFacts] = {}
        self.reservations: dict[str, tuple[int, ReservationSpec]] = {}

    def error(self, path: str, message: str) -> None:
        self.issues.append(SpecIssue(path, message))

    def warn(self, path: str, message: str) -> None:
        self.warnings.append(SpecIssue(path, message))

    def run(self) -> None:
        self.check_environment()
        self.check_kueue()
        self.index_reservations()
        self.check_pools()
        self.check_reservations()
        self.check_calendar_consumption()
        self.check_cluster()
        self.check_cohorts()
        self.check_teams()
        self.check_priority_classes()
        # Partial views (some entries malformed) can only under-count quotas, so what this finds is real.
        self.check_quota_vs_capacity()

    # ---- environment, cluster, kueue

    def check_environment(self) -> None:
        v = self.v
        if v.project is not None and not _PROJECT.match(v.project):
            self.error(
                "project",
                f"{v.project!r} is not a Google Cloud project ID; IDs are 6-30 lowercase letters, digits and hyphens,"
                " starting with a letter",
            )
        if v.region is not None and not _REGION.match(v.region):
            self.error(
                "region", f"{v.region!r} is not a Google Cloud region; regions look like us-east5 or europe-west4"
            )
        sa = v.node_service_account
        if sa is not None:
            if not _EMAIL.match(sa):
                self.error(
                    "nodeServiceAccount",
                    f"{sa!r} is not a service account email (name@project.iam.gserviceaccount.com)",
                )
            elif is_default_compute_service_account(sa):
                self.error(
                    "nodeServiceAccount",
                    f"{sa!r} is the Compute Engine default service account; use a dedicated least-privilege "
                    "account, or omit nodeServiceAccount to have one created",
                )

    def check_cluster(self) -> None:
        cluster = self.v.cluster
        if cluster is None:
            return
        if not _LETTER_NAME.match(cluster.name) or len(cluster.name) > GKE_CLUSTER_NAME_MAX:
            self.error(
                "cluster.name",
                f"{cluster.name!r} is not a valid GKE cluster name; allowed: lowercase letters, digits and "
                f"hyphens, starting with a letter, at most {GKE_CLUSTER_NAME_MAX} characters",
            )
        region = self.v.region
        location = cluster.location
        if (
            region
            and location
            and _REGION.match(region)
            and not (location == region or _zone_region(location) == region)
        ):
            self.error(
                "cluster.location", f"{location!r} is not the region {region} or one of its zones (e.g. {region}-a)"
            )
        if not cluster.create:
            if "system_pool" in cluster.model_fields_set:
                self.warn("cluster.systemPool", "has no effect on an existing cluster (create: false)")
        if cluster.min_master_version is not None:
            self.check_version_floor(cluster.min_master_version)

    def check_version_floor(self, version: str) -> None:
        path = "cluster.minMasterVersion"
        if version.lower() == "latest":
            return
        given = _parse_gke_version(version)
        if given is None:
            self.error(path, f"{version!r} is not a GKE version; write it like 1.33.2-gke.1240000, 1.33 or latest")
            return
        floors: list[tuple[str, str, list[str]]] = []
        # Queued provisioning (any accelerator) and GPU flex-start: FACTS B.1 [S14], B.3 [S17].
        dws = [
            f.pool.name
            for f in self.facts.values()
            if f.pool.capacity == "queued" or (f.kind == "gpu" and f.pool.capacity == "flex-start")
        ]
        # Flex-start TPUs: FACTS B.3 [S17].
        flex_tpu = [f.pool.name for f in self.facts.values() if f.kind == "tpu" and f.pool.capacity == "flex-start"]
        tpu7x = [f.pool.name for f in self.facts.values() if f.family == "tpu7x"]
        if dws:
            floors.append((GPU_FLEX_MIN_VERSION, "queued and flex-start GPU pools", dws))
        if flex_tpu:
            floors.append((TPU_FLEX_MIN_VERSION, "flex-start TPU pools", flex_tpu))
        if tpu7x:
            floors.append((TPU7X_MIN_VERSION, "TPU7x pools", tpu7x))
        for floor, what, pools in floors:
            if _version_below(given, _parse_gke_version(floor)):  # type: ignore[arg-type]
                self.error(
                    path,
                    f"{version!r} is older than {floor}, the minimum for {what} ({_names(pools)}); "
                    f"allowed: {floor} or later",
                )

    def check_kueue(self) -> None:
        kueue = self.v.kueue
        if kueue is None:
            return
        match = _KUEUE_VERSION.match(kueue.version)
        if not match:
            self.error("kueue.version", f"{kueue.version!r} is not a Kueue release; write it like v0.19.2")
        elif kueue.api_version == "v1beta2" and tuple(int(g) for g in match.groups()[:3]) < V1BETA2_SINCE:
            self.error(
                "kueue.apiVersion",
                f"'v1beta2' needs Kueue v{'.'.join(map(str, V1BETA2_SINCE))} or later (kueue.version is {kueue.version}); "
                "use apiVersion v1beta1 or a newer Kueue",
            )
        resources = kueue.manager_resources
        if resources is not None:
            for key, value in (("cpu", resources.cpu), ("memory", resources.memory)):
                if value is not None and (not _QUANTITY.match(value) or _zero_quantity(value)):
                    self.error(
                        f"kueue.managerResources.{key}",
                        f"{value!r} is not a positive Kubernetes quantity; e.g."
                        f" {'500m or 1' if key == 'cpu' else '512Mi or 1Gi'}",
                    )

    # ---- node pools

    def index_reservations(self) -> None:
        for index, reservation in self.v.reservations:
            self.reservations.setdefault(reservation.name, (index, reservation))

    def check_pools(self) -> None:
        seen: dict[str, int] = {}
        for index, pool in self.v.pools:
            path = f"nodePools[{index}]"
            self.check_unique("nodePools", index, pool.name, seen, "pool")
            facts = self.pool_facts(index, pool)
            self.check_pool_name(index, pool, facts)
            self.check_zones(f"{path}.zones", pool.zones)
            self.check_pool_options(index, pool, facts)
            self.check_labels(f"{path}.labels", pool.labels)
            self.check_taints(f"{path}.taints", pool.taints)
            if facts is not None:
                for problem in boot_disks.check_boot_disk(pool.machine_type, pool.disk_type, pool.disk_size_gb):
                    self.error(f"{path}.{problem.field}", problem.message)
            if facts is not None and pool.name not in self.facts:
                self.facts[pool.name] = facts

    def pool_facts(self, index: int, pool: NodePoolSpec) -> _PoolFacts | None:
        """Resolve the machine type through the catalog; report catalog-level problems."""
        path = f"nodePools[{index}]"
        mt = pool.machine_type
        try:
            models = supported_capacity_models(mt)
        except CatalogError as err:
            self.error(f"{path}.machineType", str(err))
            return None
        if pool.capacity not in models:
            self.error(
                f"{path}.capacity",
                f"{pool.capacity!r} is not available for {mt}; supported:"
                f" {', '.join(m for m in CAPACITY_MODELS if m in models)}",
            )
        if is_tpu_machine_type(mt):
            return self.tpu_pool_facts(index, pool)
        return self.gpu_pool_facts(index, pool)

    def tpu_pool_facts(self, index: int, pool: NodePoolSpec) -> _PoolFacts | None:
        path = f"nodePools[{index}]"
        machine = tpu_machine(pool.machine_type)
        family = tpu_family_of(pool.machine_type)
        if pool.max_nodes is not None:
            self.error(
                f"{path}.maxNodes",
                "TPU pools are sized in slices, never nodes: use slices (the node count follows from tpuTopology)",
            )
        if pool.min_nodes is not None:
            self.error(f"{path}.minNodes", "TPU pools are sized in slices and scale from zero; remove minNodes")
        for key, value in (
            ("gpuDriverVersion", pool.gpu_driver_version),
            ("gpuPartitionSize", pool.gpu_partition_size),
            ("gpuSharing", pool.gpu_sharing),
        ):
            if value is not None:
                self.error(f"{path}.{key}", f"applies to GPU pools only; {pool.machine_type} is a TPU machine type")
        slices = pool.slices if pool.slices is not None else 1
        if pool.tpu_topology is None:
            self.error(
                f"{path}.tpuTopology",
                f"required for TPU machine type {pool.machine_type}; valid: {machine.describe_topologies()}",
            )
            return None
        try:
            tpu = tpu_slice(pool.machine_type, pool.tpu_topology)
        except CatalogError as err:
            self.error(f"{path}.tpuTopology", str(err))
            return None
        if tpu.multi_host and pool.zones is not None and len(set(pool.zones)) > 1:
            self.error(
                f"{path}.zones",
                f"a multi-host {tpu.topology} slice ({tpu.vms} VMs) lives in one zone; give exactly one zone, "
                f"got {', '.join(pool.zones)}",
            )
        return _PoolFacts(
            index=index,
            pool=pool,
            kind="tpu",
            resource=TPU_RESOURCE,
            per_node=tpu.chips_per_vm,
            nodes=None,
            slices=slices,
            chips_per_slice=tpu.chips,
            vms_per_slice=tpu.vms,
            family=family.name,
        )

    def gpu_pool_facts(self, index: int, pool: NodePoolSpec) -> _PoolFacts | None:
        path = f"nodePools[{index}]"
        gpu = gpu_machine(pool.machine_type)
        if pool.tpu_topology is not None:
            self.error(f"{path}.tpuTopology", f"applies to TPU pools only; {pool.machine_type} is a GPU machine type")
        if pool.slices is not None:
            self.error(f"{path}.slices", "applies to TPU pools only; size GPU pools with maxNodes")
        nodes = pool.max_nodes
        if nodes is None:
            if pool.capacity == "calendar":
                reserved = self.reservations.get(pool.reservation or "")
                nodes = reserved[1].count if reserved else None  # default: the whole reservation
            else:
                self.error(f"{path}.maxNodes", "required for GPU pools: the most nodes the pool may scale to (>= 1)")
        if pool.min_nodes is not None:
            if pool.capacity in FLEX_MODELS:
                self.error(f"{path}.minNodes", f"{pool.capacity} pools scale from zero (FACTS B.1); remove minNodes")
            elif nodes is not None and pool.min_nodes > nodes:
                self.error(f"{path}.minNodes", f"{pool.min_nodes} exceeds maxNodes {nodes}; allowed: 0 to {nodes}")
        if pool.gpu_partition_size is not None:
            try:
                mig_profile(gpu.accelerator_label, pool.gpu_partition_size)
            except CatalogError as err:
                self.error(f"{path}.gpuPartitionSize", str(err))
        sharing = pool.gpu_sharing
        if sharing is not None:
            supported = {"TIME_SHARING": gpu.time_sharing, "MPS": gpu.mps}
            if not supported[sharing.strategy]:
                allowed = [s for s, ok in supported.items() if ok]
                self.error(
                    f"{path}.gpuSharing.strategy",
                    f"{sharing.strategy!r} is not supported on {gpu.accelerator_label}; allowed:"
                    f" {', '.join(allowed) or 'none'}",
                )
            if sharing.strategy == "MPS" and pool.gpu_partition_size is not None:
                # GKE shares MIG partitions by time-sharing; MPS runs on whole GPUs.
                self.error(
                    f"{path}.gpuSharing.strategy",
                    "'MPS' cannot be combined with gpuPartitionSize; use TIME_SHARING to share MIG partitions, "
                    "or drop gpuPartitionSize",
                )
        return _PoolFacts(
            index=index,
            pool=pool,
            kind="gpu",
            resource=GPU_RESOURCE,
            per_node=gpu.gpus_per_vm,
            nodes=nodes,
            slices=1,
            chips_per_slice=None,
            vms_per_slice=None,
            family=gpu.family,
        )

    def check_pool_name(self, index: int, pool: NodePoolSpec, facts: _PoolFacts | None) -> None:
        path = f"nodePools[{index}].name"
        suffix = ""
        if facts is not None and facts.kind == "tpu" and (facts.vms_per_slice or 0) > 1 and facts.slices > 1:
            suffix = f"-s{facts.slices - 1}"  # one GKE node pool per slice: <pool>-s0, -s1, ... (node_settings)
        limit = NODE_POOL_NAME_MAX - len(suffix)
        if not _LETTER_NAME.match(pool.name):
            self.error(
                path,
                f"{pool.name!r} is not a valid pool name; allowed: lowercase letters, digits and hyphens, "
                "starting with a letter and ending with a letter or digit",
            )
        elif len(pool.name) > limit:
            why = (
                f" so that the GKE node pool names ({pool.name}{suffix}) fit in {NODE_POOL_NAME_MAX}"
                if suffix
                else ""
            )
            self.error(path, f"{pool.name!r} has {len(pool.name)} characters; at most {limit}{why}")

    def check_pool_options(self, index: int, pool: NodePoolSpec, facts: _PoolFacts | None) -> None:
        path = f"nodePools[{index}]"
        if pool.max_run_duration is not None:
            if pool.capacity not in FLEX_MODELS:
                self.error(
                    f"{path}.maxRunDuration", f"applies to flex-start and queued pools only, not {pool.capacity}"
                )
            elif not 1 <= pool.max_run_duration <= MAX_RUN_DURATION_SECONDS:
                self.error(
                    f"{path}.maxRunDuration",
                    f"{pool.max_run_duration} seconds is outside the flex-start limit; allowed: 1 to "
                    f"{MAX_RUN_DURATION_SECONDS} (7 days)",
                )
        if pool.capacity in RESERVED_MODELS:
            if pool.reservation is None:
                what = (
                    "a reservation declared in reservations"
                    if pool.capacity == "calendar"
                    else "an existing specific reservation"
                )
                self.error(f"{path}.reservation", f"required for {pool.capacity} pools: the name of {what}")
            elif not _LETTER_NAME.match(pool.reservation) or len(pool.reservation) > GCE_NAME_MAX:
                self.error(f"{path}.reservation", f"{pool.reservation!r} is not a reservation name; {_GCE_NAME_RULE}")
            if pool.capacity == "calendar" and pool.reservation_project is not None:
                self.error(
                    f"{path}.reservationProject",
                    "applies to capacity: reservation only; calendar reservations are declared in this environment's"
                    " project",
                )
        else:
            for key, value in (
                ("reservation", pool.reservation),
                ("reservationBlock", pool.reservation_block),
                ("reservationProject", pool.reservation_project),
            ):
                if value is not None:
                    self.error(
                        f"{path}.{key}",
                        f"applies to calendar and reservation pools only; {pool.capacity} pools consume no reservation",
                    )
        if pool.reservation_project is not None and not _PROJECT.match(pool.reservation_project):
            self.error(f"{path}.reservationProject", f"{pool.reservation_project!r} is not a Google Cloud project ID")
        if pool.reservation_block is not None and not _LETTER_NAME.match(pool.reservation_block):
            self.error(
                f"{path}.reservationBlock",
                f"{pool.reservation_block!r} is not a reservation block name; {_GCE_NAME_RULE}",
            )

    def check_zones(self, path: str, zones: list[str] | None) -> None:
        if zones is None:
            return
        if not zones:
            self.error(path, "must list at least one zone, or be left out")
            return
        region = self.v.region if self.v.region and _REGION.match(self.v.region) else None
        seen: set[str] = set()
        for index, zone in enumerate(zones):
            self.check_zone(f"{path}[{index}]", zone, region)
            if zone in seen:
                self.error(f"{path}[{index}]", f"{zone!r} is listed twice")
            seen.add(zone)

    def check_zone(self, path: str, zone: str, region: str | None) -> None:
        if not _ZONE.match(zone):
            example = f"{region}-a" if region else "us-east5-a"
            self.error(path, f"{zone!r} is not a zone; zones look like {example}")
        elif region is not None and _zone_region(zone) != region:
            self.error(path, f"{zone!r} is not in the region {region}; allowed: zones {region}-a, {region}-b, ...")

    def check_labels(self, path: str, labels: Mapping[str, str]) -> None:
        for key, value in labels.items():
            where = key_path(path, key)
            if key in MANAGED_LABELS:
                self.error(where, f"{key!r} is set by gke-capacity to select this pool; remove it")
                continue
            problem = _label_key_problem(key)
            if problem:
                self.error(where, f"{key!r} is not a label key: {problem}")
            if len(value) > 63 or not _LABEL_VALUE.match(value):
                self.error(
                    where,
                    f"{value!r} is not a label value; allowed: at most 63 letters, digits, '-', '_' or '.', "
                    "starting and ending with a letter or digit",
                )

    def check_taints(self, path: str, taints: list[TaintSpec]) -> None:
        seen: dict[tuple[str, str], int] = {}
        for index, taint in enumerate(taints):
            where = f"{path}[{index}]"
            reserved = _reserved_taint_key(taint.key)
            if reserved:
                self.error(
                    f"{where}.key", f"{taint.key!r} {reserved}; use a key of your own, e.g. example.com/dedicated"
                )
            else:
                problem = _label_key_problem(taint.key)
                if problem:
                    self.error(f"{where}.key", f"{taint.key!r} is not a taint key: {problem}")
            if len(taint.value) > 63 or not _LABEL_VALUE.match(taint.value):
                self.error(
                    f"{where}.value",
                    f"{taint.value!r} is not a taint value; allowed: at most 63 letters, digits, '-', '_' or '.', "
                    "starting and ending with a letter or digit",
                )
            first = seen.setdefault((taint.key, taint.effect), index)
            if first != index:
                # Kubernetes keeps one taint per key and effect (node validation: "taints must be unique by key
                # and effect pair").
                self.error(
                    where,
                    f"taint {taint.key!r} with effect {taint.effect} is already {path}[{first}]; a node has one "
                    "taint per key and effect",
                )

    # ---- reservations

    def check_reservations(self) -> None:
        seen: dict[str, int] = {}
        used = {p.reservation for _, p in self.v.pools if p.capacity == "calendar" and p.reservation}
        region = self.v.region if self.v.region and _REGION.match(self.v.region) else None
        for index, res in self.v.reservations:
            path = f"reservations[{index}]"
            self.check_unique("reservations", index, res.name, seen, "reservation")
            if not _LETTER_NAME.match(res.name) or len(res.name) > GCE_NAME_MAX:
                self.error(f"{path}.name", f"{res.name!r} is not a reservation name; {_GCE_NAME_RULE}")
            self.check_zone(f"{path}.zone", res.zone, region)
            for project_index, project in enumerate(res.share_with):
                if not _PROJECT.match(project):
                    self.error(f"{path}.shareWith[{project_index}]", f"{project!r} is not a Google Cloud project ID")
            kind, family = self.reservation_kind(index, res)
            start_ok = res.start.tzinfo is not None and res.start.tzinfo.utcoffset(res.start) is not None
            if not start_ok:
                self.error(
                    f"{path}.start",
                    f"{res.start.isoformat()} has no time zone; write it in UTC, e.g. "
                    f"{res.start.strftime('%Y-%m-%dT%H:%M:%S')}Z",
                )
            if kind is not None:
                self.check_window(path, res, kind, family, start_ok)
            if res.name not in used:
                self.warn(
                    path,
                    f"reservation {res.name!r} is consumed by no calendar pool; add a pool with capacity: calendar "
                    f"and reservation: {res.name}",
                )

    def check_window(self, path: str, res: ReservationSpec, kind: str, family: str | None, start_ok: bool) -> None:
        # Past starts (calendar_window's module docstring): a draft's is an error (move the window); a submitted
        # one's is expected while it runs, and a warning once it has ended (nothing left to consume).
        problems = calendar_window.check_calendar_request(
            kind=kind,
            count=res.count,
            start=res.start if start_ok else self.now,
            days=res.days,  # type: ignore[arg-type]
            now=self.now,
            machine_type=res.machine_type,
            tpu_family=family,
            workload_type=res.workload_type,
            share_with=res.share_with,
            submitted=res.submit,
        )
        for problem in problems:
            if problem.field == "start" and not start_ok:
                continue
            self.error(f"{path}.{problem.field}", problem.message)
        if start_ok:
            ended = calendar_window.ended_notice(res.start, res.end, now=self.now, submitted=res.submit)
            if ended is not None:
                self.warn(f"{path}.start", f"reservation {res.name!r}: {ended.message}")

    def reservation_kind(self, index: int, res: ReservationSpec) -> tuple[str | None, str | None]:
        path = f"reservations[{index}].machineType"
        try:
            models = supported_capacity_models(res.machine_type)
        except CatalogError as err:
            self.error(path, str(err))
            return None, None
        if "calendar" not in models:
            self.error(
                path,
                f"{res.machine_type!r} cannot be reserved in calendar mode; calendar mode covers the families "
                f"{', '.join(_calendar_families())}",
            )
            return None, None
        if is_tpu_machine_type(res.machine_type):
            return "tpu", tpu_family_of(res.machine_type).name
        return "gpu", gpu_machine(res.machine_type).family

    def check_calendar_consumption(self) -> None:
        """Calendar pools: declared reservation, same machine type, its zone, within its count (all pools together)."""
        consumers: dict[str, list[_PoolFacts]] = {}
        for index, pool in self.v.pools:
            if pool.capacity != "calendar" or pool.reservation is None:
                continue
            path = f"nodePools[{index}]"
            found = self.reservations.get(pool.reservation)
            if found is None:
                if self.v.reservation_names is not None and pool.reservation not in self.v.reservation_names:
                    declared = ", ".join(sorted(self.v.reservation_names)) or "none"
                    self.error(
                        f"{path}.reservation",
                        f"{pool.reservation!r} is not declared in reservations; declared: {declared}",
                    )
                continue
            _, res = found
            if res.machine_type != pool.machine_type:
                self.error(
                    f"{path}.machineType",
                    f"{pool.machine_type!r} does not match reservation {res.name!r}, which reserves {res.machine_type};"
                    " a calendar pool must use the reserved machine type",
                )
                continue
            if pool.zones is not None and any(zone != res.zone for zone in pool.zones):
                self.error(
                    f"{path}.zones",
                    f"{', '.join(pool.zones)} is outside reservation {res.name!r}, which is in {res.zone}; allowed:"
                    f" [{res.zone}]",
                )
            facts = self.facts.get(pool.name)
            if facts is not None and facts.index == index:
                consumers.setdefault(res.name, []).append(facts)
        for name, pools in consumers.items():
            res_index, res = self.reservations[name]
            unit = "chips" if pools[0].kind == "tpu" else "VMs"
            for facts in pools:
                need = facts.capacity if facts.kind == "tpu" else facts.nodes
                if need is not None and need > res.count:
                    key = "slices" if facts.kind == "tpu" else "maxNodes"
                    detail = f" ({facts.capacity_text()})" if facts.kind == "tpu" else ""
                    self.error(
                        f"nodePools[{facts.index}].{key}",
                        f"the pool needs {need} {unit}{detail} but reservation {name!r} holds {res.count} {unit}; "
                        f"allowed: at most {res.count} {unit}",
                    )
            total = sum((f.capacity if f.kind == "tpu" else f.nodes) or 0 for f in pools)
            if len(pools) > 1 and total > res.count:
                parts = ", ".join(f"{f.pool.name} {(f.capacity if f.kind == 'tpu' else f.nodes)}" for f in pools)
                self.error(
                    f"reservations[{res_index}].count",
                    f"pools consuming {name!r} need {total} {unit} together ({parts}) but it holds {res.count}; "
                    "reduce the pools or reserve more",
                )

    # ---- cohorts and teams

    def check_cohorts(self) -> None:
        seen: dict[str, int] = {}
        parents: dict[str, str | None] = {}
        for index, cohort in self.v.cohorts:
            path = f"cohorts[{index}]"
            self.check_dns_label(f"{path}.name", cohort.name, "cohort name")
            if not self.check_unique("cohorts", index, cohort.name, seen, "cohort"):
                continue
            parents[cohort.name] = cohort.parent
            if cohort.weight is not None and self.v.kueue is not None and not self.v.kueue.fair_sharing:
                self.warn(f"{path}.weight", "has no effect while kueue.fairSharing is false")
            if (
                cohort.parent is not None
                and self.v.cohort_names is not None
                and cohort.parent not in self.v.cohort_names
            ):
                self.error(
                    f"{path}.parent",
                    f"{cohort.parent!r} is not a declared cohort; declared: {_names(sorted(self.v.cohort_names))}",
                )
            self.check_pool_keys(f"{path}.quota", cohort.quota)
            self.check_cohort_limits(path, cohort)
        self.check_cohort_cycles(parents, seen)

    def check_cohort_limits(self, path: str, cohort: CohortSpec) -> None:
        """Per-pool borrowingLimit and lendingLimit of a Cohort: only under a parent (KUEUE_VALIDATION R-CO-2:
        "must be nil when parent is empty"). Unlike a team's, a Cohort's lendingLimit may exceed its own quota
        (R-CO-2): it lends what its whole subtree holds, so it is not compared with the quota."""
        for key, limits in (("borrowingLimit", cohort.borrowing_limit), ("lendingLimit", cohort.lending_limit)):
            self.check_pool_keys(f"{path}.{key}", limits)
            if limits and cohort.parent is None:
                what = "borrows from" if key == "borrowingLimit" else "lends to"
                self.error(
                    f"{path}.{key}",
                    f"needs a parent: a cohort {what} its parent cohort, and Kueue rejects {key} on a cohort without"
                    " parent (R-CO-2); set parent or remove it",
                )

    def check_cohort_cycles(self, parents: Mapping[str, str | None], index_of: Mapping[str, int]) -> None:
        state: dict[str, int] = {}  # 1 visiting, 2 done
        for start in parents:
            path: list[str] = []
            node: str | None = start
            while node is not None and node in parents and state.get(node) != 2:
                if state.get(node) == 1:
                    loop = path[path.index(node) :] + [node]
                    self.error(
                        f"cohorts[{index_of[node]}].parent",
                        f"cohorts form a cycle ({' -> '.join(loop)}); a cohort cannot be its own ancestor",
                    )
                    break
                state[node] = 1
                path.append(node)
                node = parents[node]
            for visited in path:
                state[visited] = 2

    def check_teams(self) -> None:
        fair_sharing = self.v.kueue.fair_sharing if self.v.kueue is not None else True
        seen: dict[str, int] = {}
        namespace_owner: dict[str, int] = {}
        for index, team in self.v.teams:
            path = f"teams[{index}]"
            self.check_dns_label(f"{path}.name", team.name, "team name")
            self.check_unique("teams", index, team.name, seen, "team")
            if team.cohort is not None and self.v.cohort_names is not None and team.cohort not in self.v.cohort_names:
                self.error(
                    f"{path}.cohort",
                    f"{team.cohort!r} is not a declared cohort; declared: {_names(sorted(self.v.cohort_names))}",
                )
            self.check_pool_keys(f"{path}.quota", team.quota)
            self.check_pool_keys(f"{path}.borrowingLimit", team.borrowing_limit)
            self.check_pool_keys(f"{path}.lendingLimit", team.lending_limit)
            if team.cohort is None:
                for key, limits in (("borrowingLimit", team.borrowing_limit), ("lendingLimit", team.lending_limit)):
                    if limits:
                        self.error(
                            f"{path}.{key}",
                            "needs a cohort: borrowing and lending happen between teams of one cohort; set cohort or"
                            " remove it",
                        )
            for pool, limit in team.lending_limit.items():
                quota = team.quota.get(pool, 0)
                if limit > quota:
                    self.error(
                        key_path(f"{path}.lendingLimit", pool),
                        f"{limit} exceeds the team's quota {quota} on pool {pool!r}; lendingLimit must be at most the"
                        " quota",
                    )
            if team.weight is not None and not fair_sharing:
                self.warn(f"{path}.weight", "has no effect while kueue.fairSharing is false")
            self.check_namespaces(index, team, namespace_owner)
            self.check_members(index, team)
            self.check_preemption(index, team, fair_sharing)

    def check_namespaces(self, index: int, team: TeamSpec, owner: dict[str, int]) -> None:
        for ns_index, namespace in enumerate(team.namespaces or []):
            path = f"teams[{index}].namespaces[{ns_index}]"
            if not self.check_dns_label(path, namespace, "namespace"):
                continue
            if namespace in RESERVED_NAMESPACES or namespace.startswith(RESERVED_NAMESPACE_PREFIXES):
                self.error(
                    path,
                    f"{namespace!r} is reserved for the cluster, GKE or Kueue; a team namespace cannot be "
                    f"default, kueue-system or start with {', '.join(RESERVED_NAMESPACE_PREFIXES)}",
                )
            other = owner.get(namespace)
            if other is not None and other != index:
                self.error(
                    path, f"{namespace!r} already belongs to teams[{other}]; a namespace belongs to one team only"
                )
            elif other == index:
                self.error(path, f"{namespace!r} is listed twice")
            else:
                owner[namespace] = index

    def check_members(self, index: int, team: TeamSpec) -> None:
        for member_index, member in enumerate(team.members):
            kind, _, email = member.partition(":")
            if kind not in MEMBER_KINDS or not _EMAIL.match(email):
                self.error(
                    f"teams[{index}].members[{member_index}]",
                    f"{member!r} is not a principal; allowed: user:EMAIL, group:EMAIL or serviceAccount:EMAIL",
                )

    def check_preemption(self, index: int, team: TeamSpec, fair_sharing: bool) -> None:
        preemption = team.preemption
        path = f"teams[{index}].preemption"
        if preemption.reclaim_within_cohort == "Never" and preemption.borrow_within_cohort not in (None, "Never"):
            # KUEUE_VALIDATION R-CQ-10 (webhook + CEL)
            self.error(
                f"{path}.borrowWithinCohort",
                f"{preemption.borrow_within_cohort!r} requires reclaimWithinCohort other than Never (Kueue R-CQ-10); "
                "allowed with reclaimWithinCohort: Never: Never",
            )
        elif fair_sharing and preemption.borrow_within_cohort not in (None, "Never"):
            # The Kueue CRD: "May only be configured with Classical Preemption, and not with Fair Sharing."
            self.warn(
                f"{path}.borrowWithinCohort",
                f"{preemption.borrow_within_cohort!r} has no effect with kueue.fairSharing: true (Kueue applies it "
                "to classical preemption only)",
            )

    def check_pool_keys(self, path: str, quotas: Mapping[str, int]) -> None:
        if self.v.pool_names is None:
            return
        for pool in quotas:
            if pool not in self.v.pool_names:
                hint = difflib.get_close_matches(pool, sorted(self.v.pool_names), n=1)
                did_you_mean = f"did you mean {hint[0]!r}? " if hint else ""
                self.error(
                    key_path(path, pool),
                    f"no node pool named {pool!r}; {did_you_mean}pools: {_names(sorted(self.v.pool_names))}",
                )

    def check_unique(self, section: str, index: int, name: str, seen: dict[str, int], what: str) -> bool:
        """False, with an error, when an earlier entry of `section` already has this name."""
        first = seen.setdefault(name, index)
        if first == index:
            return True
        self.error(
            f"{section}[{index}].name", f"{name!r} is already used by {section}[{first}]; {what} names must be unique"
        )
        return False

    def check_dns_label(self, path: str, value: str, what: str) -> bool:
        if _DNS_LABEL.match(value) and len(value) <= DNS_LABEL_MAX:
            return True
        self.error(
            path,
            f"{value!r} is not a valid {what}; allowed: a DNS-1123 label (lowercase letters, digits and hyphens, "
            f"starting and ending with a letter or digit, at most {DNS_LABEL_MAX} characters)",
        )
        return False

    def check_priority_classes(self) -> None:
        seen: dict[str, int] = {}
        for index, pc in self.v.priority_classes:
            path = f"priorityClasses[{index}]"
            if not (_DNS_SUBDOMAIN.match(pc.name) and len(pc.name) <= 253):
                self.error(
                    f"{path}.name",
                    f"{pc.name!r} is not a valid priority class name; allowed: a DNS-1123 subdomain (lowercase letters,"
                    " digits, '-' and '.')",
                )
            self.check_unique("priorityClasses", index, pc.name, seen, "priority class")
            if len(pc.description) > WPC_DESCRIPTION_MAX:
                self.error(
                    f"{path}.description", f"has {len(pc.description)} characters; at most {WPC_DESCRIPTION_MAX}"
                )

    # ---- quota against capacity (issue 4 item 3)

    def check_quota_vs_capacity(self) -> None:
        holders: dict[str, list[tuple[str, int]]] = {}
        for _, team in self.v.teams:
            for pool, quota in team.quota.items():
                holders.setdefault(pool, []).append((team.name, quota))
        for _, cohort in self.v.cohorts:
            for pool, quota in cohort.quota.items():
                holders.setdefault(pool, []).append((f"cohort {cohort.name}", quota))
        for name, facts in self.facts.items():
            capacity = facts.capacity
            entries = holders.get(name, [])
            if capacity is None:
                continue
            if not entries:
                if self.v.teams or self.v.cohorts:
                    self.warn(
                        f"nodePools[{facts.index}]",
                        f"no team or cohort has quota on pool {name!r}; Kueue admits no workload to it",
                    )
                continue
            total = sum(q for _, q in entries)
            if total <= capacity:
                continue
            pool = facts.pool
            raise_what = "slices" if facts.kind == "tpu" else "maxNodes"
            detail = facts.capacity_text()
            if pool.capacity == "calendar":
                detail += f", reservation {pool.reservation}"
                raise_what = f"{raise_what} within the reservation"
            message = (
                f"quotas for pool {name!r} total {total} {facts.resource} ({_quota_list(entries)}) but the pool holds "
                f"{capacity} ({detail})"
            )
            if pool.capacity in OVERCOMMIT_WARNS:
                self.warn("teams", f"{message}; {pool.capacity} capacity is obtained on demand, so some quota may wait")
            else:
                self.error("teams", f"{message}; reduce quotas or raise {raise_what}")


# --------------------------------------------------------------------------------------------------------
# Small helpers

_GCE_NAME_RULE = (
    "allowed: lowercase letters, digits and hyphens, starting with a letter and ending with a letter or digit, "
    f"at most {GCE_NAME_MAX} characters"
)


def _zone_region(zone: str) -> str | None:
    match = _ZONE.match(zone)
    return match.group(1) if match else None


def _names(names: Iterable[str], limit: int = 20) -> str:
    listed = list(names)
    if not listed:
        return "none"
    shown = ", ".join(listed[:limit])
    return shown + (f" and {len(listed) - limit} more" if len(listed) > limit else "")


def _quota_list(entries: list[tuple[str, int]], limit: int = 12) -> str:
    ordered = sorted(entries, key=lambda e: -e[1]) if len(entries) > limit else entries
    shown = ", ".join(f"{who} {quota}" for who, quota in ordered[:limit])
    return shown + (f", and {len(entries) - limit} more" if len(entries) > limit else "")


def _label_key_problem(key: str) -> str | None:
    prefix, slash, name = key.rpartition("/")
    if slash and (not prefix or len(prefix) > 253 or not _DNS_SUBDOMAIN.match(prefix)):
        return "the prefix before '/' must be a DNS subdomain such as example.com"
    if not name or len(name) > 63 or not _LABEL_NAME.match(name):
        return "the name must be 1-63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit"
    return None


def _reserved_taint_key(key: str) -> str | None:
    """Why a taint key is not the user's to set (None when it is)."""
    if key in RESERVED_TAINT_KEYS:
        return "is set by GKE on these nodes (gke-capacity declares it, and the pool's Kueue flavor tolerates it)"
    prefix, slash, _ = key.rpartition("/")
    if slash and any(prefix == p or prefix.endswith("." + p) for p in RESERVED_KEY_PREFIXES):
        return f"uses the {prefix}/ prefix, which is reserved for Kubernetes' own components"
    return None


def _parse_gke_version(text: str) -> tuple[int, ...] | None:
    match = _GKE_VERSION.match(text.strip())
    if not match:
        return None
    return tuple(int(g) for g in match.groups() if g is not None)


def _version_below(given: tuple[int, ...], floor: tuple[int, ...]) -> bool:
    # A partial version (1.33) means "the newest patch of 1.33": compare only the parts given.
    return given < floor[: len(given)]


def _zero_quantity(value: str) -> bool:
    number = re.match(r"^(\d+(\.\d+)?|\.\d+)", value)
    return number is not None and float(number.group(1)) == 0


def _calendar_families() -> list[str]:
    families = list(GPU_FAMILIES) + [f.name for f in TPU_FAMILIES]
    return [f for f in families if "calendar" in capacity_models_for_family(f)]
