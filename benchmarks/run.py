"""Benchmarks of `gkecap plan`: phases, peak memory and the floor, at 10, 100 and 1,000 teams; and the
one-slice environment against `xpk cluster create --tpu-type v6e-4x4 --flex --dry-run`.

    python benchmarks/run.py                      # everything (what `make bench` runs)
    python benchmarks/run.py --sizes 10 100 --repeat 2 --no-xpk

What is measured (see benchmarks/RESULTS.md for the numbers and the reasoning):

* Each size is an organisation from benchmarks/generate.py, planned in fresh worker processes, interleaved
  with the floor so both see the same machine. Imports and one warm-up run happen before any clock starts
  (both sides), so the numbers are the work that grows with the organisation; cold start is the xpk part.
* Phases of a plan (worker `phases`): `load` (stack file), `spec` (validation of the environment, as
  `gkecap plan` does before running the program), `derive` (capacity model; also done inside the program),
  `program` (stacks/__main__.py on the offline engine: spec, components, every registration recorded),
  `policies` (the policy pack process started and fed every resource over gRPC, then AnalyzeStack) and
  `report` (plan.json, report.html with charts, manifests/, terminal text).
* Plan time = load + spec + program: from the stack file to every registration recorded.
* Floor (worker `floor`): the registrations the program made (type, name, inputs, parent, dependencies,
  provider, component outputs, stack exports) replayed on the bare mocked Pulumi runtime (the SDK's own
  `MockMonitor` and trivial mocks) with plain `CustomResource` / `ComponentResource` / `ProviderResource`
  objects: no spec, no components, no policies. A second floor replays on gkecap's recording monitor, to
  tell the cost of our code from the cost of the monitor.
* End to end (worker `e2e`): `gkecap.plan.plan()` exactly as the CLI runs it (policies streamed while the
  program runs) plus the report; its peak RSS (and the policy pack's) is the memory figure.
* xpk: both commands as cold processes, alternated, median of `--xpk-runs`.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BENCH = Path(__file__).resolve().parent
XPK_VENV = BENCH / ".xpk-venv"
XPK_VERSION = "1.16.0"
XPK_ARGS = [
    "cluster", "create", "--cluster", "bench", "--tpu-type", "v6e-4x4", "--flex", "--num-slices", "1",
    "--project", "acme-ml-bench", "--zone", "us-east5-a", "--dry-run",
]
TARGET_RATIO = 1.5
TARGET_GROWTH = 11.0
TARGET_MEMORY_MB = 1024

sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(BENCH))


def _peak_mb(who: int = resource.RUSAGE_SELF) -> float:
    return resource.getrusage(who).ru_maxrss / 1024  # Linux: kilobytes


# ---------------------------------------------------------------------------------------------------------
# Workers (run in their own processes)


def _warm_up_program() -> None:
    """Import everything and evaluate small environments once, so lazy SDK modules are loaded before any clock:
    the one-slice environment, a two-team organisation (team RoleBindings), and the compute module that
    calendar pools' future reservations need (a larger warm-up would leave more live objects behind and
    slow the timed run's garbage collection instead)."""
    from datetime import datetime, timezone

    import pulumi_gcp
    from generate import organisation, xpk_equivalent

    from gkecap.engine.run import run_program
    from gkecap.engine.program import find_program
    from gkecap.engine.stack_config import stack_config_from_document

    assert pulumi_gcp.compute.FutureReservation  # the attribute access loads the lazy module
    program = find_program(ROOT / "stacks")
    for document in (xpk_equivalent(), organisation(2, now=datetime.now(timezone.utc))):
        run_program(program, "warmup", stack_config_from_document(document, program.project))


