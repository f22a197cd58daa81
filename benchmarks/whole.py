"""The whole `gkecap plan --format json` against its floor, both as cold processes, alternated (issue 14).

    python benchmarks/whole.py --sizes 100 300 --repeat 3
    python benchmarks/whole.py --sizes 1000 3000 --repeat 1

* **Whole command**: `gkecap plan --config Pulumi.orgN.yaml --format json` in a fresh process, as a user runs
  it: imports, stack file, spec validation, the program on the offline engine, every policy of the pack over
  the real Analyzer gRPC protocol (the pack process starts before the program and analyzes while it runs),
  the JSON document on stdout. Wall time, CPU time (the command and the pack process) and peak memory, two
  ways: **together**, the largest resident memory of the command and its pack at the same moment (sampled from
  /proc every 10 ms; never less than either process's own peak), and **summed peaks**, the command's own peak
  RSS plus the pack's (`RUSAGE_CHILDREN` of the command is the pack's), which the two never reach at once
  (the command peaks while the program runs, the pack while it checks the stack).
* **Floor**: a fresh process that imports the Pulumi SDK and replays the same registrations with plain
  `CustomResource` / `ComponentResource` / `ProviderResource` objects on the SDK's own mocked runtime
  (`benchmarks/run.py`'s replay): no spec, no components, no policies, no output. Wall, CPU, peak RSS.
* Floor and whole command alternate (the order flips each repeat) and ratios are taken pair by pair, so both
  sides see the same load on a shared machine.

Each size's registrations are recorded once (not timed) by running the program on gkecap's engine.

`--pack-in-process`: the whole command with the bundled pack in gkecap's own process (an option; the default
runs it as its own process over gRPC, as above).

`--xpk N`: one v6e 4x4 flex-start slice, `gkecap plan --config <slice> --format json` against
`xpk cluster create --tpu-type v6e-4x4 --flex --dry-run` (benchmarks/run.py's command; xpk in
benchmarks/.xpk-venv, telemetry off, HOME in a scratch directory), both cold processes, alternated N times.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

TARGET_RATIO = 1.5
TARGET_MEMORY_RATIO = 1.2
TARGET_LINEAR = 1.2


def _measured(command: list[str], *, stdout: Any = subprocess.DEVNULL) -> dict[str, float]:
    """Wall seconds, CPU seconds and peak RSS (MB, own + children's) of `command` run by a measuring shim."""
    shim = (
        "import resource, runpy, sys, json, os\n"
        "argv = json.loads(sys.argv[1])\n"
        "code = 0\n"
        "sys.argv = argv[1:] if argv[0] == '-m' else argv\n"
        "try:\n"
        "    runpy.run_module(argv[1], run_name='__main__', alter_sys=True) if argv[0] == '-m' else runpy.run_path(argv[0], run_name='__main__')\n"
        "except SystemExit as exc:\n"
        "    code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)\n"
        "me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "os.write(2, ('\\nMEASURED ' + json.dumps({'code': code, 'cpu': me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime,"
        " 'rss_self': me.ru_maxrss / 1024, 'rss_children': kids.ru_maxrss / 1024}) + '\\n').encode())\n"
        "os._exit(code)\n"
    )
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-c", shim, json.dumps(command)], cwd=ROOT, stdout=stdout, stderr=subprocess.PIPE, text=True)
    errors: list[str] = []
    reader = threading.Thread(target=lambda: errors.append(process.stderr.read()), daemon=True)  # type: ignore[union-attr]
    reader.start()
    peak_together = 0.0
    while process.poll() is None:
        peak_together = max(peak_together, _tree_rss_mb(process.pid))
        time.sleep(_SAMPLE_SECONDS)
    wall = time.perf_counter() - started
    reader.join()
    stderr = errors[0] if errors else ""
    line = next((x for x in reversed(stderr.splitlines()) if x.startswith("MEASURED ")), None)
    if line is None:
        raise SystemExit(f"{command} failed:\n{stderr[-3000:]}")
    measured = json.loads(line[len("MEASURED "):])
    return {"wall": wall, "cpu": measured["cpu"], "rss": measured["rss_self"] + measured["rss_children"],
            "rss_self": measured["rss_self"], "rss_pack": measured["rss_children"], "code": measured["code"],
            # What the processes hold at the same moment, sampled; never above the sum of their own peaks.
            "rss_together": max(peak_together, measured["rss_self"], measured["rss_children"])}


_SAMPLE_SECONDS = 0.01


def _tree_rss_mb(pid: int) -> float:
    """The resident memory of `pid` and its descendants now (MB; /proc, Linux)."""
    total_kb, todo = 0, [pid]
    while todo:
        current = todo.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text()
            total_kb += next(int(x.split()[1]) for x in status.splitlines() if x.startswith("VmRSS:"))
            for task in Path(f"/proc/{current}/task").iterdir():
                todo.extend(int(c) for c in (task / "children").read_text().split())
        except (OSError, StopIteration, ValueError):  # gone meanwhile, or a zombie without VmRSS
            continue
    return total_kb / 1024


def record(config: Path, records_file: Path) -> int:
    """Run the program once on gkecap's engine (not timed) and keep its registrations for the floor."""
    from run import _dump_records

    from gkecap.engine.program import find_program
    from gkecap.engine.run import run_program
    from gkecap.engine.stack_config import load_stack_config

    program = find_program(ROOT / "stacks")
    run = run_program(program, config.stem.split(".", 1)[1], load_stack_config(config, program.project))
    _dump_records(run.records, records_file)
    return len(run.records)


def floor_main(records_file: str) -> None:
    """The floor process: import the SDK, replay the registrations (benchmarks/run.py's replay)."""
    import pickle

    from run import _run_replay

    _run_replay(pickle.loads(Path(records_file).read_bytes()), "bare")


def _plan_command(config: Path, out_dir: Path, extra: list[str]) -> list[str]:
    """`gkecap plan` of `config`: `--format json` (no file written), or with `--out` in `extra` the default text
    output and every file (plan.json, report.html with its charts, manifests/, workloads/, vertex/) in `out_dir`."""
    if "--out" in extra:
        return ["-m", "gkecap", "plan", "--config", str(config), "--out", str(out_dir), *(x for x in extra if x != "--out")]
    return ["-m", "gkecap", "plan", "--config", str(config), "--format", "json", *extra]


def bench_size(teams: int, repeat: int, workdir: Path, extra: list[str]) -> dict[str, Any]:
    from datetime import datetime, timezone

    from generate import dump, organisation

    config = workdir / f"Pulumi.org{teams}.yaml"
    config.write_text(dump(organisation(teams, now=datetime.now(timezone.utc))))
    records_file = workdir / f"records-{teams}.pickle"
    resources = subprocess.run([sys.executable, __file__, "--record", str(config), str(records_file)], cwd=ROOT,
                               check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1]
    whole_cmd = _plan_command(config, workdir / f"out-{teams}", extra)
    floor_cmd = [__file__, "--floor", str(records_file)]
    pairs = []
    for i in range(repeat):
        order = [("floor", floor_cmd), ("whole", whole_cmd)]
        if i % 2:
            order.reverse()
        pair = {name: _measured(cmd) for name, cmd in order}
        if pair["whole"]["code"] != 0:
            raise SystemExit(f"gkecap plan of {teams} teams exited {pair['whole']['code']}")
        pairs.append(pair)
        print(f"  {teams} teams {i + 1}/{repeat}: whole {pair['whole']['wall']:.2f} s ({pair['whole']['cpu']:.1f} CPU-s, "
              f"{pair['whole']['rss_together']:.0f} MB together, {pair['whole']['rss']:.0f} MB summed peaks), floor {pair['floor']['wall']:.2f} s ({pair['floor']['cpu']:.1f} CPU-s, "
              f"{pair['floor']['rss']:.0f} MB), load {os.getloadavg()[0]:.1f}", file=sys.stderr, flush=True)
    med = statistics.median
    return {
        "teams": teams, "resources": int(resources), "pairs": pairs,
        "whole": med(p["whole"]["wall"] for p in pairs), "floor": med(p["floor"]["wall"] for p in pairs),
        "ratio": med(p["whole"]["wall"] / p["floor"]["wall"] for p in pairs),
        "cpu_ratio": med(p["whole"]["cpu"] / p["floor"]["cpu"] for p in pairs),
        "memory_ratio": med(p["whole"]["rss_together"] / p["floor"]["rss"] for p in pairs),
        "summed_memory_ratio": med(p["whole"]["rss"] / p["floor"]["rss"] for p in pairs),
        "whole_rss_together": med(p["whole"]["rss_together"] for p in pairs),
        "whole_rss": med(p["whole"]["rss"] for p in pairs), "whole_rss_pack": med(p["whole"]["rss_pack"] for p in pairs),
        "floor_rss": med(p["floor"]["rss"] for p in pairs),
        "whole_cpu": med(p["whole"]["cpu"] for p in pairs), "floor_cpu": med(p["floor"]["cpu"] for p in pairs),
    }


def _timed_cpu(command: list[str], env: dict[str, str]) -> dict[str, float]:
    """Wall and CPU seconds (this process's waited children) and peak RSS (GNU time) of a foreign command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    process = subprocess.run(["/usr/bin/time", "-f", "MAXRSS %M", *command], cwd=ROOT, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if process.returncode != 0:
        raise SystemExit(f"{command[0]} exited {process.returncode}:\n{process.stderr[-2000:]}")
    rss = next(float(x.split()[1]) / 1024 for x in reversed(process.stderr.splitlines()) if x.startswith("MAXRSS "))
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return {"wall": wall, "cpu": cpu, "rss": rss}


def bench_one_slice(runs: int, workdir: Path, extra: list[str]) -> dict[str, Any]:
    from generate import dump, xpk_equivalent
    from run import XPK_ARGS, ensure_xpk

    xpk, problem = ensure_xpk()
    if xpk is None:
        raise SystemExit(problem)
    config = workdir / "Pulumi.xpk-v6e-4x4.yaml"
    config.write_text(dump(xpk_equivalent()))
    home = workdir / "home"  # xpk keeps its config under $HOME
    home.mkdir(exist_ok=True)
    env = {**os.environ, "HOME": str(home), "TELEMETRY_ENABLED": "false"}
    gkecap_cmd = _plan_command(config, workdir / "out-slice", extra)
    ours, theirs = [], []
    for i in range(runs):
        order = [("ours", None), ("theirs", None)] if i % 2 == 0 else [("theirs", None), ("ours", None)]
        for side, _ in order:
            if side == "ours":
                ours.append(_measured(gkecap_cmd))
            else:
                theirs.append(_timed_cpu([str(xpk), *XPK_ARGS], env))
        print(f"  one slice {i + 1}/{runs}: gkecap {ours[-1]['wall']:.2f} s ({ours[-1]['cpu']:.2f} CPU-s), "
              f"xpk {theirs[-1]['wall']:.2f} s ({theirs[-1]['cpu']:.2f} CPU-s), load {os.getloadavg()[0]:.1f}", file=sys.stderr, flush=True)
    med = statistics.median
    return {
        "runs": runs, "ours": ours, "theirs": theirs, "output": "--out DIR" if "--out" in extra else "--format json",
        "wall_ratio": med(o["wall"] / t["wall"] for o, t in zip(ours, theirs)),
        "cpu_ratio": med(o["cpu"] / t["cpu"] for o, t in zip(ours, theirs)),
        "ours_wall": med(o["wall"] for o in ours), "theirs_wall": med(t["wall"] for t in theirs),
        "ours_cpu": med(o["cpu"] for o in ours), "theirs_cpu": med(t["cpu"] for t in theirs),
        "ours_rss": med(o["rss"] for o in ours), "theirs_rss": med(t["rss"] for t in theirs),
        "ours_rss_together": med(o["rss_together"] for o in ours),
    }


def report_one_slice(r: dict[str, Any]) -> str:
    return "\n".join([
        "| one v6e 4x4 flex-start slice | wall (median) | CPU (median) | peak RSS |",
        "|---|---:|---:|---:|",
        f"| `gkecap plan --config <slice> {r['output']}` (main + pack) | {r['ours_wall']:.2f} s | {r['ours_cpu']:.2f} s | {r['ours_rss_together']:.0f} MB together ({r['ours_rss']:.0f} summed peaks) |",
        f"| `xpk cluster create --tpu-type v6e-4x4 --flex --dry-run` | {r['theirs_wall']:.2f} s | {r['theirs_cpu']:.2f} s | {r['theirs_rss']:.0f} MB |",
        f"| **gkecap/xpk**, pair by pair | **{r['wall_ratio']:.2f}x** | **{r['cpu_ratio']:.2f}x** | |",
    ])


def report(sizes: list[dict[str, Any]]) -> str:
    lines = [
        "| teams | resources | whole command | floor | **whole/floor** | CPU whole/floor | peak RSS whole: together (summed peaks, pack's) | floor RSS | **memory whole/floor** (summed) | whole ms/resource | CPU ms/resource whole (floor) |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for s in sizes:
        lines.append(
            f"| {s['teams']:,} | {s['resources']:,} | {s['whole']:.2f} s | {s['floor']:.2f} s | **{s['ratio']:.2f}x** | {s['cpu_ratio']:.2f}x "
            f"| {s['whole_rss_together']:.0f} MB ({s['whole_rss']:.0f}, {s['whole_rss_pack']:.0f}) | {s['floor_rss']:.0f} MB "
            f"| **{s['memory_ratio']:.2f}x** ({s['summed_memory_ratio']:.2f}x) "
            f"| {1000 * s['whole'] / s['resources']:.2f} | {1000 * s['whole_cpu'] / s['resources']:.2f} ({1000 * s['floor_cpu'] / s['resources']:.2f}) |"
        )
    return "\n".join(lines)


def pack_line() -> str:
    """How many rules the pack serves, read from its registry (and how it serves them)."""
    from gkecap.policies.registry import ALL_POLICIES
    from gkecap.policies.rule_runner import PolicyDeclaration, pack_policies

    served = pack_policies(ALL_POLICIES)
    kinds = [type(p).__name__ for p in ALL_POLICIES]
    runners = [p.name for p in served if not isinstance(p, PolicyDeclaration) and p not in ALL_POLICIES]
    return (f"policy pack: {kinds.count('ResourceValidationPolicy')} resource rules and {kinds.count('StackValidationPolicy')} "
            f"stack rules (gkecap.policies.registry), run by {', '.join(runners) or 'themselves'}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The whole gkecap plan against its floor (cold processes, alternated).")
    parser.add_argument("--sizes", type=int, nargs="*", default=[100, 300])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path, default=None, help="also write the raw results here")
    parser.add_argument("--xpk", type=int, default=0, help="also time one slice against xpk's dry-run, this many times")
    parser.add_argument("--pack-in-process", action="store_true",
                        help="time `gkecap plan --pack-in-process` (the bundled pack in gkecap's process) instead of the default")
    parser.add_argument("--outputs", action="store_true",
                        help="time `gkecap plan --out DIR` (text, and every file: plan.json, report.html with charts, "
                        "manifests/, workloads/, vertex/) instead of `--format json` (which writes no file)")
    parser.add_argument("--record", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--floor", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.record:
        print(record(Path(args.record[0]), Path(args.record[1])))
        return 0
    if args.floor:
        floor_main(args.floor)
        return 0
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.2f}", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="gkecap-whole-") as tmp:
        extra = (["--pack-in-process"] if args.pack_in_process else []) + (["--out"] if args.outputs else [])
        sizes = [bench_size(n, args.repeat, Path(tmp), extra) for n in args.sizes]
        one_slice = bench_one_slice(args.xpk, Path(tmp), extra) if args.xpk else None
    if args.json:
        args.json.write_text(json.dumps({"sizes": sizes, "one_slice": one_slice, "load_average": os.getloadavg()}, indent=1))
    print(pack_line() + (", in gkecap's process (--pack-in-process)" if args.pack_in_process else ", over gRPC in its own process")
          + ("; text output and every file written (--outputs)" if args.outputs else "; --format json"))
    if sizes:
        print(report(sizes))
    if one_slice:
        print(report_one_slice(one_slice))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
