"""Compare the node pools xpk would create with what `gkecap plan` registers for the same capacity.

For each case of a matrix (TPU v4, v5e, v5p, v6e slices; A2, A3 and G2 GPUs; flex, queued, reservation,
spot and on-demand; one and two TPU slices) this script

1. runs `xpk cluster create ... --dry-run` from a separate xpk installation (a venv outside the repo;
   nothing of xpk is imported or copied here) in a sandbox: a fake `gcloud` and `kubectl` first on PATH
   fail and log any call, so the run is provably offline; telemetry is switched off;
2. parses the `gcloud beta container node-pools create` commands xpk prints;
3. writes the equivalent one-pool gke-capacity environment (machine type, topology, capacity model,
   slices, maxNodes, reservation, zone) and runs `gkecap plan --config FILE --format json`;
4. compares every node-pool setting of issue 3's acceptance list between the two sides.

    .venv/bin/python benchmarks/xpk_compare.py --xpk-venv /work/xpk-venv --output benchmarks/XPK_COMPARISON.md

Not a test: xpk is not a dependency. It is a reference implementation whose choices we either share or
differ from on purpose; the output lists each difference so a person can decide which side is right.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
PROJECT = "xpk-compare"
CLUSTER = "xc"
NODE_POOL_TYPE = "gcp:container/nodePool:NodePool"
XPK_NUM_NODES = 2  # xpk's own default for GPU pools (`--num-nodes`, "defaults to 2")

# What an omitted gcloud flag means on the GKE side.
# Compute Engine ReservationAffinity.consumeReservationType: "ANY_RESERVATION (default)"
# (https://cloud.google.com/compute/docs/reference/rest/v1/ReservationAffinity).
DEFAULT_RESERVATION_AFFINITY = "ANY_RESERVATION"
# `--enable-autorepair`: enabled by default for COS/Ubuntu node images. FACTS B.1 [S13]
DEFAULT_AUTO_REPAIR = True
GCLOUD_AFFINITY = {"none": "NO_RESERVATION", "any": "ANY_RESERVATION", "specific": "SPECIFIC_RESERVATION"}


# --- The matrix ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One `xpk cluster create` invocation."""

    device: str  # xpk --tpu-type / --device-type value
    tpu: bool
    capacity: str  # xpk capacity flag: flex | reservation | spot | on-demand
    zone: str
    num_slices: int = 1
    reservation: str | None = None  # xpk --reservation value (name or projects/P/reservations/R[/reservationBlocks/B])

    @property
    def id(self) -> str:
        res = "" if self.reservation in (None, "xpk-res") else "-shared-block"
        return f"{self.device}/{self.capacity}{res}/x{self.num_slices}"

    def xpk_args(self) -> list[str]:
        args = ["cluster", "create", "--cluster", CLUSTER, "--project", PROJECT, "--zone", self.zone, "--dry-run",
                "--tpu-type" if self.tpu else "--device-type", self.device, "--num-slices", str(self.num_slices)]
        if not self.tpu:
            args += ["--num-nodes", str(XPK_NUM_NODES)]
        if self.capacity == "reservation":
            return args + ["--reservation", self.reservation or "xpk-res"]
        return args + [f"--{self.capacity}"]


# Zones where each family is offered (flex-start zones: FACTS B.3 [S17]); xpk does not check them.
TPU_DEVICES = (
    ("v4-8", "us-central2-b"), ("v4-16", "us-central2-b"),  # 2x2x1 single-host, 2x2x2 multi-host
    ("v5litepod-8", "us-west4-a"), ("v5litepod-16", "us-west4-a"),  # 2x4 (2 VMs in xpk), 4x4
    ("v5p-8", "us-east5-a"), ("v5p-32", "us-east5-a"),  # 2x2x1, 2x2x4
    ("v6e-4", "us-east5-b"), ("v6e-8", "us-east5-b"), ("v6e-4x4", "us-east5-b"),  # 2x2, 2x4, 4x4
)
GPU_DEVICES = (
    ("a100-40gb-1", "us-central1-a"), ("a100-40gb-8", "us-central1-a"),  # a2-highgpu-1g / -8g
    ("h100-80gb-8", "us-east5-a"),  # a3-highgpu-8g
    ("l4-1", "us-central1-a"), ("l4-8", "us-central1-a"),  # g2-standard-12 / -96
)
CAPACITIES = ("flex", "reservation", "spot", "on-demand")
SHARED_BLOCK = "projects/other-project/reservations/xpk-res/reservationBlocks/block-1"