def worker_phases(config_file: Path, records_file: Path) -> dict[str, Any]:
    from rich.console import Console

    from gkecap.components.model import derive
    from gkecap.policy_pack.analysis import StreamingAnalysis
    from gkecap.policy_pack.process import PolicyPackProcess
    from gkecap.engine.run import run_program
    from gkecap.plan import PlanResult, default_policy_pack, validate_environment
    from gkecap.engine.program import find_program
    from gkecap.report import render_plan, write_outputs
    from gkecap.engine.stack_config import load_stack_config

    _warm_up_program()
    program = find_program(ROOT / "stacks")
    stack = config_file.stem.split(".", 1)[1]
    seconds: dict[str, float] = {}

    t0 = time.perf_counter()
    config = load_stack_config(config_file, program.project)
    seconds["load"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    spec = validate_environment(config)
    seconds["spec"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    model = derive(spec)
    seconds["derive"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    run = run_program(program, stack, config)
    seconds["program"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    # No stack config for the pack: its rules read none, and a 1,000-team environment is larger than one
    # environment variable may be on Linux (128 KiB), which is how the config reaches a pack (PULUMI_CONFIG).
    pack = PolicyPackProcess(default_policy_pack(), project=program.project, stack=stack)
    try:
        analysis = StreamingAnalysis(pack).start()
        for record in run.records:
            analysis.submit(record)
        policies = analysis.finish(run.records)
    finally:
        pack.close()
    seconds["policies"] = time.perf_counter() - t0

    result = PlanResult(stack=stack, project=program.project, resources=run.records,
                        violations=list(policies.diagnostics), program=program, stack_config=config, spec=spec,
                        policies=policies, source=str(program.entry.parent))
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as out:
        written = write_outputs(result, Path(out), model=model)
        render_plan(result, Console(file=open(os.devnull, "w"), width=160), written=written, model=model)
    seconds["report"] = time.perf_counter() - t0

    _dump_records(run.records, records_file)
    mandatory = sum(1 for d in policies.diagnostics if d.enforcement_level == "mandatory")
    return {"seconds": seconds, "resources": len(run.records), "mandatory": mandatory,
            "violations": len(policies.diagnostics), "peak_mb": _peak_mb()}


def _dump_records(records: list[Any], path: Path) -> None:
    plain = [
        {
            "urn": r.urn, "type": r.type, "name": r.name, "custom": r.custom, "parent": r.parent,
            "dependencies": list(r.dependencies), "provider": r.provider, "inputs": r.inputs,
            "outputs": r.outputs if not r.custom else None,
        }
        for r in records
    ]
    path.write_bytes(pickle.dumps(plain, protocol=pickle.HIGHEST_PROTOCOL))


def _replay(records: list[dict[str, Any]]) -> None:
    """Register the recorded resources again with plain SDK resource classes (inside run_in_stack)."""
    import pulumi

    objects: dict[str, pulumi.Resource] = {}
    for rec in records:
        if rec["type"] == "pulumi:pulumi:Stack":
            for key, value in (rec["outputs"] or {}).items():
                pulumi.export(key, value)
            continue
        parent = objects.get(rec["parent"] or "")
        depends = [objects[u] for u in rec["dependencies"] if u in objects]
        provider_urn = (rec["provider"] or "").rsplit("::", 1)[0]
        provider = next((objects[u] for u in (provider_urn,) if u in objects), None)
        opts = pulumi.ResourceOptions(parent=parent, depends_on=depends or None,
                                      provider=provider if isinstance(provider, pulumi.ProviderResource) else None)
        if rec["type"].startswith("pulumi:providers:"):
            obj: pulumi.Resource = pulumi.ProviderResource(rec["type"].split(":")[-1], rec["name"], dict(rec["inputs"]), opts)
        elif rec["custom"]:
            obj = pulumi.CustomResource(rec["type"], rec["name"], dict(rec["inputs"]), opts)
        else:
            obj = pulumi.ComponentResource(rec["type"], rec["name"], None, opts)
            obj.register_outputs(rec["outputs"] or {})
        objects[rec["urn"]] = obj


def _run_replay(records: list[dict[str, Any]], monitor_kind: str) -> float:
    """Seconds to replay `records` in a fresh SDK context and event loop, as gkecap.engine.run runs a program."""
    import asyncio
    import contextvars
    import logging
    from concurrent.futures import ThreadPoolExecutor

    import pulumi
    from pulumi.runtime import settings as runtime_settings
    from pulumi.runtime.mocks import MockEngine, MockMonitor

    class BareMocks(pulumi.runtime.Mocks):
        def new_resource(self, args: pulumi.runtime.MockResourceArgs) -> tuple[str, dict]:
            return f"{args.name}-id", args.inputs

        def call(self, args: pulumi.runtime.MockCallArgs) -> tuple[dict, list]:
            return {}, []

    if monitor_kind == "bare":
        monitor: Any = MockMonitor(BareMocks())
    else:
        from gkecap.engine.mocks import GkeMocks
        from gkecap.engine.recording_monitor import RecordingMonitor

        monitor = RecordingMonitor(GkeMocks(project="acme-ml-bench", region="us-east5"), "gke-capacity", "floor")

    def body() -> float:
        runtime_settings.ROOT.set(None)
        pulumi.runtime.configure(pulumi.runtime.Settings(project="gke-capacity", stack="floor", monitor=monitor,
                                                         engine=MockEngine(logging.getLogger("floor")), dry_run=False,
                                                         organization="organization"))
        loop = asyncio.new_event_loop()
        executor = ThreadPoolExecutor(max_workers=min(32, (os.cpu_count() or 1) + 4))
        loop.set_default_executor(executor)
        asyncio.set_event_loop(loop)
        try:
            started = time.perf_counter()
            loop.run_until_complete(pulumi.runtime.run_in_stack(lambda: _replay(records)))
            return time.perf_counter() - started
        finally:
            loop.close()
            asyncio.set_event_loop(None)
            executor.shutdown(wait=True)

    return contextvars.Context().run(body)


def worker_floor(records_file: Path) -> dict[str, Any]:
    records = pickle.loads(records_file.read_bytes())
    warm = records[: min(len(records), 60)]
    _run_replay(warm, "bare")
    _run_replay(warm, "recording")
    bare = _run_replay(records, "bare")
    recording = _run_replay(records, "recording")
    return {"seconds": {"floor": bare, "floor_recording": recording}, "resources": len(records), "peak_mb": _peak_mb()}


def worker_e2e(config_file: Path) -> dict[str, Any]:
    from rich.console import Console

    from gkecap.plan import plan
    from gkecap.report import render_plan, write_outputs

    _warm_up_program()
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        try:
            result = plan(ROOT / "stacks", config_file)
        except Exception as exc:  # noqa: BLE001 -- reported in the results, the other measurements go on
            return {"error": f"{type(exc).__name__}: {str(exc)[:300]}", "peak_mb": _peak_mb(),
                    "pack_peak_mb": _peak_mb(resource.RUSAGE_CHILDREN)}
        planned = time.perf_counter() - started
        written = write_outputs(result, Path(out))
        render_plan(result, Console(file=open(os.devnull, "w"), width=160), written=written)
        total = time.perf_counter() - started
    return {"seconds": {"plan_e2e": planned, "plan_e2e_with_report": total}, "resources": len(result.resources),
            "mandatory": len(result.mandatory), "peak_mb": _peak_mb(), "pack_peak_mb": _peak_mb(resource.RUSAGE_CHILDREN)}


# ---------------------------------------------------------------------------------------------------------
# Driver


def _worker(*args: str) -> dict[str, Any]:
    process = subprocess.run([sys.executable, __file__, "--worker", *args], cwd=ROOT, capture_output=True, text=True)
    if process.returncode != 0:
        raise SystemExit(f"worker {args[0]} failed:\n{process.stderr[-4000:]}")
    return json.loads(process.stdout.strip().splitlines()[-1])


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def bench_size(teams: int, repeat: int, workdir: Path) -> dict[str, Any]:
    from datetime import datetime, timezone

    from generate import dump, organisation

    config = workdir / f"Pulumi.org{teams}.yaml"
    config.write_text(dump(organisation(teams, now=datetime.now(timezone.utc))))
    records = workdir / f"records-{teams}.pickle"
    phases: list[dict[str, Any]] = []
    floors: list[dict[str, Any]] = []
    for i in range(repeat):
        phases.append(_worker("phases", str(config), str(records)))
        floors.append(_worker("floor", str(records)))
        print(f"  {teams} teams, run {i + 1}/{repeat}: plan {_plan_time(phases[-1]):.2f} s, "
              f"floor {floors[-1]['seconds']['floor']:.2f} s", file=sys.stderr, flush=True)
    e2e = _worker("e2e", str(config))
    outcome = e2e.get("error") or f"{e2e['seconds']['plan_e2e']:.2f} s"
    print(f"  {teams} teams, end to end: {outcome}", file=sys.stderr, flush=True)
    keys = phases[0]["seconds"].keys()
    result = {
        "teams": teams,
        "resources": phases[0]["resources"],
        "mandatory": phases[0]["mandatory"],
        "seconds": {k: _median([p["seconds"][k] for p in phases]) for k in keys},
        "plan": _median([_plan_time(p) for p in phases]),
        "floor": _median([f["seconds"]["floor"] for f in floors]),
        "floor_recording": _median([f["seconds"]["floor_recording"] for f in floors]),
        "ratio": _median([_plan_time(p) / f["seconds"]["floor"] for p, f in zip(phases, floors)]),
        "ratio_recording": _median([_plan_time(p) / f["seconds"]["floor_recording"] for p, f in zip(phases, floors)]),
        "e2e": e2e.get("seconds"),
        "e2e_error": e2e.get("error"),
        "e2e_mandatory": e2e.get("mandatory"),
        "peak_mb": e2e["peak_mb"],
        "pack_peak_mb": e2e["pack_peak_mb"],
        "phases_peak_mb": max(p["peak_mb"] for p in phases),
        "floor_peak_mb": max(f["peak_mb"] for f in floors),
    }
    result["e2e_ratio"] = e2e["seconds"]["plan_e2e"] / result["floor"] if "seconds" in e2e else None
    return result


def _e2e(size: dict[str, Any]) -> str:
    if size["e2e"] is None:
        return "failed | -"
    return f"{size['e2e']['plan_e2e']:.2f} | {size['e2e_ratio']:.2f}x"


def _plan_time(phases: dict[str, Any]) -> float:
    s = phases["seconds"]
    return s["load"] + s["spec"] + s["program"]


def ensure_xpk() -> tuple[Path | None, str]:
    """xpk in its own virtualenv (benchmarks/.xpk-venv, not committed), installed from PyPI if missing."""
    xpk = XPK_VENV / "bin" / "xpk"
    if xpk.is_file():
        return xpk, ""
    try:
        subprocess.run([sys.executable, "-m", "venv", str(XPK_VENV)], check=True, capture_output=True)
        subprocess.run([str(XPK_VENV / "bin" / "pip"), "install", "--quiet", f"xpk=={XPK_VERSION}"], check=True,
                       capture_output=True, text=True, timeout=900)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as exc:
        shutil.rmtree(XPK_VENV, ignore_errors=True)
        detail = getattr(exc, "stderr", "") or str(exc)
        return None, f"xpk could not be installed: {str(detail).strip().splitlines()[-1:]}"
    return (xpk, "") if xpk.is_file() else (None, "xpk installed no `xpk` command")


def _timed(command: list[str], env: dict[str, str]) -> tuple[float, int, str]:
    started = time.perf_counter()
    process = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=env)
    return time.perf_counter() - started, process.returncode, process.stderr[-2000:]


def bench_xpk(runs: int, workdir: Path) -> dict[str, Any]:
    from generate import dump, xpk_equivalent

    xpk, problem = ensure_xpk()
    config = workdir / "Pulumi.xpk-v6e-4x4.yaml"
    config.write_text(dump(xpk_equivalent()))
    gkecap = Path(sys.executable).parent / "gkecap"
    gkecap_cmd = [str(gkecap), "plan", "--config", str(config), "--out", str(workdir / "out-xpk")]
    home = workdir / "home"  # xpk keeps its config under $HOME; keep the user's untouched
    home.mkdir(exist_ok=True)
    # xpk sends usage telemetry by default; a benchmark must not phone home (and offline it would only wait).
    env = {**os.environ, "HOME": str(home), "TELEMETRY_ENABLED": "false"}
    ours: list[float] = []
    theirs: list[float] = []
    for _ in range(runs):
        seconds, code, err = _timed(gkecap_cmd, os.environ.copy())
        if code != 0:
            raise SystemExit(f"gkecap plan of the one-slice environment exited {code}:\n{err}")
        ours.append(seconds)
        if xpk is not None:
            seconds, code, err = _timed([str(xpk), *XPK_ARGS], env)
            if code != 0:
                problem = f"xpk --dry-run exited {code}: {err.strip().splitlines()[-1:] if err.strip() else ''}"
                xpk = None
            else:
                theirs.append(seconds)
    # Where the time of a cold `gkecap plan` goes: interpreter + imports of the Pulumi SDKs.
    imports, _, _ = _timed([sys.executable, "-c", "import gkecap.components.environment, gkecap.plan, gkecap.report.html"], os.environ.copy())
    bare, _, _ = _timed([sys.executable, "-c", "pass"], os.environ.copy())
    return {
        "gkecap": _median(ours), "gkecap_runs": ours,
        "xpk": _median(theirs) if theirs else None, "xpk_runs": theirs, "xpk_problem": problem,
        "python_startup": bare, "imports": imports,
    }


def report(sizes: list[dict[str, Any]], xpk: dict[str, Any] | None) -> str:
    lines = ["", "## Scale (medians)", "",
             "| teams | resources | load | spec | derive | program | policies | report | plan | floor | plan/floor "
             "| floor (recording monitor) | plan/that | e2e plan | e2e/floor | peak RSS plan | peak RSS pack |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for s in sizes:
        t = s["seconds"]
        lines.append(
            f"| {s['teams']} | {s['resources']} | {t['load']:.3f} | {t['spec']:.3f} | {t['derive']:.3f} | {t['program']:.2f} "
            f"| {t['policies']:.2f} | {t['report']:.2f} | {s['plan']:.2f} | {s['floor']:.2f} | **{s['ratio']:.2f}x** "
            f"| {s['floor_recording']:.2f} | {s['ratio_recording']:.2f}x | {_e2e(s)} "
            f"| {max(s['peak_mb'], s['phases_peak_mb']):.0f} MB | {s['pack_peak_mb']:.0f} MB |"
        )
    lines.append("")
    for s in sizes:
        if s["e2e_error"]:
            lines.append(f"- {s['teams']} teams: `gkecap plan` end to end FAILED: {s['e2e_error']}")
    for s in sizes:
        verdict = "meets" if s["ratio"] <= TARGET_RATIO else "MISSES"
        lines.append(f"- {s['teams']} teams: plan/floor {s['ratio']:.2f}x ({verdict} the {TARGET_RATIO}x target); "
                     f"mandatory violations: {s['mandatory']}")
    by = {s["teams"]: s for s in sizes}
    if 100 in by and 1000 in by:
        growth = by[1000]["plan"] / by[100]["plan"]
        floor_growth = by[1000]["floor"] / by[100]["floor"]
        verdict = "meets" if growth <= TARGET_GROWTH else "MISSES"
        lines.append(f"- growth 100 -> 1,000 teams: plan {growth:.2f}x ({verdict} the {TARGET_GROWTH:g}x target), "
                     f"floor {floor_growth:.2f}x")
    if 1000 in by:
        peak = max(by[1000]["peak_mb"], by[1000]["phases_peak_mb"])
        verdict = "meets" if peak < TARGET_MEMORY_MB else "MISSES"
        lines.append(f"- peak memory at 1,000 teams: {peak:.0f} MB in the gkecap process ({verdict} the 1 GB target), "
                     f"{by[1000]['pack_peak_mb']:.0f} MB in the policy pack process")
    if xpk is not None:
        lines += ["", "## One v6e 4x4 flex-start slice: gkecap plan vs xpk --dry-run (cold processes, medians)", ""]
        lines.append(f"- gkecap plan (validate, evaluate, policy pack, report): {xpk['gkecap']:.2f} s "
                     f"(runs: {', '.join(f'{x:.2f}' for x in xpk['gkecap_runs'])})")
        if xpk["xpk"] is not None:
            verdict = "meets" if xpk["gkecap"] <= xpk["xpk"] else "MISSES"
            lines.append(f"- xpk {XPK_VERSION} cluster create --tpu-type v6e-4x4 --flex --dry-run: {xpk['xpk']:.2f} s "
                         f"(runs: {', '.join(f'{x:.2f}' for x in xpk['xpk_runs'])})")
            lines.append(f"- gkecap/xpk: {xpk['gkecap'] / xpk['xpk']:.2f}x ({verdict} the 1.0x target)")
        else:
            lines.append(f"- xpk not timed: {xpk['xpk_problem']}")
        lines.append(f"- of which interpreter start {xpk['python_startup']:.2f} s; interpreter + imports of the "
                     f"Pulumi SDKs and our modules {xpk['imports']:.2f} s")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Benchmark gkecap plan against its floor and against xpk.")
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument("--repeat", type=int, default=3, help="plan/floor pairs per size below 1,000 teams (median)")
    parser.add_argument("--repeat-large", type=int, default=1, help="plan/floor pairs at 1,000 teams and more")
    parser.add_argument("--xpk-runs", type=int, default=5)
    parser.add_argument("--no-xpk", action="store_true")
    parser.add_argument("--json", type=Path, default=BENCH / "last-run.json", help="raw results (not committed)")
    parser.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.worker:
        kind, *rest = args.worker
        if kind == "phases":
            out = worker_phases(Path(rest[0]), Path(rest[1]))
        elif kind == "floor":
            out = worker_floor(Path(rest[0]))
        elif kind == "e2e":
            out = worker_e2e(Path(rest[0]))
        else:
            raise SystemExit(f"unknown worker {kind}")
        print(json.dumps(out))
        return 0

    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.2f}",
          file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="gkecap-bench-") as tmp:
        workdir = Path(tmp)
        sizes = [bench_size(n, args.repeat if n < 1000 else args.repeat_large, workdir) for n in args.sizes]
        xpk = None if args.no_xpk else bench_xpk(args.xpk_runs, workdir)
    args.json.write_text(json.dumps({"sizes": sizes, "xpk": xpk, "load_average": os.getloadavg()}, indent=2))
    print(report(sizes, xpk))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