def matrix() -> list[Case]:
    cases = [Case(d, True, c, z, n) for d, z in TPU_DEVICES for c in CAPACITIES for n in (1, 2)]
    # GPU: one node pool whatever --num-slices says; --num-slices 2 only turns queued provisioning off.
    cases += [Case(d, False, c, z) for d, z in GPU_DEVICES for c in CAPACITIES]
    cases += [Case(d, False, "flex", z, 2) for d, z in GPU_DEVICES]
    cases += [Case("v6e-4x4", True, "reservation", "us-east5-b", 1, SHARED_BLOCK),
              Case("h100-80gb-8", False, "reservation", "us-east5-a", 1, SHARED_BLOCK)]
    # TPU7x multi-host: a workload policy instead of --tpu-topology (FACTS A.3 [S34]); calendar zone us-central1-c [S23].
    cases += [Case("tpu7x-4x4x4", True, c, "us-central1-c") for c in ("reservation", "spot")]
    return cases


# --- xpk side -----------------------------------------------------------------------------------------

_CREATE = re.compile(r"we are executing (gcloud beta container node-pools create .*)$")
_SYSTEM = re.compile(r"underlying system is: SystemCharacteristics\((.*)\)$")
_SYSTEM_FIELD = re.compile(r"(\w+)=('[^']*'|[^,]+)")
_FAKE_CLI = """#!/bin/sh
echo "$(basename "$0") $*" >> "{log}"
exit 1
"""


@dataclass
class XpkRun:
    commands: list[str]
    system: dict[str, str]
    seconds: float
    error: str | None = None


def run_xpk(case: Case, xpk_venv: Path) -> XpkRun:
    """`xpk cluster create ... --dry-run` in a sandbox where any real gcloud/kubectl call is caught."""
    with tempfile.TemporaryDirectory(prefix="xpk-compare-") as tmp:
        sandbox = Path(tmp)
        fake_bin, log = sandbox / "bin", sandbox / "calls.log"
        fake_bin.mkdir()
        for tool in ("gcloud", "kubectl"):
            (fake_bin / tool).write_text(_FAKE_CLI.format(log=log))
            (fake_bin / tool).chmod(0o755)
        env = {
            "PATH": f"{fake_bin}:{xpk_venv / 'bin'}:/usr/bin:/bin",
            "HOME": str(sandbox),  # xpk keeps its config under ~/.config/xpk
            "TELEMETRY_ENABLED": "false",  # xpk sends usage telemetry unless told not to
            "DEPENDENCY_AUTO_DOWNLOAD": "false",
            "LANG": "C.UTF-8",
        }
        started = time.perf_counter()
        proc = subprocess.run([str(xpk_venv / "bin" / "xpk"), *case.xpk_args()], cwd=sandbox, env=env,
                              capture_output=True, text=True, timeout=300)
        seconds = time.perf_counter() - started
        out = proc.stdout + proc.stderr
        calls = log.read_text().strip() if log.exists() else ""
    commands = [m.group(1).strip() for line in out.splitlines() if (m := _CREATE.search(line))]
    system: dict[str, str] = {}
    for line in out.splitlines():
        if m := _SYSTEM.search(line):
            system = {k: v.strip("'") for k, v in _SYSTEM_FIELD.findall(m.group(1))}
    error = None
    if calls:
        error = f"xpk called a real CLI during dry-run: {calls.splitlines()[0]}"
    elif proc.returncode != 0 or not commands:
        tail = " | ".join(out.strip().splitlines()[-3:])
        error = f"xpk exit {proc.returncode}, {len(commands)} node-pool command(s): {tail}"
    return XpkRun(commands, system, seconds, error)


def parse_gcloud(command: str) -> tuple[str, dict[str, str | bool]]:
    """Pool name and flags of a `gcloud ... node-pools create NAME --flag=value --flag value --switch` line."""
    tokens = shlex.split(command)
    name = tokens[tokens.index("create") + 1]
    flags: dict[str, str | bool] = {}
    i = tokens.index("create") + 2
    while i < len(tokens):
        token = tokens[i]
        if token.startswith("--"):
            key, eq, value = token[2:].partition("=")
            if eq:
                flags[key] = value
            elif i + 1 < len(tokens) and not tokens[i + 1].startswith("--"):
                flags[key] = tokens[i + 1]
                i += 1
            else:
                flags[key] = True
        i += 1
    return name, flags


def _key_values(text: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in text.split(",") if "=" in part)


# Flags whose meaning `xpk_settings` maps; anything else xpk sets is listed as "xpk only".
MAPPED_FLAGS = frozenset({
    "location", "cluster", "project", "node-locations", "machine-type", "num-nodes", "max-nodes", "min-nodes",
    "total-max-nodes", "total-min-nodes", "enable-autoscaling", "location-policy", "reservation-affinity",
    "reservation", "no-enable-autorepair", "enable-autorepair", "placement-type", "tpu-topology",
    "placement-policy", "flex-start", "spot", "enable-queued-provisioning", "accelerator",
})


def xpk_settings(flags: dict[str, str | bool]) -> dict[str, object]:
    """The settings of one xpk node pool, with GKE's defaults where xpk leaves a flag out."""
    autoscaling = bool(flags.get("enable-autoscaling"))
    num_nodes = int(flags.get("num-nodes", 3))  # gcloud default 3 [S13]; xpk always passes it
    max_nodes = flags.get("total-max-nodes") or flags.get("max-nodes")
    affinity = flags.get("reservation-affinity")
    accelerator = _key_values(str(flags["accelerator"])) if "accelerator" in flags else {}
    placement = _placement(flags.get("placement-type"), "placement-policy" in flags)
    return {
        "machine_type": flags.get("machine-type"),
        "nodes": int(max_nodes) if autoscaling and max_nodes else num_nodes,
        "initial_nodes": num_nodes,
        "autoscaling": "on" if autoscaling else f"off (fixed {num_nodes})",
        "location_policy": flags.get("location-policy", "GKE default") if autoscaling else "n/a (no autoscaling)",
        "reservation_affinity": GCLOUD_AFFINITY[str(affinity)] if affinity else f"{DEFAULT_RESERVATION_AFFINITY} (default)",
        "reservation": flags.get("reservation"),
        "auto_repair": False if flags.get("no-enable-autorepair") else DEFAULT_AUTO_REPAIR,
        "placement": placement,
        "tpu_topology": flags.get("tpu-topology"),
        "flex_start": bool(flags.get("flex-start")),
        "spot": bool(flags.get("spot")),
        "queued": bool(flags.get("enable-queued-provisioning")),
        "accelerator": f"{accelerator['type']} x{accelerator['count']}" if accelerator else None,
        "gpu_driver": accelerator.get("gpu-driver-version", "").upper() or None,
        "node_locations": flags.get("node-locations"),
    }


def _placement(kind: object, workload_policy: bool) -> str | None:
    """"COMPACT", "workload policy", both, or None; a workload policy (TPU7x) by kind, as each tool names its own."""
    parts = [str(kind)] if kind else []
    return " + ".join(parts + ["workload policy"] * workload_policy) or None


def xpk_only_flags(flags: dict[str, str | bool]) -> list[str]:
    return sorted(f"--{k}" if v is True else f"--{k}={v}" for k, v in flags.items()
                  if k not in MAPPED_FLAGS and k != "node-version")


# --- gke-capacity side --------------------------------------------------------------------------------


def capacity_model(flags: dict[str, str | bool]) -> str:
    """Our capacity model for what xpk created (xpk's --flex is queued for a single-slice GPU pool)."""
    if flags.get("flex-start"):
        return "queued" if flags.get("enable-queued-provisioning") else "flex-start"
    if flags.get("reservation-affinity") == "specific":
        return "reservation"
    return "spot" if flags.get("spot") else "on-demand"


def reservation_fields(path: str) -> dict[str, str]:
    """`[projects/P/reservations/]R[/reservationBlocks/B]` as our reservation, reservationProject, reservationBlock."""
    parts = path.split("/")
    out: dict[str, str] = {}
    if parts[0] == "projects":
        out["reservationProject"], parts = parts[1], parts[3:]
    out["reservation"] = parts[0]
    if len(parts) >= 3 and parts[1] == "reservationBlocks":
        out["reservationBlock"] = parts[2]
    return out


def environment(case: Case, run: XpkRun) -> dict[str, object]:
    """The one-pool stack file equivalent to what xpk created (ARCHITECTURE.md "The environment file")."""
    _, flags = parse_gcloud(run.commands[0])
    capacity = capacity_model(flags)
    pool: dict[str, object] = {
        "name": re.sub(r"[^a-z0-9-]", "-", case.device.lower()),
        "machineType": flags["machine-type"],
        "capacity": capacity,
        "zones": [case.zone],
    }
    if case.tpu:
        pool["tpuTopology"] = run.system["topology"]
        pool["slices"] = case.num_slices
    else:
        x = xpk_settings(flags)
        pool["maxNodes"] = x["nodes"]
        if capacity in ("reservation", "spot", "on-demand"):
            pool["minNodes"] = x["nodes"]  # xpk's GPU pools are fixed-size: min = max
    if capacity == "reservation":
        pool.update(reservation_fields(str(flags["reservation"])))
    return {
        "config": {
            "gcp:project": PROJECT,
            "gkecap:environment": {
                "region": case.zone.rsplit("-", 1)[0],
                "nodeServiceAccount": f"gke-nodes@{PROJECT}.iam.gserviceaccount.com",
                "cluster": {"name": CLUSTER},
                "nodePools": [pool],
            },
        }
    }


@dataclass
class PlanRun:
    pools: list[dict]  # NodePool inputs, in registration order
    violations: list[dict]
    seconds: float
    error: str | None = None


def run_plan(gkecap: Path, config: Path, program: Path | None, no_policies: bool) -> PlanRun:
    cmd = [str(gkecap), "plan", "--config", str(config), "--format", "json"]
    if program is not None:
        cmd += ["--program", str(program)]
    if no_policies:
        cmd.append("--no-policies")
    started = time.perf_counter()
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=600)
    seconds = time.perf_counter() - started
    if proc.returncode not in (0, 1):
        # Drop the temporary file's path from "error: /tmp/.../Pulumi.x.yaml: field: message".
        lines = [re.sub(r"^error: \S+\.yaml: ", "", line) for line in proc.stderr.strip().splitlines()[:3]]
        message = " | ".join(lines) or f"exit {proc.returncode}"
        return PlanRun([], [], seconds, f"gkecap plan exit {proc.returncode}: {message}")
    document = json.loads(proc.stdout)
    pools = [r["inputs"] for r in document["resources"] if r["type"] == NODE_POOL_TYPE]
    return PlanRun(pools, document["violations"], seconds)


def our_settings(inputs: dict) -> dict[str, object]:
    """The same settings read from a registered NodePool's inputs (camelCase, as the engine sees them)."""
    config = inputs.get("nodeConfig") or {}
    scaling = inputs.get("autoscaling")
    affinity = config.get("reservationAffinity") or {}
    placement = inputs.get("placementPolicy") or {}
    accelerators = config.get("guestAccelerators") or []
    acc = accelerators[0] if accelerators else None
    values = affinity.get("values") or []
    if scaling:
        nodes = scaling.get("totalMaxNodeCount", scaling.get("maxNodeCount"))
        low = scaling.get("totalMinNodeCount", scaling.get("minNodeCount", 0))
        autoscaling = "on" if low != nodes else f"on (min = max = {nodes})"
    else:
        nodes = inputs.get("nodeCount", inputs.get("initialNodeCount"))
        autoscaling = f"off (fixed {nodes})"
    driver = ((acc or {}).get("gpuDriverInstallationConfig") or {}).get("gpuDriverVersion")
    return {
        "machine_type": config.get("machineType"),
        "nodes": nodes,
        "initial_nodes": inputs.get("initialNodeCount"),
        "autoscaling": autoscaling,
        "location_policy": (scaling or {}).get("locationPolicy", "GKE default") if scaling else "n/a (no autoscaling)",
        "reservation_affinity": affinity.get("consumeReservationType", f"{DEFAULT_RESERVATION_AFFINITY} (default)"),
        "reservation": values[0] if values else None,
        "auto_repair": (inputs.get("management") or {}).get("autoRepair", DEFAULT_AUTO_REPAIR),
        "placement": _placement(placement.get("type"), bool(placement.get("policyName"))),
        "tpu_topology": placement.get("tpuTopology"),
        "flex_start": bool(config.get("flexStart")),
        "spot": bool(config.get("spot")),
        "queued": bool((inputs.get("queuedProvisioning") or {}).get("enabled")),
        "accelerator": f"{acc['type']} x{acc['count']}" if acc else None,
        "gpu_driver": driver,
        "node_locations": ",".join(inputs.get("nodeLocations") or []) or None,
    }


# --- Comparison ---------------------------------------------------------------------------------------

# (key, column title, in issue 3's acceptance list)
SETTINGS = (
    ("machine_type", "machine type", True),
    ("node_pools", "node pools", True),
    ("nodes", "nodes per pool (max)", True),
    ("location_policy", "location policy", True),
    ("reservation_affinity", "reservation affinity", True),
    ("reservation", "reservation", True),
    ("auto_repair", "auto-repair", True),
    ("placement", "placement", True),
    ("tpu_topology", "TPU topology", True),
    ("flex_start", "flex-start", True),
    ("spot", "spot", True),
    ("queued", "queued provisioning", True),
    ("accelerator", "accelerator", True),
    ("total_nodes", "total nodes (max)", False),
    ("initial_nodes", "initial nodes", False),
    ("autoscaling", "autoscaling", False),
    ("gpu_driver", "GPU driver", False),
    ("node_locations", "node locations", False),
)


@dataclass
class Result:
    case: Case
    xpk: XpkRun
    plan: PlanRun | None = None
    env: dict | None = None
    rows: list[tuple[str, object, object, str]] = field(default_factory=list)  # key, xpk, ours, verdict
    extras: list[str] = field(default_factory=list)

    @property
    def error(self) -> str | None:
        return self.xpk.error or (self.plan.error if self.plan else None)


def compare(xpk_pools: list[dict], our_pools: list[dict]) -> list[tuple[str, object, object, str]]:
    """Setting by setting over the pools of both sides, pool i against pool i; the first difference is shown."""
    totals = ({"node_pools": len(xpk_pools), "total_nodes": sum(p["nodes"] for p in xpk_pools)},
              {"node_pools": len(our_pools), "total_nodes": sum(p["nodes"] for p in our_pools)})
    pairs = [({**x, **totals[0]}, {**o, **totals[1]}) for x, o in zip(xpk_pools, our_pools)]
    rows = []
    for key, _, _ in SETTINGS:
        row = (key, pairs[0][0][key], pairs[0][1][key], "match")
        for x, o in pairs:
            a, b = x[key], o[key]
            if key == "location_policy" and ("n/a" in str(a) or "n/a" in str(b)):
                row = (key, a, b, "n/a")  # only meaningful when both sides autoscale
            elif _norm(a) != _norm(b):
                row = (key, a, b, "DIFF")
                break
        rows.append(row)
    return rows


def _norm(value: object) -> object:
    """Case-insensitive, and a default marked "(default)" equals the same value set explicitly."""
    return str(value).removesuffix(" (default)").lower() if isinstance(value, str) else value


def run_case(case: Case, args: argparse.Namespace, work: Path) -> Result:
    xpk = run_xpk(case, args.xpk_venv)
    result = Result(case, xpk)
    if xpk.error:
        return result
    env = environment(case, xpk)
    result.env = env
    config = work / f"Pulumi.{case.id.replace('/', '_')}.yaml"
    config.write_text(yaml.safe_dump(env, sort_keys=False))
    result.plan = run_plan(args.gkecap, config, args.program, args.no_policies)
    if result.plan.error or not result.plan.pools:
        if not result.plan.error:
            result.plan.error = "gkecap plan registered no NodePool"
        return result
    parsed = [parse_gcloud(c)[1] for c in xpk.commands]
    result.rows = compare([xpk_settings(f) for f in parsed], [our_settings(p) for p in result.plan.pools])
    result.extras = sorted({flag for f in parsed for flag in xpk_only_flags(f)})
    return result


# --- Output -------------------------------------------------------------------------------------------


def _show(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _ours_label(env: dict | None) -> str:
    if not env:
        return "-"
    pool = env["config"]["gkecap:environment"]["nodePools"][0]
    bits = [pool["machineType"], pool["capacity"]]
    if "tpuTopology" in pool:
        bits.append(f"{pool['tpuTopology']} x{pool['slices']}")
    if "maxNodes" in pool:
        bits.append(f"nodes {pool.get('minNodes', 0)}..{pool['maxNodes']}")
    if "reservation" in pool:
        bits.append("res " + "/".join(pool[k] for k in ("reservationProject", "reservation", "reservationBlock") if k in pool))
    return " ".join(bits)


def render(results: list[Result], command: str, xpk_version: str) -> str:
    ok = [r for r in results if not r.error]
    out = [
        "# xpk versus gke-capacity: node-pool settings",
        "",
        f"Generated by `{command}` on {time.strftime('%Y-%m-%d')} with xpk {xpk_version} (dry-run, offline sandbox).",
        "",
        "Each case runs `xpk cluster create --dry-run` for the capacity shown, turns the `gcloud beta container",
        "node-pools create` flags xpk prints into settings (an omitted flag means GKE's default: reservation",
        "affinity ANY_RESERVATION, auto-repair on), writes the equivalent one-pool environment and compares",
        "with the `gcp:container/nodePool:NodePool` inputs `gkecap plan --config FILE --format json` registers.",
        "xpk's GPU pools have a fixed size (`--num-nodes`), so their equivalent sets minNodes = maxNodes;",
        "xpk's `--flex` on one GPU slice adds queued provisioning, so its equivalent is `capacity: queued`.",
        "",
        f"Cases: {len(results)}; compared: {len(ok)}; not compared: {len(results) - len(ok)}.",
        "",
    ]
    acceptance = [k for k, _, a in SETTINGS if a]
    # Differences grouped by (setting, xpk value, our value): what a component owner acts on.
    groups: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    for r in ok:
        for key, a, b, verdict in r.rows:
            if verdict == "DIFF":
                groups[(key, _show(a), _show(b))].append(r.case.id)
    titles = {k: t for k, t, _ in SETTINGS}
    out += ["## Differences (grouped)", "", "| setting | acceptance | xpk | gke-capacity | cases |", "|---|---|---|---|---|"]
    order = {k: i for i, (k, _, _) in enumerate(SETTINGS)}
    for (key, a, b), ids in sorted(groups.items(), key=lambda kv: (order[kv[0][0]], kv[0][1], kv[0][2])):
        shown = ", ".join(ids) if len(ids) <= 12 else ", ".join(ids[:12]) + f", ... ({len(ids)} cases)"
        out.append(f"| {titles[key]} | {'yes' if key in acceptance else 'no'} | {a} | {b} | {shown} |")
    if not groups:
        out.append("| (none) | | | | |")

    out += ["", "## Per case (acceptance settings)", "",
            "`=` same, `X` different, `.` not applicable. Columns: " + ", ".join(titles[k] for k in acceptance) + ".", "",
            "| case | gke-capacity pool | " + " | ".join(str(i + 1) for i in range(len(acceptance))) + " | diffs |",
            "|---|---|" + "---|" * len(acceptance) + "---|"]
    marks = {"match": "=", "DIFF": "X", "n/a": "."}
    for r in results:
        if r.error:
            out.append(f"| {r.case.id} | {_ours_label(r.env)} | " + " | ".join("" for _ in acceptance)
                       + f" | not compared: {r.error.replace('|', '/')} |")
            continue
        verdicts = {k: v for k, _, _, v in r.rows}
        diffs = sum(1 for k in acceptance if verdicts[k] == "DIFF")
        out.append(f"| {r.case.id} | {_ours_label(r.env)} | " + " | ".join(marks[verdicts[k]] for k in acceptance)
                   + f" | {diffs} |")

    extras: dict[str, list[str]] = defaultdict(list)
    for r in ok:
        for flag in r.extras:
            extras[flag].append(r.case.id)
    out += ["", "## Flags only xpk sets (outside the acceptance list)", "", "| flag | cases |", "|---|---|"]
    for flag, ids in sorted(extras.items()):
        out.append(f"| `{flag}` | {'all' if len(ids) == len(ok) else str(len(ids)) + ' cases'} |")

    violations: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for r in ok:
        for v in r.plan.violations if r.plan else []:
            violations[f"{v['enforcementLevel']} `{v['policy']}`"].append((r.case.id, v["message"]))
    out += ["", "## Policy findings on the equivalent environments", ""]
    for policy, hits in sorted(violations.items()):
        cases = sorted({case for case, _ in hits})
        out.append(f"- {policy}: {len(hits)} finding(s) in {len(cases)} case(s), e.g. {hits[0][0]}: {hits[0][1]}")
    if not violations:
        out.append("- none")

    xpk_secs = [r.xpk.seconds for r in results]
    plan_secs = [r.plan.seconds for r in results if r.plan]
    out += ["", "## Wall-clock", "",
            f"- xpk dry-run per case: median {statistics.median(xpk_secs):.2f} s",
            f"- gkecap plan per case: median {statistics.median(plan_secs):.2f} s" if plan_secs else "- gkecap plan: not run",
            "- (cases run concurrently, --jobs at a time)", ""]
    return "\n".join(out)


TIMED_CASE = Case("v6e-4x4", True, "flex", "us-east5-b")


def isolated_timing(args: argparse.Namespace, work: Path, runs: int) -> dict[str, list[float]]:
    """Wall clock of one case, xpk and gkecap plan alternately, nothing else of ours running."""
    xpk = run_xpk(TIMED_CASE, args.xpk_venv)
    if xpk.error:
        return {}
    config = work / "Pulumi.timing.yaml"
    config.write_text(yaml.safe_dump(environment(TIMED_CASE, xpk), sort_keys=False))
    times: dict[str, list[float]] = {"xpk": [], "gkecap": []}
    for _ in range(runs):
        times["xpk"].append(run_xpk(TIMED_CASE, args.xpk_venv).seconds)
        times["gkecap"].append(run_plan(args.gkecap, config, args.program, args.no_policies).seconds)
    return times


def render_timing(times: dict[str, list[float]], runs: int) -> str:
    if not times:
        return ""
    xpk, ours = statistics.median(times["xpk"]), statistics.median(times["gkecap"])
    shown = lambda values: ", ".join(f"{v:.2f}" for v in values)  # noqa: E731
    return "\n".join([
        f"## Isolated wall-clock: {TIMED_CASE.id} ({runs} runs each, alternating, one at a time)", "",
        f"- `xpk {' '.join(TIMED_CASE.xpk_args())}`: median {xpk:.2f} s ({shown(times['xpk'])})",
        f"- `gkecap plan --config <equivalent> --format json`: median {ours:.2f} s ({shown(times['gkecap'])})",
        f"- ratio gkecap plan / xpk dry-run: {ours / xpk:.1f}x (gkecap evaluates the Pulumi program on mocks and runs "
        "the policy pack; xpk only prints commands)", ""])


def render_commands(results: list[Result]) -> str:
    """Every node-pool command xpk printed, per case (for notes; long)."""
    out = []
    for r in results:
        out += [f"### {r.case.id}", "", "`xpk " + " ".join(r.case.xpk_args()) + "`", ""]
        out += [f"    {c}" for c in r.xpk.commands] or [f"    ({r.xpk.error})"]
        out.append("")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--xpk-venv", type=Path,
                        default=Path(os.environ.get("XPK_VENV", REPO / "benchmarks" / ".xpk-venv")),
                        help="venv with xpk installed (`make bench` creates benchmarks/.xpk-venv; not committed)")
    parser.add_argument("--gkecap", type=Path, default=REPO / ".venv" / "bin" / "gkecap")
    parser.add_argument("--program", type=Path, default=None,
                        help="program for `gkecap plan --program` (default: the repo's stacks/)")
    parser.add_argument("--no-policies", action="store_true", help="pass --no-policies to gkecap plan (faster)")
    parser.add_argument("--cases", default="", help="only cases whose id contains this text")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--output", type=Path, help="also write the Markdown report here")
    parser.add_argument("--commands-output", type=Path, help="write every xpk node-pool command here")
    parser.add_argument("--keep", type=Path, help="keep the generated stack files in this directory")
    parser.add_argument("--timing-runs", type=int, default=3,
                        help=f"time {TIMED_CASE.id} alone this many times after the matrix (0: skip)")
    args = parser.parse_args(argv)

    xpk = args.xpk_venv / "bin" / "xpk"
    if not xpk.exists():
        parser.error(f"--xpk-venv: {xpk} not found; python3 -m venv {args.xpk_venv} && {args.xpk_venv}/bin/pip install xpk")
    if not args.gkecap.exists():
        parser.error(f"--gkecap: {args.gkecap} not found (make test creates .venv)")
    if args.program is None and not (REPO / "stacks" / "__main__.py").is_file():
        parser.error("stacks/__main__.py does not exist yet: pass --program DIR (a program that reads gkecap:environment)")
    version = subprocess.run([str(args.xpk_venv / "bin" / "python"), "-c",
                              "import importlib.metadata as m; print(m.version('xpk'))"],
                             capture_output=True, text=True).stdout.strip()
    cases = [c for c in matrix() if args.cases in c.id]

    with tempfile.TemporaryDirectory(prefix="xpk-compare-env-") as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            results = list(pool.map(lambda c: run_case(c, args, work), cases))
        times = isolated_timing(args, work, args.timing_runs) if args.timing_runs > 0 else {}

    shown_args = " ".join(a for a in (argv if argv is not None else sys.argv[1:]))
    report = render(results, f"benchmarks/xpk_compare.py {shown_args}".strip(), version)
    report += "\n" + render_timing(times, args.timing_runs)
    print(report)
    if args.output:
        args.output.write_text(report + "\n")
    if args.commands_output:
        args.commands_output.write_text(render_commands(results) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
